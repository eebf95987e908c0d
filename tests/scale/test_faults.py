"""Faults on real ``cardroom serve`` processes on PostgreSQL: kill -9, the database restarting.

Scripted people play whole games over real websockets while a server is killed (one of two,
or the only one) or the database restarts. Afterwards every table is over, its log is
gap-free, and every state frame any client was ever sent agrees with the final log at its seq:
an action that was told to anyone was stored (nothing accepted was lost).
"""

from __future__ import annotations

import asyncio
import time

import httpx

from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.store import EventStore
from tests.pgcluster import PgCluster
from tests.scale.clients import SeatClient, ServerProcess, check_frames_against_log, create_table

TABLES = 6


async def make_tables(
    address: str, count: int, rounds: int = 2
) -> list[tuple[str, dict[int, str]]]:
    async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
        made = [await create_table(http, rounds=rounds) for _ in range(count)]
    return [(t.table_id, t.tokens) for t in made]


def players(tables: list[tuple[str, dict[int, str]]], orders: list[list[str]]) -> list[SeatClient]:
    """Two people per table; the person at seat g goes first to server ``orders[g]``."""
    return [
        SeatClient(orders[seat % len(orders)], tid, token, think=0.01)
        for tid, tokens in tables
        for seat, token in sorted(tokens.items())
    ]


async def total_actions(clients: list[SeatClient], at_least: int) -> None:
    while sum(c.actions for c in clients) < at_least:
        await asyncio.sleep(0.05)


async def first_entry_after(
    store: EventStore, table_ids: list[str], moment: float, bots_only: bool = False
) -> float:
    """Seconds from ``moment`` to the first entry (or bot action) of the tables after it."""
    times = [
        e.at
        for tid in table_ids
        for e in await store.entries(tid)
        if e.at > moment and (not bots_only or e.data.get("by") == "bot")
    ]
    return min(times) - moment


async def finish(
    store: EventStore, clients: list[SeatClient], tasks: list[asyncio.Task[None]]
) -> int:
    await asyncio.wait_for(asyncio.gather(*tasks), 180)
    assert all(c.done.is_set() for c in clients)
    for tid in {c.table_id for c in clients}:
        assert NainJauneTable.replay(tid, await store.entries(tid)).status == "over"
    return await check_frames_against_log(store, clients)


async def test_kill_9_of_one_of_two_servers_loses_nothing(pg_url: str) -> None:
    a, b = ServerProcess(pg_url, bot_delay=0.02), ServerProcess(pg_url, bot_delay=0.02)
    store = await EventStore.open(pg_url)
    try:
        a.start()
        b.start()
        on_a = await make_tables(a.address, TABLES)  # A holds these tables' leases
        on_b = await make_tables(b.address, 2)
        # person 0 of each table talks to A, person 1 to B (then to the other when cut off)
        clients = players(on_a + on_b, [[a.address, b.address], [b.address, a.address]])
        tasks = [asyncio.create_task(c.run(deadline=170)) for c in clients]
        await asyncio.wait_for(total_actions(clients, 40), 60)
        killed_at = time.time()
        a.kill()
        checked = await finish(store, clients, tasks)
        moved = await first_entry_after(store, [t for t, _ in on_a], killed_at)
        bots = await first_entry_after(store, [t for t, _ in on_a], killed_at, bots_only=True)
        cut = [c for c in clients if c.connects > 1]
        print(
            f"\nkill -9 one of two: {len(on_a)} tables moved to the other server, first entry "
            f"{moved:.2f} s and first bot move {bots:.2f} s after the kill; {len(cut)} clients "
            f"reconnected; {checked} frames checked against the log, none lost"
        )
        assert moved < 10 and bots < 10
        assert len(cut) >= len(on_a)  # every person who was on A came back through B
    finally:
        a.stop()
        b.stop()
        await store.close()


async def test_kill_9_of_the_only_server_then_restart_loses_nothing(pg_url: str) -> None:
    server = ServerProcess(pg_url, bot_delay=0.02)
    store = await EventStore.open(pg_url)
    try:
        server.start()
        tables = await make_tables(server.address, TABLES)
        clients = players(tables, [[server.address]])
        tasks = [asyncio.create_task(c.run(deadline=170)) for c in clients]
        await asyncio.wait_for(total_actions(clients, 40), 60)
        killed_at = time.time()
        server.kill()
        await asyncio.sleep(1.0)
        server.start()  # same port: the clients find it again by themselves
        checked = await finish(store, clients, tasks)
        back = await first_entry_after(store, [t for t, _ in tables], killed_at)
        print(
            f"\nkill -9 of the only server: restarted, first entry {back:.2f} s after the kill; "
            f"{checked} frames checked against the log, none lost"
        )
        assert all(c.connects >= 2 for c in clients)
    finally:
        server.stop()
        await store.close()


async def test_kill_9_of_a_worker_of_serve_workers_2(pg_url: str) -> None:
    server = ServerProcess(pg_url, workers=2, bot_delay=0.02)
    store = await EventStore.open(pg_url)
    try:
        server.start()
        tables = await make_tables(server.address, TABLES)
        clients = players(tables, [[server.address]])
        tasks = [asyncio.create_task(c.run(deadline=170)) for c in clients]
        await asyncio.wait_for(total_actions(clients, 40), 60)
        workers = server.children()
        assert len(workers) == 2
        killed_at = time.time()
        import os
        import signal

        os.kill(workers[0], signal.SIGKILL)
        checked = await finish(store, clients, tasks)
        after = await first_entry_after(store, [t for t, _ in tables], killed_at)
        replaced = server.children()
        print(
            f"\nkill -9 of one of 2 workers: first entry {after:.2f} s after; worker replaced "
            f"({workers} -> {replaced}); {checked} frames checked against the log"
        )
        assert len(replaced) == 2 and workers[0] not in replaced
    finally:
        server.stop()
        await store.close()


async def test_the_database_restarting_under_a_running_server(
    pg_cluster: PgCluster, pg_url: str
) -> None:
    server = ServerProcess(pg_url, bot_delay=0.02)
    store = await EventStore.open(pg_url)
    try:
        server.start()
        assert server.proc is not None
        pid = server.proc.pid
        tables = await make_tables(server.address, TABLES)
        clients = players(tables, [[server.address]])
        tasks = [asyncio.create_task(c.run(deadline=170)) for c in clients]
        await asyncio.wait_for(total_actions(clients, 40), 60)
        await store.close()
        pg_cluster.stop()
        async with httpx.AsyncClient(base_url=f"http://{server.address}", timeout=10) as http:
            down = await http.get("/healthz")
            await asyncio.sleep(2.0)
            pg_cluster.start()
            store = await EventStore.open(pg_url)
            checked = await finish(store, clients, tasks)
            up = await http.get("/healthz")
        codes = {e["code"] for c in clients for e in c.errors}
        messages = {e["message"] for c in clients for e in c.errors if e["code"] == "unavailable"}
        print(
            f"\ndatabase restarted: /healthz {down.status_code} {down.json()} while down, then "
            f"{up.status_code}; client errors {sorted(codes)}; games finished without "
            f"restarting cardroom; {checked} frames checked"
        )
        assert down.status_code == 503 and down.json()["error"] == "unavailable"
        assert up.status_code == 200
        assert codes <= {"unavailable", "stale"}
        assert all("try again" in m for m in messages)
        assert server.proc.poll() is None and server.proc.pid == pid
    finally:
        pg_cluster.start_if_stopped()
        server.stop()
        await store.close()
