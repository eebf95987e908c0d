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
from dataclasses import replace
from functools import partial
from typing import Any

from cardroom.bots import Bot, make_bot, parse_spec
from cardroom.bots.base import LEVELS, LazyRandom
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.bots.hint import HintError, suggest
from cardroom.games.nain_jaune.table import NainJauneTable, action_text
from cardroom.games.nain_jaune.view import view_of
from cardroom.games.table import clean_name, hash_token, seat_for_token
from cardroom.store import EventStore, LogEntry, SeqConflict, StoreError, StoreUnavailable
from cardroom.tables.cluster import FENCE_AFTER, Coordinator
from cardroom.tables.config import (
    CREATOR_STARTS,
    HINT_MOVED_ON,
    HINT_NOT_YOUR_TURN,
    HINTS_BUSY,
    HINTS_NAIN_JAUNE,
    HINTS_OFF,
    IS_REALTIME,
    LEFT_BY_CLOSING,
    MOVED_ON,
    NAIN_JAUNE_ACTION,
    NO_LEVEL,
    NO_LOG,
    NO_ROUNDS,
    NOT_REALTIME,
    REALTIME_ACTION,
    RECORD_NOT_OVER,
    REMATCH_BUSY,
    REMATCH_NOT_OVER,
    REMATCH_PLAYERS,
    UNAVAILABLE,
    WATCH_ONLY,
    YOU_LEFT,
    Created,
    SeatSpec,
    TableConfig,
    TableError,
    bad_level,
    cannot_rebuild,
    table_exists,
)
from cardroom.tables.leases import BALANCE_EVERY, LEASE_INTERVAL, Leases
from cardroom.tables.live import Live
from cardroom.tables.notices import Notices
from cardroom.tables.realtime import RealtimeConfig
from cardroom.tables.realtime_service import RealtimeTables, is_realtime
from cardroom.tables.slots import new_table_id
from cardroom.tables.subscription import Frame, Subscription, idle_for, sleep

__all__ = ["Created", "SeatSpec", "Subscription", "TableConfig", "TableError", "TableService"]

_THINKING_BOTS = frozenset({"search", "expert", "ismcts"})
"""Bot families that search for a while: they choose in a worker thread."""
BOT_TICK = 0.05
"""Bots' moves are put off to the next multiple of this (seconds; at most an eighth of the
table's bot delay): the bots of many tables then move in one loop turn and their entries share
one commit, instead of one wake-up each (issue 19; docs/deploy.md, "Where a server's CPU
goes")."""
EVICT_AFTER = 120.0
"""Seconds a finished table stays in memory after its last subscriber left (then it is read
from the log again when someone asks for it)."""
logger = logging.getLogger(__name__)


def _no_table(table_id: str) -> Message:
    return Message("table.no-table", f"there is no table {table_id!r}")


