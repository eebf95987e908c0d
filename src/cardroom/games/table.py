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
from dataclasses import dataclass
from typing import Any, Literal, cast

from cardroom.games.messages import Message

__all__ = [
    "ALREADY_STARTED",
    "NAME_MAX",
    "NOT_CREATED",
    "REMATCH_ONCE",
    "ROUND_NOT_OVER",
    "TOKEN_FOR_PERSON",
    "ErrorCode",
    "LogEntry",
    "SeatKind",
    "SeatSpec",
    "TableError",
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


ALREADY_STARTED = Message("table.started", "the table has already started")
REMATCH_ONCE = Message("table.rematch-once", "a rematch is offered once, after the game")
TOKEN_FOR_PERSON = Message("table.token-person", "a seat token is for a person's seat")
NOT_CREATED = Message("table.not-created", "this table has not been created")
ROUND_NOT_OVER = Message("table.round-not-over", "the round is not over")

NAME_MAX = 24
"""The most characters of a display name."""


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
