"""TableService: every live table of a process, its log, its bots, its subscribers and timers.

Inside a table's lock every change goes: check (nothing mutated) -> ``await store.append`` ->
``table.apply`` -> a frame on every subscriber's queue. Nothing is told before it is stored.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from cardroom.store import EventStore
from cardroom.tables.config import Created, SeatSpec, TableConfig, TableError

__all__ = ["Created", "SeatSpec", "Subscription", "TableConfig", "TableError", "TableService"]

Frame = dict[str, Any]


class Subscription:
    """One connection's stream of frames for one seat (None: a spectator).

    ``async for frame in sub`` yields frames; the first is the full state. A subscriber that
    falls behind gets a fresh full state instead of the backlog.
    """

    def __init__(self, table_id: str, seat: int | None, maxsize: int = 64) -> None:
        self.table_id = table_id
        self.seat = seat
        self.queue: asyncio.Queue[Frame | None] = asyncio.Queue(maxsize)
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


class TableService:
    """Owns the live tables of a process; the web server and the terminal drive it."""

    def __init__(self, store: EventStore, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def start(self) -> None:
        """Rebuild every unfinished table from the log and resume its bots and timers."""
        raise NotImplementedError

    async def stop(self) -> None:
        """Cancel bot tasks and timers (the log is already complete)."""
        raise NotImplementedError

    async def create(self, config: TableConfig) -> Created:
        """Create a table (logged as ``created``); returns its id and seat tokens."""
        raise NotImplementedError

    async def seat_of(self, table_id: str, token: str | None) -> int | None:
        """The seat a token opens (None = spectator); ``TableError('forbidden')`` if wrong."""
        raise NotImplementedError

    async def join(self, table_id: str, seat: int, name: str) -> None:
        """A person takes their seat under ``name`` (1..24 characters)."""
        raise NotImplementedError

    async def start_now(self, table_id: str, seat: int) -> None:
        """The creator starts the table; empty person seats get bots."""
        raise NotImplementedError

    async def act(self, table_id: str, seat: int, action: str, seen_seq: int) -> None:
        """Play ``"7D"``, ``"pass"`` or ``"claim"`` for ``seat``; refuses a stale ``seen_seq``."""
        raise NotImplementedError

    async def ready(self, table_id: str, seat: int) -> None:
        """The person at ``seat`` asks for the next round."""
        raise NotImplementedError

    def subscribe(self, table_id: str, seat: int | None) -> Subscription:
        """A stream of frames for ``seat`` (None: spectator); the first is the full state."""
        raise NotImplementedError

    def unsubscribe(self, sub: Subscription) -> None:
        """End a subscription; a person seat's last one gone starts its takeover timer."""
        raise NotImplementedError

    def frame_for(self, table_id: str, seat: int | None) -> Frame:
        """The full ``state`` frame for ``seat`` (or a spectator), without events."""
        raise NotImplementedError

    async def record(self, table_id: str) -> list[dict[str, Any]]:
        """The game record (replay format); ``TableError('forbidden')`` until the game is over."""
        raise NotImplementedError

    async def list_tables(
        self, status: set[str] | None = None, public: bool | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """Tables for the lobby (from the store's projection), newest first."""
        raise NotImplementedError
