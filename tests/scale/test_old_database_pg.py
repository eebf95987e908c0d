"""A PostgreSQL database of the release before schema versions: its schema made with that
release's DDL, the rows of ``tests/data/db/main-9cbffa3.db`` copied in; opening it upgrades it
in place, keeps every table, and the unfinished ones resume as a fresh replay has them."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from cardroom.store import EventStore
from cardroom.store.migrate import PRE_ALEMBIC, head
from tests.store.old_database import check_resume, check_store, old_rows
from tests.store.test_migrations import baseline_tables


async def test_a_database_of_the_previous_release_is_upgraded_and_plays_on(pg_url: str) -> None:
    meta = baseline_tables()
    engine = create_async_engine(pg_url)
    async with engine.begin() as conn:
        await conn.run_sync(meta.create_all)
        for name, rows in old_rows().items():
            if rows:
                await conn.execute(meta.tables[name].insert(), rows)
        for name in ("events", "chat"):  # as a restored dump leaves the serial columns
            await conn.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"(SELECT coalesce(max(id), 0) + 1 FROM {name}), false)"
                )
            )
    await engine.dispose()
    store = await EventStore.open(pg_url)
    try:
        done = store.upgraded
        assert done is not None and done.before == PRE_ALEMBIC and done.after == head()
        await check_store(store)
        await check_resume(store)
    finally:
        await store.close()
