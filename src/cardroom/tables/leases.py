"""The table service's leases: which process is each table's authority (several processes on
one PostgreSQL, ``tables/cluster.py``'s :class:`~cardroom.tables.cluster.Coordinator`).

A process holds a table's lease to run its bots and timers and write the entries that follow by
themselves. :class:`Leases` (a part of :class:`~cardroom.tables.service.TableService`) takes a
new table's lease before its row is written, scans every ``lease_interval`` seconds for tables
nobody holds (and takes them over from their log), gives one away when it holds more than its
share, and gives every table up (``_fence``) when the database stops answering, so that another
process runs them within seconds. Alone on its database (no coordinator) a process owns every
table and none of this runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Coroutine
from typing import TYPE_CHECKING, Any

from cardroom.store import EventStore, StoreError
from cardroom.tables.cluster import Coordinator
from cardroom.tables.config import UNAVAILABLE, TableError
from cardroom.tables.notices import PRESENCE_HELD

if TYPE_CHECKING:
    from cardroom.tables.kinds import TableKind

__all__ = ["BALANCE_EVERY", "GIVEN_AWAY_FOR", "LEASE_INTERVAL", "Leases"]

logger = logging.getLogger(__name__)

LEASE_INTERVAL = 1.0
"""Seconds between two lease scans (several processes: a dead one's tables move this fast)."""
BALANCE_EVERY = 5
"""Every this many lease scans a process holding more than its share of the tables (one
more than the processes' average) gives one away (``_balance``): tables spread back out,
one at a time, when a process joins."""
GIVEN_AWAY_FOR = 10.0
"""Seconds a table given away is left to the other processes' scans."""


class Leases:
    """The lease side of the table service (mixed into ``TableService``)."""

    if TYPE_CHECKING:  # the service's state and the other parts this one calls
        store: EventStore
        kinds: tuple[TableKind, ...]
        _coord: Coordinator | None
        _stopping: bool
        owned: set[str]
        _creating: set[str]
        _given: dict[str, float]
        _remote: dict[str, dict[tuple[str, int], tuple[int, float]]]
        _beating: asyncio.Task[None] | None
        lease_interval: float
        fence_after: float
        balance_every: int
        fenced: bool

        def _holder(self, table_id: str) -> TableKind | None: ...
        async def _kind(self, table_id: str) -> TableKind: ...
        def _watch(self, table_id: str) -> None: ...
        def _watched_ids(self) -> list[str]: ...
        def _presence_lines(self, table_ids: list[str] | None = None) -> list[str]: ...
        async def _send_presence(self, lines: list[str]) -> None: ...
        def _spawn(self, work: Coroutine[Any, Any, None]) -> None: ...

    def _owns(self, table_id: str) -> bool:
        return self._coord is None or table_id in self.owned

    @contextlib.asynccontextmanager
    async def _new_table(self, table_id: str) -> AsyncIterator[None]:
        """Around writing a new table's row and putting it in memory (either game): its lease
        is taken first, so no other process's scan can take the table between the row's
        commit and the claim (it would run a table whose connections are routed here, and
        tell every change across). Until the block ends the table is in ``_creating``, which
        this process's scan leaves alone (not in memory yet, it would give it back). The
        block failing gives the lease back."""
        self._check_store()
        self._creating.add(table_id)
        try:
            await self._claim(table_id)
            yield
        except BaseException:
            if table_id in self.owned and self._coord is not None:
                self.owned.discard(table_id)
                with contextlib.suppress(Exception):
                    await self._coord.release(table_id)
            raise
        finally:
            self._creating.discard(table_id)

    async def _claim(self, table_id: str) -> None:
        """Take a table's lease when this process creates it (another one may run it else)."""
        if self._coord is not None:
            with contextlib.suppress(Exception):
                if self._coord.connected and await self._coord.acquire(table_id):
                    self.owned.add(table_id)

    def _check_store(self) -> None:
        """Refuse at once (``unavailable``) while this process has lost the database."""
        if self._coord is not None and not self._coord.connected:
            self._fence()
            raise TableError("unavailable", UNAVAILABLE)

    @property
    def available(self) -> bool:
        """False while this process has lost its lease connection (it serves no table)."""
        return self._coord is None or self._coord.connected

    async def _lease_loop(self) -> None:
        coord = self._coord
        assert coord is not None
        beat = 0
        while not self._stopping:
            await asyncio.sleep(self.lease_interval)
            try:
                if not coord.connected:
                    self._fence()
                    await coord.connect()
                    self.fenced = False
                    logger.warning("table leases: connected to the database again")
                    coord.watch(self._watched_ids())
                    for kind in self.kinds:
                        for table_id in kind.table_ids():
                            kind.behind(table_id)  # notices may have been missed meanwhile
                await self._scan()
                self._sweep()
                coord.expire()
                beat += 1
                if beat % self.balance_every == 0 and not coord.alone:
                    await self._balance()
                if beat % 2 == 0 and not coord.alone:
                    coord.watch(self._watched_ids())
                    await self._send_presence(self._presence_lines())
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                logger.warning(
                    "table leases lost (%s): trying again", str(exc) or type(exc).__name__
                )
                coord.lost()
                self._fence()

    async def _watchdog(self) -> None:
        """Every quarter of a lease interval: a round trip on the lease connection if none was
        made for an interval (the scan makes one too); no answer for ``fence_after`` seconds,
        or the connection gone: this process gives up its tables (``_fence``) before the
        server frees their leases for another process."""
        coord = self._coord
        assert coord is not None
        every = min(0.25, self.lease_interval / 4)
        while not self._stopping:
            await asyncio.sleep(every)
            silent = coord.silent_for()
            if coord.connected and silent > self.fence_after:
                logger.warning("no answer from the database for %.1f s: giving up", silent)
                coord.lost()
            if not coord.connected:
                self._fence()
            elif silent >= self.lease_interval and (
                self._beating is None or self._beating.done()
            ):
                self._beating = asyncio.get_running_loop().create_task(self._beat(coord))

    @staticmethod
    async def _beat(coord: Coordinator) -> None:
        with contextlib.suppress(Exception):  # (the watchdog sees the silence)
            await coord.beat()

    def _fence(self) -> None:
        """This process cannot reach the database: it is no table's authority any more (the
        server frees the leases a few seconds later, see ``store/pgconn.py``), and its
        connections are told ``unavailable`` and closed, so their pages connect again (through
        the load balancer, to a process that can serve them)."""
        self._lose_all()
        if self.fenced:
            return
        self.fenced = True
        ended = 0
        for kind in self.kinds:
            for table_id in kind.table_ids():
                for sub in kind.subscriptions(table_id):
                    sub.ended_by = "unavailable"
                    sub._put(None)
                    ended += 1
        logger.warning("lost the database: %d connections told so and closed", ended)

    async def _scan(self) -> None:
        """Take the leases of tables nobody holds; give back those of finished tables."""
        coord = self._coord
        assert coord is not None
        for table_id in list(self.owned):
            if table_id in self._creating:
                continue
            kind = self._holder(table_id)
            status = kind.status(table_id) if kind is not None else None
            if status is None or status == "over":
                self.owned.discard(table_id)
                await coord.release(table_id)
        now = time.monotonic()
        for table_id, until in list(self._given.items()):
            if until <= now:
                del self._given[table_id]
        for table_id in await coord.scan(self.owned | self._given.keys()):
            self.owned.add(table_id)
            if table_id in self._creating:  # (its claim failed) its creation puts it in memory
                continue
            coord.answer(table_id)  # its watchers read what its last holder did not tell
            try:
                held = self._holder(table_id)
                if held is not None:
                    await held.take(table_id)
                else:
                    await self._kind(table_id)  # loading it (not held) takes it
            except (TableError, StoreError) as exc:
                logger.error("table %s cannot be taken over: %s", table_id, exc)
                self.owned.discard(table_id)
                await coord.release(table_id)
            else:
                logger.info("table %s: this process is its authority now", table_id)

    def _sweep(self) -> None:
        """Forget stale presence reports; arm takeovers of persons gone with their process."""
        now = time.monotonic()
        for table_id, seen in list(self._remote.items()):
            for key, (_, at) in list(seen.items()):
                if now - at >= PRESENCE_HELD:
                    del seen[key]
                    kind = self._holder(table_id)
                    if kind is not None:  # (a process gone without a word)
                        kind.presence_changed(table_id)
            if not seen:
                del self._remote[table_id]
        for table_id in self.owned:
            kind = self._holder(table_id)
            if kind is not None:
                kind.on_beat(table_id)

    async def _balance(self) -> None:
        """Give one table away if this process holds more than its share (the leases of all
        processes over their number, plus one): between two actions (under the table's lock:
        no change is half made), its bots and timers stopped here before the lease is given
        back, so the next holder (another process's scan) reads the log and goes on: never
        two authorities. The table stays in memory here (watched) for its connections."""
        coord = self._coord
        assert coord is not None
        leases, peers = await coord.shares()
        if len(self.owned) <= leases // peers + 1:
            return
        for table_id in sorted(self.owned - self._creating):
            kind = self._holder(table_id)
            if kind is None or not await kind.give_away(table_id):
                continue  # (busy, over, or not in memory)
            self.owned.discard(table_id)
            self._given[table_id] = time.monotonic() + GIVEN_AWAY_FOR
            await coord.release(table_id)
            self._watch(table_id)
            logger.info("table %s given to another process (even shares)", table_id)
            return

    def _lose_all(self) -> None:
        """The lease connection is gone: this process is no table's authority any more."""
        for table_id in self.owned:
            for kind in self.kinds:
                kind.lose(table_id)
        if self.owned:
            logger.warning("lost the leases of %d tables", len(self.owned))
        self.owned.clear()
