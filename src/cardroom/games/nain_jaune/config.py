"""A Nain Jaune table's configuration: everything fixed when the table is created."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardroom.games.errors import RulesError
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, unreachable_target
from cardroom.games.options import players_error
from cardroom.games.table import SeatSpec, TableError

__all__ = ["TableConfig"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableConfig:
    """Everything fixed when a table is created."""

    game: str = "nain-jaune"
    rules: Rules
    seats: tuple[SeatSpec, ...]
    """2..8 seats; seat 0 is the creator's and must be a person."""
    seed: int
    title: str = ""
    public: bool = True
    """Listed in the lobby's open tables."""
    level: str = "medium"
    """The level of the bots that fill empty seats and play for absent persons."""
    takeover_after: float = 60.0
    """Seconds a person may be away before a bot plays for them (0 = never)."""
    bot_delay: float = 0.8
    """Seconds a bot waits before it acts (0 in tests)."""
    next_round_after: float = 20.0
    """Seconds after a round before the next one starts anyway."""
    hints: bool = False
    """Players may ask the expert bot for a suggestion for their own move (off in rated games)."""
    learning: bool = False
    """A learning table: hints on, and the page explains every event and refusal in a sentence
    (a log without it reads as off)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Free-form data kept with the table (e.g. the terminal's bot specs)."""

    def __post_init__(self) -> None:
        if self.game != "nain-jaune":
            raise TableError(
                "bad-request",
                Message(
                    "table.only-nain-jaune",
                    f"unknown game {self.game!r}: only nain-jaune",
                    game=self.game,
                ),
            )
        if not MIN_PLAYERS <= len(self.seats) <= MAX_PLAYERS:
            said = players_error("nain-jaune", len(self.seats), MIN_PLAYERS, MAX_PLAYERS)
            raise TableError("bad-request", said)
        if self.seats[0].kind != "person":
            seat_0 = "seat 0 is the creator's: it must be a person"
            raise TableError("bad-request", Message("table.seat-0", seat_0))
        unreachable = unreachable_target(self.rules, self.rules.starting_chips * len(self.seats))
        if unreachable is not None:  # refused now, not when the first round is dealt
            raise TableError("bad-request", unreachable)
        for delay in (self.takeover_after, self.bot_delay, self.next_round_after):
            if not delay >= 0:
                delays = "delays are seconds, zero or more"
                raise TableError("bad-request", Message("table.delays", delays))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (the ``created`` entry's ``config``)."""
        return {
            "game": self.game,
            "rules": self.rules.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "seed": self.seed,
            "title": self.title,
            "public": self.public,
            "level": self.level,
            "takeover_after": self.takeover_after,
            "bot_delay": self.bot_delay,
            "next_round_after": self.next_round_after,
            "hints": self.hints,
            "learning": self.learning,
            "extra": dict(self.extra),
        }

    @classmethod
    def from_json(cls, data: Any) -> TableConfig:
        """Read :meth:`to_json`'s form; raises :class:`TableError` (``bad-request``)."""
        if not isinstance(data, dict):
            said = "a table config is a JSON object"
            raise TableError("bad-request", Message("table.config-object", said))
        try:
            return cls(
                game=str(data.get("game", "nain-jaune")),
                rules=Rules.from_json(data.get("rules")),
                seats=tuple(SeatSpec.from_json(s) for s in data["seats"]),
                seed=int(data["seed"]),
                title=str(data.get("title", "")),
                public=bool(data.get("public", True)),
                level=str(data.get("level", "medium")),
                takeover_after=float(data.get("takeover_after", 60.0)),
                bot_delay=float(data.get("bot_delay", 0.8)),
                next_round_after=float(data.get("next_round_after", 20.0)),
                hints=data.get("hints", False) is True,
                learning=data.get("learning", False) is True,
                extra=dict(data.get("extra") or {}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, TableError):
                raise
            if isinstance(exc, RulesError):
                raise TableError("bad-request", exc.message) from None
            said = f"bad table config: {exc}"
            raise TableError("bad-request", Message("table.bad-config", said)) from None
