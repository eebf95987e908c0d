"""What a table is made of: its seats, rules, seed and delays, and the service's error type."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, cast

from cardroom.games.errors import RulesError
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, unreachable_target
from cardroom.games.options import players_error

SeatKind = Literal["person", "bot"]
LEVEL_NAMES = ("easy", "medium", "hard", "expert")
ErrorCode = Literal[
    "not-found",
    "forbidden",
    "illegal",
    "stale",
    "bad-request",
    "not-your-turn",
    "over",
    "not-started",
    "unavailable",
    "paused",
]


class TableError(ValueError):
    """A request the table refuses; nothing changed. ``code`` says why in one word."""

    def __init__(self, code: ErrorCode, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.reason = reason
        """A Spit or Speed engine's own reason (``message`` is it in English words), so that
        it can be told in another language."""


ALREADY_STARTED = Message("table.started", "the table has already started")
REMATCH_ONCE = Message("table.rematch-once", "a rematch is offered once, after the game")
TOKEN_FOR_PERSON = Message("table.token-person", "a seat token is for a person's seat")
NOT_CREATED = Message("table.not-created", "this table has not been created")
ROUND_NOT_OVER = Message("table.round-not-over", "the round is not over")
BUSY = Message("table.busy", "the table is very busy: try again")
UNAVAILABLE = Message(
    "table.unavailable",
    "the database is not answering: nothing was changed, try again in a moment",
)
IS_REALTIME = Message("table.is-realtime", "this is a Spit or Speed table")
NOT_REALTIME = Message("table.not-realtime", "this is not a Spit or Speed table")
NAIN_JAUNE_ACTION = Message(
    "table.nain-jaune-action", 'at a Nain Jaune table an action is a card, "pass" or "claim"'
)
REALTIME_ACTION = Message(
    "table.realtime-action", "at a Spit or Speed table an action is an object"
)
NO_LOG = Message("table.no-log", "a Nain Jaune table has no log to page through")
NO_ROUNDS = Message("table.no-rounds", "a Spit or Speed table has no rounds")
LEFT_BY_CLOSING = Message(
    "table.left-by-closing", "a Spit or Speed table is left by closing the page"
)
REMATCH_NOT_OVER = Message("table.rematch-not-over", "a rematch is offered once the game is over")
REMATCH_PLAYERS = Message("table.rematch-players", "only the players can ask for a rematch")
PLAYERS_ONLY = Message("table.players-only", "only the players at this table can do that")
REMATCH_BUSY = Message("table.rematch-busy", "the table is busy: ask for the rematch again")
NO_LEVEL = Message("table.no-level", "a person's seat has no level")
CREATOR_STARTS = Message("table.creator-starts", "only the table's creator can start it")
MOVED_ON = Message(
    "table.moved-on", "the table moved on since you looked: look again and choose once more"
)
YOU_LEFT = Message("table.you-left", "you left this table: a bot plays your seat")
HINTS_NAIN_JAUNE = Message("table.hints-nain-jaune", "hints are offered at Nain Jaune tables only")
HINTS_OFF = Message("table.hints-off", "hints are off at this table")
HINT_MOVED_ON = Message("table.hint-moved-on", "the table moved on since you looked: ask again")
HINT_NOT_YOUR_TURN = Message("table.hint-not-your-turn", "no hint: it is not your turn")
HINTS_BUSY = Message("table.hints-busy", "many players are asking for hints: ask again in a moment")
WATCH_ONLY = Message("table.watch-only", "this is not a person's seat")
RECORD_NOT_OVER = Message("table.record-not-over", "the record is published when the game is over")
BOT_PLAYS_SEAT = Message("table.bot-plays-seat", "a bot plays this seat")
NOT_STARTED_YET = Message("table.not-started-yet", "the game has not started yet: wait for it")
GAME_OVER = Message("table.game-over", "the game is over")
"""Refusals of both kinds of table (each a message with an id: see ``i18n/messages.py``)."""


def table_exists(table_id: str) -> Message:
    """The refusal to create a table whose id is taken."""
    return Message("table.exists", f"table {table_id} exists already", table=table_id)


def cannot_rebuild(table_id: str, detail: str) -> Message:
    """The refusal to open a table whose log cannot be replayed (``detail``, English, is for
    the server's log: the person is told the table cannot be rebuilt)."""
    return Message(
        "table.cannot-rebuild", f"table {table_id} cannot be rebuilt: {detail}", table=table_id
    )


def bad_level(level: str) -> Message:
    """The refusal of a table whose bots' level names no bot."""
    return Message("table.bad-level", f"there is no bot level {level!r}", level=level)


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat as created: a person (named when they join) or a bot of a level or bot spec."""

    kind: SeatKind
    level: str | None = None
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (part of the ``created`` entry)."""
        return {"kind": self.kind, "level": self.level, "name": self.name}

    @classmethod
    def from_json(cls, data: Any) -> SeatSpec:
        """Read :meth:`to_json`'s form."""
        if not isinstance(data, dict) or data.get("kind") not in ("person", "bot"):
            said = "a seat is {kind: person|bot, level, name}"
            raise TableError("bad-request", Message("table.seat-shape", said))
        return cls(cast(SeatKind, data["kind"]), data.get("level"), data.get("name"))


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


@dataclass(frozen=True, slots=True)
class Created:
    """What :meth:`TableService.create` hands back: the id and the secret seat tokens."""

    table_id: str
    creator_token: str
    """Secret; the creator's seat (0)."""
    invites: dict[int, str]
    """Game seat -> secret seat token, for every other person seat."""
