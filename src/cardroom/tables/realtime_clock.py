"""The clock of a real-time table: its bots (one reaction bot per bot seat, told what it sees
as the game moves) and its task, which sleeps until the next bot action or countdown end (or a
connection coming or going), does it inside the table's lock, and repeats; and a real-time
table's record in memory (``_RealtimeLive``). Only the table's
lease holder runs it. :class:`RealtimeClock` is a part of
:class:`~cardroom.tables.realtime_service.RealtimeTables`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from cardroom.bots.base import BotError
from cardroom.bots.reaction import ReactionBot, make_reaction_bot
from cardroom.games.realtime_engine import SEATS
from cardroom.games.table import TableError
from cardroom.tables.catchup import CatchUp
from cardroom.tables.config import bad_level
from cardroom.tables.realtime import RealtimeTable
from cardroom.tables.subscription import SeatsPresent, Subscription

__all__ = ["RealtimeClock"]

logger = logging.getLogger("cardroom.tables.realtime_service")  # (its logs kept their name)


class _Conflict(TableError):
    """Another process wrote that seq first (the table has read what it lacked)."""

    def __init__(self) -> None:
        super().__init__("stale", "this table was changed by another server: look again")


@dataclass
class _RealtimeLive(SeatsPresent):
    """A real-time table in memory: its lock, subscribers, bots and the task of its clock."""

    table: RealtimeTable
    token_hashes: dict[int, str]
    title: str
    public: bool
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subs: list[Subscription] = field(default_factory=list)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    bots: dict[int, ReactionBot] = field(default_factory=dict)
    rematch_of: str | None = None
    catch: CatchUp = field(default_factory=CatchUp)
    """What other processes wrote that this copy lacks (``tables/catchup.py``)."""
    moved: bool = False
    """A connection came or went since the clock last looked at who is here."""
    seen: set[int] = field(default_factory=set)
    """Person seats that have had a connection (here or elsewhere) since this process held the
    table: one of them without any connection now is away."""
    refusals: dict[int, deque[float]] = field(default_factory=dict)
    """Per seat: when its latest refused actions were logged (table time)."""
    unlogged: dict[int, int] = field(default_factory=dict)
    """Per seat: refused actions answered but not stored (past ``REFUSALS_LOGGED``)."""
    idle_since: float | None = None
    """When the sweep first saw the table finished with nobody connected (None: not idle)."""


class RealtimeClock:
    """The bots and the clock of the real-time tables (mixed into ``RealtimeTables``)."""

    if TYPE_CHECKING:  # the kind's state and the other parts this one calls
        clock: Callable[[], float]
        owns: Callable[[str], bool]
        _stopping: bool

        async def _presence(self, live: _RealtimeLive) -> None: ...
        async def _catch_up(self, live: _RealtimeLive) -> float: ...
        async def _commit(
            self, live: _RealtimeLive, kind: str, data: dict[str, Any], ref: object = None
        ) -> None: ...

    def _new_bots(self, live: _RealtimeLive) -> None:
        table = live.table
        config = table.config
        assert config is not None
        now = table.arbiter.time if table.arbiter is not None else self.clock()
        live.bots = {}
        for g in SEATS:
            level = table.bots[g]
            if level is None:
                continue
            rng = random.Random(f"{config.seed}/rt-seat/{g}/{table.seq}")
            try:
                live.bots[g] = make_reaction_bot(level, config.game, g, rng)
            except BotError as exc:
                logger.info("bot %r: %s", level, exc)
                raise TableError("bad-request", bad_level(level)) from None
        self._show_bots(live, now)

    def _seat_bot(self, live: _RealtimeLive, g: int) -> None:
        """A bot for seat ``g`` if the table says a bot plays it now, else none."""
        table = live.table
        config = table.config
        assert config is not None
        level = table.bots[g]
        live.bots.pop(g, None)
        if level is None or table.arbiter is None:
            return
        rng = random.Random(f"{config.seed}/rt-seat/{g}/{table.seq}")
        bot = make_reaction_bot(level, config.game, g, rng)
        live.bots[g] = bot
        bot.notice((table.engine.phase, table.arbiter.stalemate),
                   partial(table.engine.view, g), table.arbiter.time)  # fmt: skip

    def _show_bots(self, live: _RealtimeLive, now: float | None = None) -> None:
        table = live.table
        if not live.bots or table.arbiter is None or table.status != "playing":
            return
        when = table.arbiter.time if now is None else now
        key = (table.engine.phase, table.arbiter.stalemate)
        for bot in live.bots.values():
            bot.notice(key, partial(table.engine.view, bot.seat), when)

    def _next_due(self, live: _RealtimeLive) -> float | None:
        """The next time the clock has something to do (the server's time), or None."""
        table = live.table
        if table.status != "playing":
            return None
        if table.paused:
            limit = table.next_limit
            return None if limit is None else limit[0]
        if table.between:
            return table.next_at
        times = [table.server_time(b.due) for b in live.bots.values() if b.due is not None]
        if table.deadline is not None:
            times.append(table.deadline)
        return min(times) if times else None

    def _ensure_task(self, live: _RealtimeLive) -> None:
        if not self.owns(live.table.table_id) or self._stopping:
            return
        if live.task is None or live.task.done():
            live.task = asyncio.get_running_loop().create_task(self._run(live))

    async def _run(self, live: _RealtimeLive) -> None:
        """The table's clock: sleep until the next bot action or countdown end, do it, repeat."""
        while not self._stopping and live.table.status != "over":
            live.wake.clear()
            due = self._next_due(live)
            if live.moved:  # a connection came or went: who is away is looked at now
                due = self.clock()
            if due is None:
                await live.wake.wait()
                continue
            delay = due - self.clock()
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(live.wake.wait(), delay)
                continue
            try:
                async with live.lock:
                    await self._due(live)
            except _Conflict:
                pass  # a person's action through another process came first: look again
            except Exception:  # e.g. the database is briefly unavailable: try again soon
                logger.exception("real-time table %s", live.table.table_id)
                await asyncio.sleep(1.0)
            await asyncio.sleep(0)

    async def _due(self, live: _RealtimeLive) -> None:
        """Whatever is due now: countdowns first, then the bot whose hand gets there first."""
        table = live.table
        live.moved = False
        await self._presence(live)
        if table.status != "playing" or table.paused:
            return
        if table.between:  # a match: the next game once the scores have been shown
            next_at = table.next_at
            if next_at is not None and next_at <= self.clock():
                await self._commit(live, "next", {"t": max(self.clock(), table.time)})
            return
        now = await self._catch_up(live)
        game = table.game_time(now) + 1e-9  # (server and game time differ by a sum of floats)
        ready = [(b.due, g) for g, b in live.bots.items() if b.due is not None and b.due <= game]
        if not ready or table.status != "playing" or table.paused:
            return
        _, g = min(ready)
        bot = live.bots[g]
        game = table.game_time(now)
        action = bot.act(game)
        assert table.arbiter is not None
        before = len(table.arbiter.log)
        data = {"seat": g, "action": table.engine.action_to_json(action), "t": now, "by": "bot"}
        try:
            await self._commit(live, "action", data)
        except _Conflict:  # another process's entry came first: look again from there
            if table.status == "playing" and bot.plan is None:
                bot.rejected(True, table.engine.view(g), game)
            raise
        log = table.arbiter.log
        if len(log) > before and not log[-1].accepted and table.status == "playing":
            bot.rejected(log[-1].reason is not None and log[-1].reason.startswith("stale: "),
                         table.engine.view(g), game)  # fmt: skip
