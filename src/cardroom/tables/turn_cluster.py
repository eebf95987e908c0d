"""What the cluster asks of the tables played in turns (several processes on one PostgreSQL,
``tables/leases.py`` and ``tables/notices.py``): entries other processes wrote, applied here in
seq order by each table's :class:`~cardroom.tables.catchup.CatchUp`; the seats connected in
other processes; the lease holder's timers told to the others; a table run here, given away,
or dropped from memory. :class:`TurnCluster` is a part of
:class:`~cardroom.tables.turns.TurnTables`.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

from cardroom.store import EventStore, LogEntry
from cardroom.tables.live import Live
from cardroom.tables.subscription import Subscription, idle_for

__all__ = ["TurnCluster"]


class TurnCluster:
    """The cluster side of the turn-based tables (mixed into ``TurnTables``)."""

    if TYPE_CHECKING:  # the kind's state and the other parts this one calls
        store: EventStore
        _live: dict[str, Live]
        _stopping: bool
        _told_deadlines: dict[str, dict[tuple[str, int | None], float]]
        owns: Callable[[str], bool]
        remote_present: Callable[[str], set[int]]
        tell_presence: Callable[[str, int, int], None] | None
        tell_timers: Callable[[str, list[tuple[str, int | None, float]]], None] | None

        async def _after(self, live: Live) -> None: ...
        async def _resume(self, live: Live) -> None: ...
        async def _load(self, table_id: str) -> Live: ...
        def _fan_out(self, live: Live, skip: Subscription | None = None) -> None: ...
        def _arm_takeover(self, live: Live, seat: int) -> None: ...
        def _cancel(self, live: Live, key: tuple[str, int | None]) -> None: ...
        def _cancel_timers(self, live: Live) -> None: ...
        def _ensure_bot_task(self, live: Live) -> None: ...
        def _spawn(self, work: Coroutine[Any, Any, None]) -> None: ...

    def _owns(self, table_id: str) -> bool:
        return self.owns(table_id)

    # -- running a table here, or not ---------------------------------------------------------

    async def take(self, table_id: str) -> None:
        """This process is now the table's authority: read what the log holds beyond this copy,
        then its timers from the log's times and its bots."""
        self._told_deadlines.pop(table_id, None)
        live = await self._load(table_id)
        async with live.lock:
            await self._catch_up_locked(live, read=True)
            await self._resume(live)

    def lose(self, table_id: str) -> None:
        """This process is no longer the table's authority: its timers and bots stop here."""
        live = self._live.get(table_id)
        if live is None:
            return
        self._cancel_timers(live)
        if live.bot_task is not None:
            live.bot_task.cancel()
            live.bot_task = None

    async def give_away(self, table_id: str) -> bool:
        """Stop running a table between two actions (under its lock: no change is half made);
        False when it is busy, over or not held."""
        live = self._live.get(table_id)
        if live is None or live.lock.locked() or live.catch.writing:
            return False
        if live.table.status == "over":
            return False
        async with live.lock:
            self.lose(table_id)
        return True

    def on_beat(self, table_id: str) -> None:
        """The lease holder's look every interval: a countdown for each person seat nobody is
        connected to (their process may have gone without a word)."""
        live = self._live.get(table_id)
        if live is None or live.table.status not in ("playing", "round-over"):
            return
        present = self._present(live)
        for g in live.table.person_seats():
            if g not in present and g not in live.table.taken_over:
                self._arm_takeover(live, g)

    # -- entries other processes wrote --------------------------------------------------------

    def on_change(self, table_id: str, seq: int, entry: LogEntry | None = None) -> None:
        """Another process appended ``seq`` (with the entry, or None: read the log)."""
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

    def behind(self, table_id: str, read: bool = True) -> None:
        """Catch up with the log soon (``read``: from the store, notices may have been lost)."""
        live = self._live.get(table_id)
        if live is not None:
            self._behind(live, read)

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

    # -- presence ------------------------------------------------------------------------------

    def _present(self, live: Live) -> set[int]:
        """The person seats connected here or (as other processes told) elsewhere."""
        return live.present() | self.remote_present(live.table.table_id)

    def presence_changed(self, table_id: str) -> None:
        """Another process's connections changed: a seat back is no longer counted down, a seat
        gone is (its lease holder only), and every page shows who is here."""
        live = self._live.get(table_id)
        if live is None:
            return
        present = self._present(live)
        for g in live.table.person_seats():
            if g in present:
                self._cancel(live, ("takeover", g))
            elif live.table.status in ("playing", "round-over"):
                self._arm_takeover(live, g)
        self._fan_out(live)

    def _tell_presence(self, live: Live, seat: int) -> None:
        if self.tell_presence is not None:
            n = sum(1 for s in live.subs if s.seat == seat and not s.closed)
            self.tell_presence(live.table.table_id, seat, n)

    def subscriptions(self, table_id: str) -> list[Subscription]:
        """This process's connections to a table."""
        live = self._live.get(table_id)
        return list(live.subs) if live is not None else []

    def connections(self) -> list[tuple[str, int, int]]:
        """``(table, seat, n)`` for every person seat with connections here."""
        return [
            (tid, seat, sum(1 for s in live.subs if s.seat == seat))
            for tid, live in self._live.items()
            for seat in live.present()
        ]

    # -- timers told across ---------------------------------------------------------------------

    def _tell_deadlines(self, live: Live) -> None:
        """The lease holder tells the other processes its timers of this table."""
        if self.tell_timers is None or not self._owns(live.table.table_id):
            return
        told = [(kind, seat, at) for (kind, seat), at in sorted(live.deadlines.items())]
        self.tell_timers(live.table.table_id, told)

    def timers_told(self, table_id: str) -> None:
        """Tell this table's timers again (another process appeared or watches it)."""
        live = self._live.get(table_id)
        if live is not None and live.deadlines and self._owns(table_id):
            self._tell_deadlines(live)

    def on_timers(self, table_id: str, told: list[tuple[str, int | None, float]]) -> None:
        """The lease holder of a table held here told its timers: every page shows them."""
        live = self._live.get(table_id)
        if live is None or self._owns(table_id):  # (a table loaded later learns the next ones)
            return
        self._told_deadlines[table_id] = {(kind, seat): at for kind, seat, at in told}
        self._fan_out(live)

    # -- memory ----------------------------------------------------------------------------------

    def unload(self, table_id: str) -> None:
        """Drop a finished table nobody is connected to, so the next request reads it from the
        log again (a forgotten player's name was rewritten there)."""
        live = self._live.get(table_id)
        if live is not None and live.table.status == "over" and not live.subs:
            self._cancel_timers(live)
            if live.bot_task is None or live.bot_task.done():
                del self._live[table_id]

    def evict_idle(self, now: float, grace: float) -> list[str]:
        """Drop the finished tables nobody has been connected to for ``grace`` seconds."""
        gone = [tid for tid, live in self._live.items() if idle_for(live, now, grace)]
        for table_id in gone:
            live = self._live.pop(table_id)
            self._cancel_timers(live)
            live.catch.inbox.clear()
            self._told_deadlines.pop(table_id, None)
        return gone
