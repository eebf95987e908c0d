"""What every game's table state machine shares: its error, a seat as created, a log entry,
the refusals every kind of table gives, and what it does with a seat's name and token (a display
name cleaned, a seat token hashed, the only form it is stored in, and a token matched to its seat
in constant time).

A game's table (the registry's ``table`` piece) is a deterministic state machine over log
entries; it lives in the game's folder and imports only this and the rules core. The table
service (``tables/``) runs it, stores its entries (``store/``) and tells its frames.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar, cast

from cardroom.games.errors import RulesError
from cardroom.games.messages import Message

__all__ = [
    "ALREADY_STARTED",
    "NAME_MAX",
    "NOT_CREATED",
    "REMATCH_ONCE",
    "ROUND_NOT_OVER",
    "SEAT_ENTRIES",
    "TOKEN_FOR_PERSON",
    "ErrorCode",
    "LogEntry",
    "SeatKind",
    "SeatSpec",
    "Seats",
    "TableConfig",
    "TableError",
    "check_seat",
    "check_seat_entry",
    "clean_name",
    "hash_token",
    "seat_for_token",
]

SeatKind = Literal["person", "bot"]
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
        """A real-time engine's own reason (``message`` is it in English words), so that it
        can be told in another language."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One accepted change of a table: its position ``seq`` (1, 2, …), kind, data and time."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float


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


R = TypeVar("R")


