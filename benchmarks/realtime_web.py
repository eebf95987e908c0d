"""Spit and Speed on the web server: action-to-both-screens latency, and how many tables one
server process holds with bots at expert speed.

The server is a subprocess (uvicorn, one process, a SQLite log on a temporary file); the
clients are websockets on 127.0.0.1 in this process. Each measurement is bounded in time.

* ``bot table``: one Spit table of two expert bots (0.3-0.6 s a card) and two spectators: from
  the time the server stamped a bot's action (the frame's ``at``) until *both* clients have its
  frame.
* ``two clients``: a Speed table of two scripted people (websockets playing as fast as they
  can see, one action in flight each; one game after another): from a client sending an
  ``act`` until *both* clients have the frame of that action.
* ``capacity``: N Spit tables of two expert bots, two spectators each, N doubling until the p99
  of ``bot table`` passes 50 ms.

The peer, measured in the same run, is the same server with the store's writes skipped
(``append`` and the lobby projection do nothing): what the durable log adds to the fan-out.

    PYTHONPATH=src python benchmarks/realtime_web.py [--seconds 8] [--max-tables 128]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

LIMIT_MS = 50.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def serve(mode: str, port: int, db: str, kind: str, tables: int, out: str) -> None:
    """The server subprocess: the cardroom app on ``port``; once up it creates ``tables``
    tables (``bots``: expert bots, ``people``: two person seats) and writes their ids and
    seat tokens to ``out``."""
    import uvicorn

    from cardroom.store import EventStore
    from cardroom.tables import SeatSpec
    from cardroom.tables.realtime import RealtimeConfig
    from cardroom.web import Settings, create_app
    from cardroom.web.server import uvicorn_config

    if mode == "nostore":

        async def skip(self: EventStore, *args: Any, **kwargs: Any) -> None:
            return None

        EventStore.append = skip  # type: ignore[method-assign]
        EventStore.update_table = skip  # type: ignore[method-assign]
    settings = Settings(db_url=f"sqlite+aiosqlite:///{db}", rate_per_second=1e6, rate_burst=10**6)
    app = create_app(settings)
    config = uvicorn_config(app, settings, host="127.0.0.1", port=port)
    server = uvicorn.Server(config)

    async def main() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.02)
        service = app.state.service
        made: list[list[str]] = []
        for n in range(tables):
            if kind == "bots":
                bot = SeatSpec("bot", "expert")
                cfg = RealtimeConfig(game="spit", seats=(bot, bot), seed=1000 + n)
            else:
                cfg = RealtimeConfig(
                    game="speed",
                    options={"countdown": "1"},
                    seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob")),
                    seed=2000 + n,
                )
            created = await service.create_realtime(cfg)
            made.append([created.table_id, created.creator_token, *created.invites.values()])
        Path(out + ".tmp").write_text(json.dumps(made))
        os.replace(out + ".tmp", out)
        await task

    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(main())  # on the loop cardroom serve runs on (uvloop if installed)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


async def watch_bots(port: int, tables: list[list[str]], seconds: float) -> list[float]:
    """Two spectators a table; latency of each action = the later arrival - its ``at``."""
    import websockets

    arrivals: dict[tuple[str, int], list[float]] = {}
    stamps: dict[tuple[str, int], float] = {}
    sockets = []
    for row in tables:
        for _ in range(2):
            url = f"ws://127.0.0.1:{port}/ws/{row[0]}?watch=1"
            sockets.append((row[0], await websockets.connect(url, max_size=2**24)))

    async def read(table_id: str, ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in ws:
                now = time.time()
                frame = json.loads(text)
                if frame.get("type") == "state" and frame.get("at") is not None:
                    key = (table_id, frame["seq"])
                    stamps[key] = frame["at"]
                    arrivals.setdefault(key, []).append(now)

    readers = [asyncio.create_task(read(t, ws)) for t, ws in sockets]
    await asyncio.sleep(seconds)
    for _, ws in sockets:
        await ws.close()
    await asyncio.gather(*readers, return_exceptions=True)
    return [max(ts) - stamps[k] for k, ts in arrivals.items() if len(ts) == 2]


async def two_clients(port: int, row: list[str], seconds: float) -> tuple[list[float], int]:
    """Two scripted people race at one Speed table."""
    import websockets

    table_id, tokens = row[0], row[1:]
    sent: dict[str, float] = {}
    answered: dict[str, int] = {}
    arrivals: list[dict[int, float]] = [{}, {}]
    rng = random.Random(7)
    done = asyncio.Event()
    sockets = [
        await websockets.connect(f"ws://127.0.0.1:{port}/ws/{table_id}?token={t}") for t in tokens
    ]
    busy = [False, False]
    last: list[dict[str, Any] | None] = [None, None]

    async def decide(i: int) -> None:
        frame = last[i]
        if frame is None or busy[i] or frame.get("status") != "playing":
            return
        legal = (frame.get("table_view") or {}).get("legal") or []
        plays = [a for a in legal if a["type"] == "play"]
        calls = [a for a in legal if a["type"] == "call"]
        action = rng.choice(plays) if plays else (calls[0] if calls else None)
        if action is None:
            return
        ref = f"{i}-{len(sent)}"
        busy[i] = True
        sent[ref] = time.time()
        await sockets[i].send(json.dumps({"type": "act", "action": action, "id": ref}))

    async def read(i: int) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in sockets[i]:
                now = time.time()
                frame = json.loads(text)
                if frame.get("type") == "error":
                    busy[i] = False
                elif frame.get("type") == "state":
                    arrivals[i].setdefault(frame["seq"], now)
                    last[i] = frame
                    if frame.get("ref") is not None:
                        answered[frame["ref"]] = frame["seq"]
                        busy[i] = False
                    if frame["status"] == "over":
                        done.set()
                        return
                await decide(i)

    readers = [asyncio.create_task(read(i)) for i in (0, 1)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done.wait(), seconds)
    for ws in sockets:
        await ws.close()
    await asyncio.gather(*readers, return_exceptions=True)
    out = []
    for ref, seq in answered.items():
        if seq in arrivals[0] and seq in arrivals[1]:
            out.append(max(arrivals[0][seq], arrivals[1][seq]) - sent[ref])
    return out, len(sent)


def run(mode: str, kind: str, tables: int, seconds: float, folder: Path) -> dict[str, Any]:
    port = free_port()
    db = str(folder / f"{mode}-{kind}-{tables}.db")
    out = str(folder / f"{mode}-{kind}-{tables}.json")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    args = [sys.executable, __file__, "--serve", mode, str(port), db, kind, str(tables), out]
    server = subprocess.Popen(args, env=env)
    try:
        end = time.monotonic() + 60
        while not Path(out).exists():
            if time.monotonic() > end or server.poll() is not None:
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        rows = json.loads(Path(out).read_text())
        if kind == "bots":
            latency = asyncio.run(watch_bots(port, rows, seconds))
            return {"latency": latency, "actions": len(latency)}
        latency, acts = [], 0
        end = time.monotonic() + seconds
        for row in rows:  # one game after another until the time is up
            left = end - time.monotonic()
            if left <= 0:
                break
            more, sent = asyncio.run(two_clients(port, row, left))
            latency += more
            acts += sent
        return {"latency": latency, "actions": acts}
    finally:
        server.terminate()
        server.wait(30)


def line(label: str, peer: str, tables: int, result: dict[str, Any], seconds: float) -> str:
    lat = result["latency"]
    return (
        f"{label:<24} {peer:<22} {tables:>6} {len(lat):>8} {len(lat) / seconds:8.1f} "
        f"{pct(lat, 0.5):8.2f} {pct(lat, 0.99):8.2f} {max(lat, default=0) * 1000:8.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="each measurement's length")
    parser.add_argument("--max-tables", type=int, default=128, help="capacity search bound")
    parser.add_argument("--serve", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        mode, port, db, kind, tables, out = args.serve
        serve(mode, int(port), db, kind, int(tables), out)
        return
    seconds = args.seconds
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"{os.cpu_count()} CPUs, load average {load}; each row {seconds:.0f} s; "
        "latency = action -> both screens"
    )
    head = f"{'scenario':<24} {'server':<22} {'tables':>6} {'actions':>8} {'per s':>8} "
    print(head + f"{'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for mode, label in (("full", "cardroom (SQLite log)"), ("nostore", "peer: no store")):
            print(line("bot table (expert)", label, 1, run(mode, "bots", 1, seconds, folder),
                       seconds), flush=True)  # fmt: skip
        for mode, label in (("full", "cardroom (SQLite log)"), ("nostore", "peer: no store")):
            print(line("two clients (people)", label, 1,
                       run(mode, "people", 8, seconds, folder), seconds), flush=True)  # fmt: skip
        held = 0
        tables = 2
        while tables <= args.max_tables:
            for mode, label in (("full", "cardroom (SQLite log)"), ("nostore", "peer: no store")):
                result = run(mode, "bots", tables, seconds, folder)
                print(line("capacity: expert bots", label, tables, result, seconds), flush=True)
                if mode == "full":
                    ok = pct(result["latency"], 0.99) <= LIMIT_MS
            if not ok:
                break
            held = tables
            tables *= 2
        bound = f"p99 <= {LIMIT_MS:.0f} ms"
        if tables <= args.max_tables:
            print(f"one process holds {held} expert bot tables ({bound}); {tables} passed it")
        else:
            print(f"one process holds at least {held} expert bot tables ({bound})")

if __name__ == "__main__":
    main()
