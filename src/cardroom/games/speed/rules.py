"""The options of Speed (seed 004, "Cyflymder") and the table options the arbiter needs.

Every option is one named field of :class:`SpeedRules`. ``SpeedRules.from_options`` reads the
``key=value`` strings of the command line; ``from_json`` reads a record's ``rules`` object.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from cardroom.games.errors import RulesError
from cardroom.games.messages import Message
from cardroom.games.options import (
    N_,
    TRUE_OR_FALSE,
    Choice,
    Option,
    named_options,
    not_valid,
    options_object,
    parse_flag,
)
from cardroom.games.options import SOURCES as COMMON_SOURCES
from cardroom.games.records import brief

__all__ = [
    "FLIP_CALLED_FROM",
    "HAND_SIZE",
    "RENEWED_COUNTDOWN_FROM",
    "RULES_VERSION",
    "SIDE_PILE_SIZES",
    "RulesError",
    "SpeedRules",
]

RULES_VERSION = 4
"""The version of Speed's rules this code plays (a record says which one it was played under).

1. Until commit a6487c5 (23 Nov 2026, 10:43): as version 2, and when a new stalemate followed
   at once a flip both players had called, its countdown went on from the earlier stalemate
   instead of starting again (the arbiter's rule, shared with Spit).
2. Until commit 4bfc9fe (23 Nov 2026, 14:49): the flip was due as soon as neither player could
   play (a fact of the hidden hands), either player could then call for it and its countdown
   ran from that moment; a game nobody could ever finish ended as soon as it was so; the
   winner scored the cards left in the loser's hand and draw pile.
3. Since: a player calls for the flip only when he cannot play, a card played clears the
   calls, the countdown runs from the first call, a blocked game ends at a flip, and the
   winner scores the loser's draw pile (``score_hand`` for the hand too). See
   ``docs/games/speed.md``, decision 4.
4. Since 28 Nov 2026: as 3, and when the loser's draw pile is empty the winner scores the
   cards left in his hand instead, so that every game won scores and a match to a target
   always ends (``docs/games/speed.md``, decision 9).
"""
RENEWED_COUNTDOWN_FROM = 2
"""The first version whose countdown starts again after a flip both players called."""
FLIP_CALLED_FROM = 3
"""The first version where the flip is called by a player who cannot play (decision 4)."""
HAND_WHEN_NO_DRAW_FROM = 4
"""The first version where a win over an empty draw pile scores the loser's hand (decision 9)."""

HAND_SIZE = 5
"""Cards a player holds while his draw pile lasts."""
SIDE_PILE_SIZES = (10, 5)
MAX_COUNTDOWN = 600
"""The longest countdown, in seconds."""
MAX_TARGET = 10_000
"""The highest match target (a game scores at most 40 points)."""
"""The seed's deal (side piles of 10, 15 cards each) and its variant (piles of 5, 20 each)."""


SOURCES: dict[str, str] = {"welsh": N_("the Welsh text on Spit and Speed"), **COMMON_SOURCES}
"""Where a rule of Speed comes from, by the short name :data:`OPTIONS` uses."""

OPTIONS: tuple[Option, ...] = (
    Option(
        "side_piles",
        N_("Side piles"),
        (
            Choice("10", N_("ten cards each, fifteen to play for each player"), ("welsh",)),
            Choice("5", N_("five cards each, twenty to play for each player"), ("welsh",)),
        ),
    ),
    Option(
        "score_hand",
        N_("The winner scores"),
        (
            Choice("false", N_("a point for each card left in the loser’s draw pile"), ("welsh",)),
            Choice(
                "true",
                N_("a point for each card the loser still holds, hand and draw pile"),
                ("house",),
            ),
        ),
    ),
)
"""The options a table picks from a list, with their words and sources, the usual value first
(the countdown and the target are numbers)."""


@dataclass(frozen=True, slots=True)
class SpeedRules:
    """Every option of Speed. The defaults are the seed's main deal, a single game."""

    side_piles: int = 10
    """Cards in each of the two face-down side piles: 10 (15 cards each) or 5 (20 each)."""
    countdown: float = 3.0
    """Seconds before the arbiter turns the middle cards / flips the side piles without both
    calls (a table option); 0 = only when both players call."""
    target: int = 0
    """Score that wins a match (the winner of a game scores one point per card left in the
    loser's draw pile); 0 = a single game."""
    score_hand: bool = False
    """True: the winner also scores the cards in the loser's hand (a house rule; the seed counts
    the stock, i.e. draw pile, only)."""

    def __post_init__(self) -> None:
        if (
            isinstance(self.side_piles, bool)
            or not isinstance(self.side_piles, int)
            or self.side_piles not in SIDE_PILE_SIZES
        ):
            how = Message("rules.how.side-piles", "use 10 (15 cards each) or 5 (20 cards each)")
            raise RulesError(not_valid("speed", "side_piles", self.side_piles, how))
        if (
            isinstance(self.countdown, bool)
            or not isinstance(self.countdown, (int, float))
            or not math.isfinite(self.countdown)
            or not 0 <= self.countdown <= MAX_COUNTDOWN
        ):
            how = Message(
                "rules.how.flip-seconds",
                f"give seconds (0 to {MAX_COUNTDOWN}; 0 = flip only when both players call)",
                n=MAX_COUNTDOWN,
            )
            raise RulesError(not_valid("speed", "countdown", self.countdown, how))
        if (
            isinstance(self.target, bool)
            or not isinstance(self.target, int)
            or not 0 <= self.target <= MAX_TARGET
        ):
            how = Message(
                "rules.how.target",
                f"give a whole number of points from 0 to {MAX_TARGET:,} (0 = a single game)",
                most=MAX_TARGET,
            )
            raise RulesError(not_valid("speed", "target", self.target, how))
        if not isinstance(self.score_hand, bool):
            raise RulesError(not_valid("speed", "score_hand", self.score_hand, TRUE_OR_FALSE))

    @property
    def draw_pile(self) -> int:
        """Cards dealt to each player: 15 with side piles of 10, 20 with side piles of 5."""
        return (52 - 2 - 2 * self.side_piles) // 2

    @property
    def is_match(self) -> bool:
        """True when games are played to a target score."""
        return self.target > 0

    def with_options(self, options: Mapping[str, Any]) -> SpeedRules:
        """A copy with some options changed; values may be strings (``side_piles="5"``)."""
        said = "unknown option {typed}: the Speed options are {options}"
        known = {f.name for f in fields(SpeedRules)}
        return replace(self, **named_options("speed", options, known, said, _convert))

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None) -> SpeedRules:
        """Rules from ``key=value`` options (strings or JSON values) over the defaults."""
        return cls().with_options(options or {})

    @classmethod
    def from_json(cls, data: Any) -> SpeedRules:
        """Rules from a record's ``rules`` object (missing options take their defaults)."""
        return cls.from_options(options_object(data))

    def to_json(self) -> dict[str, Any]:
        """Every option as JSON-ready values (a record's ``rules`` object)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _convert(name: str, value: Any) -> Any:
    if name in ("side_piles", "target"):
        if isinstance(value, bool):
            return value  # rejected with the right message by __post_init__
        if isinstance(value, int):
            return value
        try:
            return int(str(value).strip())
        except ValueError:
            raise RulesError(
                Message(
                    "rules.whole-number",
                    f"{name}={brief(value)} must be a whole number",
                    game="speed",
                    option=name,
                    value=brief(value),
                )
            ) from None
    if name == "score_hand":
        return parse_flag(name, value, "speed")
    if name == "countdown":
        if isinstance(value, bool):
            return value
        if isinstance(value, (int, float)):
            return float(value)
        try:
            return float(str(value).strip())
        except ValueError:
            raise RulesError(
                Message(
                    "rules.seconds",
                    f"countdown={brief(value)} must be a number of seconds",
                    game="speed",
                    option="countdown",
                    value=brief(value),
                )
            ) from None
    return value
