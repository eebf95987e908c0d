"""The stored analyses of finished games: one row per table in ``analyses``, beside the log.

A finished game's record never changes, so its analysis (``cardroom.analysis``) is computed once
and kept here as JSON with the version of its form; a second writer of the same table (another
process that analysed it at the same moment) changes nothing.

While an analysis is under way its row says so (version :data:`PENDING`, claimed by one process
with :meth:`AnalysisStore.claim`), and a failed one says why (version :data:`FAILED`), so every
server process sharing the database tells the same state and none starts a second analysis of a
game another one is analysing.
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from cardroom.store.events import EventStore, _guard, metadata

analyses_t = sa.Table(
    "analyses",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


PENDING = 0
"""The version of a row that says an analysis is under way (its data: the claiming process)."""
FAILED = -1
"""The version of a row that says an analysis failed (its data: ``{"error": code}``)."""
PENDING_STALE = 900.0
"""Seconds after which an analysis still under way is taken for lost (its process ended)."""


class AnalysisStore:
    """Analyses in the database of an :class:`EventStore` (its engine and schema)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.engine = store.engine

    async def get(self, table_id: str, version: int) -> dict[str, Any] | None:
        """The stored analysis of ``table_id`` in form ``version``, or None."""
        async with _guard(), self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(analyses_t.c.data).where(
                        analyses_t.c.table_id == table_id, analyses_t.c.version == version
                    )
                )
            ).first()
        data = row[0] if row is not None else None
        return data if isinstance(data, dict) else None

    async def put(self, table_id: str, version: int, data: dict[str, Any]) -> None:
        """Store the analysis of ``table_id`` (replacing one of another version)."""
        lock = getattr(self.store, "_write_lock", contextlib.nullcontext())
        with contextlib.suppress(IntegrityError):  # stored meanwhile by another process
            async with _guard(), lock, self.engine.begin() as conn:
                await conn.execute(analyses_t.delete().where(analyses_t.c.table_id == table_id))
                await conn.execute(
                    analyses_t.insert().values(
                        table_id=table_id, version=version, data=data, at=time.time()
                    )
                )

    async def state(self, table_id: str, version: int) -> tuple[str, dict[str, Any] | None]:
        """``("done", analysis)`` in form ``version``, ``("running", None)`` while a process
        analyses it, ``("failed", {"error": code})``, else ``("absent", None)``."""
        async with _guard(), self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(analyses_t.c.version, analyses_t.c.data, analyses_t.c.at).where(
                        analyses_t.c.table_id == table_id
                    )
                )
            ).first()
        if row is None:
            return "absent", None
        kept, data, at = row
        if kept == version and isinstance(data, dict):
            return "done", data
        if kept == PENDING and time.time() - at < PENDING_STALE:
            return "running", None
        if kept == FAILED and isinstance(data, dict):
            return "failed", data
        return "absent", None

    async def claim(self, table_id: str, version: int) -> bool:
        """Mark ``table_id`` as being analysed by this process; False (nothing changed) when it
        is analysed already in form ``version`` or another process is analysing it."""
        lock = getattr(self.store, "_write_lock", contextlib.nullcontext())
        try:
            async with _guard(), lock, self.engine.begin() as conn:
                row = (
                    await conn.execute(
                        sa.select(analyses_t.c.version, analyses_t.c.at).where(
                            analyses_t.c.table_id == table_id
                        )
                    )
                ).first()
                if row is not None:
                    kept, at = row
                    if kept == version or (kept == PENDING and time.time() - at < PENDING_STALE):
                        return False
                    await conn.execute(
                        analyses_t.delete().where(
                            analyses_t.c.table_id == table_id, analyses_t.c.version == kept
                        )
                    )
                claim = {"pid": os.getpid()}
                await conn.execute(
                    analyses_t.insert().values(
                        table_id=table_id, version=PENDING, data=claim, at=time.time()
                    )
                )
        except IntegrityError:  # claimed by another process at the same moment
            return False
        return True

    async def fail(self, table_id: str, code: str) -> None:
        """Say that the analysis of ``table_id`` failed (``code``: why)."""
        await self.put(table_id, FAILED, {"error": code})

    async def release(self, table_id: str) -> None:
        """Drop this process's claim on ``table_id`` (its analysis was stopped unfinished)."""
        lock = getattr(self.store, "_write_lock", contextlib.nullcontext())
        async with _guard(), lock, self.engine.begin() as conn:
            await conn.execute(
                analyses_t.delete().where(
                    analyses_t.c.table_id == table_id, analyses_t.c.version == PENDING
                )
            )
