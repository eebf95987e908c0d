"""Bots connected through the client play whole games on a real server (127.0.0.1): each seat
over the websocket a browser uses, the table's own log says who played what."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cardroom.botclient import ClientError, load_play, play_table
from cardroom.games.nain_jaune import Rules
from cardroom.tables import SeatSpec, TableConfig
from cardroom.tables.realtime import RealtimeConfig
from tests.web.conftest import service_of, serving, settings_for

FAST = "reaction:min=0.05,max=0.1"


async def test_two_cardroom_bots_play_a_whole_nain_jaune_game(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        rules = Rules().with_options({"end": "rounds:2"})
        seats = (SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("person"))
        made = await service_of(app).create(TableConfig(rules=rules, seats=seats, seed=5))
        url = f"http://{address}"
        tokens = [made.creator_token, made.invites[1], made.invites[2]]
        plays = [load_play("expert"), load_play("easy"), load_play("random")]
        outcomes = await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_table(url, made.table_id, tok, play, name=f"B{i}", seed=i)
                    for i, (tok, play) in enumerate(zip(tokens, plays, strict=True))
                )
            ),
            240,
        )
    assert all(o.over for o in outcomes)
    last = outcomes[0].last
    assert last is not None and last["status"] == "over"
    assert last["game_result"]["rounds"] == 2
    # every seat was played by its client: nobody was away, no bot took a seat over
    assert [s["name"] for s in last["seats"]] == ["Ann", "B1", "B2"]
    assert not any(s["bot_playing"] for s in last["seats"])


@pytest.mark.parametrize("game", ["spit", "speed"])
async def test_two_reaction_bots_play_a_whole_realtime_game(tmp_path: Path, game: str) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        config = RealtimeConfig(
            game=game, options={"countdown": "1"}, seed=11,
            seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
        )  # fmt: skip
        made = await service_of(app).create_realtime(config)
        url = f"http://{address}"
        outcomes = await asyncio.wait_for(
            asyncio.gather(
                play_table(url, made.table_id, made.creator_token, load_play(FAST), seed=1),
                play_table(url, made.table_id, made.invites[1], load_play(FAST), seed=2),
            ),
            150,
        )
    assert all(o.over for o in outcomes)
    last = outcomes[0].last
    assert last is not None and last["status"] == "over" and last["winner"] in (0, 1)
    assert [s["name"] for s in last["seats"]] == ["Ann", "Bot"]
    assert not any(s["taken"] or s["away"] for s in last["seats"])


async def test_a_table_that_does_not_exist_is_said_at_once(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (_app, address):
        with pytest.raises(ClientError, match="no such table"):
            await asyncio.wait_for(
                play_table(f"http://{address}", "nosuchtab", "x", load_play("easy")), 30
            )
