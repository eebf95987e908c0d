"""The people of the tables: players, their browser keys, move links, passwords and seat claims.

A player is an id and a display name. A browser is recognised by a long random key (its
``cr_player`` cookie) stored here only as sha256; several keys (tabs share one, another device
gets its own through a one-time *move link*) open one player. A password, if the player sets
one, is stored as an argon2id hash. A *seat claim* ties a person seat of a table to the player
who opened its invitation first: once a claim row exists only its player holds the seat (the
seat token alone no longer does), and the table's creator can re-issue the seat's link (the row
then waits, without a player, for the new link's secret).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from cardroom.games.records import FORMER_PLAYER as FORMER_PLAYER  # re-exported
from cardroom.store.events import EventStore, TableRow, _guard, metadata
from cardroom.store.ratings import play_queue_t, rating_changes_t, ratings_t

NAME_MAX = 24
"""The longest display name (characters, after cleaning)."""
PASSWORD_MIN = 8
PASSWORD_MAX = 200
MOVE_TTL = 600.0
"""Seconds a move link stays usable (once)."""
HASHING_AT_ONCE = 2
"""Password hashes or checks a process runs at once (the others wait their turn)."""
_R = TypeVar("_R")
CHALLENGES_PER_PLAYER = 3
"""Passkey challenges a player may hold at once (registering; the newest are kept)."""
KEY_SEEN_EVERY = 3600.0
"""A browser key's ``last_used`` is written at most this often (seconds)."""
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


_INVISIBLE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def clean_display_name(name: str) -> str:
    """``name`` without control, bidi-override, zero-width or unassigned characters, blanks
    folded, 1 to 24 characters; :class:`PlayerError` (``bad-name``) otherwise."""
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in unicodedata.normalize("NFC", str(name))
        if ch.isspace() or unicodedata.category(ch) not in _INVISIBLE
    )
    text = " ".join(kept.split())
    if not 1 <= len(text) <= NAME_MAX:
        raise PlayerError("bad-name", f"a name has 1 to {NAME_MAX} characters")
    return text


def fold_name(name: str) -> str:
    """The form of a name that sign-in compares: NFKC, case-folded, NFKC again (so "ÉLODIE",
    "élodie" and "Élodie" written with a combining accent are one name). Computed here, never
    by the database (SQLite's ``lower()`` folds ASCII letters only)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _signin_name(clean: str) -> str:
    """The folded form of a cleaned name, or ``bad-name`` if it is too long folded."""
    folded = fold_name(clean)
    if not folded or len(folded) > SIGNIN_NAME_MAX:
        raise PlayerError("bad-name", f"a name has 1 to {NAME_MAX} characters")
    return folded


def key_hash(secret: str) -> str:
    """The stored form of a browser key, move link or invitation secret (sha256, hex)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def _hasher() -> Any:
    from argon2 import PasswordHasher

    return PasswordHasher()  # argon2id, the library's tuned defaults


