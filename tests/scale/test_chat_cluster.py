"""The table chat across two ``cardroom serve`` processes on one PostgreSQL: a line said to one
process reaches the clients of the other (``cardroom_chat`` notices), once each, in number
order; lines said at the same moment in both get distinct numbers; the log never moves."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets

from cardroom.store import ChatStore, EventStore
from tests.scale.clients import ServerProcess, create_table


class Client:
    """A websocket that keeps every frame."""

    def __init__(self, address: str, table_id: str, token: str | None) -> None:
        query = f"?token={token}" if token else "?watch=1"
        self.url = f"ws://{address}/ws/{table_id}{query}"
        self.frames: list[dict[str, Any]] = []
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None

    async def connect(self) -> Client:
        self.ws = await websockets.connect(self.url)
        self.reader = asyncio.create_task(self._read())
        await self.until(lambda f: f["type"] == "state")
        return self

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                frame = json.loads(text)
                self.frames.append(frame)
                if frame["type"] == "chat-history":
                    # a line said while this connection read the history arrives there, once
                    self.frames += [{"type": "chat", **line} for line in frame["lines"]]
        except websockets.ConnectionClosed:
            pass

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def until(self, test: Any, timeout: float = 30.0) -> dict[str, Any]:
        async def look() -> dict[str, Any]:
            while True:
                for frame in self.frames:
                    if test(frame):
                        return frame
                await asyncio.sleep(0.01)

        return await asyncio.wait_for(look(), timeout)

    def lines(self) -> list[tuple[int, str, str]]:
        return [(f["n"], f["name"], f["text"]) for f in self.frames if f["type"] == "chat"]

    async def close(self) -> None:
        await self.ws.close()
        if self.reader is not None:
            await self.reader


def line(n: int) -> Any:
    return lambda f: f["type"] == "chat" and f["n"] == n


async def test_a_line_said_to_one_process_reaches_the_clients_of_the_other(pg_url: str) -> None:
    one = ServerProcess(pg_url)
    two = ServerProcess(pg_url)
    one.start()
    two.start()
    store = await EventStore.open(pg_url)
    clients: list[Client] = []
    try:
        async with httpx.AsyncClient(base_url=f"http://{one.address}", timeout=30) as http:
            table = await create_table(http, persons=3, players=4, rounds=1)
        tid, tokens = table.table_id, table.tokens
        before = await store.entries(tid)
        ann = await Client(one.address, tid, tokens[0]).connect()  # Ann sat down at creation
        bob = await Client(two.address, tid, tokens[1]).connect()
        eve = await Client(two.address, tid, None).connect()  # a spectator on the other one
        clients = [ann, bob, eve]
        await ann.send({"type": "chat", "text": "Helo o’r broses gyntaf 👋", "id": "chat-1"})
        for client in clients:
            got = await client.until(line(1))
            assert (got["seat"], got["name"], got["text"]) == (
                0,
                "Ann",
                "Helo o’r broses gyntaf 👋",
            )
        await bob.send({"type": "join", "name": "Bob"})
        await bob.until(lambda f: f["type"] == "state" and f["seats"][1]["joined"])
        await bob.send({"type": "chat", "text": "<b>bonjour</b> depuis l’autre", "id": "chat-2"})
        got = await ann.until(line(2))
        assert (got["seat"], got["name"], got["text"]) == (
            1,
            "Bob",
            "<b>bonjour</b> depuis l’autre",
        )
        # at the same moment in both processes: two numbers, both lines everywhere
        await asyncio.gather(
            ann.send({"type": "chat", "text": "un", "id": "chat-3"}),
            bob.send({"type": "chat", "text": "dau", "id": "chat-4"}),
        )
        for client in clients:
            await client.until(line(3))
            await client.until(line(4))
        await asyncio.sleep(0.5)  # any duplicate (own notice heard back) would be here by now
        for client in clients:
            numbers = [n for n, _, _ in client.lines()]
            assert sorted(numbers) == [1, 2, 3, 4], (client.url, numbers)  # each line once
            assert {t for n, _, t in client.lines() if n > 2} == {"un", "dau"}
        stored = await ChatStore(store).recent(tid)
        assert [(ln.n, ln.seat) for ln in stored][:2] == [(1, 0), (2, 1)]
        assert sorted(ln.text for ln in stored[2:]) == ["dau", "un"]
        # the chat is not in the log: only Bob's join was added to it
        after = await store.entries(tid)
        assert after[: len(before)] == before and [e.kind for e in after[len(before) :]] == [
            "joined"
        ]
        # a client of the other process that connects now gets the history
        late = await Client(two.address, tid, None).connect()
        clients.append(late)
        history = await late.until(lambda f: f["type"] == "chat-history")
        assert [ln["n"] for ln in history["lines"]] == [1, 2, 3, 4]
    finally:
        for client in clients:
            await client.close()
        await store.close()
        one.stop()
        two.stop()