class TableService(Leases, Notices):
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
        self._bots: dict[str, Bot] = {}
        self._bot_thinks: dict[str, bool] = {}
        """Bot spec -> whether its turns run in a thread (``_THINKING_BOTS``)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False
        self.realtime = RealtimeTables(store, clock, Subscription)
        self.realtime.slot, self.realtime.slots = slot, slots
        """The Spit and Speed tables (the real-time path; every public method hands them on)."""
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
            live = Live(NainJauneTable.replay(table_id, entries))
            self._live[table_id] = live
            self._watch(table_id)
        return live

    async def _is_realtime(self, table_id: str) -> bool:
        """True for a Spit or Speed table (loaded from the log into ``realtime`` if needed)."""
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
        """The game of a table: ``nain-jaune``, ``spit`` or ``speed`` (loads it if needed)."""
        if await self._is_realtime(table_id):
            return self.realtime.game_of(table_id)
        return (await self._load(table_id)).table.cfg.game

    async def create_realtime(
        self, config: RealtimeConfig, title: str = "", public: bool = True
    ) -> Created:
        """Create a Spit or Speed table (see :class:`RealtimeTables`)."""
        return await self.realtime.create(config, title, public)

    async def act_realtime(
        self, table_id: str, seat: int, action: Any, ref: object = None
    ) -> None:
        """A person's action at a Spit or Speed table, in record form with ``seen``."""
        if table_id in self._live:
            raise TableError("bad-request", NAIN_JAUNE_ACTION)
        await self.realtime.act(table_id, seat, action, ref)

    async def earlier_log(self, table_id: str, seat: int | None, before: int) -> Frame:
        """The log lines of a Spit or Speed table before index ``before`` (a ``log`` frame)."""
        if not await self._is_realtime(table_id):
            raise TableError("bad-request", NO_LOG)
        return self.realtime.earlier_log(table_id, seat, before)

    async def realtime_record(self, table_id: str) -> dict[str, Any] | list[dict[str, Any]]:
        """The record of a finished Spit or Speed table (a Speed match: a list of games)."""
        if not await self._is_realtime(table_id):
            raise TableError("bad-request", NOT_REALTIME)
        return await self.realtime.record(table_id)

    async def rematch(self, table_id: str, seat: int) -> tuple[str, str | None]:
        """The rematch of a finished table (made by the first player to ask): its id and a
        fresh token for ``seat``'s seat there (None: a bot plays that seat now; the person
        watches). Same seats, options and bots; persons keep their names.

        Nain Jaune: the rematch's id is logged on this table first (``rematch``), so whoever
        asks, in whichever process, lands on the same table; each person's token there is new,
        logged as a hash (``seat-token``) when they ask. Spit and Speed alike.
        """
        if await self._is_realtime(table_id):
            return await self.realtime.rematch(table_id, seat)
        live = await self._load(table_id)
        async with live.lock:
            table = live.table
            if table.status != "over":
                raise TableError("forbidden", REMATCH_NOT_OVER)
            if seat not in table.person_seats():
                raise TableError("forbidden", REMATCH_PLAYERS)
            if table.rematch is None:
                with contextlib.suppress(TableError):  # another process logged one first
                    rematch_id = new_table_id(self.slot, self.slots)
                    await self._commit(live, "rematch", {"table": rematch_id})
                if table.rematch is None:
                    await self._catch_up_locked(live, read=True)
            new_id = table.rematch
            if new_id is None:
                raise TableError("stale", REMATCH_BUSY)
            again = self._rematch_config(table)
        try:
            created = await self.create(again, table_id=new_id, rematch_of=table_id)
        except TableError as exc:
            if exc.code != "stale":
                raise
        else:  # made here: this person's seat token is already in its ``created`` entry
            tokens = {0: created.creator_token, **created.invites}
            if seat in tokens and again.seats[seat].kind == "person":
                return new_id, tokens[seat]
        return new_id, await self._seat_token(new_id, seat)

    @staticmethod
    def _rematch_config(table: NainJauneTable) -> TableConfig:
        """The same table again: persons keep their seats and names, bots theirs; seats
        bots played from the start or since their person left go to bots (seat 0 stays a
        person's: it is the creator's)."""
        cfg = table.cfg
        seats = tuple(
            SeatSpec("person", name=table.names[g])
            if g == 0 or (table.is_person(g) and g not in table.left)
            else SeatSpec("bot", spec.level if spec.kind == "bot" else cfg.level)
            for g, spec in enumerate(cfg.seats)
        )
        return replace(cfg, seats=seats, seed=secrets.randbits(63))

    async def _seat_token(self, table_id: str, seat: int) -> str | None:
        """A fresh token for a person's ``seat`` of a rematch (its hash logged)."""
        live = await self._load(table_id)
        if seat >= live.table.n or not live.table.is_person(seat):
            return None
        token = secrets.token_urlsafe(24)
        async with live.lock:
            await self._commit(live, "seat-token", {"seat": seat, "hash": hash_token(token)})
        return token

    async def leave(self, table_id: str, seat: int) -> None:
        """The person at ``seat`` leaves a game in progress: a bot of the table's level plays
        their seat to the end (logged ``left``)."""
        if await self._is_realtime(table_id):
            raise TableError("bad-request", LEFT_BY_CLOSING)
        live = await self._load(table_id)
        async with live.lock:
            table = live.table
            if table.status == "over":
                return
            await self._commit(live, "left", {"seat": seat, "level": table.cfg.level})
            self._cancel(live, ("takeover", seat))
            await self._after(live)

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
        self, config: TableConfig, *, table_id: str | None = None, rematch_of: str | None = None
    ) -> Created:
        """Create a table (logged as ``created``); returns its id and seat tokens.

        A person seat with a name is joined at once; when every person seat is joined the
        table starts by itself. ``table_id`` (a rematch's, logged on ``rematch_of`` first) is
        refused as ``stale`` if that table exists already.
        """
        for g, spec in enumerate(config.seats):
            if spec.kind == "bot":
                self._bot(spec.level or config.level)
            if spec.name is not None:
                clean_name(spec.name)
            if g and spec.kind == "person" and spec.level is not None:
                raise TableError("bad-request", NO_LEVEL)
        self._bot(config.level)
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
        table = NainJauneTable(table_id)
        entry = table.entry("created", data, self.clock())
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
        """Play ``"7D"``, ``"pass"`` or ``"claim"`` for ``seat``; refuses a stale ``seen_seq``."""
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

    async def hint(self, table_id: str, seat: int, seq: int, lang: str = "en") -> tuple[str, str]:
        """The expert's suggestion for ``seat``'s own move at state ``seq``: ``("7D", reason)``.

        Worked out in a worker thread from that seat's view alone; nothing is logged. Refused
        unless the table has hints on, ``seq`` is current and it is that person's turn.
        """
        if self.realtime.holds(table_id):
            raise TableError("bad-request", HINTS_NAIN_JAUNE)
        table = self._get(table_id).table
        if not table.cfg.hints:
            raise TableError("forbidden", HINTS_OFF)
        if seq != table.seq:
            raise TableError("stale", HINT_MOVED_ON)
        turn, rnd = table.turn(), table.round
        if turn is None or rnd is None or turn.seat != seat or turn.bot is not None:
            raise TableError("not-your-turn", HINT_NOT_YOUR_TURN)
        view = view_of(rnd, table.round_seats.index(seat))  # a snapshot: safe in a thread
        sample_seed = random.Random(f"{table.cfg.seed}/hint/{seat}/{seq}").randrange(2**63)
        if self._hints_waiting >= self._hint_limit:
            raise TableError("unavailable", HINTS_BUSY)
        self._hints_waiting += 1
        try:
            action, reason = await asyncio.get_running_loop().run_in_executor(
                self._hint_pool, partial(suggest, view, ms=100, seed=sample_seed, lang=lang)
            )
        except HintError as exc:
            raise TableError("not-your-turn", HINT_NOT_YOUR_TURN) from exc
        finally:
            self._hints_waiting -= 1
        return action_text(action), reason

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
        if table.status == "playing" and table.round is None:
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

    async def _next_round_due(self, live: Live) -> None:
        async with live.lock:
            live.timers.pop(("next-round", None), None)
            live.deadlines.pop(("next-round", None), None)
            self._tell_deadlines(live)
            if live.table.status == "round-over":
                await self._commit(live, "round", live.table.deal())
                await self._after(live)

    # -- presence and takeover -----------------------------------------------------------------

    def _arm_takeover(self, live: Live, seat: int) -> None:
        after = live.table.cfg.takeover_after
        if after <= 0 or ("takeover", seat) in live.timers:
            return
        if seat in live.table.left or seat in live.table.taken_over:
            return  # a bot plays that seat already: no countdown to show
        self._arm(
            live, ("takeover", seat), self.clock() + after, lambda: self._takeover_due(live, seat)
        )

    async def _takeover_due(self, live: Live, seat: int) -> None:
        async with live.lock:
            live.timers.pop(("takeover", seat), None)
            live.deadlines.pop(("takeover", seat), None)
            self._tell_deadlines(live)
            table = live.table
            if (
                table.status in ("playing", "round-over")
                and seat not in self._present(live)
                and seat not in table.taken_over
                and seat not in table.left
            ):
                await self._commit(live, "takeover", {"seat": seat, "level": table.cfg.level})
                await self._after(live)

    async def _returned(self, live: Live, seat: int) -> None:
        async with live.lock:
            table = live.table
            if (
                seat in table.taken_over
                and seat not in table.left
                and table.status != "over"
                and seat in self._present(live)  # (their page may have closed while we waited)
            ):
                await self._commit(live, "returned", {"seat": seat})
                await self._after(live)

    def _arm(
        self,
        live: Live,
        key: tuple[str, int | None],
        at: float,
        work: Callable[[], Coroutine[Any, Any, None]],
    ) -> None:
        self._cancel(live, key)
        if not self._owns(live.table.table_id):
            return

        async def later() -> None:
            await asyncio.sleep(max(0.0, at - self.clock()))
            await work()

        live.deadlines[key] = at
        live.timers[key] = asyncio.get_running_loop().create_task(later())
        self._tell_deadlines(live)

    def _cancel(self, live: Live, key: tuple[str, int | None]) -> None:
        task = live.timers.pop(key, None)
        if live.deadlines.pop(key, None) is not None:
            self._tell_deadlines(live)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _cancel_timers(self, live: Live) -> None:
        for key in list(live.timers):
            self._cancel(live, key)

    # -- bots ---------------------------------------------------------------------------------

    def _bot(self, spec: str) -> Bot:
        bot = self._bots.get(spec)
        if bot is None:
            try:
                bot = make_bot(spec)
            except ValueError as exc:
                logger.info("bot %r: %s", spec, exc)
                raise TableError("bad-request", bad_level(spec)) from None
            self._bots[spec] = bot
        return bot

    def _thinks(self, spec: str) -> bool:
        """True for a bot that thinks for long (its turn runs in a thread), once per spec."""
        thinks = self._bot_thinks.get(spec)
        if thinks is None:
            thinks = parse_spec(LEVELS.get(spec, spec))[0] in _THINKING_BOTS
            self._bot_thinks[spec] = thinks
        return thinks

    def _ensure_bot_task(self, live: Live) -> None:
        if not self._owns(live.table.table_id) or self._stopping:
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(live))

    async def _bot_loop(self, live: Live) -> None:
        table = live.table
        # looked up once for the table's bots: each lookup is a getpid system call (CPython 3.11)
        loop = asyncio.get_running_loop()
        while not self._stopping and table.status != "over":
            await live.wake.wait(loop)
            live.wake.clear()
            try:
                await self._bots_play(live, loop)
            except asyncio.CancelledError:
                raise
            except TableError as exc:  # stale (another process wrote first), unavailable
                logger.info("bots of table %s: %s", table.table_id, exc.message)
                await sleep(loop, 1.0 if exc.code == "unavailable" else 0.0)
                live.wake.set()
            except Exception:  # e.g. the database is briefly unavailable: try again soon
                logger.exception("bots of table %s", table.table_id)
                await sleep(loop, 1.0)
                live.wake.set()

    async def _bots_play(self, live: Live, loop: asyncio.AbstractEventLoop) -> None:
        """Let bots act while a bot (or a bot playing for an absent person) is to act.

        Nothing of a move (turn, view, generator, action) is held through the next move's
        delay: young objects alive at the GC keeper's step are walked (web/gcpause.py)."""
        table = live.table
        while not self._stopping:
            turn = table.turn()
            if turn is None or turn.bot is None:
                break
            seat, spec = turn.seat, turn.bot
            del turn
            seq = table.seq
            if table.cfg.bot_delay > 0:
                delay = table.cfg.bot_delay
                await sleep(loop, delay, min(BOT_TICK, delay / 8))
            if table.seq != seq:
                continue
            rnd = table.round
            assert rnd is not None
            view = view_of(rnd, table.round_seats.index(seat))
            del rnd
            bot = self._bot(spec)
            # seeded at its first draw: a bot with one legal action never pays for it
            rng = LazyRandom(f"{table.cfg.seed}/seat/{seat}/{seq}")
            if self._thinks(spec):  # they think for ~100 ms (and compile once): not on the loop
                action = await asyncio.to_thread(bot.act, view, rng)
            else:
                action = bot.act(view, rng)
            del view, rng
            async with live.lock:
                if table.seq != seq:
                    continue
                await self._commit(
                    live,
                    "action",
                    {"seat": seat, "action": action_text(action), "by": "bot"},
                )
                await self._after(live)
            del action
            if table.cfg.bot_delay <= 0:  # (else the next move's delay lets them in)
                await asyncio.sleep(0)  # let readers in between two bot moves

    # -- subscribers ----------------------------------------------------------------------------

    def subscribe(self, table_id: str, seat: int | None) -> Subscription:
        """A stream of frames for ``seat`` (None: spectator); the first is the full state.

        A person coming back to a seat a bot plays for takes it back (logged ``returned``).
        """
        if self.realtime.holds(table_id):
            return self.realtime.subscribe(table_id, seat)
        live = self._get(table_id)
        table = live.table
        if seat is not None and not (0 <= seat < table.n and table.is_person(seat)):
            raise TableError("forbidden", WATCH_ONLY)
        sub = Subscription(table_id, seat)
        live.subs.append(sub)
        live.idle_since = None
        if seat is not None:
            self._cancel(live, ("takeover", seat))
            if seat in table.taken_over and seat not in table.left:
                self._spawn(self._returned(live, seat))
        sub._put(self._frame(live, seat, None))  # built once present: no takeover deadline
        sub.cursor = len(table.events)
        if seat is not None:
            self._fan_out(live, skip=sub)  # the others see them present
            self._tell_presence(live, seat)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """End a subscription; a person seat's last one gone starts its takeover timer."""
        if self.realtime.holds(sub.table_id):
            return self.realtime.unsubscribe(sub)
        live = self._live.get(sub.table_id)
        sub.closed = True
        sub._put(None)
        if live is None or sub not in live.subs:
            return
        live.subs.remove(sub)
        live.idle_since = None  # the grace period starts at the next sweep
        seat = sub.seat
        if seat is not None and seat not in self._present(live):
            if live.table.status in ("playing", "round-over"):
                self._arm_takeover(live, seat)
            self._fan_out(live)
        if seat is not None:
            self._tell_presence(live, seat)

    def frame_for(self, table_id: str, seat: int | None) -> Frame:
        """The full ``state`` frame for ``seat`` (or a spectator); events of the current round."""
        if self.realtime.holds(table_id):
            return self.realtime.frame_for(table_id, seat)
        return self._frame(self._get(table_id), seat, None)

    def _frame(self, live: Live, seat: int | None, since: int | None) -> Frame:
        return live.table.frame(seat, since, self._present(live), self._deadline(live))

    def _deadline(self, live: Live) -> dict[str, Any] | None:
        table = live.table
        deadlines = live.deadlines
        if not self._owns(table.table_id):  # the timers run in the lease holder's process
            deadlines = dict(self._told_deadlines.get(table.table_id, {}))
            if table.status != "round-over":
                deadlines.pop(("next-round", None), None)
            elif table.waiting_for_ready() and table.round_ended_at is not None:
                # from the log, even before (or without) the holder's notice
                at = table.round_ended_at + table.cfg.next_round_after
                deadlines[("next-round", None)] = at
        if not deadlines:
            return None
        turn = table.turn()
        keys = sorted(deadlines, key=lambda k: deadlines[k])
        if ("next-round", None) in deadlines:
            key: tuple[str, int | None] = ("next-round", None)
        elif turn is not None and ("takeover", turn.seat) in deadlines:
            key = ("takeover", turn.seat)
        else:
            key = keys[0]
        return {"kind": key[0], "seat": key[1], "at": deadlines[key]}

    def _fan_out(self, live: Live, skip: Subscription | None = None) -> None:
        table = live.table
        end = len(table.events)
        present = self._present(live)
        deadline = self._deadline(live)
        built: dict[tuple[int | None, int | None], Frame] = {}
        for sub in live.subs:
            if sub is skip or sub.closed:
                continue
            # one frame object for the subscribers with the same seat and cursor (spectators):
            # the connections then encode it once (web/routes/ws.py)
            key = (sub.seat, sub.cursor)
            frame = built.get(key)
            if frame is None:
                frame = built[key] = table.frame(sub.seat, sub.cursor, present, deadline)
            if not sub._put(frame):
                sub._put({**table.frame(sub.seat, None, present, deadline), "resync": True})
            sub.cursor = end
        table.forget_shared()  # the frames are built: freed once sent (web/gcpause.py)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- reading --------------------------------------------------------------------------------

    async def round_events(self, table_id: str, k: int) -> list[dict[str, Any]]:
        """The public events of round ``k`` (0, 1, …) of a Nain Jaune table (at most
        ``ROUND_EVENTS_MAX``); ``not-found`` for a round not played (yet)."""
        if await self._is_realtime(table_id):
            raise TableError("bad-request", NO_ROUNDS)
        return (await self._load(table_id)).table.round_events(k)

    def table(self, table_id: str) -> NainJauneTable:
        """The live table (read only: change it through the service)."""
        return self._get(table_id).table

    def end_connections(self, table_id: str, seat: int) -> int:
        """End this process's connections to one seat (whoever held it lost it): each is told
        its subscription is over and closes. Returns how many were ended."""
        live = self._live.get(table_id)
        subs = (list(live.subs) if live is not None else []) + self.realtime.subscriptions(table_id)
        ended = [sub for sub in subs if sub.seat == seat]
        for sub in ended:
            sub._put(None)
        return len(ended)

    def unload(self, table_id: str) -> None:
        """Drop the copy in memory of a finished table nobody is connected to, so the next
        request reads it from the log again (a forgotten player's name was rewritten there)."""
        live = self._live.get(table_id)
        if live is not None and live.table.status == "over" and not live.subs:
            self._cancel_timers(live)
            if live.bot_task is None or live.bot_task.done():
                del self._live[table_id]
        self.realtime.unload(table_id)

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
        gone = [
            table_id
            for table_id, live in self._live.items()
            if idle_for(live, now, self.evict_after)
        ]
        for table_id in gone:
            live = self._live.pop(table_id)
            self._cancel_timers(live)
            live.catch.inbox.clear()
            self._remote.pop(table_id, None)
            self._told_deadlines.pop(table_id, None)
        return gone + self.realtime.evict_idle(now, self.evict_after)

    async def record(self, table_id: str) -> list[dict[str, Any]]:
        """The game record (replay format); ``TableError('forbidden')`` until the game is over."""
        live = await self._load(table_id)
        if live.table.status != "over":
            raise TableError("forbidden", RECORD_NOT_OVER)
        return [dict(r) for r in live.table.record()]

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
