"""A process cut from PostgreSQL without a word (packets dropped, no reset) notices within
seconds: every statement has a deadline, and the process gives up its tables itself (they run
on another process as soon as the server frees their leases) and tells its connections.

The cut is a relay that goes silent (``tests/blackhole.py``): the process's side sees exactly
what a pulled cable shows. The server's side of a relay stays healthy (its kernel answers the
server's keepalives), so where the server frees the leases this test ends the backends as the
server's keepalives would (``store/pgconn.py``: ``SERVER_GIVES_UP``); the test bed
(``tools/testbed.py``) cuts real links."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from cardroom.store import EventStore, StoreUnavailable, pgconn
from cardroom.store.events import _guard
from cardroom.tables import TableService
from cardroom.tables.cluster import asyncpg_dsn
from tests.blackhole import Blackhole
from tests.pgcluster import PgCluster
from tests.tables.helpers import bot_config

asyncpg = pytest.importorskip("asyncpg", reason="asyncpg is not installed")


async def within(seconds: float, condition: object) -> float:
    """Seconds until ``condition()`` held (fails past ``seconds``)."""
    start = time.monotonic()
    while not condition():  # type: ignore[operator]
        if time.monotonic() - start > seconds:
            raise AssertionError(f"not within {seconds} s")
        await asyncio.sleep(0.05)
    return time.monotonic() - start


@pytest.fixture
async def relay(pg_url: str, pg_cluster: PgCluster) -> AsyncIterator[tuple[Blackhole, str]]:
    hole = await Blackhole("127.0.0.1", pg_cluster.port).start()
    url = make_url(pg_url).set(port=hole.port).render_as_string(hide_password=False)
    yield hole, url
    hole.heal()
    await hole.close()


async def test_a_host_cut_silently_gives_up_its_tables_and_another_runs_them(
    pg_url: str, relay: tuple[Blackhole, str]
) -> None:
    hole, cut_url = relay
    store_a = await EventStore.open(cut_url)
    store_b = await EventStore.open(pg_url)
    a = TableService(store_a, lease_interval=0.25)
    b = TableService(store_b, lease_interval=0.25)
    await a.start()
    await b.start()
    try:
        config = replace(bot_config(7, end="rounds:40"), bot_delay=0.05)
        created = await a.create(config)
        table = created.table_id
        await a.start_now(table, 0)
        watcher = a.subscribe(table, None)
        assert table in a.owned
        await asyncio.sleep(0.5)
        hole.cut()
        cut_at = time.time()
        fenced = await within(15, lambda: a.fenced)
        assert table not in a.owned  # no authority any more: no bot moves, no timer
        assert watcher.ended_by == "unavailable"
        frames = []
        while (frame := watcher.queue.get_nowait()) is not None:
            frames.append(frame)
        # the server's keepalives end the cut process's backends (here: by hand)
        control = await asyncpg.connect(asyncpg_dsn(pg_url))
        try:
            await control.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE client_port = ANY($1::int[])",
                hole.upstream_ports,
            )
        finally:
            await control.close()
        await within(10, lambda: table in b.owned)
        log = await store_b.entries(table)
        last = log[-1].seq
        # its bots play again (on a busy machine B may drop and take the lease back once)
        def plays_on() -> bool:
            live = b.turns._live.get(table)
            return live is not None and live.table.seq > last + 2

        await within(10, plays_on)
    finally:
        await b.stop()
        await store_b.close()
        hole.heal()
        await a.stop()
        await store_a.close()
    assert fenced < a.fence_after + 2.0
    assert cut_at > 0


async def test_every_connection_has_keepalives_a_user_timeout_and_deadlines(
    pg_store: EventStore,
) -> None:
    async with pg_store.engine.connect() as conn:
        settings = {
            name: (await conn.execute(text(f"SELECT current_setting('{name}')"))).scalar()
            for name in (
                "tcp_keepalives_idle",
                "tcp_keepalives_interval",
                "tcp_keepalives_count",
                "tcp_user_timeout",
                "statement_timeout",
            )
        }
        raw = (await conn.get_raw_connection()).driver_connection
        assert raw is not None
    assert settings == {
        "tcp_keepalives_idle": "4",
        "tcp_keepalives_interval": "1",
        "tcp_keepalives_count": "2",
        "tcp_user_timeout": "6000",
        "statement_timeout": "5s",
    }
    lease = await pgconn.connect(asyncpg_dsn(pg_store.url))
    try:
        for each in (raw, lease):
            sock = each._transport.get_extra_info("socket")
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 4000
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 2
        assert raw._config.command_timeout == pgconn.COMMAND_TIMEOUT
        assert lease._config.command_timeout == pgconn.COMMAND_TIMEOUT
    finally:
        await lease.close()


async def test_a_statement_past_its_deadline_is_unavailable_and_its_connection_dropped(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pgconn, "COMMAND_TIMEOUT", 0.3)
    store = await EventStore.open(pg_url)
    try:
        store.engine.pool.dispose()
        with pytest.raises(StoreUnavailable):
            async with _guard(), store.engine.connect() as conn:
                await conn.execute(text("SELECT pg_sleep(2)"))
        for _ in range(3):  # the next requests get a sound connection
            async with _guard(), store.engine.connect() as conn:
                assert (await conn.execute(text("SELECT 1"))).scalar() == 1
    finally:
        await store.close()


async def test_the_pages_of_a_cut_host_are_told_and_closed_so_they_connect_elsewhere(
    relay: tuple[Blackhole, str], tmp_path: Path
) -> None:
    from tests.web.conftest import Player, service_of, serving, settings_for

    hole, cut_url = relay
    settings = replace(settings_for(tmp_path), db_url=cut_url)
    async with serving(settings) as (app, address):
        service = service_of(app)
        config = replace(bot_config(8, end="rounds:40"), bot_delay=0.05)
        created = await service.create(config)
        await service.start_now(created.table_id, 0)
        ann = await Player(address, created.table_id, None).connect()
        await ann.wait_for(lambda f: f["type"] == "state")
        hole.cut()
        assert ann.reader is not None
        await asyncio.wait_for(ann.reader, 15)
        late = await Player(address, created.table_id, None).connect()
        assert late.reader is not None
        await asyncio.wait_for(late.reader, 15)
        hole.heal()
    told = ann.frames[-1]
    assert told["type"] == "error" and told["code"] == "unavailable"
    assert ann.ws.close_code == 1013
    assert [f["code"] for f in late.frames] == ["unavailable"]
    assert late.ws.close_code == 1013
