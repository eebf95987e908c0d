"""Seat claims: a person seat of a table tied to the player who opened its invitation first.

Once a claim row exists only its player holds the seat (the seat token alone no longer does),
and the table's creator can re-issue the seat's link (the row then waits, without a player, for
the new link's secret). A player's tables are the seats they claimed.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from cardroom.store.errors import _guard
from cardroom.store.events import TableRow
from cardroom.store.player_rows import (
    Claim,
    PlayerError,
    PlayerTables,
    _claim,
    key_hash,
    seat_claims_t,
)


class SeatClaims(PlayerTables):
    """The seat claims part of :class:`~cardroom.store.players.PlayerStore`."""

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
