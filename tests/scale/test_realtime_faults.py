"""Spit and Speed on two real ``cardroom serve`` processes on PostgreSQL, and kill -9 of one.

Scripted people play Speed over real websockets, the two people of a table connected to
different processes. The lease holder of a table is killed mid-game: the other process takes
its lease, rebuilds the table from the log and goes on (countdowns, the bot); the people
reconnect by themselves. Afterwards every table is over, its log is gap-free and replays to
the end, every state frame any client was sent agrees with the log at its seq (the seat's view
and the countdown's deadline) and every action a client was told accepted is in the log.
"""

from __future__ import annotations

import asyncio
import time

import httpx

from cardroom.store import EventStore
from cardroom.tables.realtime import RealtimeTable
from tests.scale.clients import (
    RealtimeClient,
    ServerProcess,
    TableInvites,
    check_realtime_frames,
    create_realtime_table,
)

BOT = "expert"
OPTIONS = {"countdown": "0.5"}


async def make(address: str, count: int, bot: str | None = None) -> list[TableInvites]:
    async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
        return [
            await create_realtime_table(http, game="speed", bot=bot, options=OPTIONS)
            for _ in range(count)
        ]


def people(
    tables: list[TableInvites], first: list[str], second: list[str], think: float = 0.05
) -> list[RealtimeClient]:
    """Seat 0 goes first to ``first``, seat 1 to ``second``; seat 1 never calls at every
    other table (the countdown ends those stalemates)."""
    out = []
    for n, t in enumerate(tables):
        for seat, token in sorted(t.tokens.items()):
            calls = seat == 0 or n % 2 == 0
            where = first if seat == 0 else second
            out.append(RealtimeClient(where, t.table_id, token, 10 * n + seat, calls, think=think))
    return out


async def test_kill_9_of_the_clock_of_speed_tables_loses_nothing(pg_url: str) -> None:
    a, b = ServerProcess(pg_url), ServerProcess(pg_url)
    store = await EventStore.open(pg_url)
    try:
        a.start()
        b.start()
        on_a = await make(a.address, 3)  # A holds their leases: A is their clock
        with_bot = await make(a.address, 1, bot=BOT)
        on_b = await make(b.address, 1)
        clients = people(on_a + on_b, [a.address, b.address], [b.address, a.address])
        # Ann through B, the bot on A; Ann takes her time, so the bot still has moves to make
        # once B has taken the table over (a fast Ann could win before it)
        clients += people(with_bot, [b.address, a.address], [], think=0.5)
        tasks = [asyncio.create_task(c.run(deadline=150)) for c in clients]
        while sum(c.actions for c in clients) < 40:
            await asyncio.sleep(0.05)
            assert not any(c.done.is_set() for c in clients), "a game ended before the kill"
        killed_at = time.time()
        a.kill()
        await asyncio.wait_for(asyncio.gather(*tasks), 160)
        assert all(c.done.is_set() for c in clients)
        moved = [t.table_id for t in on_a + with_bot]
        for tid in moved + [t.table_id for t in on_b]:
            entries = await store.entries(tid)
            assert RealtimeTable.replay(tid, entries).status == "over"
            assert any(e.at > killed_at for e in entries)  # it went on after the kill
        checked = await check_realtime_frames(store, clients)
        after = [e for e in await store.entries(with_bot[0].table_id) if e.at > killed_at]
        bot_after = min(e.at for e in after if e.data.get("by") == "bot") - killed_at
        timeouts = [e for t in moved for e in await store.entries(t) if e.kind == "timeout"]
        cut = [c for c in clients if c.connects > 1]
        print(
            f"\nkill -9 of the clock of {len(moved)} Speed tables: the bot moved again "
            f"{bot_after:.2f} s after the kill (run by the other server); {len(cut)} clients "
            f"reconnected; {len(timeouts)} countdowns logged; {checked} frames and "
            f"{sum(len(c.acked) for c in clients)} accepted actions checked against the log"
        )
        assert bot_after < 10
        assert {c.table_id for c in cut} >= {t.table_id for t in on_a}  # Ann came back via B
        assert timeouts
    finally:
        a.stop()
        b.stop()
        await store.close()
