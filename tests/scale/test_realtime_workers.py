"""kill -9 of one worker of ``cardroom serve --workers 2`` while it holds Speed tables.

Scripted people (and a bot) play Speed through the one port both workers share. Once each
worker holds the lease of some tables (found in PostgreSQL: the advisory lock of a table, the
backend holding it, that backend's client port, the worker owning that socket), the worker
holding the most is killed with SIGKILL. The other worker takes its tables over, the supervisor
starts a new worker, the people reconnect through the same port; every table ends, its log is
gap-free and replays, every frame sent agrees with the log, and every action a client was told
accepted is in the log.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import asyncpg

from cardroom.store import EventStore
from cardroom.tables.cluster import asyncpg_dsn
from cardroom.tables.realtime import RealtimeTable
from tests.scale.clients import ServerProcess, check_realtime_frames, socket_inodes
from tests.scale.test_realtime_faults import make, people


def local_ports(pid: int) -> set[int]:
    """The local TCP ports of the sockets process ``pid`` holds (Linux ``/proc``)."""
    inodes = socket_inodes(pid)
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


async def lease_holders(url: str, table_ids: list[str], workers: list[int]) -> dict[str, int]:
    """Table id -> the worker pid holding its lease (tables nobody holds are left out)."""
    ports = {w: local_ports(w) for w in workers}
    conn = await asyncpg.connect(asyncpg_dsn(url))
    try:
        rows = await conn.fetch(
            """
            SELECT t.id, a.client_port
            FROM unnest($1::text[]) AS t(id)
            JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted
             AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(t.id, 0)
            JOIN pg_stat_activity a ON a.pid = l.pid
            """,
            table_ids,
        )
    finally:
        await conn.close()
    out = {}
    for row in rows:
        for worker, held in ports.items():
            if row["client_port"] in held:
                out[row["id"]] = worker
    return out


async def test_kill_9_of_a_worker_holding_speed_tables_loses_nothing(pg_url: str) -> None:
    server = ServerProcess(pg_url, workers=2)
    store = await EventStore.open(pg_url)
    try:
        server.start()
        workers = server.children()
        assert len(workers) == 2
        tables = await make(server.address, 1, bot="expert")
        for _ in range(16):  # each POST goes to either worker: until both created tables
            tables += await make(server.address, 1)
            ids = [t.table_id for t in tables]
            holders = await lease_holders(pg_url, ids, workers)
            if len(tables) >= 6 and set(holders.values()) == set(workers):
                break
        clients = people(tables, [server.address], [server.address], think=0.3)
        tasks = [asyncio.create_task(c.run(deadline=150)) for c in clients]
        for _ in range(600):  # until the games run and both workers hold tables
            await asyncio.sleep(0.05)
            assert not any(c.done.is_set() for c in clients), "a game ended before the kill"
            if sum(c.actions for c in clients) < 30:
                continue
            holders = await lease_holders(pg_url, ids, workers)
            if len(holders) == len(ids) and set(holders.values()) == set(workers):
                break
        else:
            raise AssertionError(f"the workers never both held tables: {holders}")
        victim = max(workers, key=lambda w: sum(1 for h in holders.values() if h == w))
        held = sorted(t for t, w in holders.items() if w == victim)
        told_before = sum(len(c.acked) for c in clients)
        killed_at = time.time()
        os.kill(victim, signal.SIGKILL)
        await asyncio.wait_for(asyncio.gather(*tasks), 170)
        assert all(c.done.is_set() for c in clients)
        for tid in ids:
            entries = await store.entries(tid)
            assert RealtimeTable.replay(tid, entries).status == "over"
        for tid in held:  # the other worker (or the new one) went on with them
            assert any(e.at > killed_at for e in await store.entries(tid))
        checked = await check_realtime_frames(store, clients)
        replaced = server.children()
        assert len(replaced) == 2 and victim not in replaced
        print(
            f"\nkill -9 of a worker of --workers 2 holding {len(held)} of {len(ids)} Speed "
            f"tables: all ended; {told_before} actions acknowledged before the kill and "
            f"{sum(len(c.acked) for c in clients)} in all, each in the log; {checked} frames "
            f"checked against the log; worker replaced ({workers} -> {replaced})"
        )
    finally:
        server.stop()
        await store.close()
