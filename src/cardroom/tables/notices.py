"""The table service's notices: what processes sharing one PostgreSQL tell each other about
the tables they hold (``tables/cluster.py`` carries them).

Change notices (another process appended an entry: applied here in seq order by the table's
:class:`~cardroom.tables.catchup.CatchUp`), presence notices (which person seats have
connections in which process: a seat connected elsewhere is present here too, for
``PRESENCE_HELD`` seconds unless repeated), deadline notices (the lease holder's takeover and
next-round timers, shown by the others), and watches (a process holding a table without its
lease asks its holder to tell it the table's changes). :class:`Notices` is a part of
:class:`~cardroom.tables.service.TableService`; alone on its database it tells nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

from cardroom.store import EventStore, LogEntry
from cardroom.tables.cluster import Coordinator
from cardroom.tables.live import Live

if TYPE_CHECKING:
    from cardroom.tables.realtime_service import RealtimeTables
    from cardroom.tables.subscription import Subscription

__all__ = ["PRESENCE_HELD", "PRESENCE_TTL", "STRANDED_GRACE", "Notices"]

logger = logging.getLogger(__name__)

PRESENCE_TTL = 6.0
"""Seconds another process's presence report holds unless repeated."""
STRANDED_GRACE = 10.0
"""A person whose process stopped telling their presence without saying they left (it died,
or lost the database) counts as present this much longer: the time for that process to give
up its connections (``FENCE_AFTER``) and for the page to connect to another one. What the
person could not do meanwhile is the servers' fault, not theirs: no takeover, no away."""
PRESENCE_HELD = PRESENCE_TTL + STRANDED_GRACE


