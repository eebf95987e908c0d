"""The player tables (players, their browser keys, move links, seat claims, passkeys and
passkey challenges), the types read from them, and the secrets' stored form.

:class:`PlayerTables` is what every part of :class:`~cardroom.store.players.PlayerStore`
shares: the event store's engine and write lock, and a new browser key written for a player.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from cardroom.store.events import EventStore, metadata

AGENT_MAX = 120
SIGNIN_NAME_MAX = 96
"""The longest folded name (NFKC may lengthen a name: one "ﷺ" is 18 characters folded)."""


players_t = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(96), nullable=False, default=""),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("password_hash", sa.String(200), nullable=True),
    sa.Column("signin_name", sa.String(SIGNIN_NAME_MAX), nullable=True),
    sa.Index("ix_players_signin_name", "signin_name", unique=True),
)
"""``signin_name``: the folded name (:func:`fold_name`) a player with a password signs in
with, unique per server; None for a player without a password (or one of several protected
players of one name in a database made before names were unique: the oldest kept it)."""

player_keys_t = sa.Table(
    "player_keys",
    metadata,
    sa.Column("key_hash", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("last_used", sa.Float, nullable=True),
    sa.Column("agent", sa.String(AGENT_MAX), nullable=True),
    sa.Column("how", sa.String(16), nullable=True),
)
"""``last_used`` (to the hour), ``agent`` (the browser's User-Agent, cut) and ``how`` it got
the key (``new``, ``move``, ``password``, ``passkey``); None in keys made before they were kept."""

move_links_t = sa.Table(
    "move_links",
    metadata,
    sa.Column("link_hash", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Column("used", sa.Boolean, nullable=False, default=False),
)

seat_claims_t = sa.Table(
    "seat_claims",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True, index=True),
    sa.Column("invite_hash", sa.String(64), nullable=True),
    sa.Column("at", sa.Float, nullable=False),
)


passkeys_t = sa.Table(
    "passkeys",
    metadata,
    sa.Column("credential_id", sa.String(400), primary_key=True),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("public_key", sa.Text, nullable=False),
    sa.Column("sign_count", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

passkey_challenges_t = sa.Table(
    "passkey_challenges",
    metadata,
    sa.Column("challenge", sa.String(100), primary_key=True),
    sa.Column("player_id", sa.String(32), nullable=True),
    sa.Column("expires_at", sa.Float, nullable=False),
)


class PlayerError(ValueError):
    """A request about a player that cannot be done; ``code`` says why (a message id below)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Player:
    """One player: id, display name ('' until asked), whether a password protects them."""

    id: str
    name: str
    created_at: float
    protected: bool
    signs_in: bool = False
    """Whether sign-in by name and password finds this player (see ``signin_name``)."""


@dataclass(frozen=True, slots=True)
class BrowserKey:
    """One browser or device holding a key to a player (never the key itself)."""

    id: str
    """A short public id of the key (the start of its hash): what revoking names."""
    created_at: float
    last_used: float | None
    agent: str
    how: str


@dataclass(frozen=True, slots=True)
class Claim:
    """Who holds a claimed seat: ``player_id`` None while a re-issued link waits to be opened."""

    table_id: str
    seat: int
    player_id: str | None
    reissued: bool


def key_hash(secret: str) -> str:
    """The stored form of a browser key, move link or invitation secret (sha256, hex)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def key_id(digest: str) -> str:
    """The public id of a browser key: the first 16 hex digits of its stored hash (the key
    cannot be found again from it)."""
    return digest[:16]


def _player(row: Any) -> Player:
    return Player(
        row.id,
        row.name,
        float(row.created_at),
        row.password_hash is not None,
        row.signin_name is not None,
    )


def _claim(row: Any) -> Claim:
    return Claim(row.table_id, int(row.seat), row.player_id, row.invite_hash is not None)


class PlayerTables:
    """The player tables in the event store's database (same engine, same write lock)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.engine = store.engine

    def _write(self) -> Any:
        return self.store._write_lock

    async def _new_key(
        self, conn: Any, player_id: str, now: float, how: str, agent: str = ""
    ) -> str:
        secret = secrets.token_urlsafe(32)
        await conn.execute(
            player_keys_t.insert().values(
                key_hash=key_hash(secret),
                player_id=player_id,
                created_at=now,
                last_used=now,
                agent=agent[:AGENT_MAX] or None,
                how=how,
            )
        )
        return secret
