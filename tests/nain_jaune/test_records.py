"""Round records: the contract's example shape, replay results and errors naming the problem."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cardroom.games.nain_jaune import Rules, round_record
from cardroom.games.nain_jaune.record import (
    RecordError,
    parse_game,
    parse_round,
    replay_game,
    replay_round,
    result_json,
)
from tests.nain_jaune.deals import make_deal
from tests.nain_jaune.test_scenarios import EIGHT, EIGHT_TALON


def eight_record() -> dict[str, Any]:
    hands, talon = make_deal(8, EIGHT, EIGHT_TALON)
    return {
        "game": "nain-jaune",
        "rules": {"preset": "count", "grand_opera": "one-turn"},
        "players": [f"P{i}" for i in range(8)],
        "chips": [60] * 8,
        "board": {"10D": 0, "JC": 0, "QS": 0, "KH": 0, "7D": 0},
        "dealer": 0,
        "hands": [[c.code for c in h] for h in hands],
        "talon": [c.code for c in talon],
        # seat 1 plays 2C 3C 4C, says without 5 (implied), seat 2 plays 5C..10C
        "moves": ["2C", "3c", "4♣", "5C", "6C", "7C", "8C", "9C", "TC"],
    }


def test_replay_of_a_hand_made_record() -> None:
    out = result_json(replay_round(parse_round(eight_record())))
    # card-count: six others pay 6 each (45 -> 39), seat 1 pays 3 for 9H 9S 9D (42): seat 2 has
    # 45 + 39 = 84. Seat 3 owes 40 to double 7D, pays his 39 (box 79); seat 6 doubles 10D
    # (8 -> 16, 31 left); seat 7 doubles JC (16 -> 32, 23 left). One-turn grand opéra:
    # 16 + 32 + 24 + 32 + 79 = 183 -> 267.
    assert out["winner"] == 2 and out["grand_opera"] is True
    assert out["chips"] == [39, 42, 267, 0, 39, 39, 31, 23]
    assert out["board"] == {"10D": 0, "JC": 0, "QS": 0, "KH": 0, "7D": 0}
    assert out["next_dealer"] == 1


def test_forgotten_move_object() -> None:
    data = eight_record()
    data["rules"] = {"preset": "classic", "grand_opera": "off", "announce": "manual"}
    hands = data["hands"]
    hands[2], hands[6] = (
        ["5C", "6C", "7C", "8C", "9C", "10D"],
        ["8D", "8H", "8S", "10C", "10H", "10S"],
    )
    data["moves"] = [*data["moves"][:-1], {"card": "10D", "announced": False}]
    out = result_json(replay_round(parse_round(data)))
    assert out["winner"] == 2 and out["board"]["10D"] > 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["hands"][0].__setitem__(0, "ZZ"), "unknown rank"),
        (lambda d: d["hands"][0].__setitem__(0, "2C"), "card dealt twice: 2C"),
        (lambda d: d["hands"][0].pop(), "seat 0 holds 5 cards"),
        (lambda d: d["moves"].__setitem__(1, "5C"), "move 2 \\(5C\\) by seat 2 is illegal"),
        (lambda d: d["moves"].__setitem__(3, "QS"), "move 4 \\(QS\\): this card is in the talon"),
        (lambda d: d["moves"].append("AC"), "move 10 \\(AC\\): the round is already over"),
        (lambda d: d["moves"].__setitem__(0, {"card": "2C", "announced": False}), "only a board"),
        (lambda d: d.__setitem__("players", ["A"]), "2 to 8 players"),
        (lambda d: d["rules"].__setitem__("payment", "gold"), "payment='gold' is not valid"),
        (lambda d: d["board"].pop("KH"), "no amount for KH"),
        (lambda d: d.__setitem__("dealer", 8), "dealer must be a seat"),
    ],
)
def test_malformed_records_name_the_problem(change: Any, message: str) -> None:
    data = copy.deepcopy(eight_record())
    change(data)
    with pytest.raises(RecordError, match=message):
        replay_round(parse_round(data))


def test_illegal_move_names_its_number() -> None:
    data = eight_record()
    data["moves"][2] = "5C"  # seat 1 holds 4C and must play it
    with pytest.raises(RecordError) as info:
        replay_round(parse_round(data))
    assert info.value.move == 3 and "seat 1) must play now: he holds a 4" in str(info.value)


def test_game_records_must_follow_on() -> None:
    import random

    from cardroom.games.nain_jaune import Game

    game = Game(Rules.from_options("classic", {"end": "rounds:2"}), ["A", "B", "C"])
    rng = random.Random(5)
    while game.result is None:
        rnd = game.start_round(rng)
        while not rnd.over:
            rnd.apply(rnd.legal_actions()[0])
        game.finish_round()
    records = json.loads(json.dumps(game.records))
    assert len(replay_game(parse_game(records))) == 2
    records[1]["chips"][0] += 1
    with pytest.raises(RecordError, match="round 2: A starts with"):
        replay_game(parse_game(records))


def test_round_record_round_trips() -> None:
    rnd = replay_round(parse_round(eight_record())).round
    again = round_record(rnd, [f"P{i}" for i in range(8)])
    assert result_json(replay_round(parse_round(again))) == result_json(
        replay_round(parse_round(eight_record()))
    )


def test_the_documented_example_gives_the_documented_result() -> None:
    from pathlib import Path

    path = Path(__file__).parents[2] / "docs" / "games" / "nain-jaune-example.json"
    out = result_json(replay_round(parse_round(json.loads(path.read_text()))))
    assert out["winner"] == 2 and out["grand_opera"] is True and out["next_dealer"] == 1
    assert out["chips"] == [21, 18, 405, 0, 18, 18, 0, 0]
