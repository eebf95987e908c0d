"""Play now on one PostgreSQL shared by two servers (two stores and table services, as two
processes): 20 people pressing Play now for Speed at once are seated once each, never twice."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from cardroom.store import EventStore
from tests.scale.clients import ServerProcess
from tests.web.test_play_now import twenty_at_once

pytest.importorskip("asyncpg", reason="asyncpg is not installed")


async def test_twenty_people_pressing_at_once_across_two_servers_are_seated_once(
    pg_url: str,
) -> None:
    await twenty_at_once([await EventStore.open(pg_url) for _ in range(2)])


async def test_twenty_browsers_pressing_play_now_on_two_serve_processes(pg_url: str) -> None:
    """The same through HTTP against two real ``cardroom serve`` processes on one PostgreSQL:
    each browser (cookies of its own) names itself, presses Play now for Speed on one of the
    two, then asks until it is seated: ten tables of two, everyone once."""
    servers = [ServerProcess(pg_url), ServerProcess(pg_url)]
    try:
        for server in servers:
            server.start()
        browsers = [
            httpx.AsyncClient(base_url=f"http://{servers[i % 2].address}", timeout=30)
            for i in range(20)
        ]
        origin = [{"origin": str(b.base_url).rstrip("/")} for b in browsers]
        for i, b in enumerate(browsers):
            named = await b.post("/api/me", json={"name": f"P{i}"}, headers=origin[i])
            assert named.status_code == 200, named.text
        pressed = await asyncio.gather(
            *(b.post("/api/play", json={"game": "speed"}, headers=origin[i])
              for i, b in enumerate(browsers))
        )  # fmt: skip
        assert all(r.status_code == 200 for r in pressed)
        seated: dict[int, str] = {}
        deadline = time.monotonic() + 30
        for i, r in enumerate(pressed):
            if r.json()["waiting"]["table"]:
                seated[i] = r.json()["waiting"]["table"]
        while len(seated) < 20 and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            for i, b in enumerate(browsers):
                if i not in seated:
                    waiting = (await b.get("/api/play")).json()["waiting"]
                    if waiting and waiting["table"]:
                        seated[i] = waiting["table"]
        assert len(seated) == 20, f"{20 - len(seated)} people still waiting"
        tables: dict[str, list[int]] = {}
        for i, table in seated.items():
            tables.setdefault(table, []).append(i)
        assert len(tables) == 10 and all(len(p) == 2 for p in tables.values())
        for b in browsers:
            mine = (await b.get("/api/tables")).json()["mine"]
            assert len(mine) == 1  # the one table each sits at
            await b.aclose()
    finally:
        for server in servers:
            server.stop()
