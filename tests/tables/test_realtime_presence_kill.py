"""kill -9 during a Spit countdown: after the restart nothing is logged for anyone until both
people are back, and the time the server was down is not game time."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cardroom.arbiter import replay
from cardroom.store import EventStore
from cardroom.tables import TableService
from tests.tables.helpers import until
from tests.tables.rt_kill_child import COUNTDOWN

ROOT = Path(__file__).parents[2]


def run_child(db: Path) -> str:
    """Start the child, wait for Ann's call, kill -9 it; return the table's id."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.tables.rt_kill_child", f"sqlite+aiosqlite:///{db}"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    watchdog = threading.Timer(60, child.kill)
    watchdog.start()
    try:
        assert child.stdout is not None
        table_id = ""
        for line in child.stdout:
            if line.startswith("table "):
                table_id = line.split()[1]
            if line.strip() == "ready":
                break
        child.kill()  # SIGKILL: the countdown is running
        child.wait()
    finally:
        watchdog.cancel()
    assert table_id, child.stderr.read() if child.stderr else "no output"
    return table_id


async def test_kill_9_in_a_countdown_waits_for_both_people(tmp_path: Path) -> None:
    db = tmp_path / "rtkill.db"
    table_id = await asyncio.to_thread(run_child, db)
    await asyncio.sleep(COUNTDOWN + 0.5)  # the countdown would have run out meanwhile
    store = await EventStore.open(f"sqlite+aiosqlite:///{db}")
    try:
        before = await store.entries(table_id)
        assert [e.kind for e in before[-2:]] == ["started", "action"]
        call = before[-1]
        left = before[-2].data["t"] + COUNTDOWN - call.data["t"]  # the start's countdown
        service = TableService(store)
        await service.start()
        assert await service.game_of(table_id) == "spit"
        after = await store.entries(table_id)
        assert [e.kind for e in after[len(before) :]] == ["away", "away"]
        assert all(e.data["since"] == call.data["t"] for e in after[len(before) :])
        table = service.realtime._live[table_id].table
        frame = service.frame_for(table_id, 0)
        assert frame["paused"]["countdown_left"] == pytest.approx(left)
        await asyncio.sleep(COUNTDOWN + 0.2)
        assert len(await store.entries(table_id)) == len(after)  # nothing while they are away
        ann = service.subscribe(table_id, 0)
        await until(lambda: table.away.keys() == {1})
        await asyncio.sleep(COUNTDOWN + 0.2)
        assert [e.kind for e in await store.entries(table_id)][len(after) :] == ["back"]
        bob = service.subscribe(table_id, 1)
        await until(lambda: not table.paused)
        back = (await store.entries(table_id))[-1]
        assert back.kind == "back"
        started = time.monotonic()
        await until(lambda: table.arbiter is not None and table.arbiter.timeouts == 1, 3000)
        assert time.monotonic() - started >= left - 0.3  # what was left of it, after
        timeout = (await store.entries(table_id))[-1]
        assert timeout.kind == "timeout"
        assert timeout.data["t"] == pytest.approx(back.data["t"] + left)
        # game time: the countdown ran out COUNTDOWN after the start, downtime excluded
        assert table.arbiter is not None
        assert table.arbiter.log[-1].t == pytest.approx(before[-2].data["t"] + COUNTDOWN)
        assert replay(table.record()).arbiter.timeouts == 1
        service.unsubscribe(ann)
        service.unsubscribe(bob)
        await service.stop()
    finally:
        await store.close()
