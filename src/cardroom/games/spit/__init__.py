"""Spit: the real-time game of seed 004 (rules, engine, per-seat views, record header)."""

from cardroom.games.spit.engine import (
    CALL_SPIT,
    Action,
    CallSpit,
    Choose,
    Event,
    Move,
    Play,
    Slap,
    SpitGame,
    TurnUp,
    action_from_json,
    action_to_json,
    lay_out,
)
from cardroom.games.spit.match import SpitMatch
from cardroom.games.spit.record import RecordError, game_from_header, record_header
from cardroom.games.spit.rules import RulesError, SpitRules
from cardroom.games.spit.view import SpitView, view_of

__all__ = [
    "CALL_SPIT",
    "Action",
    "CallSpit",
    "Choose",
    "Event",
    "Move",
    "Play",
    "RecordError",
    "RulesError",
    "Slap",
    "SpitGame",
    "SpitMatch",
    "SpitRules",
    "SpitView",
    "TurnUp",
    "action_from_json",
    "action_to_json",
    "game_from_header",
    "lay_out",
    "record_header",
    "view_of",
]
