"""What a shared bound costs: one ``BoundStore.take`` (a counted request in the store's ``bounds``
table, so every server process sees it) against the per-process ``Window`` it replaces (the
peer), on SQLite and, when a cluster can be started, PostgreSQL.

    PYTHONPATH=src:. python benchmarks/bound_take.py [--takes 500]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time

from cardroom.store import EventStore
from cardroom.store.bounds import BoundStore
from cardroom.web.limits import Window


async def timed_takes(url: str, takes: int) -> list[float]:
    store = await EventStore.open(url)
    try:
        bounds = BoundStore(store)
        out = []
        for i in range(takes):
            start = time.perf_counter()
            await bounds.take(f"tables:10.0.{i % 50}.1", 10, 60.0)
            out.append(1000 * (time.perf_counter() - start))
        return out
    finally:
        await store.close()


def window_takes(takes: int) -> list[float]:
    window = Window(10, 60.0, time.monotonic, "tables")
    out = []
    for i in range(takes):
        start = time.perf_counter()
        key = f"10.0.{i % 50}.1"
        if window.wait(key) <= 0:
            window.note(key)
        out.append(1000 * (time.perf_counter() - start))
    return out


def row(label: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return f"| {label} | {len(ms)} | {statistics.median(ms):.3f} | {p99:.3f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--takes", type=int, default=500)
    args = parser.parse_args()
    rows = [row("per-process Window (peer)", window_takes(args.takes))]
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/b.db"
        rows.append(row("BoundStore.take, SQLite", asyncio.run(timed_takes(url, args.takes))))
    try:
        from tests.pgcluster import PgCluster, why_not
    except ImportError:
        why = "tests.pgcluster is not importable"
    else:
        why = why_not()
    if why is None:
        cluster = PgCluster()
        try:
            cluster.start()
            pg = asyncio.run(timed_takes(cluster.url, args.takes))
            rows.append(row("BoundStore.take, PostgreSQL", pg))
        finally:
            cluster.destroy()
    else:
        print(f"(PostgreSQL skipped: {why})")
    print(f"one counted request, wall ms; load avg {os.getloadavg()[0]:.1f}")
    print("| counter | takes | median ms | p99 ms |")
    print("|---|---:|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
