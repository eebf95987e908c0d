"""The stored analyses of finished games: one row per table in ``analyses``, beside the log.

A finished game's record never changes, so its analysis (``cardroom.analysis``) is computed once
and kept here as JSON with the version of its form; a second writer of the same table (another
process that analysed it at the same moment) changes nothing.
"""

from __future__ import annotations

import contextlib
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
