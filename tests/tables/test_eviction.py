"""Finished tables leave memory after their last subscriber (and a grace period), and come back
from the log when someone asks for them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardroom.store import EventStore
from cardroom.tables import SeatSpec, TableError, TableService
from cardroom.tables.realtime import RealtimeConfig
from tests.tables.helpers import bot_config, until

GRACE = 0.2
"""The services' grace period here (seconds): sweeps every 0.05 s."""


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[EventStore]:
    opened = await EventStore.open(str(tmp_path / "evict.db"))
    yield opened
    await opened.close()


@pytest.fixture
async def service(store: EventStore) -> AsyncIterator[TableService]:
    svc = TableService(store, evict_after=GRACE)
    await svc.start()
    yield svc
    await svc.stop()


async def finished_table(service: TableService, seed: int) -> str:
    created = await service.create(bot_config(seed, players=3))
    await service.start_now(created.table_id, 0)
    table = service.table(created.table_id)
    await until(lambda: table.status == "over", 20000)
    return created.table_id


def in_memory(service: TableService, table_id: str) -> bool:
    try:
        service.table(table_id)  # the live table only: never loads
    except TableError as exc:
        assert exc.code == "not-found"
        return False
    return True


async def test_finished_tables_leave_memory_and_come_back_from_the_log(
    service: TableService,
) -> None:
    ids = [await finished_table(service, seed) for seed in range(3)]
    records = {tid: await service.record(tid) for tid in ids}
    await until(lambda: not any(in_memory(service, tid) for tid in ids), 2000)
    # read again from the log on demand, the same game
    for tid in ids:
        assert await service.game_of(tid) == "nain-jaune"
        assert await service.record(tid) == records[tid]
        assert service.frame_for(tid, None)["status"] == "over"
    # and gone again once nobody asked for a while
    await until(lambda: not any(in_memory(service, tid) for tid in ids), 2000)


async def test_a_watched_finished_table_stays_until_its_last_subscriber_leaves(
    service: TableService,
) -> None:
    tid = await finished_table(service, 7)
    watcher = service.subscribe(tid, None)
    assert (await watcher.get() or {})["status"] == "over"
    await asyncio.sleep(GRACE * 3)  # many sweeps
    assert in_memory(service, tid)
    service.unsubscribe(watcher)
    await asyncio.sleep(GRACE / 2)  # within the grace period: still there
    assert in_memory(service, tid)
    await until(lambda: not in_memory(service, tid), 2000)


async def test_tables_still_playing_stay(service: TableService) -> None:
    created = await service.create(bot_config(3, players=3))  # waiting: nobody started it
    await asyncio.sleep(GRACE * 3)
    assert in_memory(service, created.table_id)
    assert service.table(created.table_id).status == "waiting"


async def test_finished_realtime_tables_leave_memory_too(service: TableService) -> None:
    bot = SeatSpec("bot", "reaction:min=0.004,max=0.012")
    config = RealtimeConfig(game="speed", options={"countdown": "0.1"}, seats=(bot, bot), seed=5)
    created = await service.create_realtime(config)
    tid = created.table_id
    realtime = service.realtime
    await until(lambda: realtime.frame_for(tid, None)["status"] == "over", 60000)
    record = await service.record(tid)
    await until(lambda: not realtime.holds(tid), 2000)
    assert await service.game_of(tid) == "speed"  # loaded again from the log
    assert realtime.holds(tid) and await service.record(tid) == record
