"""The child of ``test_kill.py``: plays bot tables on a SQLite log until it is killed.

Usage: ``python -m tests.tables.kill_child DB SEED``. After start-up it prints
``state TABLE SEQ DIGEST`` for every table it rebuilt, then ``ready``; after every append that
returned (the entry is committed) it prints ``seq TABLE SEQ KIND``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from typing import Any, cast

from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.store import EventStore, LogEntry
from cardroom.tables import TableService
from tests.tables.helpers import bot_config

TABLES = 2


class ReportingStore(EventStore):
    """An EventStore that says on stdout which entries it has committed."""

    async def append(
        self,
        table_id: str,
        entry: LogEntry,
        *,
        table_update: dict[str, Any] | None = None,
        seats_update: list[dict[str, Any]] | None = None,
    ) -> None:
        await super().append(table_id, entry, table_update=table_update, seats_update=seats_update)
        print(f"seq {table_id} {entry.seq} {entry.kind}", flush=True)

    async def create_table(
        self,
        table_id: str,
        game: str,
        entry: LogEntry,
        title: str,
        public: bool,
        seats: list[dict[str, Any]],
    ) -> None:
        await super().create_table(table_id, game, entry, title, public, seats)
        print(f"seq {table_id} {entry.seq} {entry.kind}", flush=True)


def digest(table: NainJauneTable) -> str:
    """A hash of what every seat and a spectator see of the table (all events included)."""
    frames = [table.frame(seat, 0) for seat in [None, *range(table.n)]]
    return hashlib.sha256(json.dumps(frames, sort_keys=True).encode()).hexdigest()


async def main(path: str, seed: int) -> None:
    store = await ReportingStore.open(path)
    service = TableService(store)
    await service.start()
    for table_id in await store.table_ids():
        table = service.turns._live.get(table_id)
        if table is not None:
            state = digest(cast(NainJauneTable, table.table))
            print(f"state {table_id} {table.table.seq} {state}", flush=True)
    print("ready", flush=True)
    made = 0
    while True:
        while len(await store.table_ids({"waiting", "playing"})) < TABLES:
            created = await service.create(bot_config(seed * 1000 + made, players=3))
            await service.start_now(created.table_id, 0)
            made += 1
        await asyncio.sleep(0.01)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
