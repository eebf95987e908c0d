"""Group commit on PostgreSQL: many tables' appends share commits; a taken seq fails its caller."""

from __future__ import annotations

import asyncio
from typing import Any

from cardroom.store import EventStore, LogEntry, SeqConflict


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
        writes: list[list[str]] = []
        write_batch = store._write_batch

        async def counted(batch: list[Any]) -> None:
            writes.append([p.table_id for p in batch])
            await write_batch(batch)

        store._write_batch = counted  # type: ignore[method-assign]
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