class PlayerStore:
    """Players and seat claims in the event store's database (same engine, same write lock)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.engine = store.engine
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)

    async def _argon2(self, work: Callable[[], _R]) -> _R:
        """Run an argon2 hash or check (~170 ms of CPU) in a worker thread, a few at a time,
        never on the event loop (it would stall every real-time table)."""
        async with self._hashing:
            return await asyncio.to_thread(work)

    def _write(self) -> Any:
        return self.store._write_lock

    # -- players and keys ------------------------------------------------------------------

    async def create(self, name: str, now: float, agent: str = "") -> tuple[Player, str]:
        """A new player (``name`` may be '' until asked) and the key of its first browser."""
        clean = clean_display_name(name) if name else ""
        player_id = secrets.token_urlsafe(12)
        async with _guard(), self._write(), self.engine.begin() as conn:
            await conn.execute(players_t.insert().values(id=player_id, name=clean, created_at=now))
            secret = await self._new_key(conn, player_id, now, "new", agent)
        return Player(player_id, clean, now, False), secret

    async def by_key(self, secret: str | None) -> Player | None:
        """The player a browser key opens (None for no key, an unknown or a revoked one); the
        key's ``last_used`` is brought up to date (at most once in :data:`KEY_SEEN_EVERY`)."""
        if not secret or len(secret) > 200:
            return None
        digest = key_hash(secret)
        query = (
            sa.select(players_t, player_keys_t.c.last_used)
            .join(player_keys_t, player_keys_t.c.player_id == players_t.c.id)
            .where(player_keys_t.c.key_hash == digest)
        )
        async with _guard(), self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None:
            return None
        now = time.time()
        if row.last_used is None or now - row.last_used >= KEY_SEEN_EVERY:
            async with _guard(), self._write(), self.engine.begin() as conn:
                await conn.execute(
                    player_keys_t.update()
                    .where(player_keys_t.c.key_hash == digest)
                    .values(last_used=now)
                )
        return _player(row)

    async def keys_of(self, player_id: str) -> list[BrowserKey]:
        """The browsers and devices holding a key to this player, oldest first."""
        query = (
            sa.select(player_keys_t)
            .where(player_keys_t.c.player_id == player_id)
            .order_by(player_keys_t.c.created_at)
        )
        async with _guard(), self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            BrowserKey(
                key_id(r.key_hash), float(r.created_at), r.last_used, r.agent or "", r.how or ""
            )
            for r in rows
        ]

    async def revoke_key(self, player_id: str, public_id: str) -> bool:
        """Forget one key of this player (by :func:`key_id`): that browser no longer opens
        the player. False if the player has no such key."""
        query = sa.select(player_keys_t.c.key_hash).where(player_keys_t.c.player_id == player_id)
        async with _guard(), self._write(), self.engine.begin() as conn:
            hashes = [r.key_hash for r in (await conn.execute(query)).all()]
            chosen = [h for h in hashes if hmac.compare_digest(key_id(h), public_id)]
            if len(chosen) != 1:
                return False
            await conn.execute(
                player_keys_t.delete().where(
                    player_keys_t.c.key_hash == chosen[0], player_keys_t.c.player_id == player_id
                )
            )
        return True

    async def get(self, player_id: str) -> Player | None:
        """The player of an id."""
        async with _guard(), self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(players_t).where(players_t.c.id == player_id))
            ).first()
        return _player(row) if row is not None else None

    async def names(self, ids: list[str]) -> dict[str, str]:
        """Player id -> display name for the ids that still exist."""
        if not ids:
            return {}
        query = sa.select(players_t.c.id, players_t.c.name).where(players_t.c.id.in_(ids))
        async with _guard(), self.engine.connect() as conn:
            return {r.id: r.name for r in (await conn.execute(query)).all()}

    async def rename(self, player_id: str, name: str) -> str:
        """Change the display name; returns it cleaned. ``name-taken`` if another player signs
        in with this name (folded): nobody takes on the name of a protected player. A player
        with a password signs in with the new name from now on."""
        clean = clean_display_name(name)
        folded = _signin_name(clean)
        taken = PlayerError("name-taken", "another player signs in with this name")
        try:
            async with _guard(), self._write(), self.engine.begin() as conn:
                holder = (
                    await conn.execute(
                        sa.select(players_t.c.id).where(players_t.c.signin_name == folded)
                    )
                ).first()
                if holder is not None and holder.id != player_id:
                    raise taken
                values: dict[str, Any] = {"name": clean}
                protected = (
                    await conn.execute(
                        sa.select(players_t.c.password_hash).where(players_t.c.id == player_id)
                    )
                ).first()
                if protected is not None and protected.password_hash is not None:
                    values["signin_name"] = folded
                await conn.execute(
                    players_t.update().where(players_t.c.id == player_id).values(**values)
                )
        except IntegrityError:  # taken meanwhile, by another process
            raise taken from None
        return clean

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

    # -- moving to another device ----------------------------------------------------------

    async def move_link(self, player_id: str, now: float) -> str:
        """A one-time secret that gives another browser this player for ``MOVE_TTL`` seconds."""
        secret = secrets.token_urlsafe(32)
        async with _guard(), self._write(), self.engine.begin() as conn:
            await conn.execute(
                move_links_t.delete().where(
                    move_links_t.c.player_id == player_id, move_links_t.c.expires_at < now
                )
            )
            await conn.execute(
                move_links_t.insert().values(
                    link_hash=key_hash(secret),
                    player_id=player_id,
                    expires_at=now + MOVE_TTL,
                    used=False,
                )
            )
        return secret

    async def peek_move_link(self, secret: str, now: float) -> Player:
        """The player a move link would give, without spending it; the same
        :class:`PlayerError` as :meth:`use_move_link` when it would not work."""
        query = sa.select(move_links_t).where(move_links_t.c.link_hash == key_hash(secret))
        async with _guard(), self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
            if row is None:
                raise PlayerError("move-unknown", "this link to move a player does not exist")
            if row.used:
                raise PlayerError("move-used", "this link to move a player was already used")
            if row.expires_at <= now:
                raise PlayerError("move-expired", "this link to move a player has expired")
            player_row = (
                await conn.execute(sa.select(players_t).where(players_t.c.id == row.player_id))
            ).one()
        return _player(player_row)

    async def use_move_link(self, secret: str, now: float, agent: str = "") -> tuple[Player, str]:
        """Spend a move link: the player and a new browser key for the device that opened it.

        :class:`PlayerError` ``move-used``, ``move-expired`` or ``move-unknown`` otherwise.
        The link is marked used in the same transaction that checks it (a conditional update),
        so two devices opening it at once get one player between them.
        """
        digest = key_hash(secret)
        async with _guard(), self._write(), self.engine.begin() as conn:
            row = (
                await conn.execute(
                    sa.select(move_links_t).where(move_links_t.c.link_hash == digest)
                )
            ).first()
            if row is None:
                raise PlayerError("move-unknown", "this link to move a player does not exist")
            if row.used:
                raise PlayerError("move-used", "this link to move a player was already used")
            if row.expires_at <= now:
                raise PlayerError("move-expired", "this link to move a player has expired")
            spent = await conn.execute(
                move_links_t.update()
                .where(move_links_t.c.link_hash == digest, move_links_t.c.used.is_(False))
                .values(used=True)
            )
            if spent.rowcount != 1:
                raise PlayerError("move-used", "this link to move a player was already used")
            player_row = (
                await conn.execute(sa.select(players_t).where(players_t.c.id == row.player_id))
            ).one()
            key = await self._new_key(conn, row.player_id, now, "move", agent)
        return _player(player_row), key

    # -- passwords -------------------------------------------------------------------------

    async def set_password(self, player_id: str, password: str) -> None:
        """Protect the player with a password (argon2id); from then on they sign in with their
        name, which no other player may then sign in with. ``bad-password`` if too short or
        long, ``name-taken`` if another player signs in with this name (folded): choose
        another name first."""
        if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
            raise PlayerError(
                "bad-password", f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters"
            )
        player = await self.get(player_id)
        if player is None:
            raise PlayerError("no-player", "this player no longer exists")
        folded = _signin_name(player.name)
        taken = PlayerError("name-taken", "another player signs in with this name")
        if await self._signs_in_as(folded, player_id):
            raise taken
        hasher = _hasher()
        digest: str = await self._argon2(lambda: hasher.hash(password))
        try:
            async with _guard(), self._write(), self.engine.begin() as conn:
                await conn.execute(
                    players_t.update()
                    .where(players_t.c.id == player_id)
                    .values(password_hash=digest, signin_name=folded)
                )
        except IntegrityError:  # taken meanwhile, by another process
            raise taken from None

    async def _signs_in_as(self, folded: str, player_id: str) -> bool:
        """Whether a player other than ``player_id`` signs in with the folded name."""
        query = sa.select(players_t.c.id).where(
            players_t.c.signin_name == folded, players_t.c.id != player_id
        )
        async with _guard(), self.engine.connect() as conn:
            return (await conn.execute(query)).first() is not None

    async def sign_in(
        self, name: str, password: str, now: float, agent: str = ""
    ) -> tuple[Player, str]:
        """A new browser key for the player who signs in with this name (folded: one player
        at most) if this is their password; :class:`PlayerError` ``sign-in`` otherwise (the
        same words whatever was wrong)."""
        from argon2.exceptions import Argon2Error

        refused = PlayerError("sign-in", "no player has this name and password")
        try:
            clean = clean_display_name(name)
        except PlayerError:
            raise refused from None
        if len(password) > PASSWORD_MAX:
            raise refused
        query = sa.select(players_t).where(
            players_t.c.signin_name == fold_name(clean), players_t.c.password_hash.is_not(None)
        )
        async with _guard(), self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        hasher = _hasher()

        def check(digest: str) -> bool:
            try:
                return bool(hasher.verify(digest, password))
            except Argon2Error:
                return False

        for row in rows:
            if not await self._argon2(partial(check, row.password_hash)):
                continue
            async with _guard(), self._write(), self.engine.begin() as conn:
                key = await self._new_key(conn, row.id, now, "password", agent)
            return _player(row), key
        raise refused

    # -- passkeys ---------------------------------------------------------------------------

    async def add_challenge(
        self, challenge: str, player_id: str | None, expires_at: float, now: float | None = None
    ) -> None:
        """Remember a WebAuthn challenge (for registering: the player's; for signing in: None).
        Expired challenges are deleted, and a player keeps only their newest
        ``CHALLENGES_PER_PLAYER`` (an older one no longer works)."""
        now = time.time() if now is None else now
        async with _guard(), self._write(), self.engine.begin() as conn:
            await conn.execute(
                passkey_challenges_t.delete().where(passkey_challenges_t.c.expires_at <= now)
            )
            if player_id is not None:
                kept = (
                    sa.select(passkey_challenges_t.c.challenge)
                    .where(passkey_challenges_t.c.player_id == player_id)
                    .order_by(passkey_challenges_t.c.expires_at.desc())
                    .limit(CHALLENGES_PER_PLAYER - 1)
                )
                newest = [row.challenge for row in await conn.execute(kept)]
                await conn.execute(
                    passkey_challenges_t.delete().where(
                        passkey_challenges_t.c.player_id == player_id,
                        passkey_challenges_t.c.challenge.not_in(newest),
                    )
                )
            await conn.execute(
                passkey_challenges_t.insert().values(
                    challenge=challenge, player_id=player_id, expires_at=expires_at
                )
            )

    async def take_challenge(self, challenge: str, player_id: str | None, now: float) -> bool:
        """Spend a challenge given out to ``player_id`` (once, before it expires)."""
        async with _guard(), self._write(), self.engine.begin() as conn:
            query = passkey_challenges_t.delete().where(
                passkey_challenges_t.c.challenge == challenge,
                passkey_challenges_t.c.expires_at > now,
            )
            query = query.where(
                passkey_challenges_t.c.player_id == player_id
                if player_id is not None
                else passkey_challenges_t.c.player_id.is_(None)
            )
            done = await conn.execute(query)
        return bool(done.rowcount == 1)

    async def add_passkey(
        self, player_id: str, credential_id: str, public_key: str, sign_count: int, now: float
    ) -> None:
        """Keep a verified passkey of the player (its id and public key, base64url)."""
        async with _guard(), self._write(), self.engine.begin() as conn:
            await conn.execute(
                passkeys_t.insert().values(
                    credential_id=credential_id,
                    player_id=player_id,
                    public_key=public_key,
                    sign_count=sign_count,
                    created_at=now,
                )
            )

    async def passkey(self, credential_id: str) -> tuple[str, str, int] | None:
        """(player id, public key, sign count) of a passkey."""
        query = sa.select(passkeys_t).where(passkeys_t.c.credential_id == credential_id)
        async with _guard(), self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else (row.player_id, row.public_key, int(row.sign_count))

    async def passkeys_of(self, player_id: str) -> list[str]:
        """The credential ids of a player's passkeys."""
        query = sa.select(passkeys_t.c.credential_id).where(passkeys_t.c.player_id == player_id)
        async with _guard(), self.engine.connect() as conn:
            return [r.credential_id for r in (await conn.execute(query)).all()]

    async def signed_in_by_passkey(
        self, credential_id: str, sign_count: int, now: float, agent: str = ""
    ) -> tuple[Player, str]:
        """Note the passkey's new count and give the browser a key of its player."""
        async with _guard(), self._write(), self.engine.begin() as conn:
            await conn.execute(
                passkeys_t.update()
                .where(passkeys_t.c.credential_id == credential_id)
                .values(sign_count=sign_count)
            )
            row = (
                await conn.execute(
                    sa.select(players_t)
                    .join(passkeys_t, passkeys_t.c.player_id == players_t.c.id)
                    .where(passkeys_t.c.credential_id == credential_id)
                )
            ).one()
            key = await self._new_key(conn, row.id, now, "passkey", agent)
        return _player(row), key

    # -- seat claims -----------------------------------------------------------------------

    async def claim_of(self, table_id: str, seat: int) -> Claim | None:
        """The claim on a seat (None: never claimed)."""
        query = sa.select(seat_claims_t).where(
            seat_claims_t.c.table_id == table_id, seat_claims_t.c.seat == seat
        )
        async with _guard(), self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return _claim(row) if row is not None else None

    async def seat_of_player(self, table_id: str, player_id: str) -> int | None:
        """The seat this player holds at a table by claim (None: none)."""
        query = (
            sa.select(seat_claims_t.c.seat)
            .where(seat_claims_t.c.table_id == table_id, seat_claims_t.c.player_id == player_id)
            .order_by(seat_claims_t.c.seat)
        )
        async with _guard(), self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else int(row.seat)

    async def claim(self, table_id: str, seat: int, player_id: str, now: float) -> Claim:
        """Claim a never-claimed seat for ``player_id``; returns the seat's claim (the earlier
        one if somebody claimed it first: the database's primary key decides between two)."""
        try:
            async with _guard(), self._write(), self.engine.begin() as conn:
                await conn.execute(
                    seat_claims_t.insert().values(
                        table_id=table_id, seat=seat, player_id=player_id, at=now
                    )
                )
        except IntegrityError:
            existing = await self.claim_of(table_id, seat)
            assert existing is not None
            return existing
        return Claim(table_id, seat, player_id, False)

    async def reissue(self, table_id: str, seat: int, now: float, *, link: bool = True) -> str:
        """Take the seat from whoever holds it; with ``link`` a new invitation secret opens it
        (returned), without one nobody may take it (``''``: the seat is left to the bots)."""
        secret = secrets.token_urlsafe(24) if link else ""
        values = {"player_id": None, "invite_hash": key_hash(secret) if link else None, "at": now}
        async with _guard(), self._write(), self.engine.begin() as conn:
            done = await conn.execute(
                seat_claims_t.update()
                .where(seat_claims_t.c.table_id == table_id, seat_claims_t.c.seat == seat)
                .values(**values)
            )
            if done.rowcount == 0:
                await conn.execute(
                    seat_claims_t.insert().values(table_id=table_id, seat=seat, **values)
                )
        return secret

    async def claim_reissued(
        self, table_id: str, seat: int, secret: str, player_id: str, now: float
    ) -> Claim:
        """Open a re-issued link: the seat is this player's if the secret is the seat's current
        one and nobody opened it before (else the claim as it stands; ``invite`` if wrong)."""
        digest = key_hash(secret)
        async with _guard(), self._write(), self.engine.begin() as conn:
            row = (
                await conn.execute(
                    sa.select(seat_claims_t).where(
                        seat_claims_t.c.table_id == table_id, seat_claims_t.c.seat == seat
                    )
                )
            ).first()
            if row is None or row.invite_hash is None:
                raise PlayerError("invite", "this invitation link does not work")
            if not hmac.compare_digest(row.invite_hash, digest):
                raise PlayerError("invite", "this invitation link does not work")
            if row.player_id is not None:
                return _claim(row)
            await conn.execute(
                seat_claims_t.update()
                .where(
                    seat_claims_t.c.table_id == table_id,
                    seat_claims_t.c.seat == seat,
                    seat_claims_t.c.player_id.is_(None),
                )
                .values(player_id=player_id, at=now)
            )
        return Claim(table_id, seat, player_id, True)

    async def tables_of(self, player_id: str) -> list[tuple[str, int]]:
        """(table id, seat) of every seat this player claimed, oldest first."""
        query = (
            sa.select(seat_claims_t.c.table_id, seat_claims_t.c.seat)
            .where(seat_claims_t.c.player_id == player_id)
            .order_by(seat_claims_t.c.at)
        )
        async with _guard(), self.engine.connect() as conn:
            return [(r.table_id, int(r.seat)) for r in (await conn.execute(query)).all()]

    async def table_rows(self, ids: list[str]) -> list[TableRow]:
        """The ``tables`` rows of these ids with their seats (no token hashes)."""
        from cardroom.store.events import seats_t, tables_t

        if not ids:
            return []
        async with _guard(), self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(tables_t).where(tables_t.c.id.in_(ids)))).all()
            seat_rows = (
                await conn.execute(
                    sa.select(
                        seats_t.c.table_id, seats_t.c.seat, seats_t.c.kind, seats_t.c.name,
                        seats_t.c.level, seats_t.c.joined,
                    )
                    .where(seats_t.c.table_id.in_(ids))
                    .order_by(seats_t.c.table_id, seats_t.c.seat)
                )
            ).all()  # fmt: skip
        seats: dict[str, list[dict[str, Any]]] = {r.id: [] for r in rows}
        for s in seat_rows:
            seats.setdefault(s.table_id, []).append(
                {"seat": s.seat, "kind": s.kind, "name": s.name, "level": s.level,
                 "joined": bool(s.joined)}
            )  # fmt: skip
        return [
            TableRow(r.id, r.game, r.created_at, r.status, r.title, bool(r.public),
                     dict(r.summary or {}), seats[r.id])
            for r in rows
        ]  # fmt: skip

    # -- forgetting a player ---------------------------------------------------------------

    async def delete(self, player_id: str) -> list[tuple[str, int]]:
        """Forget a player: keys, links, password and the player row go; the seats they held
        keep their place in the records under :data:`FORMER_PLAYER`. Returns those seats."""
        seats = await self.tables_of(player_id)
        async with _guard(), self._write(), self.engine.begin() as conn:
            await conn.execute(player_keys_t.delete().where(player_keys_t.c.player_id == player_id))
            await conn.execute(move_links_t.delete().where(move_links_t.c.player_id == player_id))
            await conn.execute(passkeys_t.delete().where(passkeys_t.c.player_id == player_id))
            await conn.execute(
                passkey_challenges_t.delete().where(passkey_challenges_t.c.player_id == player_id)
            )
            await conn.execute(
                seat_claims_t.update()
                .where(seat_claims_t.c.player_id == player_id)
                .values(player_id=None, invite_hash=None)
            )
            for table_id, seat in seats:
                await _forget_name(conn, table_id, seat)
            for table in (rating_changes_t, ratings_t, play_queue_t):
                await conn.execute(table.delete().where(table.c.player_id == player_id))
            await conn.execute(players_t.delete().where(players_t.c.id == player_id))
        return seats


