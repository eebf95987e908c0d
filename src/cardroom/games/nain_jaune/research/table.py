"""What the research environments share: building the rules and dealing a one-round table."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardroom.games.errors import RulesError
from cardroom.games.nain_jaune.engine import Round
from cardroom.games.nain_jaune.rules import MAX_PLAYERS, MIN_PLAYERS, Rules


def make_rules(preset: str | None = None, options: Mapping[str, Any] | None = None) -> Rules:
    """Rules from a preset name (default ``classic``) and ``key=value`` options overriding it."""
    return Rules.from_options(preset, options or {})


def check_players(players: int) -> int:
    """``players`` as an int, or a :class:`RulesError` saying what is allowed."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError(f"players={players!r}: Nain Jaune is played by 2 to 8 players")
    return players


def check_dealer(dealer: int | None, players: int) -> int | None:
    """``dealer`` if it is a seat (or None: drawn at each reset)."""
    if dealer is not None and not (isinstance(dealer, int) and 0 <= dealer < players):
        raise RulesError(f"dealer={dealer!r} is not a seat: use 0..{players - 1} or None")
    return dealer


def deal_round(rules: Rules, players: int, dealer: int | None, rng: random.Random) -> Round:
    """A fresh round: everyone has ``starting_chips``, the board is empty, the deal is ``rng``'s.

    With ``dealer=None`` the dealer is drawn from ``rng`` first.
    """
    seat = rng.randrange(players) if dealer is None else dealer
    return Round.deal(rules, [rules.starting_chips] * players, [0] * 5, seat, rng)


def chips_won(rnd: Round, seat: int) -> int:
    """Chips after settling minus chips before the stakes (0 while the round goes on)."""
    if rnd.result is None:
        return 0
    return rnd.result.chips[seat] - rnd.chips_before[seat]
