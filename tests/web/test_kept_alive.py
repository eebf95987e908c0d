"""A connection's pump keeps no frame once it is sent: while it waits for the next one (up
to a second), a frame kept alive would be walked by the GC keeper's step (web/gcpause.py)."""

from __future__ import annotations

import asyncio
from types import CoroutineType
from typing import Any

from starlette.types import Message
from starlette.websockets import WebSocket

from cardroom.tables.subscription import Subscription
from cardroom.web.routes.ws import Connection


async def _no_receive() -> Message:
    raise AssertionError("the pump receives nothing")


async def _no_send(message: Message) -> None:
    raise AssertionError(f"the pump sends through send_text only, not {message}")


class FakeSocket(WebSocket):
    """A websocket that notes the texts sent; never accepted, so the pump does not close it."""

    def __init__(self) -> None:
        super().__init__({"type": "websocket"}, _no_receive, _no_send)
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)


async def test_the_pump_holds_no_frame_while_it_waits_for_the_next() -> None:
    conn = Connection.__new__(Connection)  # only what the pump uses
    socket = FakeSocket()
    conn.websocket = socket
    conn.table_id = "t"
    conn.lang = "en"
    conn.bot_name = None  # a person's page
    conn.send_lock = asyncio.Lock()
    conn.first_sent = asyncio.Event()
    sub = Subscription("t", 0)
    pump = asyncio.create_task(conn._pump(sub))
    frames: list[dict[str, Any]] = [{"type": "chat", "n": n} for n in range(3)]
    try:
        for frame in frames:
            sub._put(frame)
            for _ in range(50):
                await asyncio.sleep(0)
            assert socket.sent[-1] == f'{{"type":"chat","n":{frame["n"]}}}'
            waiting = pump.get_coro()
            assert isinstance(waiting, CoroutineType)
            assert waiting.cr_frame is not None and waiting.cr_await is not None  # awaits
            local = waiting.cr_frame.f_locals
            assert "frame" not in local and "sub" in local, sorted(local)
        assert conn.first_sent.is_set()
    finally:
        sub._put(None)
        await asyncio.wait_for(pump, 5)
    assert len(socket.sent) == 3
