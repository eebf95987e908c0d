"""A Spit or Speed seat's frame, as the websocket carries it, read back into the view the
real-time bots decide on: at every step of whole games it equals the engine's view of that seat
(Speed: but ``rebuilds``, which the frame does not carry), and a bot's action goes back as an
``act`` message the table reads as the same action."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.registry import game as game_entry
from cardroom.tables.realtime import RealtimeTable
from cardroom.web.protocol import Act, decode_message
from cardroom.web.routes.ws import render_frame
from tests.realtime.test_table import bots_game


def wire(table: RealtimeTable, seat: int) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(render_frame(table.frame(seat), "en"))
    return loaded


@settings(max_examples=6, deadline=None)
@given(game=st.sampled_from(["spit", "speed"]), seed=st.integers(0, 10**6))
def test_every_frame_of_a_whole_game_reads_back_into_the_seats_view(game: str, seed: int) -> None:
    wire_module = game_entry(game).load("wire")
    log = bots_game(game, seed)
    table = RealtimeTable("t1")
    compared = acted = 0
    for entry in log.entries:
        table.apply(entry)
        if table.arbiter is None:
            for seat in (0, 1):
                assert wire_module.view_from_frame(wire(table, seat)) is None
            continue
        for seat in (0, 1):
            got = wire_module.view_from_frame(wire(table, seat))
            want = table.engine.view(seat)
            if game == "speed":
                want = dataclasses.replace(want, rebuilds=0)
            assert got == want
            compared += 1
            for action in got.legal_actions[:3]:
                message = wire_module.act_message(action, wire(table, seat))
                parsed = decode_message(json.dumps(message))
                assert isinstance(parsed, Act) and not isinstance(parsed.action, str)
                assert table.engine.action_from_json(parsed.action.to_json()) == action
                acted += 1
        assert (
            wire_module.view_from_frame(json.loads(render_frame(table.frame(None), "en"))) is None
        )
    assert compared > 20 and acted > 0


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_frame_before_the_start_has_no_view(game: str) -> None:
    wire_module = game_entry(game).load("wire")
    assert wire_module.view_from_frame({"type": "state", "you": 0, "table_view": None}) is None
