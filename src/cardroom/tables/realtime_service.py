"""The tables played in real time, on the server's clock (one kind of table).

:class:`RealtimeTables` holds every live real-time table of a process (a
:class:`~cardroom.tables.realtime.RealtimeTable` each) and is driven by
:class:`~cardroom.tables.service.TableService` as one kind of table (``tables/kinds.py``).
Every change takes the same path as at a turn-based table, inside the table's lock: stamp it with
the server's time -> check (nothing mutated) -> ``await store.append`` -> apply -> a frame for
each subscriber's seat. Nothing is told before it is stored.

One task per table sleeps until the next thing due on the server's clock: a bot's planned action
(bots from :mod:`cardroom.bots.reaction`, each with its own ``random.Random`` seeded by table
seed, seat and the log position it was made at) or the end of a countdown, which is logged as
``timeout`` at its exact deadline before anything stamped later. After a restart
(:meth:`RealtimeTables.load`) a table is rebuilt from its time-stamped entries and the clock goes
on from there: a countdown that ran out while the server was down is logged first.

**Several processes** (PostgreSQL, see ``tables/cluster.py``): the process holding a table's
lease (``owns``) is its one clock: it runs its bots, logs its countdowns' ``timeout`` entries and
starts it. Any process holding the table in memory accepts its own connections' actions: it
stamps them with its clock and appends them; the ``(table_id, seq)`` uniqueness of the log
orders two processes' writes (the loser reads the entries it lacked, checks the action again
against them, stamps it anew and appends it after them, so a slap or a play that came second is
refused by the arbiter as it would be in one process). Entries other processes wrote arrive by
:meth:`RealtimeTables.on_change` and are applied in seq order, then told to this process's
connections, each for its own seat. Frames carry the countdown's deadline from the log, so
every process shows the same one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Literal, cast

from cardroom.games.messages import Message
from cardroom.games.realtime_engine import SEATS
from cardroom.games.registry import REALTIME, names
from cardroom.games.table import clean_name, hash_token, seat_for_token
from cardroom.i18n import ENGLISH
from cardroom.i18n.messages import words
from cardroom.store import EventStore, LogEntry, SeqConflict, StoreError, StoreUnavailable
from cardroom.tables.config import (
    BOT_PLAYS_SEAT,
    BUSY,
    CREATOR_STARTS,
    GAME_OVER,
    LEFT_BY_CLOSING,
    NO_HINTS,
    NO_ROUNDS,
    NOT_STARTED_YET,
    REALTIME_ACTION,
    RECORD_NOT_OVER,
    UNAVAILABLE,
    Created,
    TableError,
    no_table,
    table_exists,
)
from cardroom.tables.kinds import KindHooks
from cardroom.tables.protocol import game_in, table_class
from cardroom.tables.realtime import RealtimeConfig, RealtimeTable
from cardroom.tables.realtime_clock import RealtimeClock, _Conflict, _RealtimeLive
from cardroom.tables.realtime_cluster import RealtimeCluster
from cardroom.tables.realtime_frames import RealtimeFrames
from cardroom.tables.realtime_rematch import RETRIES, RealtimeRematches
from cardroom.tables.slots import new_table_id
from cardroom.tables.subscription import Subscription

logger = logging.getLogger(__name__)


REFUSALS_LOGGED = 10
"""A person's refused actions logged per seat in ``REFUSAL_WINDOW`` seconds; past it a refused
action is answered and counted (``_RealtimeLive.unlogged``) but not stored."""
REFUSAL_WINDOW = 10.0
"""Times a person's action is stamped anew and appended again after losing a seq race."""


def is_realtime(created: LogEntry) -> bool:
    """True when a table's ``created`` entry is a real-time game's table."""
    config = created.data.get("config")
    return isinstance(config, dict) and config.get("game") in names(REALTIME)


