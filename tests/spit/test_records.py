"""The record header and the JSON form of actions: round trips and clear errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardroom.cards import parse_card
from cardroom.games.spit import (
    CALL_SPIT,
    Action,
    Choose,
    Move,
    Play,
    RecordError,
    Slap,
    SpitGame,
    SpitRules,
    TurnUp,
    action_from_json,
    action_to_json,
    game_from_header,
    record_header,
)

C = parse_card


def test_actions_round_trip_through_json() -> None:
    actions: list[Action] = [
        Play(C("7D"), 0, C("8C")),
        Play(C("10S"), 1, None),
        TurnUp(4),
        Move(C("QH"), 2),
        CALL_SPIT,
        Slap(1),
        Choose(0),
    ]
    for a in actions:
        assert action_from_json(json.loads(json.dumps(action_to_json(a)))) == a
    assert action_to_json(actions[0]) == {"type": "play", "card": "7D", "pile": 0, "seen": "8C"}
    assert action_to_json(CALL_SPIT) == {"type": "spit"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"type": "jump"}, "unknown Spit action type 'jump'"),
        ({"type": "play", "card": "7D"}, "needs 'pile'"),
        ({"type": "play", "card": "7X", "pile": 0}, "play action, card"),
        ({"type": "play", "card": "7D", "pile": 2}, "pile must be a whole number from 0 to 1"),
        ({"type": "play", "card": "7D", "pile": True}, "pile must be"),
        ({"type": "turn-up", "stock": 5}, "stock must be a whole number from 0 to 4"),
        ({"type": "spit", "pile": 0}, "has no 'pile'"),
        ({"type": "move", "card": "7D"}, "needs 'to_stock'"),
    ],
)
def test_bad_actions_are_refused_with_a_reason(data: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        action_from_json(data)


def header() -> dict[str, Any]:
    g = SpitGame.new(SpitRules(piles=4, slap="chooser"), seed=11)
    return record_header(g, ["Ann", "Bob"])


def test_the_header_round_trips_and_ignores_the_arbiter_keys() -> None:
    h = header()
    assert set(h) == {"game", "version", "rules", "players", "seed", "deal"}
    assert h["version"] == {"format": 2, "rules": 2}
    assert h["rules"] == {
        "piles": 4,
        "slap": "chooser",
        "alternate_colours": False,
        "countdown": 3.0,
    }
    g = game_from_header(json.loads(json.dumps(h | {"start": 0.0, "actions": []})))
    assert g.rules == SpitRules(piles=4, slap="chooser") and g.seed == 11
    assert g.snapshot() == SpitGame.new(SpitRules(piles=4, slap="chooser"), seed=11).snapshot()
    with pytest.raises(RecordError, match="two players"):
        record_header(g, ["Ann"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "speed"}, "not 'spit'"),
        ({"deal": ["AC"] * 52}, "is already in the deal"),
        ({"deal": ["AC"]}, "must hold all 52 cards once"),
        ({"deal": ["ZZ"] + ["AC"] * 51}, "deal card 1: "),
        ({"rules": {"piles": 3}}, "rules: piles=3"),
        ({"rules": {"speed": 1}}, "unknown Spit option"),
        ({"players": ["Ann"]}, "two names"),
        ({"seed": "x"}, "seed must be a whole number"),
    ],
)
def test_bad_headers_name_the_problem(change: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        game_from_header(header() | change)
    h = header()
    del h["deal"]
    with pytest.raises(RecordError, match="no 'deal'"):
        game_from_header(h)
