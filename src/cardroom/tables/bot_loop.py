"""The bots and hints of the tables played in turns: each table's bot task plays the
bots' turns (and an absent person's, once taken over) as its log allows, and a person's hint
is worked out in a pool of threads of its own, so a flood of hints never delays a bot.
:class:`BotLoop` is a part of :class:`~cardroom.tables.turns.TurnTables`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from cardroom.bots import Bot, make_bot, parse_spec
from cardroom.bots.base import LEVELS, LazyRandom
from cardroom.games import registry
from cardroom.games.table import TableError
from cardroom.store import LogEntry
from cardroom.tables.config import (
    HINT_MOVED_ON,
    HINT_NOT_YOUR_TURN,
    HINTS_BUSY,
    HINTS_OFF,
    NO_HINTS,
    bad_level,
)
from cardroom.tables.live import Live
from cardroom.tables.subscription import sleep

__all__ = ["BOT_TICK", "BotLoop"]

logger = logging.getLogger(__name__)

_THINKING_BOTS = frozenset({"search", "expert", "ismcts"})
"""Bot families that search for a while: they choose in a worker thread."""
BOT_TICK = 0.05
"""Bots' moves are put off to the next multiple of this (seconds; at most an eighth of the
table's bot delay): the bots of many tables then move in one loop turn and their entries share
one commit, instead of one wake-up each (issue 19; docs/deploy.md, "Where a server's CPU
goes")."""


class BotLoop:
    """The bots and hints side of the tables played in turns (mixed into ``TurnTables``)."""

    if TYPE_CHECKING:  # the kind's state and the other parts this one calls
        _stopping: bool
        _bots: dict[tuple[str, str], Bot]
        _bot_thinks: dict[str, bool]
        _hint_pool: ThreadPoolExecutor
        _hint_limit: int
        _hints_waiting: int

        def _get(self, table_id: str) -> Live: ...
        def _owns(self, table_id: str) -> bool: ...
        async def _commit(self, live: Live, kind: str, data: dict[str, Any]) -> LogEntry: ...
        async def _after(self, live: Live) -> None: ...

    async def hint(self, table_id: str, seat: int, seq: int, lang: str = "en") -> tuple[str, str]:
        """The expert's suggestion for ``seat``'s own move at state ``seq``: ``("7D", reason)``.

        Worked out in a worker thread from that seat's view alone, by the game's ``hints``
        piece; nothing is logged. Refused unless the game offers hints, the table has them on,
        ``seq`` is current and it is that person's turn.
        """
        table = self._get(table_id).table
        entry = registry.game(table.cfg.game)
        if entry.hints is None:
            raise TableError("bad-request", NO_HINTS)
        if not table.cfg.hints:
            raise TableError("forbidden", HINTS_OFF)
        if seq != table.seq:
            raise TableError("stale", HINT_MOVED_ON)
        turn = table.turn()
        if turn is None or turn.seat != seat or turn.bot is not None:
            raise TableError("not-your-turn", HINT_NOT_YOUR_TURN)
        view = table.bot_view(seat)  # a snapshot: safe in a thread
        sample_seed = random.Random(f"{table.cfg.seed}/hint/{seat}/{seq}").randrange(2**63)
        hint = cast(Callable[..., tuple[str, str]], entry.load("hints"))
        if self._hints_waiting >= self._hint_limit:
            raise TableError("unavailable", HINTS_BUSY)
        self._hints_waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._hint_pool, partial(hint, view, seed=sample_seed, lang=lang)
            )
        except ValueError as exc:  # the game found no move to suggest
            raise TableError("not-your-turn", HINT_NOT_YOUR_TURN) from exc
        finally:
            self._hints_waiting -= 1

    def _bot(self, spec: str, game: str) -> Bot:
        """A bot of game ``game`` by spec or level: its ``bots`` piece's ``make_bot`` if it
        has one, else the shared registry of bots."""
        bot = self._bots.get((game, spec))
        if bot is None:
            entry = registry.game(game)
            pieces = entry.load("bots") if entry.bots is not None else None
            maker = cast(Callable[[str], Bot], getattr(pieces, "make_bot", make_bot))
            try:
                bot = maker(spec)
            except ValueError as exc:
                logger.info("bot %r: %s", spec, exc)
                raise TableError("bad-request", bad_level(spec)) from None
            self._bots[(game, spec)] = bot
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
            view = table.bot_view(seat)
            bot = self._bot(spec, table.cfg.game)
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
                    {"seat": seat, "action": table.action_text(action), "by": "bot"},
                )
                await self._after(live)
            del action
            if table.cfg.bot_delay <= 0:  # (else the next move's delay lets them in)
                await asyncio.sleep(0)  # let readers in between two bot moves