class RealtimeTables(KindHooks, RealtimeCluster, RealtimeClock, RealtimeFrames, RealtimeRematches):
    """The live real-time tables of a process (see the module docstring)."""

    def __init__(
        self,
        store: EventStore,
        clock: Callable[[], float],
        make_subscription: Callable[[str, int | None], Subscription],
        *,
        slot: int = 0,
        slots: int = 1,
    ) -> None:
        super().__init__()
        self.store = store
        self.clock = clock
        self._subscription = make_subscription
        self._live: dict[str, _RealtimeLive] = {}
        self._stopping = False
        self.slot = slot
        self.slots = slots
        """This process's slot of ``slots`` (``tables/slots.py``): its new tables' ids."""

    # -- life cycle ---------------------------------------------------------------------------

    def claims(self, created: LogEntry) -> bool:
        """True for a real-time game's table."""
        return is_realtime(created)

    def holds(self, table_id: str) -> bool:
        """True when this process holds that real-time table in memory."""
        return table_id in self._live

    async def load(self, table_id: str, entries: Sequence[LogEntry]) -> None:
        """Rebuild a table from its entries and start its clock (after a restart, or when
        another process created it)."""
        if table_id in self._live:
            return
        cls = table_class(game_in(entries[0].data))
        table = cast(RealtimeTable, cls.replay(table_id, entries))
        created = entries[0].data
        live = _RealtimeLive(
            table,
            {int(g): str(h) for g, h in dict(created.get("tokens") or {}).items()},
            str(created.get("title", "")),
            bool(created.get("public", True)),
            rematch_of=created.get("rematch_of"),
        )
        self._live[table_id] = live
        if self.owns(table_id):
            await self.take(table_id)
        elif self.watch is not None:
            self.watch(table_id)

    def seat_state(self, table_id: str, seat: int) -> str:
        """``waiting``, ``over``, ``playing`` (its person plays it) or ``away`` (a bot plays it
        since its person was away past the limit) for a seat of a table held here."""
        table = self._get(table_id).table
        if table.status != "playing":
            return table.status
        return "away" if seat in table.taken else "playing"

    async def stop(self) -> None:
        """Stop every table's clock (the log is complete); end the subscriptions."""
        self._stopping = True
        tasks: list[asyncio.Task[None]] = []
        for live in list(self._live.values()):
            async with live.lock:
                for task in (live.task, live.catch.task):
                    if task is not None:
                        task.cancel()
                        tasks.append(task)
            for sub in live.subs:
                sub._put(None)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._live.clear()

    def _get(self, table_id: str) -> _RealtimeLive:
        live = self._live.get(table_id)
        if live is None:
            raise TableError("not-found", no_table(table_id))
        return live

    # -- creating, joining, starting ------------------------------------------------------------

    async def create(
        self,
        config: RealtimeConfig,
        title: str = "",
        public: bool = True,
        *,
        tokens: dict[int, str] | None = None,
        rematch_of: str | None = None,
        table_id: str | None = None,
    ) -> Created:
        """Create a real-time table (``created``, seq 1); it starts at once when every
        person seat is named. ``tokens`` (seat -> token hash) reuses the seats of a rematch;
        ``table_id`` (a rematch's, logged first) is refused as ``stale`` if it exists."""
        config.rules_target()  # the options are checked before anything is stored
        for spec in config.seats:
            if spec.name is not None:
                clean_name(spec.name)
        fresh = {
            g: secrets.token_urlsafe(24)
            for g, s in enumerate(config.seats)
            if s.kind == "person" and not (tokens and g in tokens)
        }
        hashes = {g: hash_token(t) for g, t in fresh.items()} | dict(tokens or {})
        table_id = table_id or new_table_id(self.slot, self.slots)
        data: dict[str, Any] = {
            "config": config.to_json(),
            "tokens": {str(g): h for g, h in sorted(hashes.items())},
            "title": title,
            "public": public,
        }
        if rematch_of is not None:
            data["rematch_of"] = rematch_of
        table = cast(RealtimeTable, table_class(config.game)(table_id))
        table.check("created", data)
        entry = LogEntry(1, "created", data, self.clock())
        seats = [
            {
                "seat": g,
                "kind": spec.kind,
                "name": spec.name or "",
                "level": spec.level if spec.kind == "bot" else None,
                "token_hash": hashes.get(g),
                "joined": spec.kind == "bot" or spec.name is not None,
            }
            for g, spec in enumerate(config.seats)
        ]
        async with self.new_table(table_id):
            try:
                await self.store.create_table(table_id, config.game, entry, title, public, seats)
            except SeqConflict:
                raise TableError("stale", table_exists(table_id)) from None
            except StoreUnavailable as exc:
                raise TableError("unavailable", UNAVAILABLE) from exc
            table.apply(entry)
            live = _RealtimeLive(table, hashes, title, public, rematch_of=rematch_of)
            self._live[table_id] = live
        async with live.lock:
            await self._follow_up(live)
        self._ensure_task(live)
        return Created(table_id, fresh.get(0, ""), {g: t for g, t in fresh.items() if g != 0})

    def seat_of(self, table_id: str, token: str | None) -> int | None:
        """The seat a token opens (None: a spectator); ``TableError('forbidden')`` if wrong."""
        return seat_for_token(self._get(table_id).token_hashes, token)

    async def join(self, table_id: str, seat: int, name: str) -> None:
        """A person takes their seat under ``name``; the game starts once every seat is taken."""
        live = self._get(table_id)
        for _ in range(RETRIES):
            async with live.lock:
                if live.table.names[seat] is not None and live.table.status == "waiting":
                    return  # already seated (a second tab): nothing to log
                try:
                    await self._commit(live, "joined", {"seat": seat, "name": clean_name(name)})
                except _Conflict:
                    continue  # another process wrote first: join after its entries
                await self._follow_up(live)
                return
        raise TableError("stale", BUSY)

    async def start_now(self, table_id: str, seat: int) -> None:
        """The creator starts the game now: an empty person seat gets a bot of the table's level."""
        live = self._get(table_id)
        if seat != 0:
            raise TableError("forbidden", CREATOR_STARTS)
        async with live.lock:
            await self._start(live)

    async def _start(self, live: _RealtimeLive) -> None:
        table = live.table
        config = table.config
        assert config is not None
        filled = [g for g in SEATS if config.seats[g].kind == "person" and table.names[g] is None]
        await self._commit(live, "started", {"t": self.clock(), "filled": filled})

    async def _follow_up(self, live: _RealtimeLive) -> None:
        """Start the table once every person seat is named (its clock's process only)."""
        table = live.table
        if not self.owns(table.table_id):
            return
        config = table.config
        assert config is not None
        waiting = [g for g in SEATS if config.seats[g].kind == "person" and table.names[g] is None]
        if table.status == "waiting" and not waiting:
            await self._start(live)

    # -- playing ------------------------------------------------------------------------------

    async def act(self, table_id: str, seat: int, action: str, seen_seq: int) -> None:
        """Refused: this table is played in real time, not in turns."""
        raise TableError("bad-request", REALTIME_ACTION)

    async def ready(self, table_id: str, seat: int) -> None:
        """Refused: a real-time table has no rounds to ask for."""
        raise TableError("bad-request", NO_ROUNDS)

    def round_events(self, table_id: str, k: int) -> list[dict[str, Any]]:
        """Refused: a real-time table has a log of lines, not rounds."""
        raise TableError("bad-request", NO_ROUNDS)

    async def leave(self, table_id: str, seat: int) -> None:
        """Refused: a person leaves a real-time table by closing it (the clock takes over)."""
        raise TableError("bad-request", LEFT_BY_CLOSING)

    async def hint(self, table_id: str, seat: int, seq: int, lang: str = "en") -> tuple[str, str]:
        """Refused: no hints in real time."""
        raise TableError("bad-request", NO_HINTS)

    async def act_realtime(self, table_id: str, seat: int, action: Any, ref: object = None) -> None:
        """A person's action in record form (a play names the card, the pile and the top card
        its sender ``seen``); refused as ``stale``/``illegal`` with the reason in words, or
        ``bad-request`` when it is not an action at all. Refused actions are logged too."""
        live = self._get(table_id)
        for _ in range(RETRIES):
            async with live.lock:
                try:
                    return await self._act(live, seat, action, ref)
                except _Conflict:
                    continue  # another process wrote first: check it again after its entries
        said = "the table is very busy: look again and try once more"
        raise TableError("stale", Message("table.busy-look-again", said))

    async def _act(self, live: _RealtimeLive, seat: int, action: Any, ref: object) -> None:
        table = live.table
        if table.bots[seat] is not None and seat in table.taken and table.status == "playing":
            # a person handed to a bot while away (their server cut from the database, say)
            # who acts is back: logged first, so the action is theirs, not refused
            now = await self._catch_up(live)
            if seat in table.taken and table.status == "playing":
                await self._commit(live, "back", {"seat": seat, "t": now})
        if table.bots[seat] is not None:
            raise TableError("forbidden", BOT_PLAYS_SEAT)
        if table.status == "waiting":
            raise TableError("not-started", NOT_STARTED_YET)
        if table.status == "over":
            raise TableError("over", GAME_OVER)
        now = await self._catch_up(live)
        data: dict[str, Any] = {"seat": seat, "action": action, "t": now, "by": "person"}
        parsed = table.check("action", data)
        data["action"] = table.engine.action_to_json(parsed)
        assert table.arbiter is not None
        self._throttle_refusal(live, seat, table.engine.why_illegal(seat, parsed), now)
        before = len(table.arbiter.log)
        await self._commit(live, "action", data, ref=ref)
        if len(table.arbiter.log) == before:
            raise TableError("over", GAME_OVER)
        entry = table.arbiter.log[-1]
        if not entry.accepted:
            reason = entry.reason or Message("refused", "not now")
            said = words(reason, ENGLISH)
            if reason.startswith("stale: "):
                raise TableError("stale", said, reason=reason)
            raise TableError("illegal", said, reason=reason)

    async def _pause_absent(self, live: _RealtimeLive) -> None:
        """This process just became the table's clock (a restart, a lease that moved): every
        person seat with no connection anywhere is away since the last entry, so the time the
        table had no clock is a pause, not game time, and no countdown runs out meanwhile."""
        table = live.table
        present = self._present(live)
        since = table.time
        for g in table.people():
            if g not in present and g not in table.away and g not in table.taken:
                now = max(self.clock(), table.time)
                await self._commit(live, "away", {"seat": g, "t": now, "since": since})

    def _present(self, live: _RealtimeLive) -> set[int]:
        return live.present() | self.remote_present(live.table.table_id)

    async def _presence(self, live: _RealtimeLive) -> None:
        """Log who went away and who came back; forfeit or hand to a bot a seat away for the
        table's limit (the clock's process only, the lock held)."""
        table = live.table
        present = self._present(live)
        live.seen |= present  # (a friend's page connects before the start too)
        if table.status != "playing":
            return
        for g in table.people():
            now = max(self.clock(), table.time)
            if g in present and (g in table.away or g in table.taken):
                await self._commit(live, "back", {"seat": g, "t": now})
            elif g not in present and g in live.seen and g not in table.away.keys() | table.taken:
                await self._catch_up(live)  # a countdown that ran out before is logged first
                if table.status == "playing":
                    await self._commit(live, "away", {"seat": g, "t": now})
        config = table.config
        assert config is not None
        while (due := table.next_limit) is not None and due[0] <= self.clock():
            when, g = due
            now = max(self.clock(), table.time, when)
            if config.then() == "bot":
                await self._commit(live, "takeover", {"seat": g, "t": now})
            elif any(table.limit_at(o) == when for o in table.away if o != g):
                # both away equally long (e.g. since a restart): nobody is there to win
                await self._commit(live, "over", {"t": now, "reason": "abandoned"})
            else:  # the one away longer loses, whether or not the other is away too
                await self._commit(live, "over", {"t": now, "reason": "forfeit", "seat": g})

    @staticmethod
    def _throttle_refusal(live: _RealtimeLive, seat: int, why: str | None, now: float) -> None:
        """Let a refusal be logged if the seat has few lately; else count it and refuse it
        here, storing nothing (a flood of refused actions cannot fill the log)."""
        if why is None:
            return
        times = live.refusals.setdefault(seat, deque())
        while times and times[0] <= now - REFUSAL_WINDOW:
            times.popleft()
        if len(times) < REFUSALS_LOGGED:
            times.append(now)
            return
        live.unlogged[seat] = live.unlogged.get(seat, 0) + 1
        code: Literal["stale", "illegal"] = "stale" if why.startswith("stale: ") else "illegal"
        raise TableError(code, words(why, ENGLISH), reason=why)

    async def _catch_up(self, live: _RealtimeLive) -> float:
        """Log every countdown that ran out by now; return the time stamp for what comes next
        (never before the last entry's)."""
        table = live.table
        assert table.arbiter is not None
        now = max(self.clock(), table.time)
        deadline = table.deadline
        while deadline is not None and deadline <= now and table.status == "playing":
            await self._commit(live, "timeout", {"t": deadline})
            deadline = table.deadline
        return now

    async def _commit(
        self, live: _RealtimeLive, kind: str, data: dict[str, Any], ref: object = None
    ) -> None:
        """Check, store, apply, tell: the one path of every change (the lock is held)."""
        table = live.table
        table.check(kind, data, person=data.get("by") == "person")
        at = float(data.get("t", self.clock()))
        entry = LogEntry(table.seq + 1, kind, data, at)
        table_update: dict[str, Any] | None = None
        seats_update: list[dict[str, Any]] | None = None
        if kind == "joined":
            seats_update = [{"seat": data["seat"], "name": data["name"], "joined": True}]
        elif kind == "started":
            table_update = {"status": "playing"}
            config = table.config
            assert config is not None
            seats_update = [
                {"seat": g, "kind": "bot", "name": f"{config.level.capitalize()} bot",
                 "level": config.level, "joined": True}
                for g in data["filled"]
            ]  # fmt: skip
        live.catch.writing = entry.seq
        try:
            # (SQLite's writes wait their turn in the store's queue, with the turn-based tables')
            await self.store.append(
                table.table_id, entry, table_update=table_update, seats_update=seats_update
            )
        except SeqConflict:  # another process wrote this seq first: its entry is the one
            live.catch.writing = 0
            await self._read_log(live, read=True)
            raise _Conflict() from None
        except StoreUnavailable as exc:
            raise TableError("unavailable", UNAVAILABLE) from exc
        finally:
            live.catch.writing = 0
        was = table.status
        self._apply(live, entry, ref)
        if table.status == "over" and was != "over":
            with contextlib.suppress(StoreError):  # the lobby's projection only
                await self._store_status(live)

    def _apply(self, live: _RealtimeLive, entry: LogEntry, ref: object = None) -> None:
        """Apply a stored entry (written here or told) and tell this process's connections."""
        table = live.table
        arbiter_log = len(table.arbiter.log) if table.arbiter is not None else 0
        table.apply(entry)
        if entry.kind == "seat-token":
            live.token_hashes[int(entry.data["seat"])] = str(entry.data["hash"])
        if entry.kind in ("started", "next") and self.owns(table.table_id):
            self._new_bots(live)
        elif entry.kind in ("takeover", "back") and self.owns(table.table_id):
            self._seat_bot(live, int(entry.data["seat"]))
        accepted = True
        if entry.kind == "action" and table.arbiter is not None:
            log = table.arbiter.log
            accepted = len(log) > arbiter_log and log[-1].accepted
        if accepted:
            self._show_bots(live)
            by = entry.data.get("seat") if entry.kind == "action" else None
            self._fan_out(live, entry.at, ref, by)
        live.wake.set()

    async def _store_status(self, live: _RealtimeLive) -> None:
        table = live.table
        summary: dict[str, Any] = {
            "game": table.config.game if table.config else None,
            "names": list(table.names),
        }
        if table.winner is not None:
            summary["winner"] = table.winner
        if table.rematch is not None:
            summary["rematch"] = table.rematch
        await self.store.update_table(table.table_id, {"status": table.status, "summary": summary})

    # -- subscribers ----------------------------------------------------------------------------

    # -- after the game -------------------------------------------------------------------------

    async def record(self, table_id: str) -> dict[str, Any] | list[dict[str, Any]]:
        """The game's record (a match: the list of its games; ``cardroom replay`` reads both);
        ``forbidden`` until it is over."""
        live = self._get(table_id)
        if live.table.status != "over" or live.table.arbiter is None:
            raise TableError("forbidden", RECORD_NOT_OVER)
        return live.table.records()

    def game_of(self, table_id: str) -> str:
        """The table's game (a real-time game's registry name)."""
        config = self._get(table_id).table.config
        assert config is not None
        return config.game
