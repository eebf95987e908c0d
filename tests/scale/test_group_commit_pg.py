"""Group commit on PostgreSQL: many tables' appends share commits; a taken seq fails its caller."""

from __future__ import annotations

import asyncio
from typing import Any

from cardroom.store import EventStore, LogEntry, SeqConflict


def recorded_batches(store: EventStore) -> list[list[str]]:
    """The tables of each batch the store writes from now on, in order."""
    writes: list[list[str]] = []
    write_batch = store._write_batch

    async def counted(batch: list[Any]) -> None:
        writes.append([p.table_id for p in batch])
        await write_batch(batch)

    store._write_batch = counted  # type: ignore[method-assign]
    return writes


async def test_group_commit_on_postgresql(pg_url: str) -> None:
    store = await EventStore.open(pg_url)
    told: list[tuple[str, int]] = []
    store.announce = lambda table_id, entry: told.append((table_id, entry.seq))
    try:
        for t in range(10):
            await store.create_table(
                f"t{t}", "nain-jaune", LogEntry(1, "created", {}, 1.0), "", True, []
            )

        async def play(t: int) -> None:
            for seq in range(2, 5):
                await store.append(f"t{t}", LogEntry(seq, "action", {"n": t}, 2.0))

        before = store.batches
        await asyncio.gather(*(play(t) for t in range(10)))
        assert store.batches - before < 30
        for t in range(10):
            assert [(e.seq, e.data) for e in await store.entries(f"t{t}")][1:] == [
                (s, {"n": t}) for s in range(2, 5)
            ]
        writes = recorded_batches(store)
        results = await asyncio.gather(
            store.append("t0", LogEntry(5, "action", {}, 3.0)),
            store.append("t1", LogEntry(4, "action", {"again": True}, 3.0)),  # taken
            store.append("t2", LogEntry(5, "started", {}, 3.0), table_update={"status": "x"}),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], SeqConflict)
        assert str(results[1]) == "table t1 already has entry 4"
        # one batch of the three; PostgreSQL named t1, so t0 and t2 went again as one batch
        # (not each alone, three more transactions)
        assert writes == [["t0", "t1", "t2"], ["t0", "t2"]]
        assert [e.seq for e in await store.entries("t0")] == [1, 2, 3, 4, 5]
        assert (await store.entries("t1"))[-1].data == {"n": 1}
        assert await store.table_ids({"x"}) == ["t2"]
        assert ("t1", 4) in told and told.count(("t1", 4)) == 1 and ("t0", 5) in told
    finally:
        await store.close()


async def test_appends_take_no_pooled_connection_and_a_batch_is_all_or_nothing(
    pg_url: str,
) -> None:
    """The appends (and the ``tables`` updates) have their own connections: no checkout of
    SQLAlchemy's pool (whose pre-ping cost three round trips per batch); a batch of entries
    alone is one implicit transaction, so a taken seq in it writes none of its rows before
    the others go again."""
    import sqlalchemy as sa

    store = await EventStore.open(pg_url)
    checkouts: list[object] = []
    try:
        for t in range(3):
            await store.create_table(
                f"t{t}", "nain-jaune", LogEntry(1, "created", {}, 1.0), "", True, []
            )
        sa.event.listen(store.engine.sync_engine.pool, "checkout", lambda *a: checkouts.append(a))
        await asyncio.gather(
            *(store.append(f"t{t}", LogEntry(2, "action", {"n": t}, 2.0)) for t in range(3))
        )
        assert checkouts == []
        writes = recorded_batches(store)
        results = await asyncio.gather(
            store.append("t0", LogEntry(3, "action", {"k": 0}, 3.0)),
            store.append("t1", LogEntry(2, "action", {"again": True}, 3.0)),  # taken
            store.append("t2", LogEntry(3, "action", {"k": 2}, 3.0)),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], SeqConflict)
        assert writes == [["t0", "t1", "t2"], ["t0", "t2"]]
        await store.update_table("t2", {"status": "over", "summary": {"winner": "Ann's"}})
        assert checkouts == []
        assert await store.table_ids({"over"}) == ["t2"]
        assert [r.summary for r in await store.list_tables({"over"})] == [{"winner": "Ann's"}]
        # t0's row of the refused batch was not kept: written once, by the second batch
        assert [(e.seq, e.data) for e in await store.entries("t0")] == [
            (1, {}), (2, {"n": 0}), (3, {"k": 0})
        ]  # fmt: skip
        assert [(e.seq, e.data) for e in await store.entries("t1")] == [(1, {}), (2, {"n": 1})]
    finally:
        await store.close()


async def test_an_append_after_its_connection_was_cut_writes_on_a_new_one(pg_url: str) -> None:
    """The appends' connection is not pinged before use: one the database closed (as a
    restart does) is seen closed and replaced, and the append is written; an append while the
    database refuses connections fails with StoreUnavailable and writes nothing."""
    import asyncpg
    from sqlalchemy.engine import make_url

    from cardroom.store import StoreUnavailable
    from cardroom.tables.cluster import asyncpg_dsn

    name = make_url(pg_url).database
    store = await EventStore.open(pg_url)
    admin = await asyncpg.connect(
        asyncpg_dsn(
            make_url(pg_url).set(database="template1").render_as_string(hide_password=False)
        )
    )
    cut = "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1"

    try:
        await store.create_table("t0", "nain-jaune", LogEntry(1, "created", {}, 1.0), "", True, [])
        await store.append("t0", LogEntry(2, "action", {}, 2.0))
        assert await admin.fetchval(cut, name) >= 1
        await asyncio.sleep(0.2)  # (the closed sockets reach the loop)
        await store.append("t0", LogEntry(3, "action", {}, 3.0))
        await admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        try:
            assert await admin.fetchval(cut, name) >= 1
            await asyncio.sleep(0.2)
            try:
                await store.append("t0", LogEntry(4, "action", {"lost": True}, 4.0))
            except StoreUnavailable:
                pass
            else:
                raise AssertionError("an append with no connection to be had was written")
        finally:
            await admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        await store.append("t0", LogEntry(4, "action", {}, 4.0))
        assert [(e.seq, e.data) for e in await store.entries("t0")] == [
            (1, {}), (2, {}), (3, {}), (4, {})
        ]  # fmt: skip
    finally:
        await admin.close()
        await store.close()
