"""EventStore: the log's order and uniqueness, the projections, URLs and unusable places."""

from __future__ import annotations

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
