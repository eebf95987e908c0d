"""kill -9 at random moments: every acknowledged entry survives and tables rebuild exactly."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.store import EventStore, LogEntry
from tests.tables.kill_child import digest

ROOT = Path(__file__).parents[2]
KILLS = 4


async def read_log(path: Path) -> dict[str, list[LogEntry]]:
    store = await EventStore.open(str(path))
    try:
        return {tid: await store.entries(tid) for tid in await store.table_ids()}
    finally:
        await store.close()


def test_kill_9_loses_no_acknowledged_entry(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    rng = random.Random(2026)
    acknowledged: dict[tuple[str, int], str] = {}
    high: dict[str, int] = {}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    rebuilt_tables = 0
    for run in range(KILLS):
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.tables.kill_child", str(db), str(run)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        watchdog = threading.Timer(60, child.kill)  # a hung child fails the test, never hangs it
        watchdog.start()
        assert child.stdout is not None
        states: list[tuple[str, int, str]] = []
        target = rng.randint(10, 120)
        seen = 0
        lines: list[str] = []
        while seen < target:
            line = child.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("seq "):
                seen += 1
        time.sleep(rng.random() * 0.05)
        child.send_signal(signal.SIGKILL)
        child.wait()
        watchdog.cancel()
        lines += child.stdout.read().splitlines(keepends=True)  # printed before it died
        assert child.returncode == -signal.SIGKILL, child.stderr.read() if child.stderr else ""
        assert seen == target, "the child stopped before it was killed"
        for line in lines:
            words = line.split()
            if words[0] == "seq":
                acknowledged[(words[1], int(words[2]))] = words[3]
            elif words[0] == "state":
                states.append((words[1], int(words[2]), words[3]))
        log = asyncio.run(read_log(db))
        # every entry the child reported as committed is in the log, as it was reported
        for (table_id, seq), kind in acknowledged.items():
            entries = log[table_id]
            assert len(entries) >= seq and entries[seq - 1].kind == kind, (table_id, seq)
        for table_id, entries in log.items():
            assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
            assert len(entries) >= high.get(table_id, 0)  # never backwards
            high[table_id] = len(entries)
        # what the child rebuilt at start-up equals a fresh replay of the log up to there
        for table_id, seq, child_digest in states:
            fresh = NainJauneTable.replay(table_id, log[table_id][:seq])
            assert digest(fresh) == child_digest
            rebuilt_tables += 1
    assert rebuilt_tables >= KILLS - 1  # every restart after the first had tables to rebuild
