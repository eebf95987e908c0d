"""Play now on one PostgreSQL shared by two servers (two stores and table services, as two
processes): 20 people pressing Play now for Speed at once are seated once each, never twice."""

from __future__ import annotations

import asyncio
import random

import pytest
import sqlalchemy as sa

from cardroom.store import EventStore, PlayerStore
from cardroom.store.players import seat_claims_t
from cardroom.store.ratings import play_queue_t
from cardroom.tables import TableService
from cardroom.web.play_now import PlayNow

pytest.importorskip("asyncpg", reason="asyncpg is not installed")


async def test_twenty_people_pressing_at_once_across_two_servers_are_seated_once(
    pg_url: str,
) -> None:
    stores = [await EventStore.open(pg_url) for _ in range(2)]
    services = [TableService(s, coordinate=False) for s in stores]
    players = [PlayerStore(s) for s in stores]
    plays = [PlayNow(s, v, p, 0.0) for s, v, p in zip(stores, services, players, strict=True)]
    try:
        people = [(await players[0].create(f"P{i}", 1.0))[0].id for i in range(20)]
        rng = random.Random(7)

        async def press(i: int) -> None:
            play = plays[i % 2]  # half the people reach each server
            await asyncio.sleep(rng.random() * 0.05)
            await play.join(people[i], "speed", 2, 30.0)
            await play.match_all()

        await asyncio.gather(*(press(i) for i in range(20)))
        for _ in range(5):  # whoever was left waiting by a lost race is seated next round
            await asyncio.gather(*(p.match_all() for p in plays))
        async with stores[0].engine.connect() as conn:
            claims = (
                await conn.execute(sa.select(seat_claims_t.c.table_id, seat_claims_t.c.player_id))
            ).all()
            queue = (await conn.execute(sa.select(play_queue_t))).all()
        seated = [c.player_id for c in claims]
        assert sorted(seated) == sorted(people)  # everyone once, nobody twice
        tables: dict[str, set[str]] = {}
        for c in claims:
            tables.setdefault(c.table_id, set()).add(c.player_id)
        assert len(tables) == 10 and all(len(p) == 2 for p in tables.values())
        # each waiting row names the table its person sits at
        assert {r.player_id: r.table_id for r in queue} == {c.player_id: c.table_id for c in claims}
        status = await plays[1].status(people[0])
        assert status is not None and status["table"] in tables
    finally:
        for service in services:
            await service.stop()
        for store in stores:
            await store.close()
