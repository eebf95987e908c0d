"""What every kind of table does with a seat's name and token: a display name cleaned, a seat
token hashed (the only form it is stored in) and a token matched to its seat in constant time."""

from __future__ import annotations

import hashlib
import hmac

from cardroom.games.messages import Message
from cardroom.tables.config import TableError

__all__ = ["NAME_MAX", "clean_name", "hash_token", "seat_for_token"]

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
