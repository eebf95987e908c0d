"""Nain Jaune (Yellow Dwarf): rules, engine, per-seat views and records."""

from cardroom.games.errors import RulesError
from cardroom.games.nain_jaune.engine import (
    CLAIM,
    PASS,
    Action,
    Claim,
    Event,
    Game,
    GameOver,
    GameResult,
    IllegalAction,
    Pass,
    Play,
    Round,
    RoundResult,
    deal_hands,
    round_record,
)
from cardroom.games.nain_jaune.rules import PRESETS, EndCondition, Rules
from cardroom.games.nain_jaune.view import RoundView, view_of

__all__ = [
    "CLAIM",
    "PASS",
    "PRESETS",
    "Action",
    "Claim",
    "EndCondition",
    "Event",
    "Game",
    "GameOver",
    "GameResult",
    "IllegalAction",
    "Pass",
    "Play",
    "Round",
    "RoundResult",
    "RoundView",
    "Rules",
    "RulesError",
    "deal_hands",
    "round_record",
    "view_of",
]
