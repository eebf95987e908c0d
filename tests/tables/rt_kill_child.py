"""The child of ``test_realtime_presence_kill.py``: a Spit table between Ann and Bob, both
connected, Ann calls "Spit!" at the start (the countdown runs), then it waits to be killed.

Usage: ``python -m tests.tables.rt_kill_child DB``; prints ``table ID`` and then ``ready`` once
Ann's call is committed.
"""

from __future__ import annotations

import asyncio
import sys

from cardroom.store import EventStore
from cardroom.tables import SeatSpec, TableService
from cardroom.tables.realtime import RealtimeConfig

COUNTDOWN = 1.5


async def main(path: str) -> None:
    store = await EventStore.open(path)
    service = TableService(store)
    await service.start()
    config = RealtimeConfig(
        game="spit",
        options={"countdown": str(COUNTDOWN)},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
        seed=3,
    )
    created = await service.create_realtime(config)
    table_id = created.table_id
    await service.join(table_id, 1, "Bob")
    subs = [service.subscribe(table_id, g) for g in (0, 1)]  # both people are connected
    await service.act_realtime(table_id, 0, {"type": "spit"})
    print(f"table {table_id}", flush=True)
    print("ready", flush=True)
    await asyncio.sleep(3600)
    del subs


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
