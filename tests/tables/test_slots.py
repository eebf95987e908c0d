"""A worker of ``cardroom serve --workers N`` makes tables whose ids are routed to it
(``tables/slots.py``): Nain Jaune and Speed tables, and their rematches."""

from __future__ import annotations

import zlib
from pathlib import Path

from cardroom.store import EventStore
from cardroom.tables import TableService
from tests.tables.helpers import until
from tests.tables.test_realtime_presence import FakeClock, leave, live, people, table, tick
from tests.tables.test_rematch import config


def slot(table_id: str, slots: int) -> int:
    return zlib.crc32(table_id.encode()) % slots


async def test_a_workers_tables_and_rematches_are_of_its_slot(tmp_path: Path) -> None:
    store = await EventStore.open(str(tmp_path / "slots.db"))
    clock = FakeClock()
    service = TableService(store, clock=clock, slot=2, slots=3)
    await service.start()
    try:
        made = [await service.create(config()) for _ in range(12)]
        assert {slot(c.table_id, 3) for c in made} == {2}
        # Nain Jaune: both people leave, the bots end the round, Ann asks for a rematch
        nj = made[0].table_id
        await service.leave(nj, 0)
        await service.leave(nj, 2)
        await until(lambda: service.table(nj).status == "over")
        again, _ = await service.rematch(nj, 0)
        assert again != nj and slot(again, 3) == 2
        # Speed: made, over (Ann away past the limit), rematch
        created = await service.create_realtime(people("speed", away_limit=20))
        speed = created.table_id
        assert slot(speed, 3) == 2
        await service.join(speed, 1, "Bob")
        subs = [service.subscribe(speed, g) for g in (0, 1)]
        await until(lambda: live(service, speed).seen == {0, 1})
        await leave(service, speed, subs[0])
        await tick(service, speed, clock, 20.0)
        assert table(service, speed).status == "over"
        new_id, _ = await service.rematch(speed, 1)
        assert new_id != speed and slot(new_id, 3) == 2
    finally:
        await service.stop()
        await store.close()


async def test_a_lone_process_draws_any_id(tmp_path: Path) -> None:
    store = await EventStore.open(str(tmp_path / "one.db"))
    service = TableService(store)
    await service.start()
    try:
        ids = [(await service.create(config())).table_id for _ in range(40)]
        assert {slot(i, 3) for i in ids} == {0, 1, 2}  # not drawn for a slot (1 in 10^7 fails)
    finally:
        await service.stop()
        await store.close()
