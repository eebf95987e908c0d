"""The header of a Spit record: rules, players, seed and deal (the arbiter adds the actions).

``{"game": "spit", "version": {"format": 2, "rules": 2}, "rules": {...}, "players": ["Ann",
"Bob"], "seed": 7, "deal": [52 codes]}`` (``version`` since format 2: see
:mod:`cardroom.games.records`);
:func:`game_from_header` rebuilds the game as dealt, checking every field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardroom.games.errors import RecordError
from cardroom.games.messages import Message
from cardroom.games.options import players_error
from cardroom.games.realtime_engine import read_header
from cardroom.games.records import read_version, written_version
from cardroom.games.spit.engine import SpitGame
from cardroom.games.spit.rules import RULES_VERSION, SpitRules

__all__ = ["RecordError", "game_from_header", "record_header", "rules_versions"]


def record_header(game: SpitGame, players: Sequence[str]) -> dict[str, Any]:
    """The record header of ``game`` played by ``players`` (seat 0 first)."""
    if len(players) != 2:
        raise RecordError(players_error("spit", len(players), 2, 2))
    return {
        "game": "spit",
        "version": written_version(RULES_VERSION),
        "rules": game.rules.to_json(),
        "players": list(players),
        "seed": game.seed,
        "deal": [c.code for c in game.deal],
    }


def game_from_header(data: Any, rules_version: int | None = None) -> SpitGame:
    """The game as dealt from a record header, under ``rules_version`` (None: the latest the
    record may have been played under); raise :class:`RecordError` naming the problem."""
    rules, _, seed, deal = read_header(data, "spit", SpitRules.from_json)
    version = rules_versions(data)[0] if rules_version is None else rules_version
    return SpitGame(rules, deal, seed, version)


def rules_versions(data: Any) -> list[int]:
    """The versions of the rules a record may have been played under, latest first: the one
    it names, or for a record written before records carried one, 2 or 1 (told apart by
    replaying: only the countdown after a "Spit!" both called differs)."""
    if not isinstance(data, Mapping):
        raise RecordError(Message("rec.spit.not-object", "a Spit record must be a JSON object"))
    version = read_version(data, "Spit", RULES_VERSION, RULES_VERSION)
    return [version.rules] if version.format > 1 else list(range(RULES_VERSION, 0, -1))
