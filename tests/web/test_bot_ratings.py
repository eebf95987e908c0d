"""Bots people bring are rated in their own pool: by default a rated game against one moves
the bot's rating and not the person's; the server's ``bots_rate_people`` counts both."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardroom.store import EventStore
from cardroom.store.bots import BotStore
from cardroom.store.players import PlayerStore
from cardroom.web.ratings import (
    MU,
    SIGMA,
    RatingKeeper,
    display,
    leaderboard,
    mark_rated,
    player_ratings,
)
from tests.web.test_ratings import _finished, by_hand


@pytest.mark.parametrize("people_too", [False, True])
async def test_a_game_against_a_brought_bot_moves_the_bots_pool(
    tmp_path: Path, people_too: bool
) -> None:
    store = await EventStore.open(str(tmp_path / "r.db"))
    players = PlayerStore(store)
    try:
        ann, _ = await players.create("Ann", 1.0)
        bot = await BotStore(store).create(ann.id, "Mistral", 1.0)
        await _finished(
            store, "sp1", "speed", [("person", None), ("person", None)], {"winner": 1},
            ["0person"] * 5 + ["1person"] * 5,
        )  # fmt: skip
        await players.claim("sp1", 0, ann.id, 1.0)
        await players.claim("sp1", 1, bot.id, 1.0)
        await mark_rated(store, "sp1", "speed")
        keeper = RatingKeeper(store, bots_rate_people=people_too)
        assert await keeper.count_due() == 1
        lost, won = by_hand([(MU, SIGMA), (MU, SIGMA)], [2, 1])
        assert (await player_ratings(store, bot.id))["speed"]["rating"] == display(won[0])
        mine = await player_ratings(store, ann.id)
        if people_too:
            assert mine["speed"]["rating"] == display(lost[0])
        else:
            assert "speed" not in mine  # Ann's rating did not move
        board = await leaderboard(store, "speed", min_games=1)
        (listed,) = [e for e in board if e["name"] == "Mistral"]
        assert listed["program"] is True
        assert all(not e.get("program") for e in board if e["name"] == "Ann")
    finally:
        await store.close()
