"""A database made by the release before schema versions, and the checks of its upgrade.

``tests/data/db/main-9cbffa3.db`` was made by ``tests/data/make_old_database.py`` run with the
code of main at 9cbffa3 (the last commit before Alembic); ``main-9cbffa3.json`` is what that
code saw of each table. The SQLite test opens a copy; the PostgreSQL one makes the old schema
with that release's DDL and copies the rows in.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any, cast

from cardroom.games.nain_jaune.table import NainJauneTable, action_text
from cardroom.store import EventStore
from cardroom.tables import TableService
from cardroom.tables.realtime import RealtimeTable

DATA = Path(__file__).resolve().parents[1] / "data" / "db"
OLD_DB = DATA / "main-9cbffa3.db"
SEEN: dict[str, dict[str, Any]] = json.loads((DATA / "main-9cbffa3.json").read_text())
UNFINISHED = sorted(t for t, v in SEEN.items() if v["status"] != "over")


def old_rows() -> dict[str, list[dict[str, Any]]]:
    """Every row of the old file, table by table (JSON columns decoded)."""
    out: dict[str, list[dict[str, Any]]] = {}
    with sqlite3.connect(OLD_DB) as conn:
        conn.row_factory = sqlite3.Row
        for name in ("tables", "seats", "events", "chat"):
            rows = [dict(r) for r in conn.execute(f"SELECT * FROM {name}")]
            for row in rows:
                for key in ("summary", "data"):
                    if isinstance(row.get(key), str):
                        row[key] = json.loads(row[key])
                for key in ("public", "joined"):
                    if key in row:
                        row[key] = bool(row[key])
            out[name] = rows
    return out


def same_view(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """``new`` holds every field ``old`` had, with the same value (new fields may be added)."""
    return all(k in new and new[k] == v for k, v in old.items())


def check_replay(table_id: str, entries: list[Any]) -> None:
    """Today's code replays the old log to what the old code saw."""
    seen = SEEN[table_id]
    assert len(entries) == seen["entries"]
    if seen["game"] == "nain-jaune":
        table = NainJauneTable.replay(table_id, entries)
        assert table.status == seen["status"]
        record = json.loads(json.dumps(table.record()))
        assert all(r.pop("version") == {"format": 2, "rules": 1} for r in record)  # new field
        assert record == seen["record"]
        assert table.game is not None and list(table.game.chips) == seen["chips"]
        turn = table.turn()
        assert (None if turn is None else turn.seat) == seen["turn"]
        return
    rt = RealtimeTable.replay(table_id, entries)
    assert rt.status == seen["status"]
    assert (
        rt.engine is not None and rt.engine.rules_version == {"spit": 2, "speed": 3}[seen["game"]]
    )
    record = rt.record()
    assert record["game"] == seen["game"]
    assert record["actions"] == seen["actions"] and record["start"] == seen["start"]
    for seat in (0, 1):
        assert same_view(rt.frame(seat)["table_view"], seen["views"][seat])


async def check_store(store: EventStore) -> None:
    """Every table is there with its seats and log, and replays as it was played."""
    rows = await store.list_tables()
    assert sorted(r.id for r in rows) == sorted(SEEN)
    old = {r["id"]: r for r in old_rows()["tables"]}
    for row in rows:
        assert (row.game, row.status, row.title) == (
            old[row.id]["game"], old[row.id]["status"], old[row.id]["title"]
        )  # fmt: skip
        check_replay(row.id, await store.entries(row.id))


async def check_resume(store: EventStore) -> None:
    """A new service resumes the unfinished tables in the state of a fresh replay; they go on."""
    service = TableService(store, coordinate=False)
    await service.start()
    try:
        for table_id in UNFINISHED:
            entries = await store.entries(table_id)
            if SEEN[table_id]["game"] == "nain-jaune":
                live = cast(NainJauneTable, service.table(table_id))
                fresh = NainJauneTable.replay(table_id, entries)
                assert live.seq == fresh.seq == len(entries)
                assert live.record() == fresh.record()
                turn = live.turn()
                assert turn is not None and turn.seat == 0  # Ann is to play, as she was
                assert live.round is not None
                move = random.Random(7).choice(live.round.legal_actions())
                await service.act(table_id, 0, action_text(move), live.seq)
                after = await store.entries(table_id)
                # (a bot with no delay may already have answered: Ann's is the next entry)
                mine = after[len(entries)]
                assert mine.seq == len(entries) + 1 and mine.data["seat"] == 0
            else:
                rebuilt = RealtimeTable.replay(table_id, entries)
                for seat in (0, 1):
                    live_view = service.realtime.frame_for(table_id, seat)["table_view"]
                    assert live_view == rebuilt.frame(seat)["table_view"]
                    assert same_view(live_view, SEEN[table_id]["views"][seat])
                assert service.realtime.status(table_id) == "playing"
    finally:
        await service.stop()
