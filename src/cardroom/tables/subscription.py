"""One connection's stream of frames for one seat, shared by both table services."""

from __future__ import annotations

import asyncio
from typing import Any

Frame = dict[str, Any]
QUEUE_SIZE = 64


class Subscription:
    """One connection's stream of frames for one seat (None: a spectator).

    ``async for frame in sub`` yields frames; the first is the full state. A subscriber that
    falls behind gets a fresh full state instead of the backlog.
    """

    def __init__(self, table_id: str, seat: int | None, maxsize: int = QUEUE_SIZE) -> None:
        self.table_id = table_id
        self.seat = seat
        self.queue: asyncio.Queue[Frame | None] = asyncio.Queue(maxsize)
        self.cursor = 0
        """Index of the first public event this connection has not been sent."""
        self.closed = False

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Frame:
        frame = await self.queue.get()
        if frame is None:
            raise StopAsyncIteration
        return frame

    async def get(self) -> Frame | None:
        """The next frame, or None once the subscription is closed."""
        return await self.queue.get()

    def _put(self, frame: Frame | None) -> bool:
        """Queue a frame; False if the queue was full (it is then emptied)."""
        try:
            self.queue.put_nowait(frame)
            return True
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            return False


class SeatsPresent:
    """A live table's ``present()``: the seats with a connection in this process (both table
    services' live tables have ``subs``)."""

    subs: list[Subscription]

    def present(self) -> set[int]:
        """The seats (not spectators) that have a connection here."""
        return {s.seat for s in self.subs if s.seat is not None}


def idle_for(live: Any, now: float, grace: float) -> bool:
    """True when ``live`` (a Nain Jaune or real-time table in memory) has been finished with
    no subscriber and no running work for ``grace`` seconds (its idle clock starts now if it
    has just become so). Shared by both services' sweeps."""
    busy = (
        live.table.status != "over"
        or live.subs
        or live.lock.locked()
        or any(
            task is not None and not task.done()
            for task in (getattr(live, "bot_task", None), getattr(live, "task", None),
                         live.catch_task)
        )
    )  # fmt: skip
    if busy:
        live.idle_since = None
        return False
    if live.idle_since is None:
        live.idle_since = now
    return bool(now - live.idle_since >= grace)
