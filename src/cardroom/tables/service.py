"""TableService: every live table of a process, whichever its kind, and the cluster around them.

Two kinds of table (``tables/kinds.py``): played in turns
(:class:`~cardroom.tables.turns.TurnTables`) and in real time
(:class:`~cardroom.tables.realtime_service.RealtimeTables`). A request names a table; the
service finds the kind that holds it (or that claims its log, and loads it there) and asks it.
Around them: the leases and notices shared with other processes on one PostgreSQL
(:class:`~cardroom.tables.leases.Leases`, :class:`~cardroom.tables.notices.Notices`), and the
lobby's listing and the eviction of finished tables (:class:`~cardroom.tables.listing.Listing`).

Inside a table's lock every change goes: check (nothing mutated) -> ``await store.append`` ->
apply -> a frame on every subscriber's queue. Nothing is told before it is stored, so a process
killed at any moment restarts (:meth:`TableService.start`) with every table exactly where its log
says, and bots and timers pick up from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from cardroom.store import EventStore
from cardroom.tables.cluster import FENCE_AFTER, Coordinator
from cardroom.tables.config import (
    Created,
    SeatSpec,
    TableConfig,
    TableError,
    cannot_rebuild,
    no_table,
)
from cardroom.tables.kinds import TableKind
from cardroom.tables.leases import BALANCE_EVERY, LEASE_INTERVAL, Leases
from cardroom.tables.listing import Listing
from cardroom.tables.notices import Notices
from cardroom.tables.protocol import TurnTable
from cardroom.tables.realtime import RealtimeConfig
from cardroom.tables.realtime_service import RealtimeTables
from cardroom.tables.subscription import Frame, Subscription
from cardroom.tables.turns import TurnTables

__all__ = ["Created", "SeatSpec", "Subscription", "TableConfig", "TableError", "TableService"]

EVICT_AFTER = 120.0
"""Seconds a finished table stays in memory after its last subscriber left (then it is read
from the log again when someone asks for it)."""
logger = logging.getLogger(__name__)


class TableService(Leases, Notices, Listing):
    """Owns the live tables of a process; the web server and the terminal drive it."""

    def __init__(
        self,
        store: EventStore,
        *,
        clock: Callable[[], float] = time.time,
        coordinate: bool | None = None,
        lease_interval: float = LEASE_INTERVAL,
        hint_threads: int = 1,
        evict_after: float = EVICT_AFTER,
        slot: int = 0,
        slots: int = 1,
    ) -> None:
        """``coordinate`` (default: when the store is PostgreSQL): share the database with
        other processes through table leases and notices (see ``tables/cluster.py``).
        Hints are worked out in a pool of ``hint_threads`` threads of their own, so a flood of
        them never delays a bot. A finished table nobody is connected to leaves memory
        ``evict_after`` seconds after its last subscriber left (checked every
        ``evict_after / 4`` seconds, at most every 30 s). ``slot`` of ``slots``: this process's
        place among ``cardroom serve --workers`` (``tables/slots.py``); the tables it makes
        have ids of its slot, so their connections are routed to it."""
        self.store = store
        self.evict_after = evict_after
        self._evict_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False
        self.turns = TurnTables(store, clock, hint_threads=hint_threads, slot=slot, slots=slots)
        """The tables played in turns."""
        self.realtime = RealtimeTables(store, clock, Subscription, slot=slot, slots=slots)
        """The tables played in real time."""
        self.kinds: tuple[TableKind, ...] = (self.turns, self.realtime)
        """Every kind of table; a table's ``created`` entry is claimed by one of them."""
        self.lease_interval = lease_interval
        self._coord: Coordinator | None = None
        if coordinate if coordinate is not None else store.notifies:
            self._coord = Coordinator(
                store.url,
                self._on_change,
                self._on_presence,
                self._on_deadlines,
                wants=self._holds_any,
                on_sync=self._on_sync,
                on_peer=self._on_peer,
                on_watched=self._on_watched,
                watch_ttl=6 * lease_interval,  # watches are repeated every 2 intervals
            )
            store.announce = self._coord.announce
            for kind in (self.turns, self.realtime):
                kind.owns = self._owns
                kind.new_table = self._new_table
                kind.check_store = self._check_store
                kind.tell_presence = self._tell_presence
                kind.watch = self._watch
                kind.tell_timers = self._tell_timers
        self.owned: set[str] = set()
        """Tables whose lease this process holds (with a coordinator)."""
        self._creating: set[str] = set()
        """New tables whose lease is taken and whose row is being written."""
        if self._coord is not None:
            self._coord.mine = self.owned
        self._remote: dict[str, dict[tuple[str, int], tuple[int, float]]] = {}
        """Table -> (process, seat) -> (its connections there, when told)."""
        for kind in (self.turns, self.realtime):
            kind.remote_present = self._remote_seats
        self._lease_task: asyncio.Task[None] | None = None
        self._watchdog_task: asyncio.Task[None] | None = None
        self._beating: asyncio.Task[None] | None = None
        self.fenced = False
        """This process lost its lease connection (the database does not answer it): it runs
        no table and has closed its connections, until it is connected again."""
        self.fence_after = FENCE_AFTER
        self._given: dict[str, float] = {}
        """Tables this process gave away to even the shares -> until when (monotonic) its
        scan leaves them to the others."""
        self.balance_every = BALANCE_EVERY

    # -- life cycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every unfinished table from the log and resume its bots and timers.

        With a coordinator: only the tables whose lease this process gets (the others are
        loaded when a client asks for them), then a scan every ``lease_interval`` seconds.
        """
        self._evict_task = asyncio.get_running_loop().create_task(self._evict_loop())
        if self._coord is not None:
            try:
                await self._coord.connect()
                await self._scan()
            except Exception as exc:  # the lease loop tries again
                logger.warning("cannot take table leases yet: %s", exc)
                await self._coord.close()
            self._lease_task = asyncio.get_running_loop().create_task(self._lease_loop())
            self._watchdog_task = asyncio.get_running_loop().create_task(self._watchdog())
            return
        for table_id in await self.store.table_ids({"waiting", "playing"}):
            try:
                await self._kind(table_id)  # loaded, it runs here (alone, this process owns all)
            except TableError as exc:  # a damaged log must not keep the other tables down
                logger.error("table %s cannot be rebuilt from its log: %s", table_id, exc)

    async def stop(self) -> None:
        """Stop the cluster's tasks, then every kind's tables (the log is already complete)."""
        self._stopping = True
        tasks: list[asyncio.Task[None]] = list(self._tasks)
        for task in (self._lease_task, self._watchdog_task, self._evict_task):
            if task is not None:
                tasks.append(task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for kind in self.kinds:
            await kind.stop()
        if self._coord is not None:
            await self._coord.close()
            self.owned.clear()

    def _holder(self, table_id: str) -> TableKind | None:
        """The kind holding a table in memory here, if any."""
        for kind in self.kinds:
            if kind.holds(table_id):
                return kind
        return None

    def _held(self, table_id: str) -> TableKind:
        """The kind holding a table here; ``not-found`` if none does."""
        kind = self._holder(table_id)
        if kind is None:
            raise TableError("not-found", no_table(table_id))
        return kind

    async def _kind(self, table_id: str) -> TableKind:
        """The kind holding a table, after loading it from its log if this process holds it
        not (the kind that claims its ``created`` entry rebuilds it)."""
        kind = self._holder(table_id)
        if kind is not None:
            return kind
        entries = await self.store.entries(table_id)
        if not entries:
            raise TableError("not-found", no_table(table_id))
        kind = self._holder(table_id)  # (loaded meanwhile by another caller)
        if kind is not None:
            return kind
        kind = next(k for k in self.kinds if k.claims(entries[0]))
        try:
            await kind.load(table_id, entries)
        except (TableError, ValueError) as exc:
            if isinstance(exc, TableError) and exc.code == "unavailable":
                raise
            raise TableError("not-found", cannot_rebuild(table_id, str(exc))) from None
        return kind

    # -- creating ----------------------------------------------------------------------------

    async def create(
        self,
        config: TableConfig[Any],
        *,
        table_id: str | None = None,
        rematch_of: str | None = None,
    ) -> Created:
        """Create a table played in turns (see :meth:`TurnTables.create`)."""
        return await self.turns.create(config, table_id=table_id, rematch_of=rematch_of)

    async def create_realtime(
        self, config: RealtimeConfig, title: str = "", public: bool = True
    ) -> Created:
        """Create a table played in real time (see :meth:`RealtimeTables.create`)."""
        return await self.realtime.create(config, title, public)

    # -- requests about one table (its kind answers) -----------------------------------------

    async def game_of(self, table_id: str) -> str:
        """The game of a table, its name in the registry (loads the table if needed)."""
        return (await self._kind(table_id)).game_of(table_id)

    async def seat_of(self, table_id: str, token: str | None) -> int | None:
        """The seat a token opens (None = spectator); ``TableError('forbidden')`` if wrong.

        Loads the table from the log if this process does not hold it yet.
        """
        return (await self._kind(table_id)).seat_of(table_id, token)

    async def seat_state(self, table_id: str, seat: int) -> str:
        """Where a seat's game stands: ``waiting`` (not begun), ``over``, ``playing`` (its
        person plays it) or ``away`` (begun, and a bot plays the seat since its person left or
        was away past the limit)."""
        return (await self._kind(table_id)).seat_state(table_id, seat)

    async def join(self, table_id: str, seat: int, name: str) -> None:
        """A person takes their seat under ``name`` (1..24 characters)."""
        await self._held(table_id).join(table_id, seat, name)

    async def start_now(self, table_id: str, seat: int) -> None:
        """The creator starts the table; empty person seats get bots of the table's level."""
        await self._held(table_id).start_now(table_id, seat)

    async def act(self, table_id: str, seat: int, action: str, seen_seq: int) -> None:
        """Play ``action`` (its text, e.g. a card ``"7D"``) for ``seat`` at a table in turns;
        refuses a stale ``seen_seq``."""
        await self._held(table_id).act(table_id, seat, action, seen_seq)

    async def act_realtime(self, table_id: str, seat: int, action: Any, ref: object = None) -> None:
        """A person's action at a real-time table, in record form with ``seen``."""
        await self._held(table_id).act_realtime(table_id, seat, action, ref)

    async def ready(self, table_id: str, seat: int) -> None:
        """The person at ``seat`` asks for the next round."""
        await self._held(table_id).ready(table_id, seat)

    async def leave(self, table_id: str, seat: int) -> None:
        """The person at ``seat`` leaves a game in progress: a bot of the table's level plays
        their seat to the end (logged ``left``)."""
        await (await self._kind(table_id)).leave(table_id, seat)

    async def hint(self, table_id: str, seat: int, seq: int, lang: str = "en") -> tuple[str, str]:
        """A suggestion for ``seat``'s own move at state ``seq``: ``("7D", reason)``; nothing is
        logged (see :meth:`BotLoop.hint`)."""
        return await self._held(table_id).hint(table_id, seat, seq, lang)

    async def rematch(self, table_id: str, seat: int) -> tuple[str, str | None]:
        """The rematch of a finished table (made by the first player to ask): its id and a
        fresh token for ``seat``'s seat there (None: a bot plays that seat now; the person
        watches). Same seats, options and bots; persons keep their names."""
        return await (await self._kind(table_id)).rematch(table_id, seat)

    async def record(self, table_id: str) -> Any:
        """The record of a finished table in its kind's replay format (a real-time match: the
        list of its games); ``TableError('forbidden')`` until the game is over."""
        return await (await self._kind(table_id)).record(table_id)

    async def round_events(self, table_id: str, k: int) -> list[dict[str, Any]]:
        """The public events of round ``k`` (0, 1, …) of a turn-based table (at most
        ``ROUND_EVENTS_MAX``); ``not-found`` for a round not played (yet)."""
        return (await self._kind(table_id)).round_events(table_id, k)

    async def earlier_log(self, table_id: str, seat: int | None, before: int) -> Frame:
        """The log lines of a real-time table before index ``before`` (a ``log`` frame)."""
        return (await self._kind(table_id)).earlier_log(table_id, seat, before)

    def table(self, table_id: str) -> TurnTable:
        """A live table played in turns (read only: change it through the service)."""
        return self.turns.table(table_id)

    # -- subscribers ---------------------------------------------------------------------------

    def subscribe(self, table_id: str, seat: int | None) -> Subscription:
        """A stream of frames for ``seat`` (None: spectator); the first is the full state.

        A person coming back to a seat a bot plays for takes it back.
        """
        return self._held(table_id).subscribe(table_id, seat)

    def unsubscribe(self, sub: Subscription) -> None:
        """End a subscription; a person seat's last one gone starts its takeover timer."""
        kind = self._holder(sub.table_id)
        if kind is not None:
            kind.unsubscribe(sub)
            return
        sub.closed = True
        sub._put(None)

    def frame_for(self, table_id: str, seat: int | None) -> Frame:
        """The full ``state`` frame for ``seat`` (or a spectator)."""
        return self._held(table_id).frame_for(table_id, seat)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
