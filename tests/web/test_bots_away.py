"""A bot that stops answering is a person who is away (docs/bots-api.md, "Away is away"): its
websocket, opened with its token, says nothing, so it is closed (told why, in words), and the
table does what it does for a person away: at Nain Jaune the table's bot plays the seat after
``takeover_after``; at Spit and Speed the game pauses, then the seat forfeits or is handed to a
bot, as the table says."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from cardroom.games.nain_jaune.rules import Rules
from cardroom.store.bots import BotStore
from cardroom.tables import SeatSpec, TableConfig
from cardroom.tables.realtime import RealtimeConfig
from cardroom.web.routes import bot_access
from tests.web.conftest import AutoPlayer, Player, service_of, serving, settings_for
from tests.web.test_realtime_web import RacePlayer

SILENT = 1.0


@pytest.fixture(autouse=True)
def quick_silence(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot is away after 1 s of silence here (10 s on a server)."""
    monkeypatch.setattr(bot_access, "BOT_SILENT", SILENT)


async def _silent_bot(service: Any, address: str, table: str) -> Player:
    """A bot (its own token) holding seat 1: it joins, then says nothing at all."""
    bots = BotStore(service.store)
    bot = await bots.create(None, "Mistral", time.time())
    _id, token = await bots.new_token(bot.id, "", time.time())
    assert await bots.claim_seat(table, 1, bot.id, time.time()) == bot.id
    program = Player(address, table, None, {"authorization": f"Bearer {token}"})
    await program.connect()
    await program.send({"type": "join", "name": "ignored"})
    return program


async def _told_and_closed(program: Player) -> None:
    told = await program.wait_for(lambda f: f["type"] == "error", timeout=30)
    assert told["id"] == "bot.silent" and "said nothing" in told["message"], told
    assert program.reader is not None
    await program.reader  # the server closed it
    assert program.ws.close_code == 1001


async def test_a_silent_bot_at_nain_jaune_is_played_by_the_tables_bot(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        seats = (SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("bot", "easy"))
        rules = Rules.from_options(None, {"end": "rounds:1"})
        created = await service.create(
            TableConfig(rules=rules, seats=seats, seed=7, takeover_after=0.5, bot_delay=0.0)
        )
        table = created.table_id
        ann = await AutoPlayer(address, table, created.creator_token).connect()
        program = await _silent_bot(service, address, table)
        await ann.wait_for(lambda f: f["type"] == "state" and f["status"] != "waiting")
        await _told_and_closed(program)
        taken = await ann.wait_for(
            lambda f: f["type"] == "state" and f["seats"][1].get("bot_playing"), timeout=30
        )
        assert taken["seats"][1]["name"] == "Mistral" and taken["seats"][1]["program"] is True
        kinds = [e.get("kind") for f in ann.frames if f["type"] == "state" for e in f["events"]]
        assert "takeover" in kinds
        await ann.close()


async def test_a_silent_bot_at_speed_pauses_the_game_then_forfeits(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        config = RealtimeConfig(
            game="speed", options={"countdown": "0.3"},
            seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
            seed=11, away_limit=1.0, away_then="forfeit",
        )  # fmt: skip
        created = await service.create_realtime(config)
        table = created.table_id
        ann = RacePlayer(address, table, created.creator_token, seed=1)
        await ann.connect()
        program = await _silent_bot(service, address, table)
        await _told_and_closed(program)
        paused = await ann.wait_for(lambda f: f["type"] == "state" and f.get("paused"))
        assert 1 in paused["paused"]["seats"]
        end = await ann.wait_for(
            lambda f: f["type"] == "state" and f["status"] == "over", timeout=30
        )
        assert end["forfeit"] == 1  # the bot, away past the limit, lost
        await ann.close()


async def test_a_silent_bot_at_spit_is_handed_to_the_tables_bot(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        config = RealtimeConfig(
            game="spit", options={"countdown": "0.3"},
            seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
            seed=12, away_limit=1.0, away_then="bot",
        )  # fmt: skip
        created = await service.create_realtime(config)
        table = created.table_id
        ann = RacePlayer(address, table, created.creator_token, seed=2)
        await ann.connect()
        program = await _silent_bot(service, address, table)
        await _told_and_closed(program)
        taken = await ann.wait_for(
            lambda f: f["type"] == "state" and f["seats"][1].get("taken"), timeout=30
        )
        assert taken["seats"][1]["program"] is True
        await ann.close()


async def test_a_bot_that_pings_but_never_acts_on_its_turn_is_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alive but stuck (its program pings from a task of its own while its decision never
    comes): at Nain Jaune its turn waits ``BOT_TURN`` seconds, then it is away and the table's
    bot plays its seat."""
    monkeypatch.setattr(bot_access, "BOT_TURN", 1.0)
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        seats = (SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("bot", "easy"))
        rules = Rules.from_options(None, {"end": "rounds:1"})
        created = await service.create(
            TableConfig(rules=rules, seats=seats, seed=7, takeover_after=0.5, bot_delay=0.0)
        )
        table = created.table_id
        ann = await AutoPlayer(address, table, created.creator_token).connect()
        program = await _silent_bot(service, address, table)

        async def beat() -> None:
            while True:
                await asyncio.sleep(0.2)
                await program.send({"type": "ping"})

        beating = asyncio.create_task(beat())
        try:
            told = await program.wait_for(lambda f: f["type"] == "error", timeout=60)
        finally:
            beating.cancel()
            await asyncio.gather(beating, return_exceptions=True)
        assert told["id"] == "bot.slow" and "did not act" in told["message"], told
        asked = [
            f for f in program.frames
            if f["type"] == "state" and f["status"] == "playing" and (f["round"] or {}).get("legal")
        ]  # fmt: skip
        assert asked  # it was asked to act, and said nothing but pings
        assert sum(f["type"] == "pong" for f in program.frames) >= 3
        taken = await ann.wait_for(
            lambda f: f["type"] == "state" and f["seats"][1].get("bot_playing"), timeout=30
        )
        assert taken["seats"][1]["name"] == "Mistral"
        await ann.close()
