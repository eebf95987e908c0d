"""Clocks, the arbiter and records for the real-time games (the registry's ``realtime`` kind).

A real-time game has no turns. Each seat's actions carry the time they were made; the
:class:`Arbiter` is the one authority at the table: it applies them one at a time in time order
through the game's engine (:mod:`cardroom.games.realtime_engine`), rejects the ones that are no
longer legal (a play aimed at a pile whose top card changed is *stale*) without changing anything,
keeps the log, and resolves a stalemate (as the game says: a call both players make, a flip of
the side piles) itself once the table's countdown has run out. Time comes from a clock:
:class:`VirtualClock` in simulations and tests (advanced by hand, never sleeping),
:class:`WallClock` in play.

A record is the game's header (``record_header``: rules, players, seed, deal) plus ``start`` and
the log as ``actions``; :func:`replay` plays it again through a fresh engine and checks that every
action is accepted or rejected as it was, and that every countdown ran out when it did.
"""

from cardroom.arbiter.clocks import Clock, VirtualClock, WallClock
from cardroom.arbiter.core import (
    GAME_OVER,
    TIMEOUT,
    Arbiter,
    ArbiterError,
    Entry,
    Outcome,
    RecordError,
    entry_text,
    entry_to_json,
    record_module,
)
from cardroom.arbiter.records import (
    BAD_ENDED,
    EMPTY_MATCH,
    MAX_ACTIONS,
    Replay,
    cards_left,
    replay,
    replay_any,
)

__all__ = [
    "BAD_ENDED",
    "EMPTY_MATCH",
    "GAME_OVER",
    "MAX_ACTIONS",
    "TIMEOUT",
    "Arbiter",
    "ArbiterError",
    "Clock",
    "Entry",
    "Outcome",
    "RecordError",
    "Replay",
    "VirtualClock",
    "WallClock",
    "cards_left",
    "entry_text",
    "entry_to_json",
    "record_module",
    "replay",
    "replay_any",
]
