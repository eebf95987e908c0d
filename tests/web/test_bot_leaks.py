"""A bot's frames carry nothing its seat may not see: a program connected by its token plays
whole Spit and Speed games against a person's client, and every card its frames name is one
its seat saw face up, worked out from the log alone (as tests/web/test_realtime_web.py does for
people)."""

from __future__ import annotations

import time
from pathlib import Path

from cardroom.store.bots import BotStore
from cardroom.tables import SeatSpec
from cardroom.tables.realtime import RealtimeConfig
from tests.web.conftest import over, service_of, serving, settings_for
from tests.web.test_realtime_web import RacePlayer, named, seen_by_seq


async def test_a_bots_frames_name_only_cards_its_seat_saw(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        bots = BotStore(service.store)
        bot = await bots.create(None, "Mistral", time.time())
        _id, token = await bots.new_token(bot.id, "", time.time())
        played = []
        for n, game in enumerate(("speed", "spit")):
            config = RealtimeConfig(
                game=game,
                options={"countdown": "0.3"},
                seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
                seed=300 + n,
            )
            created = await service.create_realtime(config)
            table = created.table_id
            assert await bots.claim_seat(table, 1, bot.id, time.time()) == bot.id
            ann = RacePlayer(address, table, created.creator_token, seed=n)
            program = RacePlayer(address, table, None, seed=10 + n)
            program.headers = {"authorization": f"Bearer {token}"}
            await ann.connect()
            await program.connect()
            await program.send({"type": "join", "name": "ignored"})
            await program.wait_for(over, timeout=90)
            await ann.close()
            await program.close()
            played.append((table, program))
        checked = 0
        for table, program in played:
            entries = await service.store.entries(table)
            allowed = seen_by_seq(entries, 1)
            states = [f for f in program.frames if f["type"] == "state"]
            assert states and all(f["you"] == 1 for f in states)
            assert states[-1]["seats"][1]["name"] == "Mistral"
            for frame in states:
                leaked = named(frame) - allowed[frame["seq"]]
                assert not leaked, (table, frame["seq"], sorted(c.code for c in leaked))
                checked += 1
        assert checked > 20
