"""``cardroom replay`` of Nain Jaune records: JSON results worked out by hand, the readable
account, and every error path (exit 1, the problem on stderr, nothing on stdout)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cardroom.cli.main import cli
from cardroom.games.nain_jaune import Game, Rules

DOCS_EXAMPLE = Path(__file__).parents[2] / "docs" / "games" / "nain-jaune-example.json"
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def cascade_record() -> dict[str, Any]:
    """Eight players, Hal deals so Ann opens; classic rules.

    Ann A♣ 2♣ 3♣, "without 4"; Bob 4♦ 5♦ 6♦, "without 7" from Bob and Cid; Dee 7♦ (takes the
    Dwarf's 40) 8♣ 9♣ 10♦ (takes 8), "without jack"; Eve J♣ (takes 16), "without queen"; Fay Q♣,
    then "without king" from Fay, Gus, Hal and Ann; Bob K♣, and K♦ K♠ in a new sequence: out.
    """
    return {
        "game": "nain-jaune",
        "rules": {"preset": "classic"},
        "players": NAMES,
        "chips": [60] * 8,
        "board": {"10D": 0, "JC": 0, "QS": 0, "KH": 0, "7D": 0},
        "dealer": 7,
        "hands": [
            ["AC", "2C", "3C", "9D", "9H", "9S"],
            ["4D", "5D", "6D", "KC", "KD", "KS"],
            ["2H", "3H", "4H", "5H", "6H", "8H"],
            ["7D", "8C", "9C", "10D", "AD", "2D"],
            ["JC", "JD", "JH", "3D", "4C", "5C"],
            ["QC", "QD", "QH", "6C", "JS", "6S"],
            ["AH", "AS", "2S", "3S", "4S", "5S"],
            ["7C", "7H", "7S", "8D", "8S", "10C"],
        ],
        "talon": ["10H", "10S", "QS", "KH"],
        "moves": [
            "AC",
            "2C",
            "3C",
            "4D",
            "5D",
            "6D",
            "7D",
            "8C",
            "9C",
            "10D",
            "JC",
            "QC",
            "KC",
            "KD",
            "KS",
        ],
    }


# Worked out by hand. Stakes: 45 chips each, boxes 8 16 24 32 40. Dee takes 40 + 8 (93), Eve 16
# (61). Bob wins; points-ace-low: Cid 28 (17 left), Dee 3 (90), Eve 32 (29), Fay 42 (3), Gus 16
# (29), Hal owes 47 and pays his 45 (0), Ann 27 (18): Bob 45 + 193 = 238. Q♠ and K♥ are in the
# talon, nobody holds a board card; Bob's cards came in two turns: no grand opéra.
CASCADE_RESULT = {
    "winner": 1,
    "winner_name": "Bob",
    "grand_opera": False,
    "chips": [18, 238, 17, 90, 29, 3, 29, 0],
    "board": {"10D": 0, "JC": 0, "QS": 24, "KH": 32, "7D": 0},
    "next_dealer": 0,
    "short": [7],
    "finished": True,
}


def run(tmp_path: Path, data: Any, *args: str) -> Result:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return CliRunner().invoke(cli, ["replay", str(path), *args])


def test_json_result_of_a_hand_made_round(tmp_path: Path) -> None:
    res = run(tmp_path, cascade_record(), "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert {k: out[k] for k in CASCADE_RESULT} == CASCADE_RESULT
    assert out["players"] == NAMES and "rounds" not in out
    assert sum(out["chips"]) + sum(out["board"].values()) == 8 * 60


def test_json_result_of_the_docs_example(tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["replay", str(DOCS_EXAMPLE), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["winner"] == 2 and out["grand_opera"] is True and out["next_dealer"] == 1
    assert out["chips"] == [21, 18, 405, 0, 18, 18, 0, 0]
    assert out["board"] == {"10D": 0, "JC": 0, "QS": 0, "KH": 0, "7D": 0}


def test_whole_game_prints_the_last_round_and_every_round(tmp_path: Path) -> None:
    game = Game(Rules.from_options("classic", {"end": "rounds:3"}), ["A", "B", "C"])
    rng = random.Random(11)
    while game.result is None:
        rnd = game.start_round(rng)
        while not rnd.over:
            rnd.apply(rnd.legal_actions()[-1])
        game.finish_round()
    res = run(tmp_path, game.records, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert len(out["rounds"]) == 3
    assert out["chips"] == list(game.chips) == out["rounds"][-1]["chips"]
    assert out["board"] == dict(zip(["10D", "JC", "QS", "KH", "7D"], game.board, strict=True))
    last = {k: v for k, v in out.items() if k not in ("rounds", "end")}
    assert last == out["rounds"][-1]
    assert game.chips == [168, 0, 12]  # rounds:3 is over: A has the most chips and wins
    assert out["end"] == {
        "over": True,
        "reason": "3 rounds played",
        "winners": [0],
        "winner_names": ["A"],
        "players": ["A", "B", "C"],
        "chips": [168, 0, 12],
        "rounds_played": 3,
        "still_in": [0, 1, 2],
    }
    # every round starts where the one before ended
    for before, rec in zip(out["rounds"], game.records[1:], strict=False):
        assert before["chips"] == rec["chips"]


def test_whole_game_of_one_hand_made_round(tmp_path: Path) -> None:
    out = json.loads(run(tmp_path, [cascade_record()], "--json").stdout)
    assert [r["chips"] for r in out["rounds"]] == [CASCADE_RESULT["chips"]]
    assert out["winner"] == 1 and out["next_dealer"] == 0


def test_readable_account(tmp_path: Path) -> None:
    res = run(tmp_path, cascade_record())
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    expected_in_order = [
        "Stakes: 15 chips each on the board",
        "Ann plays A♣",
        'Ann: "without 4"',
        "Bob plays 4♦",
        'Bob: "without 7"',
        'Cid: "without 7"',
        "Dee plays 7♦",
        'Dee: "Yellow Dwarf who takes" (40 chips)',
        'Dee: "10 who takes" (8 chips)',
        'Dee: "without jack"',
        'Eve: "jack who takes" (16 chips)',
        'Eve: "without queen"',
        'Fay: "without king"',
        'Ann: "without king"',
        "Bob plays K♣",
        "Bob starts a new sequence (after a king)",
        "Bob plays K♠",
        "Bob has no card left and wins the round",
        "Settlement:",
        "  Cid pays 28 to Bob",
        "  Hal pays 45 of 47 owed (all they have) to Bob",
        "  Ann pays 27 to Bob",
        "Bob wins the round.",
        "Chips: Ann 18 · Bob 238 · Cid 17 · Dee 90 · Eve 29 · Fay 3 · Gus 29 · Hal 0",
        "Board: 10♦ 0 · J♣ 0 · Q♠ 24 · K♥ 32 · 7♦ 0",
        "Next dealer: Ann",
    ]
    positions = [lines.index(line) for line in expected_in_order]
    assert positions == sorted(positions)
    assert sum(" plays " in line for line in lines) == 15


def test_readable_account_of_the_docs_example_shows_doubling_and_opera() -> None:
    res = CliRunner().invoke(cli, ["replay", str(DOCS_EXAMPLE)])
    assert res.exit_code == 0
    assert "  Dee still holds 7♦: doubles its box, 18 of 40 (all they have)" in res.stdout
    assert "  Grand opéra! Cid sweeps the board: 138 chips" in res.stdout
    assert "Cid wins the round with a grand opéra." in res.stdout


def test_forgotten_announcement_is_told(tmp_path: Path) -> None:
    data = cascade_record()
    data["rules"] = {"preset": "classic", "announce": "manual"}
    data["moves"][9] = {"card": "10D", "announced": False}
    res = run(tmp_path, data)
    assert "Dee forgot to announce 10♦: the box stays" in res.stdout
    out = json.loads(run(tmp_path, data, "--json").stdout)
    # chips-stay: the 8 chips stay on 10♦, Dee ends with 82 instead of 90
    assert out["chips"][3] == 82 and out["board"]["10D"] == 8


def test_unfinished_round_replays(tmp_path: Path) -> None:
    data = cascade_record()
    data["moves"] = data["moves"][:7]
    out = json.loads(run(tmp_path, data, "--json").stdout)
    assert out["finished"] is False and out["winner"] is None
    assert out["chips"][3] == 45 + 40 and out["board"]["7D"] == 0
    text = run(tmp_path, data).stdout
    assert "The record stops here: the round was not finished" in text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["hands"][0].__setitem__(0, "ZC"), "unknown rank 'Z'"),
        (lambda d: d["hands"][0].__setitem__(0, "2C"), "card dealt twice: 2C"),
        (lambda d: d["hands"][1].pop(), "seat 1 holds 5 cards: with 8 players each gets 6"),
        (
            lambda d: d["moves"].__setitem__(1, "4D"),
            "move 2 (4D) by seat 1 is illegal: Ann (seat 0) must play now: he holds a 2",
        ),
        (lambda d: d["moves"].__setitem__(3, "QS"), "move 4 (QS): this card is in the talon"),
        (lambda d: d["moves"].__setitem__(4, "4D"), "move 5 (4D): this card was already played"),
        (lambda d: d["moves"].append("9D"), "move 16 (9D): the round is already over"),
        (lambda d: d["moves"].__setitem__(2, "XX"), "move 3: unknown rank 'X'"),
        (lambda d: d.__setitem__("players", ["Ann"]), "2 to 8 players"),
    ],
)
def test_malformed_records_exit_1_naming_the_problem(
    tmp_path: Path, change: Any, message: str
) -> None:
    data = copy.deepcopy(cascade_record())
    change(data)
    for args in ((), ("--json",)):
        res = run(tmp_path, data, *args)
        assert res.exit_code == 1
        assert message in res.stderr
        assert res.stdout == ""


def test_error_in_a_later_round_names_the_round(tmp_path: Path) -> None:
    first = cascade_record()
    first["rules"] = {"preset": "classic", "end": "rounds:3"}  # Hal's short payment ends broke
    second = copy.deepcopy(first)
    second["chips"] = [18, 238, 17, 90, 29, 3, 29, 1]
    res = run(tmp_path, [first, second], "--json")
    assert res.exit_code == 1 and res.stdout == ""
    assert "round 2: Hal starts with 1 chips but ended the round before with 0" in res.stderr


def test_not_json_and_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    res = CliRunner().invoke(cli, ["replay", str(path)])
    assert res.exit_code == 1 and "not valid JSON" in res.stderr and res.stdout == ""
    res = run(tmp_path, 42)
    assert res.exit_code == 1 and "not a cardroom record" in res.stderr and res.stdout == ""


@pytest.mark.parametrize(("end", "words"), [("last-standing", "drops out"), ("broke", "ends")])
def test_a_single_round_listing_a_player_who_cannot_stake_is_refused(
    tmp_path: Path, end: str, words: str
) -> None:
    """Issue 34, item 8: under last-standing a player with 0 chips has dropped out (under
    broke the game has ended), so a round alone that lists him is refused like a game's."""
    record = cascade_record()
    record["rules"] = {"preset": "classic", "end": end}
    record["chips"] = [60] * 7 + [0]
    res = run(tmp_path, record, "--json")
    assert res.exit_code == 1
    assert "Hal has 0 chips and cannot stake 15" in res.output and words in res.output
    record["chips"] = [60] * 7 + [15]  # just enough: he stakes and plays
    assert run(tmp_path, record, "--json").exit_code == 0
