"""The database failing under the websockets: a clear `unavailable` and 1013, no traceback."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.rules import Rules
from cardroom.store import PlayerStore, StoreUnavailable
from cardroom.tables import SeatSpec
from tests.web.conftest import Player, service_of, serving, settings_for


def config(seats: list[SeatSpec]) -> TableConfig:
    return TableConfig(
        rules=Rules.from_options(None, {"end": "rounds:1"}),
        seats=tuple(seats),
        seed=5,
        takeover_after=0.0,
        bot_delay=0.0,
    )


async def test_a_handshake_while_the_database_is_down_is_told_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        created = await service_of(app).create(
            config([SeatSpec("person", name="Ann"), SeatSpec("person")])
        )

        async def down(*_args: object) -> None:
            raise StoreUnavailable("the database is not answering (connection refused)")

        monkeypatch.setattr(PlayerStore, "claim_of", down)
        caplog.set_level(logging.ERROR)
        ann = await Player(address, created.table_id, created.creator_token).connect()
        assert ann.reader is not None
        await asyncio.wait_for(ann.reader, 30)
    assert [f["type"] for f in ann.frames] == ["error"]
    assert ann.frames[0]["code"] == "unavailable"
    assert "database is not answering" in ann.frames[0]["message"]
    assert ann.ws.close_code == 1013
    assert "Exception in ASGI application" not in caplog.text


async def test_an_action_whose_store_fails_unexpectedly_is_told_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database error the store did not map (here a rename on joining) is still told as
    ``unavailable``, not as a failure of the server."""
    async with serving(settings_for(tmp_path)) as (app, address):
        created = await service_of(app).create(
            config([SeatSpec("person", name="Ann"), SeatSpec("person")])
        )
        bob = await Player(address, created.table_id, created.invites[1]).connect()
        await bob.wait_for(lambda f: f["type"] == "state")

        async def down(*_args: object) -> None:
            raise StoreUnavailable("the database is not answering (timeout)")

        from cardroom.web import identity

        monkeypatch.setattr(identity, "current_player", down)
        await bob.send({"type": "join", "name": "Bob", "id": 7})
        refused = await bob.wait_for(lambda f: f["type"] == "error")
        await bob.close()
    assert refused["code"] == "unavailable" and refused["ref"] == 7
