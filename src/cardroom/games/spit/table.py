"""Spit's own part of a real-time table (the registry's ``table_parts`` piece, read by
:mod:`cardroom.tables.realtime`): a match of games won (the table's ``games``), each seat's
stock and spit piles in a frame, and the record of a match's game (each stands alone)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.cards import Card
from cardroom.games.realtime_engine import SEATS
from cardroom.games.spit.engine import SpitGame
from cardroom.games.spit.match import SpitMatch
from cardroom.games.spit.record import record_header as game_header
from cardroom.games.spit.rules import SpitRules
from cardroom.games.spit.view import SpitView

UNNAMED_VERSION: int | None = None
"""The rules version of a table whose log names none (logged before the field came): today's,
Spit's rules having changed before web tables existed."""


def check_games(games: int) -> None:
    """A Spit table may ask for a match of ``games`` games won (the table bounds the number)."""


def check_rules(rules: SpitRules, rules_version: int) -> None:
    """Every version of Spit's rules is played at a table."""


def new_match(
    rules: SpitRules, seed: int, games: int, rules_version: int | None
) -> SpitMatch | None:
    """A match until a player has won ``games`` games (None: a single game)."""
    return SpitMatch(rules, seed, games, rules_version) if games > 1 else None


def match_frame(match: SpitMatch) -> dict[str, Any]:
    """A frame's match counts games won, to the match's number of wins."""
    return {"unit": "games", "target": match.wins}


def _card(card: Card | None) -> str | None:
    return card.code if card is not None else None


def view_frame(view: SpitView, seat: int | None) -> dict[str, Any]:
    """Spit's fields of a ``table_view`` (the same for a seat and a spectator): each seat's
    stock piles (the face-up top card or null, the pile's size), its spit cards left, the open
    centre piles, and the slap and choice after a stock is cleared."""
    by_seat = {view.seat: view.stock, 1 - view.seat: view.opponent_stock}
    spit = {view.seat: view.spit_left, 1 - view.seat: view.opponent_spit_left}
    return {
        "stocks": [[[_card(top), n] for top, n in by_seat[s]] for s in SEATS],
        "spit_left": [spit[s] for s in SEATS],
        "open_piles": list(view.open_piles),
        "one_pile": view.one_pile,
        "chooser": view.chooser,
        "redeals": view.redeals,
    }


def record_header(
    engine: SpitGame, players: Sequence[str], match: SpitMatch | None = None
) -> dict[str, Any]:
    """The header of a game's record: a game of a match is recorded as a game on its own."""
    return game_header(engine, players)
