"""Tables spread back out: a process that joins gets leases handed over one at a time until
the shares are even, between actions, never two authorities at once."""

from __future__ import annotations

from dataclasses import replace

from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.store import EventStore
from cardroom.tables import TableService
from tests.tables.helpers import bot_config, until


async def test_a_process_that_joins_gets_its_share_of_the_tables(pg_url: str) -> None:
    store_a = await EventStore.open(pg_url)
    store_b = await EventStore.open(pg_url)
    a = TableService(store_a, lease_interval=0.1)
    b = TableService(store_b, lease_interval=0.1)
    a.balance_every = b.balance_every = 1
    await a.start()
    tables = []
    both_at_once: list[set[str]] = []
    try:
        for seed in range(6):
            config = replace(bot_config(seed, end="rounds:30"), bot_delay=0.05)
            created = await a.create(config)
            await a.start_now(created.table_id, 0)
            tables.append(created.table_id)
        await until(lambda: len(a.owned) == 6)
        await b.start()  # joins: a has all six

        def even() -> bool:
            if a.owned & b.owned:
                both_at_once.append(a.owned & b.owned)
            return len(b.owned) >= 2 and len(a.owned) <= 4

        await until(even, steps=20_000)
        moved = sorted(b.owned)
        seqs = {t: (await store_b.entries(t))[-1].seq for t in moved}
        await until(lambda: all(b.table(t).seq > seqs[t] + 2 for t in moved), steps=20_000)
    finally:
        await b.stop()
        await a.stop()
    assert not both_at_once
    for table_id in tables:  # every log gap-free and replayable: the hand-overs lost nothing
        entries = await store_a.entries(table_id)
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        NainJauneTable.replay(table_id, entries)
    await store_a.close()
    await store_b.close()
