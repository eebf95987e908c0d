"""A player's passkeys (WebAuthn): the challenges given out, the verified passkeys kept, and a
browser signed in by one. The ceremony itself (options, verification) is the web layer's
(:mod:`cardroom.web.passkeys`)."""

from __future__ import annotations

import time

import sqlalchemy as sa

from cardroom.store.errors import _guard
from cardroom.store.player_rows import (
    Player,
    PlayerTables,
    _player,
    passkey_challenges_t,
    passkeys_t,
    players_t,
)

CHALLENGES_PER_PLAYER = 3
"""Passkey challenges a player may hold at once (registering; the newest are kept)."""


class Passkeys(PlayerTables):
    """The passkeys part of :class:`~cardroom.store.players.PlayerStore`."""

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
