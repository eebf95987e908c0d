"""Counts of work per client kept in the database, so every server process sharing it sees the
same counts (``cardroom serve --workers 2``, or two servers behind one proxy).

One row per counted event in ``bounds`` (its key, when it happened and when it may be forgotten);
:meth:`BoundStore.take` counts one more for a key unless ``limit`` already happened in the last
``seconds``. Takers of one key meet one at a time: on SQLite the row is written before it is
counted (the transaction holds the file's only write lock), on PostgreSQL under an advisory
transaction lock on the key's hash.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Callable

import sqlalchemy as sa

from cardroom.store.events import EventStore, _guard, metadata

bounds_t = sa.Table(
    "bounds",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(200), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("until", sa.Float, nullable=False),
    sa.Index("ix_bounds_key_at", "key", "at"),
    sa.Index("ix_bounds_until", "until"),
)

SWEEP_EVERY = 200
"""One take in this many also forgets every key's expired rows (not only its own key's)."""


def lock_id(key: str) -> int:
    """A signed 64-bit number for ``key`` (PostgreSQL's advisory locks take one)."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big", signed=True)


class BoundStore:
    """The counters of an :class:`EventStore`'s database."""

    def __init__(self, store: EventStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.engine = store.engine
        self.clock = clock
        self._takes = 0
        self._postgresql = self.engine.dialect.name == "postgresql"

    async def take(self, key: str, limit: int, seconds: float) -> float:
        """Count one for ``key`` and answer 0, or, when ``limit`` were counted in the last
        ``seconds``, count nothing and answer the seconds until one more is allowed."""
        key = key[:200]
        lock = getattr(self.store, "_write_lock", contextlib.nullcontext())
        self._takes += 1
        sweep = self._takes % SWEEP_EVERY == 0
        async with _guard(), lock, self.engine.begin() as conn:
            now = self.clock()
            if self._postgresql:
                await conn.execute(sa.select(sa.func.pg_advisory_xact_lock(lock_id(key))))
            inserted = await conn.execute(
                bounds_t.insert().values(key=key, at=now, until=now + seconds)
            )
            (mine,) = inserted.inserted_primary_key or (None,)
            recent = (
                await conn.execute(
                    sa.select(bounds_t.c.at)
                    .where(bounds_t.c.key == key, bounds_t.c.at > now - seconds)
                    .order_by(bounds_t.c.at.desc())
                    .limit(limit + 1)
                )
            ).scalars().all()
            wait = 0.0
            if len(recent) > limit:  # this one and ``limit`` others: take it back
                await conn.execute(bounds_t.delete().where(bounds_t.c.id == mine))
                oldest_counted = recent[limit]  # the limit-th before this one
                wait = max(0.001, oldest_counted + seconds - now)
            forget = bounds_t.c.until < now
            if not sweep:
                forget = sa.and_(bounds_t.c.key == key, forget)
            await conn.execute(bounds_t.delete().where(forget))
        return wait

    async def give_back(self, key: str) -> None:
        """Forget the latest one counted for ``key`` (a request refused after it was counted)."""
        key = key[:200]
        lock = getattr(self.store, "_write_lock", contextlib.nullcontext())
        latest = sa.select(sa.func.max(bounds_t.c.id)).where(bounds_t.c.key == key)
        async with _guard(), lock, self.engine.begin() as conn:
            mine = (await conn.execute(latest)).scalar()
            if mine is not None:
                await conn.execute(bounds_t.delete().where(bounds_t.c.id == mine))

    async def count(self, key: str, seconds: float) -> int:
        """How many were counted for ``key`` in the last ``seconds`` (for tests and pages)."""
        async with _guard(), self.engine.connect() as conn:
            n = (
                await conn.execute(
                    sa.select(sa.func.count())
                    .select_from(bounds_t)
                    .where(bounds_t.c.key == key[:200], bounds_t.c.at > self.clock() - seconds)
                )
            ).scalar_one()
        return int(n)

    async def keep(self, key: str, seconds: float) -> None:
        """Write one row for ``key`` that lasts ``seconds`` (a fact to find again with
        :meth:`keys_under`, such as a table an address made)."""
        key = key[:200]
        lock = getattr(self.store, "_write_lock", contextlib.nullcontext())
        async with _guard(), lock, self.engine.begin() as conn:
            now = self.clock()
            await conn.execute(bounds_t.insert().values(key=key, at=now, until=now + seconds))

    async def extend(self, key: str, seconds: float) -> None:
        """Keep ``key`` for ``seconds`` from now: its rows' end moved on, their start kept (a
        row written if there is none), so :meth:`keys_under` still lists it oldest first."""
        key = key[:200]
        lock = getattr(self.store, "_write_lock", contextlib.nullcontext())
        async with _guard(), lock, self.engine.begin() as conn:
            now = self.clock()
            moved = await conn.execute(
                bounds_t.update().where(bounds_t.c.key == key).values(until=now + seconds)
            )
            if moved.rowcount == 0:
                await conn.execute(bounds_t.insert().values(key=key, at=now, until=now + seconds))

    async def reserve(self, prefix: str, key: str, limit: int, seconds: float) -> bool:
        """Write one row for ``key`` (which starts with ``prefix``) lasting ``seconds`` unless
        ``limit`` rows under ``prefix`` are still kept; True if written. Reservers of one prefix
        meet one at a time, as :meth:`take`'s do (the row is written before it is counted)."""
        key, prefix = key[:200], prefix[:200]
        lock = getattr(self.store, "_write_lock", contextlib.nullcontext())
        async with _guard(), lock, self.engine.begin() as conn:
            now = self.clock()
            if self._postgresql:
                await conn.execute(sa.select(sa.func.pg_advisory_xact_lock(lock_id(prefix))))
            inserted = await conn.execute(
                bounds_t.insert().values(key=key, at=now, until=now + seconds)
            )
            (mine,) = inserted.inserted_primary_key or (None,)
            kept = (
                await conn.execute(
                    sa.select(sa.func.count())
                    .select_from(bounds_t)
                    .where(
                        bounds_t.c.key.startswith(prefix, autoescape=True),
                        bounds_t.c.until >= now,
                    )
                )
            ).scalar_one()
            if int(kept) > limit:
                await conn.execute(bounds_t.delete().where(bounds_t.c.id == mine))
                return False
        return True

    async def keys_under(self, prefix: str, limit: int = 1000) -> list[str]:
        """The keys of the rows starting with ``prefix`` not yet expired, oldest first (at most
        ``limit``, the newest kept)."""
        async with _guard(), self.engine.connect() as conn:
            keys = (
                await conn.execute(
                    sa.select(bounds_t.c.key)
                    .where(
                        bounds_t.c.key.startswith(prefix[:200], autoescape=True),
                        bounds_t.c.until >= self.clock(),
                    )
                    .order_by(bounds_t.c.id.desc())
                    .limit(limit)
                )
            ).scalars().all()
        return list(reversed(keys))

    async def forget(self, keys: list[str]) -> None:
        """Delete every row of ``keys``."""
        if not keys:
            return
        lock = getattr(self.store, "_write_lock", contextlib.nullcontext())
        async with _guard(), lock, self.engine.begin() as conn:
            await conn.execute(bounds_t.delete().where(bounds_t.c.key.in_([k[:200] for k in keys])))
