"""The store's schema under Alembic: a new database, one made before Alembic, one made by a newer
release, and several processes opening an old file at once (SQLite; PostgreSQL is in
``tests/scale/test_migrations_pg.py``)."""

from __future__ import annotations

import asyncio
import importlib.util
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from cardroom.store import EventStore, LogEntry, StoreError
from cardroom.store.migrate import BASELINE, MIGRATIONS, PRE_ALEMBIC, head
from cardroom.store.schema import target_metadata

ROOT = Path(__file__).resolve().parents[2]


def baseline_tables() -> sa.MetaData:
    """The schema the releases before Alembic made (the frozen baseline migration's tables)."""
    spec = importlib.util.spec_from_file_location(
        "baseline", MIGRATIONS / "versions" / f"{BASELINE}_baseline.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    meta = sa.MetaData()
    for name, items in module._tables():
        sa.Table(name, meta, *items)
    return meta


def make_pre_alembic(path: Path, *, chat: bool = True) -> None:
    """A file as ``EventStore.open`` made it before Alembic (create_all), with a table in it."""
    meta = baseline_tables()
    if not chat:
        meta.remove(meta.tables["chat"])
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.exec_driver_sql("PRAGMA journal_mode=WAL")
        meta.create_all(conn)
        conn.execute(
            meta.tables["tables"].insert().values(
                id="t1", game="nain-jaune", created_at=1.0, status="playing", title="Old",
                public=True, summary={"round": 2},
            )
        )  # fmt: skip
        conn.execute(
            meta.tables["events"]
            .insert()
            .values(table_id="t1", seq=1, kind="created", data={"x": 1}, at=1.0)
        )
    engine.dispose()


def schema_diff(path: Path) -> list[object]:
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), target_metadata())
    engine.dispose()
    return list(diff)


def revision_of(path: Path) -> list[tuple[str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT version_num FROM alembic_version").fetchall()


async def test_a_new_database_gets_the_schema_the_code_uses(tmp_path: Path) -> None:
    store = await EventStore.open(str(tmp_path / "new.db"))
    await store.close()
    assert store.upgraded is not None and store.upgraded.before is None
    assert store.upgraded.backup is None
    assert revision_of(tmp_path / "new.db") == [(head(),)]
    assert schema_diff(tmp_path / "new.db") == []  # the migrations make what metadata says
    assert [p.name for p in tmp_path.iterdir() if "before" in p.name] == []


async def test_a_database_made_before_alembic_is_copied_then_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    make_pre_alembic(path)
    store = await EventStore.open(str(path))
    try:
        done = store.upgraded
        assert done is not None and done.before == PRE_ALEMBIC and done.after == head()
        assert done.backup is not None and done.backup.parent == tmp_path
        assert done.backup.name.startswith("club.db.before-pre-alembic-")
        assert str(done.backup) in done.describe()
        [row] = await store.list_tables()
        assert (row.id, row.title, row.summary) == ("t1", "Old", {"round": 2})
        assert [e.kind for e in await store.entries("t1")] == ["created"]
        await store.append("t1", LogEntry(2, "joined", {"seat": 0}, 2.0))
    finally:
        await store.close()
    with sqlite3.connect(done.backup) as copy:  # the copy is the file as it was
        assert copy.execute("SELECT id, title FROM tables").fetchall() == [("t1", "Old")]
        assert copy.execute("SELECT count(*) FROM events").fetchone() == (1,)
        names = {r[0] for r in copy.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert "alembic_version" not in names
    assert revision_of(path) == [(head(),)]
    assert schema_diff(path) == []
    again = await EventStore.open(str(path))  # up to date: nothing done, no second copy
    await again.close()
    assert again.upgraded is None
    assert len([p for p in tmp_path.iterdir() if ".before-" in p.name]) == 1


async def test_an_older_database_without_the_chat_gets_it(tmp_path: Path) -> None:
    path = tmp_path / "older.db"
    make_pre_alembic(path, chat=False)
    store = await EventStore.open(str(path))
    await store.close()
    assert schema_diff(path) == []
    assert revision_of(path) == [(head(),)]


async def test_a_database_of_a_newer_release_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    store = await EventStore.open(str(path))
    await store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(StoreError, match=r"9999.*newer cardroom"):
        await EventStore.open(str(path))
    assert revision_of(path) == [("9999",)]
    assert [p.name for p in tmp_path.iterdir() if ".before-" in p.name] == []


OPEN = """
import asyncio, sys
from cardroom.store import EventStore
async def main():
    store = await EventStore.open(sys.argv[1])
    await store.close()
    print(store.upgraded is not None)
asyncio.run(main())
"""


def test_processes_opening_an_old_file_at_once_upgrade_it_once(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    make_pre_alembic(path)
    env = {"PYTHONPATH": str(ROOT / "src"), "CARDROOM_LANG": "en", "PATH": "/usr/bin:/bin"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", OPEN, str(path)], stdout=subprocess.PIPE, text=True, env=env
        )
        for _ in range(3)
    ]
    answers = [p.communicate(timeout=120)[0].strip() for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0]
    assert sorted(answers) == ["False", "False", "True"]  # one upgraded, the others waited
    assert len([p for p in tmp_path.iterdir() if ".before-" in p.name]) == 1
    assert revision_of(path) == [(head(),)]


async def test_stores_of_one_process_opening_at_once_agree(tmp_path: Path) -> None:
    path = tmp_path / "same.db"
    make_pre_alembic(path)
    stores = await asyncio.gather(*(EventStore.open(str(path)) for _ in range(3)))
    for store in stores:
        await store.close()
    assert sum(s.upgraded is not None for s in stores) == 1
    assert revision_of(path) == [(head(),)]
