"""Bots connected through the client play whole games on a real server (127.0.0.1): each seat
over the websocket a browser uses, the table's own log says who played what."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import numpy as np
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


def last_legal(observation: Any, action_mask: Any) -> int:
    """A research policy: the observation vector and the mask in, an action id out."""
    assert observation.ndim == 1 and action_mask.shape == (54,)
    return int(np.flatnonzero(action_mask)[-1])


async def test_a_research_policy_plays_a_whole_nain_jaune_game(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        rules = Rules().with_options({"end": "rounds:2"})
        seats = (SeatSpec("person", name="Ann"), SeatSpec("person"))
        made = await service_of(app).create(TableConfig(rules=rules, seats=seats, seed=9))
        url = f"http://{address}"
        policy = load_play("tests.botclient.test_connect:last_legal")
        assert policy.kind == "policy"
        outcomes = await asyncio.wait_for(
            asyncio.gather(
                play_table(url, made.table_id, made.creator_token, load_play("hard"), seed=1),
                play_table(url, made.table_id, made.invites[1], policy, name="Agent"),
            ),
            240,
        )
    assert all(o.over for o in outcomes)
    last = outcomes[1].last
    assert last is not None and last["game_result"]["rounds"] == 2
    assert not any(s["bot_playing"] for s in last["seats"])


def test_a_policys_illegal_choice_plays_the_first_legal_action() -> None:
    from cardroom.botclient import PolicyBot
    from cardroom.games.nain_jaune.research import encoding
    from cardroom.games.nain_jaune.research.table import deal_round
    from cardroom.games.nain_jaune.view import view_of

    rnd = deal_round(Rules(), 3, 0, random.Random(4))
    view = view_of(rnd, rnd.to_act)
    illegal = next(i for i in range(54) if not encoding.action_mask(view)[i])
    bot = PolicyBot(lambda obs, mask: illegal, encoding)
    assert bot.act(view, random.Random(0)) == view.legal_actions[0]
    good = PolicyBot(last_legal, encoding)
    assert good.act(view, random.Random(0)) == encoding.action_from_id(
        int(np.flatnonzero(encoding.action_mask(view))[-1])
    )
