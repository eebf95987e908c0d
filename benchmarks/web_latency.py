"""Web tables: latency from an action to every client, at one table of 8.

One scripted person and 7 bots (bot delay 0) play whole rounds on a real uvicorn server on
127.0.0.1 (a subprocess); the person's websocket, 7 more websockets standing for the bot seats
(they watch: a bot seat has no token) and a spectator record when each frame arrives. The
servers have no rate limit: the scripted person answers at machine speed.

* ``act -> all 9``: from the person sending an ``act`` until each of the 9 clients has the frame
  of that action.
* ``any action -> client``: from the time the server logged an action (person or bot, the
  entry's ``at``) until a client has its frame (full mode only: the peer keeps no log).

The peer, measured in the same run, is the same server and table with the store's writes
skipped (``append`` and the lobby projection do nothing): what the durable log (SQLite, WAL,
synchronous=FULL, one transaction per action) adds to the fan-out.

    PYTHONPATH=src python benchmarks/web_latency.py [--rounds 30] [--seconds 60]
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
import urllib.request
from pathlib import Path
from typing import Any

CLIENTS = 9


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def serve(mode: str, port: int, db: str) -> None:
    """The server subprocess: the cardroom app (``mode`` "full" or "nostore") on ``port``."""
    import uvicorn

    from cardroom.store import EventStore
    from cardroom.web import Settings, create_app
    from cardroom.web.server import uvicorn_config

    if mode == "nostore":

        async def skip(self: EventStore, *args: Any, **kwargs: Any) -> None:
            return None

        EventStore.append = skip  # type: ignore[method-assign]
        EventStore.update_table = skip  # type: ignore[method-assign]
    # the scripted person answers at machine speed (many forced passes a second): no rate limit
    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0, rate_per_second=1e6, rate_burst=10**6
    )
    config = uvicorn_config(create_app(settings), settings, host="127.0.0.1", port=port)
    uvicorn.Server(config).run()  # on the loop cardroom serve runs on (uvloop if installed)


def wait_up(port: int, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError("the server did not start")


def create_table(port: int, rounds: int) -> tuple[str, str]:
    body = {
        "name": "Ann",
        "players": 8,
        "seats": [{"kind": "person"}] + [{"kind": "bot", "level": "medium"}] * 7,
        "end": f"rounds:{rounds}",
        "starting_chips": 1000,
        "takeover_after": 0,
    }
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        table = json.loads(response.read())["table"]
        cookie = response.headers["set-cookie"].split(";", 1)[0]
    return table, cookie.split("=", 1)[1]


async def run_clients(port: int, table: str, token: str, seconds: float) -> dict[str, Any]:
    import websockets

    sent: dict[int, float] = {}
    arrivals: list[list[tuple[int, float]]] = [[] for _ in range(CLIENTS)]
    done = asyncio.Event()
    rng = random.Random(1)
    url = f"ws://127.0.0.1:{port}/ws/{table}"
    sockets = [await websockets.connect(f"{url}?token={token}")]
    sockets += [await websockets.connect(url) for _ in range(CLIENTS - 1)]

    async def read(i: int) -> None:
        ws = sockets[i]
        acted: set[int] = set()
        async for text in ws:
            now = time.time()
            frame = json.loads(text)
            if frame["type"] != "state":
                continue
            arrivals[i].append((frame["seq"], now))
            if frame["status"] == "over":
                done.set()
                return
            if i != 0 or frame["seq"] in acted:
                continue
            rnd = frame["round"]
            if frame["status"] == "playing" and rnd and rnd.get("legal"):
                acted.add(frame["seq"])
                sent[frame["seq"]] = time.time()
                message = {"type": "act", "action": rng.choice(rnd["legal"]), "seq": frame["seq"]}
                await ws.send(json.dumps(message))
            elif frame["status"] == "round-over" and 0 not in frame["ready"]:
                acted.add(frame["seq"])
                await ws.send(json.dumps({"type": "ready"}))

    readers = [asyncio.create_task(read(i)) for i in range(CLIENTS)]
    started = time.monotonic()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done.wait(), seconds)
    elapsed = time.monotonic() - started
    for ws in sockets:
        await ws.close()
    await asyncio.gather(*readers, return_exceptions=True)
    act_latency = []
    for seq, t0 in sent.items():
        for client in arrivals:
            t1 = next((t for s, t in client if s > seq), None)
            if t1 is not None:
                act_latency.append(t1 - t0)
    return {"act": act_latency, "arrivals": arrivals, "elapsed": elapsed, "acts": len(sent)}


async def log_times(db: str, table: str) -> dict[int, float]:
    from cardroom.store import EventStore

    store = await EventStore.open(f"sqlite+aiosqlite:///{db}")
    try:
        return {e.seq: e.at for e in await store.entries(table) if e.kind == "action"}
    finally:
        await store.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def measure(mode: str, rounds: int, seconds: float, folder: Path) -> list[str]:
    port = free_port()
    db = str(folder / f"{mode}.db")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", mode, str(port), db], env=env
    )
    try:
        wait_up(port)
        table, token = create_table(port, rounds)
        result = asyncio.run(run_clients(port, table, token, seconds))
    finally:
        server.terminate()
        server.wait(30)
    rows = []
    act = result["act"]
    label = "cardroom (SQLite log)" if mode == "full" else "peer: store writes skipped"
    rows.append(
        f"{label:<28} {'act -> all 9':<22} {len(act):>7} {pct(act, 0.5):8.2f} "
        f"{pct(act, 0.99):8.2f} {max(act, default=0) * 1000:8.2f} "
        f"{result['acts']:>6} {result['elapsed']:7.1f}"
    )
    if mode == "full":
        at = asyncio.run(log_times(db, table))
        any_latency = []
        for client in result["arrivals"]:
            first: dict[int, float] = {}
            for s, t in client:
                first.setdefault(s, t)  # later frames of the same seq (presence) do not count
            any_latency += [t - at[s] for s, t in first.items() if s in at]
        rows.append(
            f"{label:<28} {'any action -> client':<22} {len(any_latency):>7} "
            f"{pct(any_latency, 0.5):8.2f} {pct(any_latency, 0.99):8.2f} "
            f"{max(any_latency, default=0) * 1000:8.2f} {len(at):>6} {result['elapsed']:7.1f}"
        )
    return rows


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--serve":
        serve(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds the table plays")
    parser.add_argument("--seconds", type=float, default=60.0, help="time bound per server")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        rows = []
        for mode in ("full", "nostore"):
            rows += measure(mode, args.rounds, args.seconds, Path(folder))
    print(
        f"{'server':<28} {'latency':<22} {'samples':>7} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'max ms':>8} {'acts':>6} {'secs':>7}"
    )
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()