@dataclass(frozen=True, kw_only=True)  # no slots: a subscripted alias (TableConfig[Rules]) sets
class TableConfig(Generic[R]):  # __orig_class__ on what it makes, which a slotted class refuses
    """Everything fixed when a turn-based table is created (its ``created`` entry's config).

    ``game`` is the game's name in the registry; a config that names none is the first
    turn-based game's, as a log written before tables named their game. The game's rules
    object may refuse a table of that many players (``table_refusal(players)``: a
    :class:`Message`, or None), e.g. a target no table of that size can reach.
    """

    rules: R
    seats: tuple[SeatSpec, ...]
    """The seats (as many as the game allows); seat 0 is the creator's and must be a person."""
    seed: int
    game: str = ""
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
        from cardroom.games import registry
        from cardroom.games.options import players_error

        if not self.game:
            object.__setattr__(self, "game", registry.unnamed())
        entry = turn_based_game(self.game)
        least, most = entry.players
        if not least <= len(self.seats) <= most:
            said = players_error(self.game, len(self.seats), least, most)
            raise TableError("bad-request", said)
        if self.seats[0].kind != "person":
            seat_0 = "seat 0 is the creator's: it must be a person"
            raise TableError("bad-request", Message("table.seat-0", seat_0))
        refusal = getattr(self.rules, "table_refusal", None)
        refused = refusal(len(self.seats)) if callable(refusal) else None
        if isinstance(refused, Message):  # refused now, not when the first round is dealt
            raise TableError("bad-request", refused)
        for delay in (self.takeover_after, self.bot_delay, self.next_round_after):
            if not delay >= 0:
                delays = "delays are seconds, zero or more"
                raise TableError("bad-request", Message("table.delays", delays))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (the ``created`` entry's ``config``)."""
        return {
            "game": self.game,
            "rules": cast(Any, self.rules).to_json(),
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
    def from_json(cls, data: Any) -> TableConfig[Any]:
        """Read :meth:`to_json`'s form (the rules by the game's own rules class); raises
        :class:`TableError` (``bad-request``)."""
        from cardroom.games import registry

        if not isinstance(data, dict):
            said = "a table config is a JSON object"
            raise TableError("bad-request", Message("table.config-object", said))
        name = data.get("game") or registry.unnamed()
        rules_class = turn_based_game(str(name)).load("rules")
        try:
            return cls(
                game=str(name),
                rules=rules_class.from_json(data.get("rules")),
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


def turn_based_game(name: str) -> Any:
    """The registry's entry of turn-based game ``name``; ``TableError('bad-request')`` naming
    the turn-based games if there is none of that name."""
    from cardroom.games import registry

    found = registry.GAMES.get(name)
    if found is None or found.realtime:
        known = ", ".join(registry.names(registry.TURN_BASED))
        said = Message(
            "table.unknown-game",
            f"unknown game {name!r}: a table in turns plays {known}",
            game=name,
            known=known,
        )
        raise TableError("bad-request", said)
    return found


ALREADY_STARTED = Message("table.started", "the table has already started")
REMATCH_ONCE = Message("table.rematch-once", "a rematch is offered once, after the game")
TOKEN_FOR_PERSON = Message("table.token-person", "a seat token is for a person's seat")
NOT_CREATED = Message("table.not-created", "this table has not been created")
ROUND_NOT_OVER = Message("table.round-not-over", "the round is not over")

NAME_MAX = 24
"""The most characters of a display name."""

SEAT_ENTRIES = frozenset({"joined", "takeover", "returned", "left", "seat-token"})
"""The entries the table service writes about one seat of a turn-based table, whatever its
game: :func:`check_seat_entry` checks them all alike."""


class Seats(Protocol):
    """What the checks of the seat entries read of a turn-based table."""

    @property
    def cfg(self) -> TableConfig[Any]:
        """The table's config (its seats)."""
        ...

    @property
    def n(self) -> int:
        """How many seats."""
        ...

    @property
    def joined(self) -> Sequence[bool]:
        """Seat -> whether it is sat at (bots always)."""
        ...

    @property
    def filled(self) -> Collection[int]:
        """The person seats a bot was given at the start."""
        ...

    @property
    def taken_over(self) -> Collection[int]:
        """The seats a bot plays for their absent person."""
        ...

    @property
    def left(self) -> Collection[int]:
        """The seats whose person left the game."""
        ...

    def is_person(self, seat: int) -> bool:
        """A person's seat (not a bot's, nor one a bot filled at the start)."""
        ...


def check_seat(table: Seats, data: dict[str, Any]) -> int:
    """The seat an entry names; ``bad-request`` unless it is one of the table's."""
    seat = data.get("seat")
    if not (isinstance(seat, int) and 0 <= seat < table.n):
        raise TableError("bad-request", f"seat {seat!r} is not at this table")
    return seat


def check_seat_entry(table: Seats, kind: str, seat: int, data: dict[str, Any]) -> None:
    """Refuse (``TableError``) a seat entry of :data:`SEAT_ENTRIES` that may not follow now: a
    person sitting at a bot's or a taken seat, a takeover of a seat a bot plays already, a
    return to a seat no bot plays, leaving twice, a token for a bot's seat. Changes nothing."""
    if kind == "joined":
        if table.cfg.seats[seat].kind != "person":
            raise TableError("forbidden", "a bot plays this seat")
        if table.joined[seat] or seat in table.filled:
            raise TableError(
                "bad-request", Message("table.seat-taken", "this seat is already taken")
            )
        clean_name(data.get("name", ""))
    elif kind == "takeover":
        if not table.is_person(seat) or seat in table.taken_over:
            raise TableError("bad-request", "only a person's seat can be taken over")
        if not isinstance(data.get("level"), str):
            raise TableError("bad-request", "takeover needs the bot's level")
    elif kind == "returned":
        if seat not in table.taken_over or seat in table.left:
            raise TableError("bad-request", "no bot plays for this seat")
    elif kind == "left":
        if not table.is_person(seat) or seat in table.left:
            raise TableError("bad-request", "only a person at the table can leave it")
        if not isinstance(data.get("level"), str):
            raise TableError("bad-request", "leaving needs the level of the bot that goes on")
    elif kind == "seat-token":
        if not table.is_person(seat) or not isinstance(data.get("hash"), str):
            raise TableError("bad-request", TOKEN_FOR_PERSON)
    else:
        raise ValueError(f"{kind!r} is not a seat entry")


def hash_token(token: str) -> str:
    """The sha256 (hex) of a seat token: the only form a token is stored in."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_for_token(token_hashes: dict[int, str], token: str | None) -> int | None:
    """The seat whose stored hash ``token`` matches (None: no token, a spectator).

    Every stored hash is compared in constant time, with no early exit; a wrong token raises
    ``TableError('forbidden')``.
    """
    if not token:
        return None
    given = hash_token(token)
    found: int | None = None
    for g, stored in sorted(token_hashes.items()):
        if hmac.compare_digest(given, stored):
            found = g
    if found is None:
        said = Message("table.bad-seat-link", "this seat link is not valid for this table")
        raise TableError("forbidden", said)
    return found


def clean_name(name: str) -> str:
    """A display name: 1..24 printable characters after stripping; else ``bad-request``."""
    text = " ".join(str(name).split())
    if not 1 <= len(text) <= NAME_MAX or not text.isprintable():
        raise TableError(
            "bad-request",
            Message(
                "table.name-chars",
                f"a name is 1 to {NAME_MAX} printable characters",
                most=NAME_MAX,
            ),
        )
    return text
