"""A PostgreSQL cluster for the scale tests (skipped, with the reason, where none can run)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

from cardroom.store import EventStore
from tests.pgcluster import PgCluster, why_not


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """One throwaway cluster on 127.0.0.1 for the whole session; stopped and removed after."""
    reason = why_not()
    if reason is not None:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    cluster = PgCluster()
    try:
        cluster.start()
    except RuntimeError as exc:
        cluster.destroy()
        pytest.skip(f"PostgreSQL tests skipped: cannot start a cluster: {exc}")
    yield cluster
    cluster.destroy()


async def _reset(url: str) -> None:
    import asyncpg

    from cardroom.tables.cluster import asyncpg_dsn

    conn = await asyncpg.connect(asyncpg_dsn(url))
    try:
        # every table, alembic_version and whatever later migrations add
        await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    finally:
        await conn.close()


@pytest.fixture
async def pg_url(pg_cluster: PgCluster) -> AsyncIterator[str]:
    """The cluster's URL with an empty schema (each test starts from no table)."""
    pg_cluster.start_if_stopped()
    await _reset(pg_cluster.url)
    yield pg_cluster.url


@pytest.fixture
async def pg_store(pg_url: str) -> AsyncIterator[EventStore]:
    store = await EventStore.open(pg_url)
    yield store
    await asyncio.wait_for(store.close(), 10)
