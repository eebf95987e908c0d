"""A SQLite file made by the release before schema versions (``tests/data/db/``): opening it
copies it beside itself, upgrades it in place, keeps every table, and the unfinished ones
resume in the state of a fresh replay of their log."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from cardroom.store import EventStore
from cardroom.store.migrate import PRE_ALEMBIC, head
from tests.store.old_database import OLD_DB, SEEN, UNFINISHED, check_resume, check_store


async def test_a_database_of_the_previous_release_is_upgraded_and_plays_on(
    tmp_path: Path,
) -> None:
    assert UNFINISHED and len(UNFINISHED) < len(SEEN)  # both kinds are in the fixture
    assert {SEEN[t]["game"] for t in UNFINISHED} == {"nain-jaune", "spit", "speed"}
    path = tmp_path / "cardroom.db"
    shutil.copy(OLD_DB, path)
    store = await EventStore.open(str(path))
    try:
        done = store.upgraded
        assert done is not None and done.before == PRE_ALEMBIC and done.after == head()
        assert done.backup is not None and done.backup.parent == tmp_path
        with sqlite3.connect(done.backup) as copy, sqlite3.connect(OLD_DB) as old:
            for name in ("tables", "seats", "events"):
                query = f"SELECT * FROM {name} ORDER BY 1, 2"
                assert copy.execute(query).fetchall() == old.execute(query).fetchall()
        await check_store(store)
        await check_resume(store)
    finally:
        await store.close()
