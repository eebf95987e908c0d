"""Web tables: how long ``cardroom serve`` takes to answer, and to restart with 100 tables.

* ``cardroom serve`` start: from starting the command (a subprocess, a fresh database) until the
  first successful ``GET /``. Peer, measured in the same run: uvicorn serving a one-route
  Starlette app from the same interpreter (what Python, uvicorn and Starlette cost alone).
* Restart: 100 tables (one person, three bots) each played for a few of the person's moves,
  then ``EventStore.open`` + ``TableService.start()`` on that log (every unfinished table
  rebuilt by replaying its entries, its bots and timers resumed). Peer: reading every table's
  entries from the store without replaying them (the I/O part alone).

    PYTHONPATH=src python benchmarks/web_startup.py [--tables 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

PEER_APP = """
import sys, uvicorn
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route
async def home(request):
    return HTMLResponse("<p>hello</p>")
uvicorn.run(Starlette(routes=[Route("/", home)]), host="127.0.0.1", port=int(sys.argv[1]),
            log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def time_to_first_page(command: list[str], port: int) -> float:
    """Seconds from starting ``command`` until ``GET /`` on ``port`` answers 200."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as response:
                    if response.status == 200:
                        return time.perf_counter() - start
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(f"{command} exited with {process.returncode}") from None
                time.sleep(0.005)
    finally:
        process.terminate()
        process.wait(30)


async def fill(url: str, tables: int, moves: int) -> int:
    """Create ``tables`` tables of one person and three bots; the person plays ``moves`` times."""
    from cardroom.games.nain_jaune.rules import Rules
    from cardroom.store import EventStore
    from cardroom.tables import SeatSpec, TableConfig, TableService

    store = await EventStore.open(url)
    service = TableService(store)
    await service.start()
    entries = 0
    for i in range(tables):
        seats = (SeatSpec("person", name="Ann"), *[SeatSpec("bot", "medium")] * 3)
        config = TableConfig(
            rules=Rules(), seats=seats, seed=i, takeover_after=0.0, bot_delay=0.0
        )
        table = (await service.create(config)).table_id
        played = 0
        while played < moves:
            frame = service.frame_for(table, 0)
            rnd = frame["round"]
            if frame["status"] == "playing" and rnd and rnd["legal"]:
                await service.act(table, 0, rnd["legal"][0], frame["seq"])
                played += 1
            elif frame["status"] == "round-over":
                await service.ready(table, 0)
            elif frame["status"] == "over":
                break
            else:
                await asyncio.sleep(0.001)
        entries += service.frame_for(table, 0)["seq"]
        if (i + 1) % 10 == 0:
            print(f"  {i + 1} tables created", file=sys.stderr, flush=True)
    await service.stop()
    await store.close()
    return entries


async def restart(url: str) -> tuple[float, float, int]:
    """(seconds to open the store and start the service, seconds to read every log, tables)."""
    from cardroom.store import EventStore
    from cardroom.tables import TableService

    start = time.perf_counter()
    store = await EventStore.open(url)
    service = TableService(store)
    await service.start()
    started = time.perf_counter() - start
    await service.stop()
    await store.close()
    start = time.perf_counter()
    store = await EventStore.open(url)
    ids = await store.table_ids({"waiting", "playing"})
    for table_id in ids:
        await store.entries(table_id)
    read = time.perf_counter() - start
    await store.close()
    return started, read, len(ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=8, help="the person's moves per table")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows: list[tuple[str, str, list[float]]] = []
    with tempfile.TemporaryDirectory() as folder:
        serve_times, peer_times = [], []
        for i in range(args.repeat):
            port = free_port()
            db = str(Path(folder) / f"start{i}.db")
            command = [sys.executable, "-m", "cardroom", "serve", "--port", str(port), "--db", db]
            serve_times.append(time_to_first_page(command, port))
            port = free_port()
            peer_times.append(time_to_first_page([sys.executable, "-c", PEER_APP, str(port)], port))
        rows.append(("cardroom serve -> first GET /", "", serve_times))
        rows.append(("peer: bare uvicorn+Starlette", "", peer_times))
        url = f"sqlite+aiosqlite:///{Path(folder) / 'tables.db'}"
        entries = asyncio.run(fill(url, args.tables, args.moves))
        starts, reads = [], []
        tables = 0
        for _ in range(args.repeat):
            started, read, tables = asyncio.run(restart(url))
            starts.append(started)
            reads.append(read)
        detail = f"{tables} tables, {entries} entries"
        rows.append(("restart: open + start()", detail, starts))
        rows.append(("peer: read every log only", detail, reads))
    print(f"{'measure':<32} {'log':<28} {'best s':>8} {'median s':>9}")
    for name, detail, times in rows:
        times.sort()
        print(f"{name:<32} {detail:<28} {times[0]:8.3f} {times[len(times) // 2]:9.3f}")


if __name__ == "__main__":
    main()
