"""TableService: every live table of a process, its log, its bots, its subscribers and timers.

Inside a table's lock every change goes: check (nothing mutated) -> ``await store.append`` ->
``table.apply`` -> a frame on every subscriber's queue. Nothing is told before it is stored, so
a process killed at any moment restarts (:meth:`TableService.start`) with every table exactly
where its log says, and bots and timers pick up from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from cardroom.bots import Bot
from cardroom.games.messages import Message
from cardroom.games.table import clean_name, hash_token, seat_for_token
from cardroom.store import EventStore, LogEntry, SeqConflict, StoreError, StoreUnavailable
from cardroom.tables.bot_loop import BotLoop
from cardroom.tables.cluster import FENCE_AFTER, Coordinator
from cardroom.tables.config import (
    CREATOR_STARTS,
    IS_REALTIME,
    MOVED_ON,
    NO_LEVEL,
    NO_LOG,
    NO_ROUNDS,
    NOT_REALTIME,
    REALTIME_ACTION,
    RECORD_NOT_OVER,
    TURN_ACTION,
    UNAVAILABLE,
    YOU_LEFT,
    Created,
    SeatSpec,
    TableConfig,
    TableError,
    cannot_rebuild,
    table_exists,
)
from cardroom.tables.frames import Frames
from cardroom.tables.leases import BALANCE_EVERY, LEASE_INTERVAL, Leases
from cardroom.tables.listing import Listing
from cardroom.tables.live import Live
from cardroom.tables.notices import Notices
from cardroom.tables.protocol import TurnTable, game_in, table_class, turn_table_class
from cardroom.tables.realtime import RealtimeConfig
from cardroom.tables.realtime_service import RealtimeTables, is_realtime
from cardroom.tables.rematch import Rematches
from cardroom.tables.slots import new_table_id
from cardroom.tables.subscription import Frame, Subscription
from cardroom.tables.timers import Timers

__all__ = ["Created", "SeatSpec", "Subscription", "TableConfig", "TableError", "TableService"]

EVICT_AFTER = 120.0
"""Seconds a finished table stays in memory after its last subscriber left (then it is read
from the log again when someone asks for it)."""
logger = logging.getLogger(__name__)


def _no_table(table_id: str) -> Message:
    return Message("table.no-table", f"there is no table {table_id!r}")


class TableService(Leases, Notices, BotLoop, Timers, Frames, Listing, Rematches):
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
        self.slot = slot
        self.slots = slots
        self.evict_after = evict_after
        self._evict_task: asyncio.Task[None] | None = None
        self._hint_pool = ThreadPoolExecutor(hint_threads, thread_name_prefix="cardroom-hint")
        self._hint_limit = 8 * hint_threads
        self._hints_waiting = 0
        self.clock = clock
        self._live: dict[str, Live] = {}
        self._bots: dict[tuple[str, str], Bot] = {}
        self._bot_thinks: dict[str, bool] = {}
        """Bot spec -> whether its turns run in a thread (``_THINKING_BOTS``)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False
        self.realtime = RealtimeTables(store, clock, Subscription)
        self.realtime.slot, self.realtime.slots = slot, slots
        """The real-time tables (every public method hands them on)."""
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
            self.realtime.owns = self._owns
            self.realtime.new_table = self._new_table
            self.realtime.remote_present = self._remote_seats
            self.realtime.tell_presence = self._tell_realtime_presence
            self.realtime.watch = self._watch
        self.owned: set[str] = set()
        """Tables whose lease this process holds (with a coordinator)."""
        self._creating: set[str] = set()
        """New tables whose lease is taken and whose row is being written."""
        if self._coord is not None:
            self._coord.mine = self.owned
        self._remote: dict[str, dict[tuple[str, int], tuple[int, float]]] = {}
        self._told_deadlines: dict[str, dict[tuple[str, int | None], float]] = {}
        """The timers the lease holder of a table this process does not hold told it of."""
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
                if await self._is_realtime(table_id):
                    continue
                live = await self._load(table_id)
            except TableError as exc:  # a damaged log must not keep the other tables down
                logger.error("table %s cannot be rebuilt from its log: %s", table_id, exc)
                continue
            async with live.lock:
                await self._resume(live)

    async def stop(self) -> None:
        """Cancel bot tasks and timers (the log is already complete); end subscriptions.

        Each table's lock is taken first, so no change is cut between its append and its apply.
        """
        self._stopping = True
        self._hint_pool.shutdown(wait=False, cancel_futures=True)
        await self.realtime.stop()
        tasks: list[asyncio.Task[None]] = list(self._tasks)
        if self._lease_task is not None:
            tasks.append(self._lease_task)
        if self._watchdog_task is not None:
            tasks.append(self._watchdog_task)
        if self._evict_task is not None:
            tasks.append(self._evict_task)
        for live in list(self._live.values()):
            async with live.lock:
                mine = list(live.timers.values())
                if live.bot_task is not None:
                    mine.append(live.bot_task)
                for task in mine:
                    task.cancel()
                tasks.extend(mine)
            for sub in live.subs:
                sub._put(None)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._live.clear()
        if self._coord is not None:
            await self._coord.close()
            self.owned.clear()

    async def _load(self, table_id: str) -> Live:
        live = self._live.get(table_id)
        if live is not None:
            return live
        if await self._is_realtime(table_id):
            raise TableError("bad-request", IS_REALTIME)
        try:
            entries = await self.store.entries(table_id)
        except StoreUnavailable as exc:
            raise TableError("unavailable", UNAVAILABLE) from exc
        if not entries:
            raise TableError("not-found", _no_table(table_id))
        live = self._live.get(table_id)  # loaded meanwhile by another caller
        if live is None:
            try:
                cls = table_class(game_in(entries[0].data))
            except ValueError as exc:
                raise TableError("not-found", cannot_rebuild(table_id, str(exc))) from None
            live = Live(cast(TurnTable, cls.replay(table_id, entries)))
            self._live[table_id] = live
            self._watch(table_id)
        return live

    async def _is_realtime(self, table_id: str) -> bool:
        """True for a real-time table (loaded from the log into ``realtime`` if needed)."""
        if table_id in self._live:
            return False
        if self.realtime.holds(table_id):
            return True
        entries = await self.store.entries(table_id)
        if not entries:
            raise TableError("not-found", _no_table(table_id))
        if not is_realtime(entries[0]):
            return False
        try:
            await self.realtime.load(table_id, entries)
        except (TableError, ValueError) as exc:
            raise TableError("not-found", cannot_rebuild(table_id, str(exc))) from None
        return True

    async def game_of(self, table_id: str) -> str:
        """The game of a table, its name in the registry (loads the table if needed)."""
        if await self._is_realtime(table_id):
            return self.realtime.game_of(table_id)
        return (await self._load(table_id)).table.cfg.game

    async def create_realtime(
        self, config: RealtimeConfig, title: str = "", public: bool = True
    ) -> Created:
        """Create a real-time table (see :class:`RealtimeTables`)."""
        return await self.realtime.create(config, title, public)

    async def act_realtime(
        self, table_id: str, seat: int, action: Any, ref: object = None
    ) -> None:
        """A person's action at a real-time table, in record form with ``seen``."""
        if table_id in self._live:
            raise TableError("bad-request", TURN_ACTION)
        await self.realtime.act(table_id, seat, action, ref)

    async def earlier_log(self, table_id: str, seat: int | None, before: int) -> Frame:
        """The log lines of a real-time table before index ``before`` (a ``log`` frame)."""
        if not await self._is_realtime(table_id):
            raise TableError("bad-request", NO_LOG)
        return self.realtime.earlier_log(table_id, seat, before)

    async def realtime_record(self, table_id: str) -> dict[str, Any] | list[dict[str, Any]]:
        """The record of a finished real-time table (a match to a target: a list of games)."""
        if not await self._is_realtime(table_id):
            raise TableError("bad-request", NOT_REALTIME)
        return await self.realtime.record(table_id)

    def _get(self, table_id: str) -> Live:
        live = self._live.get(table_id)
        if live is None:
            raise TableError("not-found", _no_table(table_id))
        return live

    async def _resume(self, live: Live) -> None:
        """After a restart: timers from the log's times, then the bots."""
        table = live.table
        await self._store_summary(live)
        if table.status == "over":
            return
        if table.status != "waiting":
            for g in table.person_seats():
                if g not in table.taken_over and g not in self._present(live):
                    self._arm_takeover(live, g)
        await self._follow_up(live)
        self._ensure_bot_task(live)
        live.wake.set()

    # -- creating and joining --------------------------------------------------------------

    async def create(
        self,
        config: TableConfig[Any],
        *,
        table_id: str | None = None,
        rematch_of: str | None = None,
    ) -> Created:
        """Create a table (logged as ``created``); returns its id and seat tokens.

        A person seat with a name is joined at once; when every person seat is joined the
        table starts by itself. ``table_id`` (a rematch's, logged on ``rematch_of`` first) is
        refused as ``stale`` if that table exists already.
        """
        for g, spec in enumerate(config.seats):
            if spec.kind == "bot":
                self._bot(spec.level or config.level, config.game)
            if spec.name is not None:
                clean_name(spec.name)
            if g and spec.kind == "person" and spec.level is not None:
                raise TableError("bad-request", NO_LEVEL)
        self._bot(config.level, config.game)
        tokens = {
            g: secrets.token_urlsafe(24) for g, s in enumerate(config.seats) if s.kind == "person"
        }
        if table_id is None:
            table_id = new_table_id(self.slot, self.slots)
        elif table_id in self._live or await self.store.entries(table_id):
            raise TableError("stale", table_exists(table_id))
        data: dict[str, Any] = {
            "config": config.to_json(),
            "tokens": {str(g): hash_token(t) for g, t in tokens.items()},
        }
        if rematch_of is not None:
            data["rematch_of"] = rematch_of
        table = turn_table_class(config.game)(table_id)
        table.check("created", data)
        entry = LogEntry(table.seq + 1, "created", data, self.clock())
        seats = [
            {
                "seat": g,
                "kind": spec.kind,
                "name": spec.name or "",
                "level": spec.level if spec.kind == "bot" else None,
                "token_hash": hash_token(tokens[g]) if g in tokens else None,
                "joined": spec.kind == "bot" or spec.name is not None,
            }
            for g, spec in enumerate(config.seats)
        ]
        async with self._new_table(table_id):
            try:
                await self.store.create_table(
                    table_id, config.game, entry, config.title, config.public, seats
                )
            except SeqConflict:  # (a rematch made by another process meanwhile)
                raise TableError("stale", table_exists(table_id)) from None
            table.apply(entry)
            live = Live(table)
            self._live[table_id] = live
        async with live.lock:
            await self._store_summary(live)
            await self._after(live)
        self._ensure_bot_task(live)
        live.wake.set()
        return Created(table_id, tokens[0], {g: t for g, t in tokens.items() if g != 0})

    async def seat_of(self, table_id: str, token: str | None) -> int | None:
        """The seat a token opens (None = spectator); ``TableError('forbidden')`` if wrong.

        Loads the table from the log if this process does not hold it yet.
        """
        if await self._is_realtime(table_id):
            return self.realtime.seat_of(table_id, token)
        live = await self._load(table_id)
        return seat_for_token(live.table.token_hashes, token)

    async def seat_state(self, table_id: str, seat: int) -> str:
        """Where a seat's game stands: ``waiting`` (not begun), ``over``, ``playing`` (its
        person plays it) or ``away`` (begun, and a bot plays the seat since its person left or
        was away past the limit)."""
        if await self._is_realtime(table_id):
            return self.realtime.seat_state(table_id, seat)
        table = (await self._load(table_id)).table
        if table.status in ("waiting", "over"):
            return table.status
        return "away" if seat in table.taken_over else "playing"

    async def join(self, table_id: str, seat: int, name: str) -> None:
        """A person takes their seat under ``name`` (1..24 characters)."""
        if self.realtime.holds(table_id):
            return await self.realtime.join(table_id, seat, name)
        live = self._get(table_id)
        async with live.lock:
            await self._commit(live, "joined", {"seat": seat, "name": clean_name(name)})
            await self._after(live)

    async def start_now(self, table_id: str, seat: int) -> None:
        """The creator starts the table; empty person seats get bots of the table's level."""
        if self.realtime.holds(table_id):
            return await self.realtime.start_now(table_id, seat)
        live = self._get(table_id)
        if seat != 0:
            raise TableError("forbidden", CREATOR_STARTS)
        async with live.lock:
            await self._start(live)
            await self._after(live)

    async def _start(self, live: Live) -> None:
        table = live.table
        filled = [
            g for g, s in enumerate(table.cfg.seats) if s.kind == "person" and not table.joined[g]
        ]
        dealer = random.Random(f"{table.cfg.seed}/dealer").randrange(table.n)
        await self._commit(live, "started", {"filled": filled, "dealer": dealer})
        armed = False
        for g in table.person_seats():
            if g not in self._present(live):
                self._arm_takeover(live, g)
                armed = True
        if armed:
            self._fan_out(live)  # the takeover deadlines

    # -- playing ----------------------------------------------------------------------------

    async def act(self, table_id: str, seat: int, action: str, seen_seq: int) -> None:
        """Play ``action`` (its text, e.g. a card ``"7D"``) for ``seat``; refuses a stale
        ``seen_seq``."""
        if self.realtime.holds(table_id):
            raise TableError("bad-request", REALTIME_ACTION)
        live = self._get(table_id)
        async with live.lock:
            table = live.table
            if seen_seq != table.seq:
                raise TableError("stale", MOVED_ON)
            if seat in table.left:
                raise TableError("forbidden", YOU_LEFT)
            if seat in table.taken_over:
                await self._commit(live, "returned", {"seat": seat})
            await self._commit(
                live, "action", {"seat": seat, "action": str(action), "by": "person"}
            )
            await self._after(live)

    async def ready(self, table_id: str, seat: int) -> None:
        """The person at ``seat`` asks for the next round."""
        if self.realtime.holds(table_id):
            raise TableError("bad-request", NO_ROUNDS)
        live = self._get(table_id)
        async with live.lock:
            await self._commit(live, "ready", {"seat": seat})
            await self._after(live)

    async def _commit(self, live: Live, kind: str, data: dict[str, Any]) -> LogEntry:
        """Check, store, apply, tell: the one path of every change (the lock is held)."""
        table = live.table
        entry = table.entry(kind, data, self.clock())
        table_update: dict[str, Any] | None = None
        seats_update: list[dict[str, Any]] | None = None
        if kind == "joined":
            seats_update = [{"seat": data["seat"], "name": data["name"], "joined": True}]
        elif kind == "started":
            table_update = {"status": "playing"}
            seats_update = [
                {"seat": g, "kind": "bot", "name": f"Bot {g + 1}", "level": table.cfg.level}
                for g in data["filled"]
            ]
        self._check_store()
        live.catch.writing = entry.seq
        try:
            await self.store.append(
                table.table_id, entry, table_update=table_update, seats_update=seats_update
            )
        except SeqConflict:  # another process wrote this seq first: its entry is the one
            with contextlib.suppress(StoreError):
                await self._catch_up_locked(live, read=True)
            raise TableError("stale", MOVED_ON) from None
        except StoreUnavailable as exc:
            raise TableError("unavailable", UNAVAILABLE) from exc
        finally:
            live.catch.writing = 0
        table.apply(entry)
        if kind == "action" and table.status in ("round-over", "over"):
            with contextlib.suppress(StoreError):  # the projection is redone at the next start
                await self._store_summary(live)
        self._fan_out(live)
        self._ensure_bot_task(live)
        live.wake.set()
        return entry

    async def _store_summary(self, live: Live) -> None:
        # the lobby's projection only (the log already holds the change); _resume redoes it
        table = live.table
        status = "playing" if table.status == "round-over" else table.status
        await self.store.update_table(
            table.table_id, {"status": status, "summary": table.summary()}
        )

    async def _follow_up(self, live: Live) -> None:
        """Entries that follow by themselves: the start, the next round, timers (lock held).

        Only the table's authority (the lease holder) writes them.
        """
        table = live.table
        if not self._owns(table.table_id):
            return
        if table.status == "waiting":
            if all(table.joined[g] for g in range(table.n)):
                await self._start(live)
            else:
                return
        if table.status == "over":
            self._cancel_timers(live)
            return
        if table.needs_deal():
            await self._commit(live, "round", table.deal())
        if table.status == "round-over":
            if not table.waiting_for_ready():
                self._cancel(live, ("next-round", None))
                await self._commit(live, "round", table.deal())
            elif ("next-round", None) not in live.timers:
                ended = table.round_ended_at or self.clock()
                self._arm(
                    live,
                    ("next-round", None),
                    ended + table.cfg.next_round_after,
                    lambda: self._next_round_due(live),
                )
                self._fan_out(live)  # every page shows the countdown to the next round
        if table.status == "playing":
            self._cancel(live, ("next-round", None))

    async def _after(self, live: Live) -> None:
        """``_follow_up`` after an accepted change (lock held): if the database fails now,
        the change stands (it is stored) and the follow-up is tried again until it is done."""
        try:
            await self._follow_up(live)
        except TableError as exc:
            if exc.code != "unavailable":
                raise
            self._spawn(self._follow_up_later(live))

    async def _follow_up_later(self, live: Live) -> None:
        while not self._stopping:
            await asyncio.sleep(1.0)
            try:
                async with live.lock:
                    await self._follow_up(live)
                    self._ensure_bot_task(live)
                    live.wake.set()
                return
            except TableError as exc:
                if exc.code != "unavailable":
                    logger.warning("table %s: %s", live.table.table_id, exc.message)
                    return

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- reading --------------------------------------------------------------------------------

    async def round_events(self, table_id: str, k: int) -> list[dict[str, Any]]:
        """The public events of round ``k`` (0, 1, …) of a turn-based table (at most
        ``ROUND_EVENTS_MAX``); ``not-found`` for a round not played (yet)."""
        if await self._is_realtime(table_id):
            raise TableError("bad-request", NO_ROUNDS)
        return (await self._load(table_id)).table.round_events(k)

    def table(self, table_id: str) -> TurnTable:
        """The live table (read only: change it through the service)."""
        return self._get(table_id).table

    async def record(self, table_id: str) -> list[dict[str, Any]]:
        """The game record (replay format); ``TableError('forbidden')`` until the game is over."""
        live = await self._load(table_id)
        if live.table.status != "over":
            raise TableError("forbidden", RECORD_NOT_OVER)
        return [dict(r) for r in live.table.record()]
