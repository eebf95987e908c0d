"""The heartbeat: a ping is answered while an action waits for the database."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cardroom.games.nain_jaune.rules import Rules
from cardroom.tables import SeatSpec, TableConfig, TableService
from tests.web.conftest import Player, service_of, serving, settings_for


async def test_a_ping_is_answered_while_an_action_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = TableConfig(
        rules=Rules.from_options(None, {"end": "rounds:1"}),
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
        seed=3,
        takeover_after=0.0,
        bot_delay=0.0,
    )
    database = asyncio.Event()
    started = asyncio.Event()
    async with serving(settings_for(tmp_path)) as (app, address):
        created = await service_of(app).create(config)

        async def slow_start(_self: TableService, _table: str, _seat: int) -> None:
            started.set()
            await database.wait()  # the database does not answer yet

        monkeypatch.setattr(TableService, "start_now", slow_start)
        ann = await Player(address, created.table_id, created.creator_token).connect()
        await ann.wait_for(lambda f: f["type"] == "state")
        await ann.send({"type": "start", "id": 1})
        await asyncio.wait_for(started.wait(), 30)
        await ann.send({"type": "ping", "id": 2})
        pong = await ann.wait_for(lambda f: f["type"] == "pong", timeout=30)
        assert not database.is_set()  # answered while the start still waits
        database.set()
        await ann.close()
    assert pong["ref"] == 2
