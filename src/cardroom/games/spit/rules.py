"""The options of Spit (the rules: ``docs/games/spit.md``).

Every option is one named field of :class:`SpitRules`. ``SpitRules.from_options`` reads the
``key=value`` strings of the command line; ``to_json`` / ``from_json`` are a record's ``rules``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

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

MAX_COUNTDOWN = 600
"""The longest countdown, in seconds."""

SlapRule = Literal["race", "chooser"]

__all__ = [
    "RENEWED_COUNTDOWN_FROM",
    "RULES_VERSION",
    "RulesError",
    "SlapRule",
    "SpitRules",
    "layout_size",
]

RULES_VERSION = 2
"""The version of Spit's rules this code plays (a record says which one it was played under).

1. Until commit a6487c5 (23 Nov 2026, 10:43): when a new stalemate followed at once a "Spit!"
   both players had called, its countdown went on from the earlier stalemate instead of
   starting again (the arbiter's rule, shared with Speed).
2. Since: every stalemate has its own countdown.
"""
RENEWED_COUNTDOWN_FROM = 2
"""The first version whose countdown starts again after a "Spit!" both players called."""


SOURCES: dict[str, str] = {"welsh": N_("the Welsh text on Spit and Speed"), **COMMON_SOURCES}
"""Where a rule of Spit comes from, by the short name :data:`OPTIONS` uses."""

OPTIONS: tuple[Option, ...] = (
    Option(
        "piles",
        N_("Stock piles"),
        (
            Choice("5", N_("five piles of 1 to 5 cards"), ("welsh",)),
            Choice("4", N_("four piles of 1 to 4 cards"), ("welsh",)),
        ),
    ),
    Option(
        "slap",
        N_("A new layout"),
        (
            Choice(
                "race",
                N_("both slap the middle pile they want: the quicker hand chooses"),
                ("welsh",),
            ),
            Choice(
                "chooser", N_("the one who cleared their stock chooses a middle pile"), ("welsh",)
            ),
        ),
    ),
    Option(
        "alternate_colours",
        N_("Colours on the middle piles"),
        (
            Choice("false", N_("any colour on any colour"), ("welsh",)),
            Choice("true", N_("red and black must alternate"), ("welsh",)),
        ),
    ),
)
"""The options a table picks from a list, with their words and sources, the usual value first
(the countdown is a number)."""


_PILES = Message("rules.how.piles", "use 5 or 4 (stock piles)")
_SLAP = Message(
    "rules.how.choose",
    "choose race or chooser",
    game="spit",
    option="slap",
    choices=("race", "chooser"),
)


def layout_size(piles: int) -> int:
    """Cards in a full layout of ``piles`` stock piles of 1, 2, … cards: 15 for 5, 10 for 4."""
    return piles * (piles + 1) // 2


@dataclass(frozen=True, slots=True)
class SpitRules:
    """Every option of Spit. The defaults are the main text of seed 004."""

    piles: int = 5
    """Stock piles in a layout: 5 (1-2-3-4-5 cards) or 4 (the variant 1-2-3-4)."""
    slap: SlapRule = "race"
    """How a new layout's centre piles are shared: ``race`` (slap) or ``chooser`` (variant)."""
    alternate_colours: bool = False
    """Variant: a card played on a centre pile must be of the other colour to its top card."""
    countdown: float = 3.0
    """Table option: seconds before the start / a stalemate is resolved without both calls
    (0 = only when both players call "Spit!")."""

    def __post_init__(self) -> None:
        if isinstance(self.piles, bool) or self.piles not in (4, 5):
            raise RulesError(not_valid("spit", "piles", self.piles, _PILES))
        if self.slap not in ("race", "chooser"):
            raise RulesError(not_valid("spit", "slap", self.slap, _SLAP))
        if not isinstance(self.alternate_colours, bool):
            raise RulesError(
                not_valid("spit", "alternate_colours", self.alternate_colours, TRUE_OR_FALSE)
            )
        c = self.countdown
        if (
            isinstance(c, bool)
            or not isinstance(c, (int, float))
            or not math.isfinite(c)
            or not 0 <= c <= MAX_COUNTDOWN
        ):
            how = Message(
                "rules.how.seconds",
                f"use a number of seconds from 0 to {MAX_COUNTDOWN} (0 = only when both call)",
                n=MAX_COUNTDOWN,
            )
            raise RulesError(not_valid("spit", "countdown", c, how))

    @property
    def layout(self) -> int:
        """Cards in a full layout (15, or 10 with four piles)."""
        return layout_size(self.piles)

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None) -> SpitRules:
        """Rules with some options set; values may be strings (``piles="4"``)."""
        said = "unknown Spit option {typed}: the options are {options}"
        known = {f.name for f in fields(cls)}
        return cls(**named_options("spit", options or {}, known, said, _convert))

    @classmethod
    def from_json(cls, data: Any) -> SpitRules:
        """Rules from a record's ``rules`` object (missing options take their defaults)."""
        return cls.from_options(options_object(data))

    def to_json(self) -> dict[str, Any]:
        """Every option as JSON-ready values (a record's ``rules`` object)."""
        return asdict(self)


def _convert(name: str, value: Any) -> Any:
    if name == "piles":
        if isinstance(value, bool):
            return value
        try:
            return int(value)
        except (TypeError, ValueError, OverflowError):
            raise RulesError(not_valid("spit", "piles", value, _PILES)) from None
    if name == "alternate_colours":
        return parse_flag(name, value, "spit")
    if name == "countdown":
        if isinstance(value, (bool, int, float)):
            return value
        try:
            return float(value)
        except (TypeError, ValueError):
            how = Message("rules.how.seconds-any", "use a number of seconds, 0 or more")
            raise RulesError(not_valid("spit", "countdown", value, how)) from None
    if name == "slap":
        return str(value).strip().lower()
    return value
