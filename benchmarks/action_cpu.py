"""CPU per table change in one server process: the store's commits and the Nain Jaune fan-out.

N tables run in one TableService on a fresh SQLite file (WAL, synchronous=FULL), as in
``cardroom serve`` but without the websockets: each table has 2 people (in-process scripted
players who subscribe to their seat, render every frame as a connection does (events' words
localized, JSON encoded) and act ``--think`` s after it is their turn) and 2 bots
(``--bot-delay``), plus ``--spectators`` watchers per table. Each row is a fresh process
measured for ``--seconds`` after ``--settle``: table changes per second and CPU milliseconds
(the whole process: event loop and SQLite thread) per change.

Rows: the store with one commit per entry (``max_batch=1``, the store before group commit)
beside group commit, group commit without the server's ``GcKeeper`` (``web/gcpause.py``:
survivors frozen every second, one full collection at its start), and with
``--peer-src DIR`` the same workload on another tree's ``src`` (e.g. the code before these
changes). ``loop lag``: how late a 10 ms sleep wakes (what every answer waits for on top of
its own work); ``longest GC``: the longest garbage collection pause of the window.

    PYTHONPATH=src:. python benchmarks/action_cpu.py [--tables 200] [--seconds 10]
        [--peer-src /tmp/old/src]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


async def measure(args: argparse.Namespace) -> dict[str, float]:
    """Run the workload in this process; returns changes/s and CPU ms per change."""
    from cardroom.games.nain_jaune import Rules
    from cardroom.i18n.words import localize_frame
    from cardroom.store import EventStore
    from cardroom.tables import SeatSpec, TableConfig, TableError, TableService
    from cardroom.web.protocol import encode

    def render(frame: dict[str, Any]) -> str:  # what web/routes/ws.py does for a connection
        try:
            from cardroom.web.routes.ws import render_frame
        except ImportError:
            if frame.get("events") or frame.get("game_result"):
                frame = localize_frame(frame, "en")
            return encode(frame)
        return str(render_frame(frame, "en"))

    with tempfile.TemporaryDirectory() as folder:
        store = await EventStore.open(str(Path(folder) / "cpu.db"))
        if args.max_batch:
            store.max_batch = args.max_batch
        service = TableService(store)
        await service.start()
        tasks: list[asyncio.Task[None]] = []
        if not args.no_freeze:
            with contextlib.suppress(ImportError):  # as cardroom serve does after its start
                from cardroom.web.gcpause import GcKeeper

                tasks.append(asyncio.create_task(GcKeeper().run()))
        rules = Rules.from_options("classic", {"end": "rounds:100"})
        seats = (SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob"),
                 SeatSpec("bot", "easy"), SeatSpec("bot", "easy"))  # fmt: skip
        changes = 0

        async def person(table_id: str, seat: int | None) -> None:
            nonlocal changes
            sub = service.subscribe(table_id, seat)
            acted: set[int] = set()
            async for frame in sub:
                render(frame)
                if seat is None:
                    continue
                changes += 1  # each change reaches both people: counted twice, halved below
                seq = frame["seq"]
                rnd = frame.get("round") or {}
                if seq in acted:
                    continue
                if frame["status"] == "playing" and rnd.get("legal"):
                    acted.add(seq)
                    tasks.append(asyncio.create_task(act(table_id, seat, rnd["legal"][0], seq)))
                elif frame["status"] == "round-over" and seat not in frame.get("ready", []):
                    acted.add(seq)
                    with contextlib.suppress(TableError):
                        await service.ready(table_id, seat)

        async def act(table_id: str, seat: int, action: str, seq: int) -> None:
            await asyncio.sleep(args.think)
            with contextlib.suppress(TableError):
                await service.act(table_id, seat, action, seq)

        for seed in range(args.tables):
            config = TableConfig(rules=rules, seats=seats, seed=seed, level="easy",
                                 bot_delay=args.bot_delay, takeover_after=0)  # fmt: skip
            created = await service.create(config)
            for seat in (0, 1, *([None] * args.spectators)):
                tasks.append(asyncio.create_task(person(created.table_id, seat)))
        await asyncio.sleep(args.settle)
        lags: list[float] = []
        pauses: list[float] = []

        async def lag() -> None:  # how late the event loop wakes a 10 ms sleep
            while True:
                start = time.perf_counter()
                await asyncio.sleep(0.01)
                lags.append(time.perf_counter() - start - 0.01)

        def on_gc(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                pauses.append(-time.perf_counter())
            elif pauses:
                pauses[-1] += time.perf_counter()

        gc.callbacks.append(on_gc)
        tasks.append(asyncio.create_task(lag()))
        c0, cpu0, t0 = changes, time.process_time(), time.perf_counter()
        await asyncio.sleep(args.seconds)
        c1, cpu1, t1 = changes, time.process_time(), time.perf_counter()
        gc.callbacks.remove(on_gc)
        await service.stop()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await store.close()
    done = (c1 - c0) / 2
    return {
        "changes_per_s": done / (t1 - t0),
        "cpu_ms": 1000 * (cpu1 - cpu0) / max(done, 1),
        "cpu": (cpu1 - cpu0) / (t1 - t0),
        "lag_p99_ms": 1000 * sorted(lags)[int(0.99 * len(lags))] if lags else 0.0,
        "lag_max_ms": 1000 * max(lags, default=0.0),
        "gc_max_ms": 1000 * max(pauses, default=0.0),
    }


def run_child(
    src: Path, args: argparse.Namespace, max_batch: int, freeze: bool
) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), str(ROOT)])}
    command = [sys.executable, __file__, "--one", "--max-batch", str(max_batch),
               "--tables", str(args.tables), "--seconds", str(args.seconds),
               "--settle", str(args.settle), "--think", str(args.think),
               "--bot-delay", str(args.bot_delay), "--spectators", str(args.spectators),
               *([] if freeze else ["--no-freeze"])]  # fmt: skip
    out = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip()[-800:])
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--settle", type=float, default=3.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--bot-delay", type=float, default=0.8)
    parser.add_argument("--spectators", type=int, default=0, help="watchers per table")
    parser.add_argument("--peer-src", type=Path, help="another tree's src (e.g. the code before)")
    parser.add_argument("--max-batch", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-freeze", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(asyncio.run(measure(args))))
        return
    print(
        f"action_cpu: {args.tables} tables (2 people, 2 bots, {args.spectators} spectators), "
        f"{args.seconds:.0f} s, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        "| code | commits | changes/s | CPU ms per change | process CPU | loop lag p99 ms | "
        "lag max ms | longest GC ms |"
    )
    print("|---|---|---|---|---|---|---|---|")
    runs = [("this tree", ROOT / "src", 1, True, "one per entry"),
            ("this tree, no GcKeeper", ROOT / "src", 0, False, "group commit"),
            ("this tree", ROOT / "src", 0, True, "group commit")]  # fmt: skip
    if args.peer_src is not None:
        runs.insert(0, (str(args.peer_src), args.peer_src, 0, True, "as that code does"))
    for name, src, max_batch, freeze, commits in runs:
        r = run_child(src, args, max_batch, freeze)
        print(
            f"| {name} | {commits} | {r['changes_per_s']:.0f} | {r['cpu_ms']:.2f} | "
            f"{r['cpu']:.2f} | {r['lag_p99_ms']:.1f} | {r['lag_max_ms']:.1f} | "
            f"{r['gc_max_ms']:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
