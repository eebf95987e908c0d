"""The tables played in turns: every live turn-based table of a process, its log, its bots,
its subscribers and timers (one kind of table, see ``tables/kinds.py``).

Inside a table's lock every change goes: check (nothing mutated) -> ``await store.append`` ->
``table.apply`` -> a frame on every subscriber's queue. Nothing is told before it is stored, so
a process killed at any moment restarts with every table exactly where its log says, and bots
and timers pick up from there. The parts: :class:`~cardroom.tables.bot_loop.BotLoop` (bots and
hints), :class:`~cardroom.tables.timers.Timers` (takeover and next-round countdowns),
:class:`~cardroom.tables.frames.Frames` (subscribers and frames),
:class:`~cardroom.tables.rematch.Rematches` (rematch, leaving) and
:class:`~cardroom.tables.turn_cluster.TurnCluster` (what other processes tell and ask).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from cardroom.bots import Bot
from cardroom.games.table import clean_name, hash_token, seat_for_token
from cardroom.store import EventStore, LogEntry, SeqConflict, StoreError, StoreUnavailable
from cardroom.tables.bot_loop import BotLoop
from cardroom.tables.config import (
    CREATOR_STARTS,
    MOVED_ON,
    NO_LEVEL,
    NO_LOG,
    RECORD_NOT_OVER,
    TURN_ACTION,
    UNAVAILABLE,
    YOU_LEFT,
    Created,
    TableConfig,
    TableError,
    no_table,
    table_exists,
)
from cardroom.tables.frames import Frames
from cardroom.tables.kinds import KindHooks
from cardroom.tables.live import Live
from cardroom.tables.protocol import TurnTable, game_in, table_class, turn_table_class
from cardroom.tables.realtime_service import is_realtime
from cardroom.tables.rematch import Rematches
from cardroom.tables.slots import new_table_id
from cardroom.tables.subscription import Frame
from cardroom.tables.timers import Timers
from cardroom.tables.turn_cluster import TurnCluster

__all__ = ["TurnTables"]

logger = logging.getLogger(__name__)


class TurnTables(KindHooks, TurnCluster, BotLoop, Timers, Frames, Rematches):
    """The live turn-based tables of a process (see the module docstring)."""

    def __init__(
        self,
        store: EventStore,
        clock: Callable[[], float],
        *,
        hint_threads: int = 1,
        slot: int = 0,
        slots: int = 1,
    ) -> None:
        """Hints are worked out in a pool of ``hint_threads`` threads of their own, so a flood
        of them never delays a bot. ``slot`` of ``slots``: this process's place among
        ``cardroom serve --workers`` (its new tables' ids)."""
        super().__init__()
        self.store = store
        self.clock = clock
        self.slot = slot
        self.slots = slots
        self._hint_pool = ThreadPoolExecutor(hint_threads, thread_name_prefix="cardroom-hint")
        self._hint_limit = 8 * hint_threads
        self._hints_waiting = 0
        self._live: dict[str, Live] = {}
        self._bots: dict[tuple[str, str], Bot] = {}
        self._bot_thinks: dict[str, bool] = {}
        """Bot spec -> whether its turns run in a thread (``_THINKING_BOTS``)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False
        self._told_deadlines: dict[str, dict[tuple[str, int | None], float]] = {}
        """The timers the lease holder of a table this process does not hold told it of."""

    # -- which tables ---------------------------------------------------------------------------

    def claims(self, created: LogEntry) -> bool:
        """True for a table played in turns (any ``created`` entry not of a real-time game)."""
        return not is_realtime(created)

    def holds(self, table_id: str) -> bool:
        """True when this process holds that table in memory."""
        return table_id in self._live

    def table_ids(self) -> list[str]:
        """The turn-based tables held in memory."""
        return list(self._live)

    def status(self, table_id: str) -> str | None:
        """The status of a table held here (None: not held)."""
        live = self._live.get(table_id)
        return live.table.status if live is not None else None

    async def load(self, table_id: str, entries: Sequence[LogEntry]) -> None:
        """Rebuild a table from its entries; an unfinished one is run here if this process owns
        it, else watched."""
        if table_id in self._live:
            return
        cls = table_class(game_in(entries[0].data))
        live = Live(cast(TurnTable, cls.replay(table_id, entries)))
        self._live[table_id] = live
        if not self.owns(table_id):
            if self.watch is not None:
                self.watch(table_id)
        elif live.table.status != "over":
            async with live.lock:
                await self._resume(live)

    async def _load(self, table_id: str) -> Live:
        """The table held here, or read from its log (a rematch made by another process)."""
        live = self._live.get(table_id)
        if live is not None:
            return live
        try:
            entries = await self.store.entries(table_id)
        except StoreUnavailable as exc:
            raise TableError("unavailable", UNAVAILABLE) from exc
        if not entries:
            raise TableError("not-found", no_table(table_id))
        await self.load(table_id, entries)
        return self._live[table_id]

    async def stop(self) -> None:
        """Cancel bot tasks and timers (the log is already complete); end subscriptions."""
        self._stopping = True
        self._hint_pool.shutdown(wait=False, cancel_futures=True)
        tasks: list[asyncio.Task[None]] = list(self._tasks)
        for live in list(self._live.values()):
            async with live.lock:  # no change is cut between its append and its apply
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

    # -- requests -------------------------------------------------------------------------------

    def game_of(self, table_id: str) -> str:
        """The table's game (its registry name)."""
        return self._get(table_id).table.cfg.game

    def seat_of(self, table_id: str, token: str | None) -> int | None:
        """The seat a token opens (None = spectator); ``TableError('forbidden')`` if wrong."""
        return seat_for_token(self._get(table_id).table.token_hashes, token)

    def seat_state(self, table_id: str, seat: int) -> str:
        """Where a seat's game stands: ``waiting``, ``over``, ``playing`` (its person plays it)
        or ``away`` (a bot plays the seat since its person left or was away past the limit)."""
        table = self._get(table_id).table
        if table.status in ("waiting", "over"):
            return table.status
        return "away" if seat in table.taken_over else "playing"

    async def join(self, table_id: str, seat: int, name: str) -> None:
        """A person takes their seat under ``name`` (1..24 characters)."""
        live = self._get(table_id)
        async with live.lock:
            await self._commit(live, "joined", {"seat": seat, "name": clean_name(name)})
            await self._after(live)

    async def start_now(self, table_id: str, seat: int) -> None:
        """The creator starts the table; empty person seats get bots of the table's level."""
        live = self._get(table_id)
        if seat != 0:
            raise TableError("forbidden", CREATOR_STARTS)
        async with live.lock:
            await self._start(live)
            await self._after(live)

    async def act_realtime(self, table_id: str, seat: int, action: Any, ref: object = None) -> None:
        """Refused: this table is played in turns."""
        raise TableError("bad-request", TURN_ACTION)

    def earlier_log(self, table_id: str, seat: int | None, before: int) -> Frame:
        """Refused: a table in turns has rounds, not a log of lines."""
        raise TableError("bad-request", NO_LOG)

    def _get(self, table_id: str) -> Live:
        live = self._live.get(table_id)
        if live is None:
            raise TableError("not-found", no_table(table_id))
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
        async with self.new_table(table_id):
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

    async def act(self, table_id: str, seat: int, action: str, seen_seq: int) -> None:
        """Play ``action`` (its text, e.g. a card ``"7D"``) for ``seat``; refuses a stale
        ``seen_seq``."""
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
        self.check_store()
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

    def round_events(self, table_id: str, k: int) -> list[dict[str, Any]]:
        """The public events of round ``k`` (0, 1, …) of a turn-based table (at most
        ``ROUND_EVENTS_MAX``); ``not-found`` for a round not played (yet)."""
        return self._get(table_id).table.round_events(k)

    def table(self, table_id: str) -> TurnTable:
        """The live table (read only: change it through the service)."""
        return self._get(table_id).table

    async def record(self, table_id: str) -> list[dict[str, Any]]:
        """The game record (replay format); ``TableError('forbidden')`` until the game is over."""
        live = self._get(table_id)
        if live.table.status != "over":
            raise TableError("forbidden", RECORD_NOT_OVER)
        return [dict(r) for r in live.table.record()]
