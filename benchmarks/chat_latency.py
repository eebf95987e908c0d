"""Table chat: latency from a ``chat`` message to every client of the table.

A real uvicorn server on 127.0.0.1 in this process (a temporary SQLite file), one Nain Jaune
table waiting for its players: Ann and 7 spectators connected. Ann says a line, waits until
all 8 connections have its ``chat`` frame, and says the next one (the chat's rate limit is
lifted for the run). The peer, measured in the same run on the same connections, is a ``ping``
answered by ``pong`` (no store, one connection): what storing the line (one SQLite transaction
with synchronous=FULL) and the fan-out to 8 connections add to a round trip.

    PYTHONPATH=src python benchmarks/chat_latency.py [--lines 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import uvicorn
import websockets

from cardroom.games.nain_jaune.rules import Rules
from cardroom.tables import SeatSpec, TableConfig
from cardroom.web import Settings, create_app
from cardroom.web.server import uvicorn_config

SPECTATORS = 7


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(lines: int) -> list[tuple[str, int, float, float, float]]:
    folder = Path(tempfile.mkdtemp(prefix="cardroom-chat-bench-"))
    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{folder / 'bench.db'}",
        bot_delay=0.0,
        rate_per_second=1e9,
        rate_burst=10**9,
    )
    app = create_app(settings)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(app, settings, lifespan="on"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        app.state.chat.rate = app.state.chat.burst = 10**9
        seats = (SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("bot", "easy"))
        created = await app.state.service.create(
            TableConfig(rules=Rules.from_options(None, {}), seats=seats, seed=1, bot_delay=0.0)
        )
        base = f"ws://127.0.0.1:{port}/ws/{created.table_id}"
        ann = await websockets.connect(f"{base}?token={created.creator_token}")
        watchers = [await websockets.connect(f"{base}?watch=1") for _ in range(SPECTATORS)]
        clients = [ann, *watchers]
        for ws in clients:
            assert json.loads(await ws.recv())["type"] == "state"

        async def until(ws: Any, kind: str) -> None:
            while json.loads(await ws.recv())["type"] != kind:
                pass

        chat: list[float] = []
        ping: list[float] = []
        for i in range(lines):
            start = time.perf_counter()
            await ann.send(json.dumps({"type": "chat", "text": f"line {i} 🃏"}))
            await asyncio.gather(*(until(ws, "chat") for ws in clients))
            chat.append(time.perf_counter() - start)
            start = time.perf_counter()
            await ann.send('{"type": "ping"}')
            await until(ann, "pong")
            ping.append(time.perf_counter() - start)
        for ws in clients:
            await ws.close()
    finally:
        server.should_exit = True
        await task
        sock.close()
    return [
        ("chat: say -> all 8 clients (stored)", lines, pct(chat, 0.5), pct(chat, 0.99),
         1000 * statistics.mean(chat)),
        ("peer: ping -> pong (one client)", lines, pct(ping, 0.5), pct(ping, 0.99),
         1000 * statistics.mean(ping)),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=200)
    rows = asyncio.run(run(parser.parse_args().lines))
    print(f"| {'measure':<38} | {'n':>5} | {'p50 ms':>7} | {'p99 ms':>7} | {'mean ms':>7} |")
    print(f"|{'-' * 40}|{'-' * 6}:|{'-' * 8}:|{'-' * 8}:|{'-' * 8}:|")
    for name, n, p50, p99, mean in rows:
        print(f"| {name:<38} | {n:>5} | {p50:>7.1f} | {p99:>7.1f} | {mean:>7.1f} |")


if __name__ == "__main__":
    main()
