"""Two table services on one PostgreSQL: notices only for tables another process watches.

A process that holds a table in memory without its lease says ``watch <id>`` (repeated with
its presence); the lease holder tells that table's changes, presence and deadlines only while
it is watched (``tables/cluster.py``). These tests run past the first watch TTL, when each
process has heard the other's watches and stopped noticing every table.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from cardroom.store import NOTIFY_CHANNEL
from cardroom.tables import TableService
from cardroom.tables.cluster import DEADLINES_CHANNEL, PRESENCE_CHANNEL, asyncpg_dsn
from tests.scale.clients import two_services
from tests.scale.test_cluster import play, two_people
from tests.tables.helpers import until

asyncpg = pytest.importorskip("asyncpg", reason="asyncpg is not installed")


async def _settled(*services: TableService) -> None:
    """Until every service has met the others and heard their watches (past the first TTL)."""
    for s in services:
        assert s._coord is not None
    await until(
        lambda: all(
            s._coord is not None and not s._coord.alone and not s._coord.noticing_all
            for s in services
        ),
        steps=5000,
    )


async def _quiet(count: Any, still: float = 1.0, deadline: float = 60.0) -> None:
    """Until ``count()`` has not changed for ``still`` seconds: the notices already sent have
    all arrived, however late a loaded machine delivers them."""
    end = time.monotonic() + deadline
    last, since = count(), time.monotonic()
    while time.monotonic() < end:
        await asyncio.sleep(0.05)
        now = count()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= still:
            return
    raise AssertionError("notices kept coming")


async def _step(service: TableService, table_id: str) -> None:
    """Play one person's move (or say ready) at a table whose persons are seats 0 and 1, once
    the bots have played up to a person (a change of the log)."""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        before = service.table(table_id).seq
        for seat in (0, 1):
            frame = service.frame_for(table_id, seat)
            legal = (frame.get("round") or {}).get("legal")
            if frame["status"] == "playing" and legal:
                await service.act(table_id, seat, legal[0], frame["seq"])
            elif frame["status"] == "round-over" and seat not in frame.get("ready", []):
                await service.ready(table_id, seat)
            if service.table(table_id).seq > before:
                return
        await asyncio.sleep(0.005)
    raise AssertionError("no person's move came")


async def test_a_table_is_told_only_while_another_process_watches_it_nothing_missed(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with two_services(pg_url, 0.2, start=False) as (_, _, a, b):
        coord_b = b._coord
        assert coord_b is not None
        heard: list[tuple[str, str]] = []
        listener = await asyncpg.connect(asyncpg_dsn(pg_url))
        for channel in (NOTIFY_CHANNEL, PRESENCE_CHANNEL, DEADLINES_CHANNEL):
            await listener.add_listener(channel, lambda *args: heard.append((args[2], args[3])))
        held: list[list[str]] = []
        watch = coord_b.watch
        monkeypatch.setattr(coord_b, "watch", lambda ids: held.append(list(ids)) if ids else None)
        await a.start()
        await b.start()
        try:
            await _settled(a, b)
            created = await a.create(two_people(seed=5, rounds=3))
            tid = created.table_id
            assert tid in a.owned
            await a.join(tid, 1, "Bob")
            await until(lambda: a.table(tid).status == "playing")
            for _ in range(4):
                await _step(a, tid)
            await asyncio.sleep(0.5)  # a notice would have come by now
            assert a.table(tid).seq > 6
            # nobody else follows the table: not one change, presence or deadlines notice (not
            # even the first entry's: A took the new table's lease before its row)
            assert not [h for h in heard if tid in h[1]]

            # B loads it (Bob's invitation) and connects Bob; its watch is held back meanwhile
            assert await b.seat_of(tid, created.invites[1]) == 1
            loaded = b.table(tid).seq
            bob = b.subscribe(tid, 1)
            for _ in range(3):
                await _step(a, tid)
            await asyncio.sleep(0.5)
            assert a.table(tid).seq > loaded and b.table(tid).seq == loaded  # nobody told B
            assert not [h for h in heard if h[0] == NOTIFY_CHANNEL and tid in h[1]]
            assert held and tid in held[0]
            # B's presence is told all the same: A (the holder) must know Bob is connected
            assert [h for h in heard if h[0] == PRESENCE_CHANNEL and f" {tid} 1 1" in h[1]]

            # the watch is heard: A answers, B reads what it missed from the log at once
            monkeypatch.setattr(coord_b, "watch", watch)
            watch([tid])
            await until(lambda: b.table(tid).seq == a.table(tid).seq)

            async def bob_sees(seq: int) -> None:
                while True:
                    frame = await asyncio.wait_for(bob.get(), 60)
                    assert frame is not None
                    if frame["seq"] == seq:
                        return

            await bob_sees(a.table(tid).seq)
            # from now on every change reaches B's connection as a notice
            for _ in range(3):
                told = len([h for h in heard if h[0] == NOTIFY_CHANNEL])
                await _step(a, tid)
                await bob_sees(a.table(tid).seq)
                # (the test's own listener hears the same notice, maybe a moment after B)
                def heard_more(told: int = told) -> bool:
                    return len([h for h in heard if h[0] == NOTIFY_CHANNEL]) > told

                await until(heard_more)
            # and B's own moves reach A
            frame = b.frame_for(tid, 1)
            if frame["status"] == "playing" and frame["round"]["legal"]:
                await b.act(tid, 1, frame["round"]["legal"][0], frame["seq"])
                await until(lambda: a.table(tid).seq == b.table(tid).seq)

            # B forgets the table: its watch ends within a TTL and A tells nobody again
            b.unsubscribe(bob)
            del b.turns._live[tid]
            coord_a = a._coord
            assert coord_a is not None
            await until(lambda: tid not in coord_a.watchers, steps=3000)

            def notices() -> int:
                return len([h for h in heard if h[0] == NOTIFY_CHANNEL])

            await _quiet(notices)  # the last notices sent while B watched have all come
            told = notices()
            await _step(a, tid)
            await asyncio.sleep(1.0)
            assert notices() == told
        finally:
            await listener.close()


async def test_presence_in_a_watching_process_stops_the_holders_takeover(pg_url: str) -> None:
    """Past the first TTL (each process notices only watched tables), Bob connected to B
    keeps A's bots off his seat, and both play the table to its end in step."""
    async with two_services(pg_url, 0.2) as (store_a, _, a, b):
        await _settled(a, b)
        created = await a.create(two_people(seed=11, rounds=2, takeover_after=0.4))
        tid = created.table_id
        assert await b.seat_of(tid, created.invites[1]) == 1
        ann = a.subscribe(tid, 0)
        bob = b.subscribe(tid, 1)
        await b.join(tid, 1, "Bob")
        await asyncio.sleep(1.5)  # A's takeover timers (0.4 s) would have fired by now
        frames: list[Any]
        _, frames = await asyncio.gather(play(a, ann, tid, 0), play(b, bob, tid, 1))
        entries = await store_a.entries(tid)
        assert frames[-1]["seq"] == entries[-1].seq
        assert not [e for e in entries if e.kind == "takeover"]
        assert tid not in b.owned and b.turns._live[tid].bot_task is None
