"""Helpers of the web tests: an app on a temporary database, a real server, scripted players."""

from __future__ import annotations

import asyncio
import json
import random
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import websockets
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardroom.tables import TableService
from cardroom.web import Settings, create_app
from cardroom.web.server import uvicorn_config


def settings_for(path: Path, **changes: Any) -> Settings:
    """Settings on a SQLite file in ``path``, bots at once."""
    return Settings(db_url=f"sqlite+aiosqlite:///{path / 'web.db'}", bot_delay=0.0, **changes)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return settings_for(tmp_path)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def app_of(client: TestClient) -> FastAPI:
    """The app a test client calls."""
    app = client.app
    assert isinstance(app, FastAPI)
    return app


@contextmanager
def browser(client: TestClient, cookies: dict[str, str] | None = None) -> Iterator[TestClient]:
    """Another browser on ``client``'s running app: its requests run in that app's event loop.

    (Entering a second ``TestClient`` on the same app would run the app's lifespan again: the
    second store replaces the first in ``app.state`` and, once closed, is still what the first
    client's requests use, each opening a connection that nothing closes.)"""
    other = TestClient(client.app, cookies=cookies)
    other.portal = client.portal
    yield other


def service_of(app: FastAPI) -> TableService:
    service: TableService = app.state.service
    return service


@asynccontextmanager
async def serving(settings: Settings) -> AsyncIterator[tuple[FastAPI, str]]:
    """A real uvicorn server on 127.0.0.1 (a free port) in this event loop; stopped on exit."""
    app = create_app(settings)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    sock.setblocking(False)
    port = sock.getsockname()[1]
    config = uvicorn_config(app, settings, lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        for _ in range(500):
            if server.started or task.done():
                break
            await asyncio.sleep(0.01)
        assert server.started, "the server did not start"
        yield app, f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)
        sock.close()


class Player:
    """A websocket client that records every frame; as a seat it can play a simple policy."""

    def __init__(
        self, address: str, table_id: str, token: str | None, headers: dict[str, str] | None = None
    ) -> None:
        query = f"?token={token}" if token else ""
        self.url = f"ws://{address}/ws/{table_id}{query}"
        self.headers = headers or {}
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None

    async def connect(self) -> Player:
        self.ws = await websockets.connect(
            self.url, max_size=2**22, additional_headers=self.headers
        )
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                frame = json.loads(text)
                self.frames.append(frame)
                if frame["type"] == "state":
                    self.state = frame
                self.changed.set()
                await self.on_frame(frame)
        except websockets.ConnectionClosed:
            pass

    async def on_frame(self, frame: dict[str, Any]) -> None:
        """Called for every frame (players override it)."""

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def wait_for(self, test: Any, start: int = 0, timeout: float = 60.0) -> dict[str, Any]:
        """The first frame from index ``start`` on for which ``test(frame)`` holds."""

        async def until() -> dict[str, Any]:
            seen = start
            while True:
                for frame in self.frames[seen:]:
                    if test(frame):
                        return frame
                seen = len(self.frames)
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(until(), timeout)

    async def close(self) -> None:
        await self.ws.close()
        if self.reader is not None:
            await self.reader


class AutoPlayer(Player):
    """Plays a seeded random legal action whenever it is its turn, and asks for next rounds."""

    def __init__(self, address: str, table_id: str, token: str | None, seed: int = 0) -> None:
        super().__init__(address, table_id, token)
        self.rng = random.Random(seed)
        self.acted: set[int] = set()
        self.readied: set[int] = set()
        self.first_legal = False
        self.limit: int | None = None
        """Stop acting after this many actions (None: play on)."""

    async def on_frame(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "error" and frame["code"] == "rate-limited" and self.state is not None:
            # an honest client waits a moment and says it again
            await asyncio.sleep(0.2)
            self.acted.discard(self.state["seq"])
            self.readied.discard(self.state["seq"])
            await self.on_frame(self.state)
            return
        if frame["type"] != "state" or frame["you"] is None:
            return
        seq = frame["seq"]
        rnd = frame.get("round")
        if frame["status"] == "playing" and rnd and rnd.get("legal") and seq not in self.acted:
            if self.limit is not None and len(self.acted) >= self.limit:
                return
            self.acted.add(seq)
            legal = rnd["legal"]
            action = legal[0] if self.first_legal else self.rng.choice(legal)
            await self.send({"type": "act", "action": action, "seq": seq})
        elif (
            frame["status"] == "round-over"
            and frame["you"] not in frame.get("ready", [])
            and seq not in self.readied
        ):
            self.readied.add(seq)
            await self.send({"type": "ready"})


def over(frame: dict[str, Any]) -> bool:
    return bool(frame["type"] == "state" and frame["status"] == "over")
