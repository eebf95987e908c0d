"""Farm a rating with a puppet, from outside, against a real server: what the rating says after.

A server (``cardroom serve``, one process, a SQLite file in a temporary folder) is started from
each source tree given (``--src``, e.g. this one and an older checkout: the peer of the run).
On each, a *farmer* names themselves, makes rated Speed tables of two person seats, and their
*puppet* (another browser, its own player) opens the invitation, opens the table's websocket
for a moment during the start and closes it, never playing. The farmer then plays alone,
whatever is legal, until the game is over. After ``--games`` games the farmer's My games
(``/api/me/games``) gives the rating; then one fair game (two browsers that both play) is
played for contrast. Everything goes to 127.0.0.1 only, each game bounded by ``--seconds``.

    PYTHONPATH=src python tools/puppet_farm.py --src src --src /path/to/old/src [--games 10]

Measured (2026-11-28, 2 shared cores): the tree before issue 30 (a6ed1da) against this branch,
``--games 10 --seconds 60``: before, 10 games farmed, the farmer's rating 0.0 -> 16.49 (mu - 3
sigma, 10 rated games); after, 10 farmed, no rating at all (a newcomer's 1500), each game "not
rated: a person never played their seat"; one fair game after it is rated (1626, 1 game).
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

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def cookie_header(client: httpx.Client) -> str:
    return "; ".join(f"{k}={v}" for k, v in client.cookies.items())


async def play_alone(port: int, table: str, cookies: list[str], seconds: float) -> str:
    """Each browser in ``cookies`` plays whatever is legal until the game is over; returns
    the table's last status."""
    sockets = [
        await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/{table}", additional_headers={"Cookie": c}
        )
        for c in cookies
    ]
    rng = random.Random(3)
    status = "?"
    done = asyncio.Event()

    async def run(ws: Any) -> None:
        nonlocal status
        busy = False
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in ws:
                frame = json.loads(text)
                if frame.get("type") == "error":
                    busy = False
                    await asyncio.sleep(0.05)
                if frame.get("type") != "state":
                    continue
                status = frame.get("status", status)
                if frame.get("ref") is not None:
                    busy = False
                if status == "over":
                    done.set()
                    return
                legal = (frame.get("table_view") or {}).get("legal") or []
                plays = [a for a in legal if a.get("type") == "play"] or legal
                if plays and not busy and status == "playing":
                    busy = True
                    ref = f"r{time.monotonic_ns()}"
                    act = {"type": "act", "action": rng.choice(plays), "id": ref}
                    await ws.send(json.dumps(act))

    tasks = [asyncio.create_task(run(ws)) for ws in sockets]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done.wait(), seconds)
    for ws in sockets:
        await ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    return status


async def started(ws: Any) -> None:
    """Read frames until the game has started."""
    async for text in ws:
        frame = json.loads(text)
        if frame.get("type") == "state" and frame.get("status") != "waiting":
            return


def browser(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, headers={"Origin": base}, follow_redirects=False)


def make_table(farmer: httpx.Client) -> tuple[str, str]:
    made = farmer.post(
        "/api/tables",
        json={
            "name": "Farmer",
            "game": "speed",
            "rated": True,
            "seats": [{"kind": "person"}, {"kind": "person"}],
            "options": {"countdown": "1"},
        },
    )
    made.raise_for_status()
    body = made.json()
    return body["table"], body["invites"][0]["url"]


def speed_rating(client: httpx.Client) -> tuple[Any, Any, list[Any]]:
    games = client.get("/api/me/games").json()
    speed = games["stats"].get("speed", {})
    return speed.get("rating"), speed.get("rated_games"), [g.get("unrated") for g in games["games"]]


async def farm(src: str, games: int, seconds: float) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PYTHONPATH": src}
        server = subprocess.Popen(
            [sys.executable, "-m", "cardroom", "serve", "--port", str(port), "--bot-delay", "0",
             "--db", str(Path(folder) / "farm.db"), "--tables-per-minute", "100"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start")
                await asyncio.sleep(0.2)
            farmer, puppet, friend = browser(base), browser(base), browser(base)
            farmer.post("/api/me", json={"name": "Farmer"}).raise_for_status()
            puppet.post("/api/me", json={"name": "Puppet"}).raise_for_status()
            friend.post("/api/me", json={"name": "Friend"}).raise_for_status()
            ended = 0
            for _ in range(games):
                table, invite = make_table(farmer)
                puppet.get(invite)
                async with websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/{table}",
                    additional_headers={"Cookie": cookie_header(puppet)},
                ) as ws:  # the puppet takes its seat, is there at the start, closes its page
                    await ws.send(json.dumps({"type": "join", "name": "Puppet"}))
                    await asyncio.wait_for(started(ws), 10)
                status = await play_alone(port, table, [cookie_header(farmer)], seconds)
                ended += status == "over"
            await asyncio.sleep(5)  # the rating keeper counts every 2 s
            after_farm = speed_rating(farmer)
            table, invite = make_table(farmer)  # the peer: one fair game, both playing
            friend.get(invite)
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/{table}",
                additional_headers={"Cookie": cookie_header(friend)},
            ) as ws:
                await ws.send(json.dumps({"type": "join", "name": "Friend"}))
            fair = await play_alone(
                port, table, [cookie_header(farmer), cookie_header(friend)], seconds
            )
            await asyncio.sleep(5)
            after_fair = speed_rating(farmer)
            return {
                "src": src,
                "farmed": ended,
                "farm": after_farm,
                "fair_status": fair,
                "fair": after_fair,
            }
        finally:
            server.terminate()
            server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", action="append", required=True, help="a source tree to serve")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=90.0, help="bound on one game")
    args = parser.parse_args()
    print(f"{'server source':<40} {'farmed':>6} {'rating after':>13} {'rated':>6}  "
          f"{'after 1 fair game':>17}  unrated reasons")  # fmt: skip
    for src in args.src:
        r = asyncio.run(farm(src, args.games, args.seconds))
        rating, rated, reasons = r["farm"]
        fair_rating, fair_rated, _ = r["fair"]
        said = sorted({x for x in reasons if x})
        print(f"{src:<40} {r['farmed']:>6} {rating!s:>13} {rated!s:>6}  "
              f"{f'{fair_rating} ({fair_rated})':>17}  {'; '.join(said) or '-'}")  # fmt: skip


if __name__ == "__main__":
    main()
