"""The header of a Spit record: rules, players, seed and deal (the arbiter adds the actions).

``{"game": "spit", "rules": {...}, "players": ["Ann", "Bob"], "seed": 7, "deal": [52 codes]}``;
:func:`game_from_header` rebuilds the game as dealt, checking every field.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.games.nain_jaune.record import RecordError
from cardroom.games.realtime_engine import read_header
from cardroom.games.spit.engine import SpitGame
from cardroom.games.spit.rules import SpitRules

__all__ = ["RecordError", "game_from_header", "record_header"]


def record_header(game: SpitGame, players: Sequence[str]) -> dict[str, Any]:
    """The record header of ``game`` played by ``players`` (seat 0 first)."""
    if len(players) != 2:
        raise RecordError(f"Spit is played by two players, not {len(players)}")
    return {
        "game": "spit",
        "rules": game.rules.to_json(),
        "players": list(players),
        "seed": game.seed,
        "deal": [c.code for c in game.deal],
    }


def game_from_header(data: Any) -> SpitGame:
    """The game as dealt from a record header; raise :class:`RecordError` naming the problem."""
    rules, _, seed, deal = read_header(data, "spit", SpitRules.from_json)
    return SpitGame(rules, deal, seed)
