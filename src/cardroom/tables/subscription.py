"""One connection's stream of frames for one seat, shared by both kinds of table."""

from __future__ import annotations

import asyncio
import math
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

Frame = dict[str, Any]
QUEUE_SIZE = 64


def _set_unless_done(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


class FrameQueue:
    """A bounded FIFO of frames for one connection: ``asyncio.Queue``'s ``put_nowait``,
    ``get_nowait``, ``get``, ``qsize``, ``empty`` and ``full`` with the same behaviour (a full
    queue raises ``asyncio.QueueFull``, an empty one ``asyncio.QueueEmpty``; a cancelled
    ``get`` takes nothing and passes its wake-up on), without its task counting.

    The loop is looked up once, at the first wait, and kept while it runs: ``asyncio.Queue``
    looks it up at every wait, and CPython 3.11's lookup costs a ``getpid`` system call."""

    __slots__ = ("_getters", "_items", "_loop", "_maxsize")

    def __init__(self, maxsize: int = 0) -> None:
        self._items: deque[Frame | None] = deque()
        self._maxsize = maxsize
        self._getters: deque[asyncio.Future[None]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def full(self) -> bool:
        return 0 < self._maxsize <= len(self._items)

    def put_nowait(self, item: Frame | None) -> None:
        if 0 < self._maxsize <= len(self._items):
            raise asyncio.QueueFull
        self._items.append(item)
        self._wake_next()

    def get_nowait(self) -> Frame | None:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self) -> Frame | None:
        items = self._items
        while not items:
            loop = self._loop
            if loop is None or not loop.is_running():
                loop = self._loop = asyncio.get_running_loop()
            getter: asyncio.Future[None] = loop.create_future()
            self._getters.append(getter)
            try:
                await getter
            except BaseException:
                getter.cancel()
                if getter in self._getters:
                    self._getters.remove(getter)
                if items and not getter.cancelled():  # it was woken: the next getter is
                    self._wake_next()
                raise
        return items.popleft()

    def _wake_next(self) -> None:
        getters = self._getters
        while getters:
            getter = getters.popleft()
            if not getter.done():
                getter.set_result(None)
                return


class Wake:
    """A flag a task waits for (``asyncio.Event``'s ``set``, ``clear``, ``is_set`` and
    ``wait``): the waiter gives its loop, so no wait looks the loop up."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = False
        self._waiters: list[asyncio.Future[None]] = []

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        if not self._set:
            self._set = True
            for waiter in self._waiters:
                if not waiter.done():
                    waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self, loop: asyncio.AbstractEventLoop) -> None:
        """Return once set (at once if it is); ``loop`` is the running loop."""
        if self._set:
            return
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            self._waiters.remove(waiter)


def on_tick(at: float, tick: float) -> float:
    """The first multiple of ``tick`` at or after ``at`` (``at`` itself if ``tick`` <= 0)."""
    if tick <= 0:
        return at
    return math.ceil(at / tick) * tick


async def sleep(loop: asyncio.AbstractEventLoop, delay: float, tick: float = 0.0) -> None:
    """``asyncio.sleep(delay)`` on ``loop`` (the running loop), which it does not look up.

    With ``tick``, the wake-up is put off to the next multiple of ``tick`` on the loop's clock
    (at most ``tick`` later): sleepers due within one tick of each other wake in one loop
    turn, so their work (and, for the bots, their log entries' commit) is done together."""
    if delay <= 0:
        await asyncio.sleep(0)  # (a bare yield: no lookup)
        return
    waiter: asyncio.Future[None] = loop.create_future()
    if tick > 0:
        handle = loop.call_at(on_tick(loop.time() + delay, tick), _set_unless_done, waiter)
    else:
        handle = loop.call_later(delay, _set_unless_done, waiter)
    try:
        await waiter
    finally:
        handle.cancel()


class Subscription:
    """One connection's stream of frames for one seat (None: a spectator).

    ``async for frame in sub`` yields frames; the first is the full state. A subscriber that
    falls behind gets a fresh full state instead of the backlog.
    """

    def __init__(self, table_id: str, seat: int | None, maxsize: int = QUEUE_SIZE) -> None:
        self.table_id = table_id
        self.seat = seat
        self.queue = FrameQueue(maxsize)
        self.cursor = 0
        """Index of the first public event this connection has not been sent."""
        self.closed = False
        self.ended_by: str | None = None
        """Why the service ended it (``unavailable``: this process lost the database), or
        None."""

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
        """Queue a frame; False if the queue was full (it is then emptied). The end (None)
        always gets in: a subscriber far behind is still closed."""
        try:
            self.queue.put_nowait(frame)
            return True
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            if frame is None:
                self.queue.put_nowait(None)
            return False


def fan_out(
    subs: Sequence[Subscription],
    build: Callable[[int | None, int | None], Frame],
    end: int,
    *,
    skip: Subscription | None = None,
    own: Callable[[Subscription, Frame], Frame] | None = None,
) -> None:
    """Tell every open subscription of a table its next frame: the one fan-out of both kinds of
    table. ``build(seat, since)`` makes a seat's frame with the events (or log lines) from
    ``since`` (None: a full frame), once for all the subscriptions of one seat and cursor (the
    spectators share one object, encoded once); ``own(sub, frame)`` may give one subscription
    its own copy (e.g. the answer to its action). A subscription that fell behind gets a fresh
    full frame marked ``resync``; each cursor then moves to ``end``."""
    built: dict[tuple[int | None, int | None], Frame] = {}
    for sub in subs:
        if sub is skip or sub.closed:
            continue
        key = (sub.seat, sub.cursor)
        frame = built.get(key)
        if frame is None:
            frame = built[key] = build(sub.seat, sub.cursor)
        if not sub._put(frame if own is None else own(sub, frame)):
            sub._put({**build(sub.seat, None), "resync": True})
        sub.cursor = end


class SeatsPresent:
    """A live table's ``present()``: the seats with a connection in this process (both table
    services' live tables have ``subs``)."""

    subs: list[Subscription]

    def present(self) -> set[int]:
        """The seats (not spectators) that have a connection here."""
        return {s.seat for s in self.subs if s.seat is not None}


def idle_for(live: Any, now: float, grace: float) -> bool:
    """True when ``live`` (a turn-based or real-time table in memory) has been finished with
    no subscriber and no running work for ``grace`` seconds (its idle clock starts now if it
    has just become so). Shared by both services' sweeps."""
    busy = (
        live.table.status != "over"
        or live.subs
        or live.lock.locked()
        or any(
            task is not None and not task.done()
            for task in (getattr(live, "bot_task", None), getattr(live, "task", None),
                         live.catch.task)
        )
    )  # fmt: skip
    if busy:
        live.idle_since = None
        return False
    if live.idle_since is None:
        live.idle_since = now
    return bool(now - live.idle_since >= grace)
