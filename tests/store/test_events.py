"""EventStore: the log's order and uniqueness, the projections, URLs and unusable places."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from cardroom.store import EventStore, LogEntry, SeqConflict, StoreError, resolve_url

SEATS = [
    {"seat": 0, "kind": "person", "name": "Ann", "token_hash": "aa", "joined": True},
    {"seat": 1, "kind": "bot", "name": "Bot 2", "level": "easy", "joined": True},
]


async def test_entries_come_back_in_seq_order_and_a_seq_is_taken_once(tmp_path: Path) -> None:
    store = await EventStore.open(str(tmp_path / "log.db"))
    try:
        await store.create_table(
            "t1", "nain-jaune", LogEntry(1, "created", {"x": 1}, 1.0), "", True, SEATS
        )
        await store.append("t1", LogEntry(3, "ready", {"seat": 0}, 3.0))
        await store.append("t1", LogEntry(2, "joined", {"seat": 0, "name": "Ann"}, 2.0))
        with pytest.raises(SeqConflict):
            await store.append("t1", LogEntry(2, "action", {"seat": 1}, 4.0))
        entries = await store.entries("t1")
        assert [(e.seq, e.kind) for e in entries] == [(1, "created"), (2, "joined"), (3, "ready")]
        assert entries[1].data == {"seat": 0, "name": "Ann"}
        assert await store.entries("nope") == []
    finally:
        await store.close()


async def test_a_conflicting_append_changes_no_projection(tmp_path: Path) -> None:
    store = await EventStore.open(str(tmp_path / "log.db"))
    try:
        await store.create_table(
            "t1", "nain-jaune", LogEntry(1, "created", {}, 1.0), "T", False, SEATS
        )
        with pytest.raises(SeqConflict):
            await store.append(
                "t1", LogEntry(1, "started", {}, 2.0), table_update={"status": "playing"}
            )
        [row] = await store.list_tables()
        assert row.status == "waiting" and row.title == "T" and row.public is False
        await store.append(
            "t1",
            LogEntry(2, "started", {}, 2.0),
            table_update={"status": "playing"},
            seats_update=[{"seat": 0, "name": "Zoe"}],
        )
        [row] = await store.list_tables(status={"playing"}, public=False)
        assert row.seats[0]["name"] == "Zoe" and "token_hash" not in row.seats[0]
        assert await store.list_tables(public=True) == []
        assert await store.table_ids({"waiting"}) == [] and await store.table_ids() == ["t1"]
        with pytest.raises(SeqConflict):  # the same table id twice
            await store.create_table(
                "t1", "nain-jaune", LogEntry(1, "created", {}, 1.0), "", True, []
            )
    finally:
        await store.close()


async def test_the_log_survives_closing_and_reopening(tmp_path: Path) -> None:
    path = str(tmp_path / "sub" / "log.db")  # the folder is created
    store = await EventStore.open(path)
    await store.create_table(
        "t1", "nain-jaune", LogEntry(1, "created", {"é": "ü"}, 1.5), "", True, []
    )
    await store.close()
    store = await EventStore.open(path)
    try:
        assert await store.entries("t1") == [LogEntry(1, "created", {"é": "ü"}, 1.5)]
    finally:
        await store.close()


def test_db_urls(tmp_path: Path) -> None:
    assert resolve_url(str(tmp_path / "x.db")) == f"sqlite+aiosqlite:///{tmp_path / 'x.db'}"
    assert resolve_url("sqlite:///rel.db") == "sqlite+aiosqlite:///rel.db"
    assert resolve_url("postgresql://u:p@h/db") == "postgresql+asyncpg://u:p@h/db"
    assert resolve_url(None).startswith("sqlite+aiosqlite:///") and resolve_url(None).endswith(
        "cardroom.db"
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
async def test_an_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(StoreError, match="cannot write the database folder"):
            await EventStore.open(str(locked / "log.db"))
    finally:
        locked.chmod(0o700)


async def test_a_file_in_the_way_of_the_folder_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(StoreError, match="cannot create the folder of"):
        await EventStore.open(str(tmp_path / "file" / "log.db"))
    with pytest.raises(StoreError, match="cannot read the database URL"):
        resolve_url("::://")


async def test_sqlite_runs_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    import sqlalchemy as sa

    store = await EventStore.open(str(tmp_path / "log.db"))
    try:
        async with store.engine.connect() as conn:
            mode = (await conn.execute(sa.text("PRAGMA journal_mode"))).scalar()
            sync = (await conn.execute(sa.text("PRAGMA synchronous"))).scalar()
        assert mode == "wal" and sync == 2  # 2 = FULL: a commit is fsynced before it returns
    finally:
        await store.close()


async def _with_tables(tmp_path: Path, n: int) -> EventStore:
    store = await EventStore.open(str(tmp_path / "log.db"))
    for t in range(n):
        await store.create_table(
            f"t{t}", "nain-jaune", LogEntry(1, "created", {}, 1.0), "", True, SEATS
        )
    return store


async def test_concurrent_appends_of_many_tables_share_commits_and_land_in_order(
    tmp_path: Path,
) -> None:
    store = await _with_tables(tmp_path, 20)
    told: list[tuple[str, int]] = []
    store.announce = lambda table_id, entry: told.append((table_id, entry.seq))
    try:

        async def play(t: int) -> None:
            for seq in range(2, 7):  # each table's entries one after the other, as the service
                await store.append(f"t{t}", LogEntry(seq, "action", {"n": seq * 100 + t}, 2.0))

        before = store.batches
        await asyncio.gather(*(play(t) for t in range(20)))
        # 100 entries: the 20 tables' appends that meet while a commit is in flight share one
        assert store.batches - before < 100
        for t in range(20):
            entries = await store.entries(f"t{t}")
            assert [e.seq for e in entries] == [1, 2, 3, 4, 5, 6]
            assert [e.data.get("n") for e in entries[1:]] == [s * 100 + t for s in range(2, 7)]
        assert sorted(told) == sorted((f"t{t}", s) for t in range(20) for s in range(2, 7))
        for t in range(20):  # each table told in its own order
            assert [s for i, s in told if i == f"t{t}"] == [2, 3, 4, 5, 6]
    finally:
        await store.close()


async def test_appends_that_come_together_wait_for_the_window_and_a_lone_one_does_not(
    tmp_path: Path,
) -> None:
    store = await _with_tables(tmp_path, 3)
    loop = asyncio.get_running_loop()
    try:
        store.commit_interval = 30.0  # a lone append held back by it would take minutes
        start, before = loop.time(), store.batches
        for seq in range(2, 5):  # one table's entries one after the other: a commit each
            await store.append("t0", LogEntry(seq, "action", {"n": seq}, 2.0))
        assert store.batches - before == 3
        assert loop.time() - start < 20.0

        store.commit_interval = 1.0
        await asyncio.gather(  # three at once: one batch, at once (the last was of one)
            *(store.append(f"t{t}", LogEntry(5 if t == 0 else 2, "action", {}, 3.0))
              for t in range(3))
        )  # fmt: skip
        before = store.batches
        # the next three come one by one just after a batch of three: the first waits for
        # the window, the others join it (unpaced, the first would be written alone)
        first = asyncio.create_task(store.append("t0", LogEntry(6, "action", {"n": 6}, 4.0)))
        for _ in range(3):
            await asyncio.sleep(0)
        rest = [
            asyncio.create_task(store.append(f"t{t}", LogEntry(3, "action", {"n": t}, 4.0)))
            for t in (1, 2)
        ]
        await asyncio.gather(first, *rest)
        assert store.batches - before == 1
        assert [e.seq for e in await store.entries("t0")] == [1, 2, 3, 4, 5, 6]
        for t in (1, 2):
            assert [(e.seq, e.data) for e in await store.entries(f"t{t}")][2] == (3, {"n": t})
    finally:
        await store.close()


async def test_a_duplicate_seq_in_a_batch_fails_only_its_own_caller(tmp_path: Path) -> None:
    store = await _with_tables(tmp_path, 3)
    try:
        await store.append("t1", LogEntry(2, "action", {"first": True}, 2.0))
        results = await asyncio.gather(
            store.append("t0", LogEntry(2, "action", {}, 3.0)),
            store.append("t1", LogEntry(2, "action", {"second": True}, 3.0)),  # taken
            store.append("t2", LogEntry(2, "joined", {}, 3.0), table_update={"status": "x"}),
            store.append("t2", LogEntry(3, "action", {}, 3.0)),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None and results[3] is None
        assert isinstance(results[1], SeqConflict) and "t1 already has entry 2" in str(results[1])
        assert [e.seq for e in await store.entries("t0")] == [1, 2]
        assert [e.data for e in await store.entries("t1")] == [{}, {"first": True}]
        assert [e.seq for e in await store.entries("t2")] == [1, 2, 3]
        assert await store.table_ids({"x"}) == ["t2"]
    finally:
        await store.close()


async def test_a_crash_mid_batch_fails_every_caller_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await _with_tables(tmp_path, 3)
    told: list[str] = []
    store.announce = lambda table_id, entry: told.append(table_id)

    def crash(batch: list[object]) -> None:
        raise RuntimeError(f"crash after writing {len(batch)} entries")

    try:
        await store.append("t0", LogEntry(2, "action", {}, 2.0))  # before the crash: kept
        monkeypatch.setattr(store, "_before_commit", crash)
        results = await asyncio.gather(
            *(
                store.append(
                    f"t{t}", LogEntry(3, "action", {}, 3.0), seats_update=[{"seat": 0, "name": "Z"}]
                )
                for t in range(3)
            ),
            return_exceptions=True,
        )
        assert all(isinstance(r, RuntimeError) for r in results), results
        assert [e.seq for e in await store.entries("t0")] == [1, 2]
        assert [e.seq for e in await store.entries("t1")] == [1]
        assert all(r.seats[0]["name"] == "Ann" for r in await store.list_tables())
        assert told == ["t0"]
        monkeypatch.undo()
        await store.append("t1", LogEntry(2, "action", {}, 4.0))  # the store goes on
        assert [e.seq for e in await store.entries("t1")] == [1, 2]
    finally:
        await store.close()
