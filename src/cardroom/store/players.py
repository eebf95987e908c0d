"""The people of the tables: players, their browser keys, move links, passwords and seat claims.

A player is an id and a display name. A browser is recognised by a long random key (its
``cr_player`` cookie) stored here only as sha256; several keys (tabs share one, another device
gets its own through a one-time *move link*) open one player. A password, if the player sets
one, is stored as an argon2id hash. A *seat claim* ties a person seat of a table to the player
who opened its invitation first: once a claim row exists only its player holds the seat (the
seat token alone no longer does), and the table's creator can re-issue the seat's link (the row
then waits, without a player, for the new link's secret).

:class:`PlayerStore` is written in parts: the tables and what every part shares
(:mod:`cardroom.store.player_rows`), passkeys (:mod:`cardroom.store.passkeys`) and seat claims
(:mod:`cardroom.store.claims`); here are players, their names and keys, move links, passwords
and forgetting a player. The names other modules read here are kept.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
import unicodedata
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from cardroom.games.records import FORMER_PLAYER as FORMER_PLAYER  # re-exported
from cardroom.store.claims import SeatClaims
from cardroom.store.events import EventStore, _guard
from cardroom.store.passkeys import CHALLENGES_PER_PLAYER as CHALLENGES_PER_PLAYER
from cardroom.store.passkeys import Passkeys
from cardroom.store.player_rows import AGENT_MAX as AGENT_MAX
from cardroom.store.player_rows import SIGNIN_NAME_MAX as SIGNIN_NAME_MAX
from cardroom.store.player_rows import BrowserKey as BrowserKey
from cardroom.store.player_rows import Claim as Claim
from cardroom.store.player_rows import Player as Player
from cardroom.store.player_rows import PlayerError as PlayerError
from cardroom.store.player_rows import _player, player_keys_t
from cardroom.store.player_rows import key_hash as key_hash
from cardroom.store.player_rows import key_id as key_id
from cardroom.store.player_rows import move_links_t as move_links_t
from cardroom.store.player_rows import passkey_challenges_t as passkey_challenges_t
from cardroom.store.player_rows import passkeys_t as passkeys_t
from cardroom.store.player_rows import players_t as players_t
from cardroom.store.player_rows import seat_claims_t as seat_claims_t
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
KEY_SEEN_EVERY = 3600.0
"""A browser key's ``last_used`` is written at most this often (seconds)."""


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


def _hasher() -> Any:
    from argon2 import PasswordHasher

    return PasswordHasher()  # argon2id, the library's tuned defaults


class PlayerStore(Passkeys, SeatClaims):
    """Players and seat claims in the event store's database (same engine, same write lock)."""

    def __init__(self, store: EventStore) -> None:
        super().__init__(store)
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)

    async def _argon2(self, work: Callable[[], _R]) -> _R:
        """Run an argon2 hash or check (~170 ms of CPU) in a worker thread, a few at a time,
        never on the event loop (it would stall every real-time table)."""
        async with self._hashing:
            return await asyncio.to_thread(work)

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
