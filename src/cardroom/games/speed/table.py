"""Speed's own part of a real-time table (the registry's ``table_parts`` piece, read by
:mod:`cardroom.tables.realtime`): a match to a target score (the rules' ``target``), the
sizes of the piles and a seat's own hand in a frame, and a match's place in each record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.games.speed.engine import SpeedGame, SpeedMatch
from cardroom.games.speed.record import record_header as game_header
from cardroom.games.speed.rules import SpeedRules
from cardroom.games.speed.view import SpeedView

UNNAMED_VERSION: int | None = 3
"""The rules version of a table whose log names none (logged before the field came): tables
were first logged under version 3; Speed's rules changed since (version 4)."""

TARGET_SINCE = 3
"""The first version of the rules with a match to a target score."""


def check_games(games: int) -> None:
    """A Speed table plays one game or a match to a target score, never a match of games."""
    if games > 1:
        raise ValueError("a Speed match is played to a target score")


def check_rules(rules: SpeedRules, rules_version: int) -> None:
    """A match to a target is played under rules of version :data:`TARGET_SINCE` or later."""
    if rules.target > 0 and rules_version < TARGET_SINCE:
        raise ValueError(f"a Speed match is played under rules of version {TARGET_SINCE} or later")


def new_match(
    rules: SpeedRules, seed: int, games: int, rules_version: int | None
) -> SpeedMatch | None:
    """A match to ``rules.target`` points (None: the target is 0, a single game)."""
    return SpeedMatch(rules, seed, rules_version) if rules.target > 0 else None


def match_frame(match: SpeedMatch) -> dict[str, Any]:
    """A frame's match counts points, to the rules' target."""
    return {"unit": "points", "target": match.rules.target}


def view_frame(view: SpeedView, seat: int | None) -> dict[str, Any]:
    """Speed's fields of a ``table_view``: the sizes of the side piles, hands and draw piles,
    the middle cards still face down, the flips and points, and (for a seat, never for a
    spectator) the seat's own hand."""
    out: dict[str, Any] = {
        "side_sizes": list(view.side_sizes),
        "hand_sizes": list(view.hand_sizes),
        "draw_sizes": list(view.draw_sizes),
        "middle_down": view.middle_down,
        "flips": view.flips,
        "blocked": view.blocked,
        "points": view.points,
    }
    if seat is not None:
        out["hand"] = [c.code for c in view.hand]
    return out


def record_header(
    engine: SpeedGame, players: Sequence[str], match: SpeedMatch | None = None
) -> dict[str, Any]:
    """The header of a game's record, with its place in ``match``."""
    return game_header(engine, players, match)
