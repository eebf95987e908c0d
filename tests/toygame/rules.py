"""The toy game's rules: one option, the hand size."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardroom.games.errors import RulesError

RULES_VERSION = 1
MAX_HAND = 26


@dataclass(frozen=True, slots=True)
class ToyRules:
    """``hand``: cards dealt to each player (1 to 26)."""

    hand: int = 5

    def __post_init__(self) -> None:
        if not isinstance(self.hand, int) or not 1 <= self.hand <= MAX_HAND:
            raise RulesError(f"hand must be a whole number from 1 to {MAX_HAND}, not {self.hand!r}")

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> ToyRules:
        """Rules from ``key=value`` options (values may be text)."""
        unknown = set(options) - {"hand"}
        if unknown:
            raise RulesError(f"unknown option {sorted(unknown)[0]!r}: the option is hand")
        hand = options.get("hand", 5)
        try:
            return cls(hand=int(hand))
        except (TypeError, ValueError):
            raise RulesError(f"hand must be a whole number, not {hand!r}") from None

    def to_json(self) -> dict[str, Any]:
        """The rules as JSON."""
        return {"hand": self.hand}

    @classmethod
    def from_json(cls, data: Any) -> ToyRules:
        """Read :meth:`to_json`'s form (a table's ``created`` entry keeps the rules so)."""
        if not isinstance(data, dict):
            raise RulesError("the rules are a JSON object")
        return cls.from_options(data)
