"""The table service's listing and eviction: the lobby's list of tables (from the store's
projection), a finished table nobody watches leaving memory (read from the log again when
asked for), and ending one seat's connections. :class:`Listing` is a part of
:class:`~cardroom.tables.service.TableService`.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from cardroom.store import EventStore

if TYPE_CHECKING:
    from cardroom.tables.kinds import TableKind

__all__ = ["Listing"]


class Listing:
    """The listing and eviction side of the table service (mixed into ``TableService``)."""

    if TYPE_CHECKING:  # the service's state and the other parts this one calls
        store: EventStore
        kinds: tuple[TableKind, ...]
        evict_after: float
        _stopping: bool
        _remote: dict[str, dict[tuple[str, int], tuple[int, float]]]

    def end_connections(self, table_id: str, seat: int) -> int:
        """End this process's connections to one seat (whoever held it lost it): each is told
        its subscription is over and closes. Returns how many were ended."""
        subs = [sub for kind in self.kinds for sub in kind.subscriptions(table_id)]
        ended = [sub for sub in subs if sub.seat == seat]
        for sub in ended:
            sub._put(None)
        return len(ended)

    def unload(self, table_id: str) -> None:
        """Drop the copy in memory of a finished table nobody is connected to, so the next
        request reads it from the log again (a forgotten player's name was rewritten there)."""
        for kind in self.kinds:
            kind.unload(table_id)

    async def _evict_loop(self) -> None:
        every = min(30.0, max(self.evict_after / 4, 0.01))
        while not self._stopping:
            await asyncio.sleep(every)
            self.evict_idle()

    def evict_idle(self) -> list[str]:
        """Drop from memory the finished tables (both kinds) nobody has been connected to for
        ``evict_after`` seconds; they are read from the log again when asked for. Returns
        their ids."""
        now = time.monotonic()
        gone = [t for kind in self.kinds for t in kind.evict_idle(now, self.evict_after)]
        for table_id in gone:
            self._remote.pop(table_id, None)
        return gone

    async def list_tables(
        self, status: set[str] | None = None, public: bool | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """Tables for the lobby (from the store's projection), newest first."""
        rows = await self.store.list_tables(status, public, limit)
        return [
            {
                "id": r.id,
                "game": r.game,
                "created_at": r.created_at,
                "status": r.status,
                "title": r.title,
                "public": r.public,
                "summary": r.summary,
                "seats": r.seats,
            }
            for r in rows
        ]
