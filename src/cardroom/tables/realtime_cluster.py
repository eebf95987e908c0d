"""What the cluster asks of the tables played in real time (several processes on one
PostgreSQL, ``tables/leases.py`` and ``tables/notices.py``): entries other processes wrote,
applied in seq order by each table's :class:`~cardroom.tables.catchup.CatchUp`; this process
becoming a table's clock or no longer; a table given away, or dropped from memory.
:class:`RealtimeCluster` is a part of :class:`~cardroom.tables.realtime_service.RealtimeTables`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from cardroom.games.messages import Message
from cardroom.store import EventStore, LogEntry
from cardroom.tables.config import TableError
from cardroom.tables.realtime_clock import _RealtimeLive
from cardroom.tables.subscription import Subscription, idle_for

__all__ = ["RealtimeCluster"]


class RealtimeCluster:
    """The cluster side of the real-time tables (mixed into ``RealtimeTables``)."""

    if TYPE_CHECKING:  # the kind's state and the other parts this one calls
        store: EventStore
        _live: dict[str, _RealtimeLive]
        _stopping: bool
        owns: Callable[[str], bool]

        def claims(self, created: LogEntry) -> bool: ...
        async def load(self, table_id: str, entries: Sequence[LogEntry]) -> None: ...
        async def _follow_up(self, live: _RealtimeLive) -> None: ...
        def _new_bots(self, live: _RealtimeLive) -> None: ...
        async def _pause_absent(self, live: _RealtimeLive) -> None: ...
        async def _catch_up(self, live: _RealtimeLive) -> float: ...
        async def _store_status(self, live: _RealtimeLive) -> None: ...
        def _ensure_task(self, live: _RealtimeLive) -> None: ...
        def _apply(self, live: _RealtimeLive, entry: LogEntry, ref: object = None) -> None: ...

    def table_ids(self) -> list[str]:
        """The real-time tables held in memory."""
        return list(self._live)

    def status(self, table_id: str) -> str | None:
        """``waiting``, ``playing`` or ``over`` for a table held here, else None."""
        live = self._live.get(table_id)
        return live.table.status if live is not None else None

    def subscriptions(self, table_id: str) -> list[Subscription]:
        """The connections of this process to a real-time table."""
        live = self._live.get(table_id)
        return list(live.subs) if live is not None else []

    def connections(self) -> list[tuple[str, int, int]]:
        """``(table, seat, n)`` for every person seat with connections here."""
        return [
            (tid, seat, sum(1 for s in live.subs if s.seat == seat and not s.closed))
            for tid, live in self._live.items()
            for seat in live.present()
        ]

    async def take(self, table_id: str) -> None:
        """This process is now the table's clock (it got the lease, or it is alone): read what
        the log holds beyond this copy, then run its bots and countdowns from the log's times."""
        live = self._live.get(table_id)
        if live is None:
            entries = await self.store.entries(table_id)
            if not entries or not self.claims(entries[0]):
                raise TableError(
                    "not-found",
                    Message("table.no-table", f"there is no real-time table {table_id!r}"),
                )
            await self.load(table_id, entries)
            return
        async with live.lock:
            await self._read_log(live, read=True)
            table = live.table
            if table.status == "waiting":
                await self._follow_up(live)  # the process stopped between created and started
            elif table.status == "playing":
                self._new_bots(live)
                await self._pause_absent(live)
                await self._catch_up(live)
            await self._store_status(live)
        self._ensure_task(live)

    def lose(self, table_id: str) -> None:
        """This process is no longer the table's clock: its bots and countdowns stop here."""
        live = self._live.get(table_id)
        if live is None:
            return
        live.bots = {}
        if live.task is not None:
            live.task.cancel()
            live.task = None

    async def give_away(self, table_id: str) -> bool:
        """Stop being the table's clock to give its lease away; False when over or not held."""
        if self.status(table_id) in (None, "over"):
            return False
        self.lose(table_id)
        return True

    def on_beat(self, table_id: str) -> None:
        """Nothing: the table's clock task looks after absent seats itself."""

    def timers_told(self, table_id: str) -> None:
        """Nothing: a real-time table's countdowns are in its log."""

    def on_timers(self, table_id: str, told: list[tuple[str, int | None, float]]) -> None:
        """Nothing: a real-time table's countdowns are in its log."""

    def on_change(self, table_id: str, seq: int, entry: LogEntry | None = None) -> None:
        """Another process appended ``seq`` (with the entry, or None: read the log)."""
        live = self._live.get(table_id)
        if live is not None and live.catch.news(live.table, seq, entry):
            self.behind(table_id, read=entry is None)

    def behind(self, table_id: str, read: bool = True) -> None:
        """Catch up with the log soon (``read``: from the store, notices may have been lost)."""
        live = self._live.get(table_id)
        if live is not None:
            live.catch.fall_behind(
                read, live.lock, partial(self._caught_up, live), lambda: self._stopping,
                table_id,
            )  # fmt: skip

    async def _caught_up(self, live: _RealtimeLive) -> None:
        if await self._read_log(live) and self.owns(live.table.table_id):
            await self._follow_up(live)

    async def _read_log(self, live: _RealtimeLive, read: bool = False) -> int:
        """Apply the entries other processes wrote, in seq order (the lock is held)."""
        return await live.catch.read(live.table, self.store, partial(self._apply, live), read)

    def unload(self, table_id: str) -> None:
        """Drop a finished table nobody is connected to (read from the log when next asked)."""
        live = self._live.get(table_id)
        if live is not None and live.table.status == "over" and not live.subs:
            if live.task is not None and not live.task.done():
                return
            del self._live[table_id]

    def evict_idle(self, now: float, grace: float) -> list[str]:
        """Drop the finished tables nobody has been connected to for ``grace`` seconds (see
        :meth:`TableService.evict_idle`); returns their ids."""
        gone = [tid for tid, live in self._live.items() if idle_for(live, now, grace)]
        for table_id in gone:
            del self._live[table_id]
        return gone
