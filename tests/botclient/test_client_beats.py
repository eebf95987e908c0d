"""The client keeps its seat while it has nothing to do: it pings as a page does, so a server
that closes a silent bot (away after 10 s of silence) never closes a live one that waits."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from cardroom.botclient import client, load_play, play_table
from cardroom.games.nain_jaune.rules import Rules
from cardroom.store.bots import BotStore
from cardroom.tables import SeatSpec, TableConfig
from cardroom.web.routes import bot_access
from tests.web.conftest import service_of, serving, settings_for


async def test_a_waiting_client_is_not_closed_for_silence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # both times shrunk by the same factor (2 s and 10 s on a server)
    monkeypatch.setattr(bot_access, "BOT_SILENT", 1.0)
    monkeypatch.setattr(client, "PING_EVERY", 0.2)
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        seats = (SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("person"))
        created = await service.create(
            TableConfig(rules=Rules.from_options(None, {}), seats=seats, seed=3)
        )
        table = created.table_id  # seat 2 never comes: the table waits, nobody acts
        bots = BotStore(service.store)
        bot = await bots.create(None, "Mistral", time.time())
        _id, token = await bots.new_token(bot.id, "", time.time())
        assert await bots.claim_seat(table, 1, bot.id, time.time()) == bot.id
        frames: list[dict[str, Any]] = []
        playing = asyncio.create_task(
            play_table(
                f"http://{address}", table, None, load_play("easy"),
                headers={"authorization": f"Bearer {token}"}, on_frame=frames.append,
            )
        )  # fmt: skip
        await asyncio.sleep(4.0)  # four times the silence the server allows here
        present = service.frame_for(table, None)["seats"][1]
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)
    errors = [f for f in frames if f["type"] == "error"]
    assert not errors, errors
    assert sum(f["type"] == "pong" for f in frames) >= 3  # its pings were answered
    assert present["name"] == "Mistral" and present["present"] is True
