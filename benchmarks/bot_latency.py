"""A bot seat beside a browser seat: act -> both screens at one Speed table.

One server subprocess (uvicorn, one process, a SQLite log on a temporary file) holds Speed
tables of two person seats; seat 1 is held by a bot people brought (the bot API: its
websocket authenticated by ``Authorization: Bearer``), seat 0 by a seat token as a browser's
page. Two scripted clients in this process play as fast as they see (one action in flight
each; one game after another); for each accepted action, the time from its client sending
``act`` until *both* clients have its frame, per acting seat: the bot seat's actions are
measured beside the browser seat's in the same games (the peer).

    PYTHONPATH=src python benchmarks/bot_latency.py [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from realtime_web import free_port, pct

TABLES = 40


def serve(port: int, db: str, out: str) -> None:
    """The server subprocess: the app on ``port``; it writes its tables, seat 0's token and
    the bot's token to ``out`` once up."""
    import uvicorn

    from cardroom.store.bots import BotStore
    from cardroom.tables import SeatSpec
    from cardroom.tables.realtime import RealtimeConfig
    from cardroom.web import Settings, create_app
    from cardroom.web.server import uvicorn_config

    settings = Settings(db_url=f"sqlite+aiosqlite:///{db}", rate_per_second=1e6, rate_burst=10**6)
    app = create_app(settings)
    config = uvicorn_config(app, settings, host="127.0.0.1", port=port)
    server = uvicorn.Server(config)

    async def main() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.02)
        service = app.state.service
        bots = BotStore(service.store)
        bot = await bots.create(None, "Bench", time.time())
        _id, token = await bots.new_token(bot.id, "", time.time())
        made = []
        for n in range(TABLES):
            cfg = RealtimeConfig(
                game="speed",
                options={"countdown": "1"},
                seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
                seed=3000 + n,
            )
            created = await service.create_realtime(cfg)
            await bots.claim_seat(created.table_id, 1, bot.id, time.time())
            made.append([created.table_id, created.creator_token, token])
        Path(out + ".tmp").write_text(json.dumps(made))
        os.replace(out + ".tmp", out)
        await task

    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(main())


async def one_game(port: int, row: list[str], seconds: float) -> tuple[list[float], list[float]]:
    """A browser-like client (seat 0) and a bot client (seat 1) race at one table: the
    latencies of seat 0's actions and of seat 1's."""
    import websockets

    table_id, seat_token, bot_token = row
    url = f"ws://127.0.0.1:{port}/ws/{table_id}"
    sockets = [
        await websockets.connect(f"{url}?token={seat_token}"),
        await websockets.connect(url, additional_headers={"authorization": f"Bearer {bot_token}"}),
    ]
    await sockets[1].send(json.dumps({"type": "join", "name": "Bench"}))
    sent: dict[str, float] = {}
    answered: dict[str, int] = {}
    arrivals: list[dict[int, float]] = [{}, {}]
    rng = random.Random(11)
    done = asyncio.Event()
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
    by_seat: tuple[list[float], list[float]] = ([], [])
    for ref, seq in answered.items():
        if seq in arrivals[0] and seq in arrivals[1]:
            by_seat[int(ref[0])].append(max(arrivals[0][seq], arrivals[1][seq]) - sent[ref])
    return by_seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to play")
    parser.add_argument("--serve", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        port, db, out = args.serve
        serve(int(port), db, out)
        return
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} CPUs, load average {load}; {args.seconds:.0f} s of Speed games")
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        db, out = str(Path(tmp) / "b.db"), str(Path(tmp) / "b.json")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(port), db, out], env=env
        )
        try:
            end = time.monotonic() + 60
            while not Path(out).exists():
                if time.monotonic() > end or server.poll() is not None:
                    raise RuntimeError("the server did not start")
                time.sleep(0.05)
            rows = json.loads(Path(out).read_text())
            browser: list[float] = []
            bot: list[float] = []
            end = time.monotonic() + args.seconds
            games = 0
            for row in rows:
                left = end - time.monotonic()
                if left <= 0:
                    break
                mine, its = asyncio.run(one_game(port, row, left))
                browser += mine
                bot += its
                games += 1
        finally:
            server.terminate()
            server.wait(30)
    print(f"{'seat (same games)':<34} {'actions':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for label, lat in (
        ("bot seat (bearer token)", bot),
        ("peer: browser seat (seat token)", browser),
    ):
        print(
            f"{label:<34} {len(lat):>8} {pct(lat, 0.5):8.2f} {pct(lat, 0.99):8.2f} "
            f"{max(lat, default=0) * 1000:8.2f}"
        )
    print(f"games: {games}")


if __name__ == "__main__":
    main()
