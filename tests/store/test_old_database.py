"""A SQLite file made by the release before schema versions (``tests/data/db/``): opening it
copies it beside itself, upgrades it in place, keeps every table, and the unfinished ones
resume in the state of a fresh replay of their log."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from cardroom.store import EventStore, resolve_url
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


async def test_cardroom_serve_says_it_upgraded_and_where_the_copy_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cardroom.cli.serve import check_database

    path = tmp_path / "club.db"
    shutil.copy(OLD_DB, path)
    await check_database(resolve_url(str(path)))
    [copy] = [p for p in tmp_path.iterdir() if ".before-" in p.name]
    said = capsys.readouterr().out
    assert f"upgraded the database's schema from before Alembic to {head()}" in said
    assert f"the file as it was is kept in {copy}" in said
    await check_database(resolve_url(str(path)))  # up to date: nothing to say
    assert capsys.readouterr().out == ""