async def _forget_name(conn: Any, table_id: str, seat: int) -> None:
    """Name a seat :data:`FORMER_PLAYER` in its table's log (``created`` config, ``joined``)
    and its seat and summary projections, and delete its chat lines: the record still replays,
    with the same seats and moves, and names nobody."""
    from cardroom.store.chat import chat_t
    from cardroom.store.events import events_t, seats_t, tables_t

    rows = (
        await conn.execute(
            sa.select(events_t.c.id, events_t.c.kind, events_t.c.data).where(
                events_t.c.table_id == table_id, events_t.c.kind.in_(("created", "joined"))
            )
        )
    ).all()
    for row in rows:
        data = dict(row.data)
        if row.kind == "joined" and data.get("seat") == seat and "name" in data:
            data["name"] = FORMER_PLAYER
        elif row.kind == "created":
            config = dict(data.get("config") or {})
            seats = list(config.get("seats") or [])
            if seat < len(seats) and isinstance(seats[seat], dict) and seats[seat].get("name"):
                seats[seat] = {**seats[seat], "name": FORMER_PLAYER}
                config["seats"] = seats
                data["config"] = config
        else:
            continue
        if data != row.data:
            await conn.execute(events_t.update().where(events_t.c.id == row.id).values(data=data))
    await conn.execute(
        seats_t.update()
        .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat, seats_t.c.name != "")
        .values(name=FORMER_PLAYER)
    )
    await conn.execute(  # what they said is theirs: it goes (the record never held it)
        chat_t.delete().where(chat_t.c.table_id == table_id, chat_t.c.seat == seat)
    )
    summary_row = (
        await conn.execute(sa.select(tables_t.c.summary).where(tables_t.c.id == table_id))
    ).first()
    if summary_row is not None and summary_row.summary:
        summary = dict(summary_row.summary)
        for key in ("players", "names"):
            names = summary.get(key)
            if isinstance(names, list) and seat < len(names) and names[seat]:
                summary[key] = [FORMER_PLAYER if i == seat else n for i, n in enumerate(names)]
        await conn.execute(
            tables_t.update().where(tables_t.c.id == table_id).values(summary=summary)
        )


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