class Notices:
    """The notices side of the table service (mixed into ``TableService``)."""

    if TYPE_CHECKING:  # the service's state and the other parts this one calls
        store: EventStore
        realtime: RealtimeTables
        _live: dict[str, Live]
        _coord: Coordinator | None
        _stopping: bool
        owned: set[str]
        _remote: dict[str, dict[tuple[str, int], tuple[int, float]]]
        _told_deadlines: dict[str, dict[tuple[str, int | None], float]]

        def _owns(self, table_id: str) -> bool: ...
        async def _after(self, live: Live) -> None: ...
        def _fan_out(self, live: Live, skip: Subscription | None = None) -> None: ...
        def _arm_takeover(self, live: Live, seat: int) -> None: ...
        def _cancel(self, live: Live, key: tuple[str, int | None]) -> None: ...
        def _cancel_timers(self, live: Live) -> None: ...
        def _ensure_bot_task(self, live: Live) -> None: ...
        def _spawn(self, work: Coroutine[Any, Any, None]) -> None: ...

    def _remote_seats(self, table_id: str) -> set[int]:
        remote = self._remote.get(table_id)
        if not remote:
            return set()
        now = time.monotonic()
        return {seat for (_, seat), (n, at) in remote.items() if n > 0 and now - at < PRESENCE_HELD}

    def _tell_realtime_presence(self, table_id: str, seat: int, n: int) -> None:
        self._spawn(self._send_presence([f"{table_id} {seat} {n}"]))

    def _present(self, live: Live) -> set[int]:
        here = live.present()
        remote = self._remote.get(live.table.table_id)
        if remote:
            now = time.monotonic()
            here |= {
                seat for (_, seat), (n, at) in remote.items() if n > 0 and now - at < PRESENCE_HELD
            }
        return here

    def _holds_any(self, table_id: str) -> bool:
        """True if this process has that table in memory (a notice of another is dropped)."""
        return table_id in self._live or self.realtime.holds(table_id)

    def _on_change(self, table_id: str, seq: int, entry: LogEntry | None = None) -> None:
        if self.realtime.holds(table_id):
            self.realtime.on_change(table_id, seq, entry)
            return
        live = self._live.get(table_id)
        if live is None or seq <= max(live.table.seq, live.catch.writing):
            return
        if (
            entry is not None
            and seq == live.table.seq + 1
            and live.catch.idle
            and not live.lock.locked()
            and not self._owns(table_id)
        ):  # the next entry of a table this process follows: applied here, no task
            live.table.apply(entry)  # (nothing awaits in between: as if under the lock)
            self._applied(live)
            return
        live.catch.news(live.table, seq, entry)
        self._behind(live, read=entry is None)

    def _on_sync(self, table_ids: list[str] | None) -> None:
        """Another process was alone and did not tell these tables' changes (``None``: any
        table's): read their log."""
        for table_id in self._live if table_ids is None else table_ids:
            live = self._live.get(table_id)
            if live is not None:
                self._behind(live)
        for table_id in self.realtime.table_ids() if table_ids is None else table_ids:
            self.realtime.behind(table_id)

    def _on_peer(self) -> None:
        """This process was alone and another one appeared: tell it who is connected here and
        the timers of the tables this process holds (not told while alone)."""
        assert self._coord is not None
        self._coord.watch(self._watched_ids())
        self._spawn(self._send_presence(self._presence_lines()))
        for table_id in self.owned:
            live = self._live.get(table_id)
            if live is not None and live.deadlines:
                self._tell_deadlines(live)

    def _watch(self, table_id: str) -> None:
        """A table now in memory here: watch it unless this process is its lease holder."""
        if self._coord is not None and not self._owns(table_id):
            self._coord.watch([table_id])

    def _watched_ids(self) -> list[str]:
        """The tables in memory here whose lease another process holds (or nobody)."""
        return [t for t in self._live if t not in self.owned] + [
            t for t in self.realtime.table_ids() if t not in self.owned
        ]

    def _on_watched(self, table_ids: list[str]) -> None:
        """Another process started watching these tables (held here): tell it who is
        connected to them here and, for those this process holds the lease of, their
        timers."""
        for table_id in table_ids:
            live = self._live.get(table_id)
            if live is not None and live.deadlines and table_id in self.owned:
                self._tell_deadlines(live)
        self._spawn(self._send_presence(self._presence_lines(table_ids)))

    def _presence_lines(self, table_ids: list[str] | None = None) -> list[str]:
        """``"<table> <seat> <n>"`` for the person seats connected here (of these tables)."""
        held = (
            self._live.items()
            if table_ids is None
            else [(t, live) for t in table_ids if (live := self._live.get(t)) is not None]
        )
        lines = [
            f"{tid} {seat} {sum(1 for s in live.subs if s.seat == seat)}"
            for tid, live in held
            for seat in live.present()
        ]
        if table_ids is None or any(self.realtime.holds(t) for t in table_ids):
            ids = None if table_ids is None else set(table_ids)
            lines += [
                f"{tid} {seat} {n}"
                for tid, seat, n in self.realtime.connections()
                if ids is None or tid in ids
            ]
        return lines

    def _behind(self, live: Live, read: bool = True) -> None:
        live.catch.fall_behind(
            read, live.lock, partial(self._caught_up, live), lambda: self._stopping,
            live.table.table_id,
        )  # fmt: skip

    async def _caught_up(self, live: Live) -> None:
        if await self._catch_up_locked(live):
            await self._after(live)

    async def _catch_up_locked(self, live: Live, read: bool = False) -> bool:
        """Apply the entries other processes wrote (lock held); True if there were any."""
        if not await live.catch.read(live.table, self.store, live.table.apply, read):
            return False
        self._applied(live)
        return True

    def _applied(self, live: Live) -> None:
        """After entries of other processes are applied: timers, frames, bots."""
        table = live.table
        if table.status == "over":
            self._cancel_timers(live)
        else:
            for g in table.person_seats():
                if g in table.taken_over:
                    self._cancel(live, ("takeover", g))
        self._fan_out(live)
        self._ensure_bot_task(live)
        live.wake.set()

    def _on_presence(self, pid: str, table_id: str, seat: int, n: int) -> None:
        live = self._live.get(table_id)
        before = self._present(live) if live is not None else set()
        was = self._remote_seats(table_id)
        seen = self._remote.setdefault(table_id, {})
        if n > 0:
            seen[(pid, seat)] = (n, time.monotonic())
        else:
            seen.pop((pid, seat), None)
        if self.realtime.holds(table_id):
            if self._remote_seats(table_id) != was:
                self.realtime.presence_changed(table_id)
            return
        if live is None or not (0 <= seat < live.table.n):
            return
        now = self._present(live)
        if seat in now:
            self._cancel(live, ("takeover", seat))
        elif live.table.status in ("playing", "round-over"):
            self._arm_takeover(live, seat)
        if now != before:  # a heartbeat that changes nothing sends nothing
            self._fan_out(live)

    def _tell_presence(self, live: Live, seat: int) -> None:
        if self._coord is None:
            return
        n = sum(1 for s in live.subs if s.seat == seat and not s.closed)
        self._spawn(self._send_presence([f"{live.table.table_id} {seat} {n}"]))

    async def _send_presence(self, lines: list[str]) -> None:
        coord = self._coord
        if coord is None or not coord.connected or not lines:
            return
        try:
            await coord.tell_presence(lines)
        except Exception as exc:  # the lease loop reconnects
            logger.info("presence not told: %s", exc)

    def _tell_deadlines(self, live: Live) -> None:
        """The lease holder tells the other processes its timers of this table."""
        coord = self._coord
        if coord is None or not self._owns(live.table.table_id):
            return
        told = [(kind, seat, at) for (kind, seat), at in sorted(live.deadlines.items())]
        self._spawn(self._send_deadlines(live.table.table_id, told))

    async def _send_deadlines(
        self, table_id: str, told: list[tuple[str, int | None, float]]
    ) -> None:
        coord = self._coord
        if coord is None or not coord.connected:
            return
        try:
            await coord.tell_deadlines(table_id, told)
        except Exception as exc:  # the lease loop reconnects
            logger.info("deadlines not told: %s", exc)

    def _on_deadlines(self, table_id: str, told: list[tuple[str, int | None, float]]) -> None:
        live = self._live.get(table_id)
        if live is None or self._owns(table_id):  # (a table loaded later learns the next ones)
            return
        self._told_deadlines[table_id] = {(kind, seat): at for kind, seat, at in told}
        self._fan_out(live)
