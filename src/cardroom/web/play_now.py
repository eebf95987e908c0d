"""Play now: people waiting for a game (``play_queue``) seated at new tables by a matcher.

A real-time game: the person waiting longest is paired with the waiting person of the closest
rating; once a person alone has waited their time (default 30 s; 0 when they ask for a bot
at once) a bot of their level plays them (``level_for``). A turn-based game: people waiting for
the same table size are seated together as soon as there are enough of them; once the
longest-waiting one has waited their chosen time (default 30 s), the table starts with the
people there are and bots in the other seats. A seat a bot fills after a wait goes first to a
bot people brought that listens now and accepts Play now (docs/bots-api.md): it holds the
seat as a person would and its event stream says ``match``, then ``start``.

Several processes may match at once. A group is taken in one transaction by a conditional
update (``table_id`` from NULL to a marker, for exactly the rows chosen; on PostgreSQL the rows
are first read ``FOR UPDATE SKIP LOCKED``, so two matchers never wait for or take the same
people): if any row of the group was taken meanwhile the transaction is rolled back and
nobody is seated. Only then is the table made, its seats claimed for the people, and the
marker replaced by the table's id, which each waiting browser reads (``GET /api/play``).
Play now tables are rated and not listed in the lobby.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from cardroom.games import registry
from cardroom.store import EventStore, PlayerStore, StoreError
from cardroom.store.bots import BOT_TABLES, LISTENING, Bot, BotStore
from cardroom.store.bounds import BoundStore
from cardroom.store.events import _guard
from cardroom.store.players import players_t
from cardroom.store.ratings import play_queue_t, ratings_t
from cardroom.tables import SeatSpec, TableConfig, TableError, TableService
from cardroom.tables.realtime import RealtimeConfig
from cardroom.web.ratings import MU, mark_rated, plays_like

logger = logging.getLogger(__name__)

DEFAULT_WAIT = 30.0
"""Seconds a player waits for people before bots take the empty seats."""
WAIT_RANGE = (5.0, 300.0)
"""The waits a player may choose (a bot at once is asked for as ``bot_now``)."""
NEW_PLAYER_LEVEL = "medium"
"""The bot level for a person without rated games of the game."""
STALE_AFTER = 600.0
"""A waiting row not asked about for this long is dropped (the browser went away)."""
PENDING = "pending:"
MAX_ADDRESSES = 10_000
"""Players whose address a process remembers for the open-tables bound."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """One person in the queue."""

    player_id: str
    name: str
    game: str
    size: int
    wait: float
    mu: float
    at: float


class PlayNow:
    """The queue and the matcher of one server process."""

    def __init__(
        self, store: EventStore, service: TableService, players: PlayerStore, bot_delay: float
    ) -> None:
        self.store = store
        self.service = service
        self.players = players
        self.bot_delay = bot_delay
        self.bots = BotStore(store)
        self.bounds = BoundStore(store)
        self.interval = 1.0
        self.addresses: OrderedDict[str, str] = OrderedDict()
        """Player -> the client address that last pressed Play now for them (in this process)."""
        self.on_table: Callable[[str, str], Awaitable[None]] | None = None
        """Told ``(address, table_id)`` for each address of the people seated at a new table
        (the open-tables bound counts Play now tables too)."""

    async def join(
        self,
        player_id: str,
        game: str,
        size: int,
        wait: float,
        now: float | None = None,
        address: str | None = None,
        bot_now: bool = False,
    ) -> None:
        """Put a player in the queue (again: their earlier place is dropped); ``address``, the
        client's, is told the table they get (:attr:`on_table`); ``bot_now``: bots in the other
        seats at once if nobody is there to play (a wait of 0)."""
        now = time.time() if now is None else now
        if address is not None:
            self.addresses[player_id] = address
            self.addresses.move_to_end(player_id)
            while len(self.addresses) > MAX_ADDRESSES:
                self.addresses.popitem(last=False)
        wait = 0.0 if bot_now else min(max(wait, WAIT_RANGE[0]), WAIT_RANGE[1])
        async with _guard(), self.store._write_lock, self.store.engine.begin() as conn:
            row = (
                await conn.execute(
                    sa.select(ratings_t.c.mu).where(
                        ratings_t.c.player_id == player_id, ratings_t.c.game == game
                    )
                )
            ).first()
            await conn.execute(play_queue_t.delete().where(play_queue_t.c.player_id == player_id))
            await conn.execute(
                play_queue_t.insert().values(
                    player_id=player_id,
                    game=game,
                    size=size,
                    wait=wait,
                    mu=float(row.mu) if row is not None else MU,
                    at=now,
                    table_id=None,
                )
            )

    async def leave(self, player_id: str) -> None:
        """Take a player out of the queue (if not seated yet)."""
        async with _guard(), self.store._write_lock, self.store.engine.begin() as conn:
            await conn.execute(
                play_queue_t.delete().where(
                    play_queue_t.c.player_id == player_id, play_queue_t.c.table_id.is_(None)
                )
            )

    async def status(self, player_id: str) -> dict[str, Any] | None:
        """``{"game", "since", "table"}`` for a waiting or seated player; a seated one's row is
        dropped once told."""
        async with _guard(), self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(play_queue_t).where(play_queue_t.c.player_id == player_id)
                )
            ).first()
        if row is None:
            return None
        table = row.table_id if row.table_id and not row.table_id.startswith(PENDING) else None
        if table is not None:
            async with _guard(), self.store._write_lock, self.store.engine.begin() as conn:
                await conn.execute(
                    play_queue_t.delete().where(
                        play_queue_t.c.player_id == player_id, play_queue_t.c.table_id == table
                    )
                )
            others = 0
        else:
            async with _guard(), self.store.engine.connect() as conn:
                others = int(
                    (
                        await conn.execute(
                            sa.select(sa.func.count()).where(
                                play_queue_t.c.game == row.game,
                                play_queue_t.c.table_id.is_(None),
                                play_queue_t.c.player_id != player_id,
                            )
                        )
                    ).scalar_one()
                )
        return {
            "game": row.game, "since": row.at, "size": row.size, "table": table,
            "others": others, "bots_at": row.at + row.wait,
            "level": await self.level_for(player_id, row.game),
        }  # fmt: skip

    async def level_for(self, player_id: str, game: str) -> str:
        """The bot level a person plays like (the nearest fixed rating to theirs, as My games
        says); :data:`NEW_PLAYER_LEVEL` while their rating is provisional."""
        async with _guard(), self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(ratings_t.c.mu, ratings_t.c.games).where(
                        ratings_t.c.player_id == player_id, ratings_t.c.game == game
                    )
                )
            ).first()
        if row is None or not row.games:
            return NEW_PLAYER_LEVEL
        return plays_like(game, float(row.mu), int(row.games)) or NEW_PLAYER_LEVEL

    # -- matching ------------------------------------------------------------------------

    async def run(self) -> None:
        """Match every ``interval`` seconds until cancelled."""
        while True:
            try:
                await self.match_all()
            except (StoreError, TableError) as exc:
                logger.info("play now: %s", exc)
            except Exception:
                logger.exception("play now")
            await asyncio.sleep(self.interval)

    async def match_all(self, now: float | None = None) -> list[str]:
        """Seat whoever can be seated now; returns the new tables' ids."""
        made: list[str] = []
        query = (
            sa.select(play_queue_t.c.game)
            .where(play_queue_t.c.table_id.is_(None))
            .group_by(play_queue_t.c.game)
        )
        async with _guard(), self.store.engine.connect() as conn:  # read only: no write lock
            waiting = {r.game for r in (await conn.execute(query)).all()}
        for game in [g for g in registry.names() if g in waiting]:
            for _ in range(100):  # at most 100 tables a round: the next round goes on
                try:
                    table = await self.match_one(game, time.time() if now is None else now)
                except _Taken:
                    break  # another process is seating these people: look again next round
                if table is None:
                    break
                made.append(table)
        return made

    async def _waiting(self, conn: Any, game: str) -> list[Waiting]:
        query = (
            sa.select(play_queue_t, players_t.c.name)
            .join(players_t, players_t.c.id == play_queue_t.c.player_id)
            .where(play_queue_t.c.game == game, play_queue_t.c.table_id.is_(None))
            .order_by(play_queue_t.c.at, play_queue_t.c.player_id)
            .limit(200)
        )
        if self.store.engine.dialect.name == "postgresql":
            query = query.with_for_update(skip_locked=True, of=play_queue_t)
        return [
            Waiting(r.player_id, r.name, r.game, r.size, r.wait, r.mu, r.at)
            for r in (await conn.execute(query)).all()
        ]

    @staticmethod
    def choose(waiting: list[Waiting], now: float) -> tuple[list[Waiting], int] | None:
        """The group to seat now and the table size (None: nobody yet)."""
        if not waiting:
            return None
        first = waiting[0]
        if registry.game(first.game).realtime:
            others = waiting[1:]
            if others:
                mate = min(others, key=lambda w: (abs(w.mu - first.mu), w.at))
                return [first, mate], 2
            alone = [w for w in waiting if now - w.at >= w.wait]
            return ([alone[0]], 2) if alone else None  # a bot plays them
        same = [w for w in waiting if w.size == first.size]
        if len(same) >= first.size:
            return same[: first.size], first.size
        if now - first.at >= first.wait:
            return same, first.size
        return None

    async def match_one(self, game: str, now: float) -> str | None:
        """Take one group from the queue and seat it at a new table (None: nobody to seat)."""
        marker = PENDING + secrets.token_urlsafe(8)
        async with _guard(), self.store._write_lock, self.store.engine.begin() as conn:
            await conn.execute(
                play_queue_t.delete().where(
                    play_queue_t.c.table_id.is_(None), play_queue_t.c.at < now - STALE_AFTER
                )
            )
            chosen = self.choose(await self._waiting(conn, game), now)
            if chosen is None:
                return None
            group, size = chosen
            ids = [w.player_id for w in group]
            taken = await conn.execute(
                play_queue_t.update()
                .where(play_queue_t.c.player_id.in_(ids), play_queue_t.c.table_id.is_(None))
                .values(table_id=marker)
            )
            if taken.rowcount != len(ids):
                raise _Taken  # rolled back: another matcher took one of them
        try:
            table_id = await self._make_table(game, group, size)
        except BaseException:
            await self._release(marker)
            raise
        if self.on_table is not None:
            known = (self.addresses.get(w.player_id) for w in group)
            for address in dict.fromkeys(a for a in known if a is not None):
                await self.on_table(address, table_id)
        async with _guard(), self.store._write_lock, self.store.engine.begin() as conn:
            await conn.execute(
                play_queue_t.update()
                .where(play_queue_t.c.table_id == marker)
                .values(table_id=table_id)
            )
        return table_id

    async def _release(self, marker: str) -> None:
        async with _guard(), self.store._write_lock, self.store.engine.begin() as conn:
            await conn.execute(
                play_queue_t.update().where(play_queue_t.c.table_id == marker).values(table_id=None)
            )

    async def brought_bots(self, game: str, group: list[Waiting], most: int) -> list[Bot]:
        """Up to ``most`` bots people brought that listen now (their event stream open on any
        process), accept Play now and a rated game of ``game``, are at fewer than their most
        tables and belong to nobody of ``group`` (nobody plays their own bot rated)."""
        if most <= 0:
            return []
        people = {w.player_id for w in group}
        chosen: list[Bot] = []
        for bot in await self.bots.listening(await self.bounds.keys_under(LISTENING, 10_000)):
            if len(chosen) >= most:
                break
            if not bot.accepts.play_now or not bot.accepts.plays(game, rated=True):
                continue
            if bot.owner_id in people or await self.bots.busy(bot.id) >= BOT_TABLES:
                continue
            chosen.append(bot)
        return chosen

    async def _make_table(self, game: str, group: list[Waiting], size: int) -> str:
        people = [SeatSpec("person", name=w.name or "?") for w in group]
        # seats nobody came for, when the people waited (not "a bot at once"): the bots people
        # brought that play Play now first, then the server's own
        waited = all(w.wait > 0 for w in group)
        brought = await self.brought_bots(game, group, size - len(group)) if waited else []
        people += [SeatSpec("person", name=bot.name) for bot in brought]
        if registry.game(game).realtime:
            level = "medium"
            if len(group) == 1:  # alone past the wait: a bot of the person's level
                level = await self.level_for(group[0].player_id, game)
            if len(people) == 1:
                people.append(SeatSpec("bot", level))
            config = RealtimeConfig(
                game=game,
                options={},
                seats=(people[0], people[1]),
                seed=secrets.randbits(63),
                level=level,
            )
            created = await self.service.create_realtime(config, "", False)
        else:
            seats = people + [SeatSpec("bot", "medium")] * (size - len(people))
            created = await self.service.create(
                TableConfig(
                    game=game,
                    rules=registry.game(game).load("rules").from_options(),  # its usual rules
                    seats=tuple(seats),
                    seed=secrets.randbits(63),
                    public=False,
                    level="medium",
                    takeover_after=60.0,
                    bot_delay=self.bot_delay,
                )
            )
        table_id = created.table_id
        now = time.time()
        for seat, w in enumerate(group):
            await self.players.claim(table_id, seat, w.player_id, now)
        for seat, bot in enumerate(brought, start=len(group)):
            await self.bots.claim_seat(table_id, seat, bot.id, now)
        await mark_rated(self.store, table_id, game)
        return table_id


class _Taken(Exception):
    """Another matcher took a person of the group first (nothing was changed)."""
