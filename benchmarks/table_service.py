"""What the durable log costs: bot games through the table service, beside the same games
applied to the in-memory table alone, and how fast a table is rebuilt from its log.

Plays ``--games`` 4-player games (easy bots, two rounds each, no delays) through a
TableService on a fresh SQLite file (WAL, synchronous=FULL: every entry is fsynced before the
next move), then replays each game's log into a NainJauneTable with no store (the peer: the
engine and the state machine alone), and times a restart (``start()`` rebuilding every table).
Prints one table.

    PYTHONPATH=src:. python benchmarks/table_service.py [--games 5]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.store import EventStore, LogEntry
from cardroom.tables import SeatSpec, TableConfig, TableService


def config(seed: int) -> TableConfig:
    seats = (SeatSpec("person"), *(SeatSpec("bot", "easy") for _ in range(3)))
    rules = Rules.from_options("classic", {"end": "rounds:2"})
    return TableConfig(rules=rules, seats=seats, seed=seed, level="easy", bot_delay=0)


async def run(games: int) -> list[tuple[str, int, float]]:
    rows: list[tuple[str, int, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        store = await EventStore.open(str(Path(folder) / "bench.db"))
        service = TableService(store)
        await service.start()
        start = time.perf_counter()
        ids = []
        for seed in range(games):
            created = await service.create(config(seed))
            await service.start_now(created.table_id, 0)
            ids.append(created.table_id)
        while any(service.table(t).status != "over" for t in ids):
            await asyncio.sleep(0.01)
        live = time.perf_counter() - start
        logs: list[list[LogEntry]] = [await store.entries(t) for t in ids]
        entries = sum(len(log) for log in logs)
        rows.append(("service + SQLite (fsync per entry)", entries, live))
        await service.stop()
        start = time.perf_counter()
        for table_id, log in zip(ids, logs, strict=True):
            NainJauneTable.replay(table_id, log)
        rows.append(
            ("NainJauneTable alone (replay, no store)", entries, time.perf_counter() - start)
        )
        # a restart rebuilds the unfinished tables: mark them unfinished to time it
        await store.engine.dispose()
        for table_id in ids:
            await store.update_table(table_id, {"status": "playing"})
        again = TableService(store)
        start = time.perf_counter()
        await again.start()
        rows.append(("restart: start() rebuilds every table", entries, time.perf_counter() - start))
        await again.stop()
        await store.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    rows = asyncio.run(run(args.games))
    print(f"{'path':<42} {'entries':>8} {'seconds':>8} {'entries/s':>10}")
    for name, entries, seconds in rows:
        print(f"{name:<42} {entries:>8} {seconds:>8.2f} {entries / seconds:>10.0f}")


if __name__ == "__main__":
    main()
