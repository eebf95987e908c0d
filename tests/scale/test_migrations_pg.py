"""The store's schema under Alembic on PostgreSQL: a new database, one made before Alembic, and
servers starting at once (the advisory lock lets one upgrade while the others wait)."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.ext.asyncio import create_async_engine

from cardroom.store import EventStore, LogEntry
from cardroom.store.migrate import PRE_ALEMBIC, head
from cardroom.store.schema import target_metadata
from tests.store.test_migrations import baseline_tables


async def state(url: str) -> tuple[str | None, list[object]]:
    """The database's revision and its differences from the code's metadata."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:

            def read(sync: sa.Connection) -> tuple[str | None, list[object]]:
                context = MigrationContext.configure(sync)
                return context.get_current_revision(), list(
                    compare_metadata(context, target_metadata())
                )

            return await conn.run_sync(read)
    finally:
        await engine.dispose()


async def test_a_new_database_gets_the_schema_the_code_uses(pg_url: str) -> None:
    store = await EventStore.open(pg_url)
    await store.close()
    assert store.upgraded is not None and store.upgraded.before is None
    assert await state(pg_url) == (head(), [])


async def test_servers_starting_at_once_on_a_pre_alembic_database_upgrade_it_once(
    pg_url: str,
) -> None:
    engine = create_async_engine(pg_url)
    meta = baseline_tables()
    async with engine.begin() as conn:
        await conn.run_sync(meta.create_all)
        await conn.execute(
            meta.tables["tables"].insert().values(
                id="t1", game="speed", created_at=1.0, status="over", title="Old", public=True,
                summary={},
            )
        )  # fmt: skip
    await engine.dispose()
    stores = await asyncio.gather(*(EventStore.open(pg_url) for _ in range(3)))
    try:
        done = [s.upgraded for s in stores if s.upgraded is not None]
        assert len(done) == 1 and done[0].before == PRE_ALEMBIC and done[0].backup is None
        [row] = await stores[0].list_tables()
        assert (row.id, row.title) == ("t1", "Old")
        await stores[1].append("t1", LogEntry(1, "created", {}, 1.0))
    finally:
        for store in stores:
            await store.close()
    assert await state(pg_url) == (head(), [])
