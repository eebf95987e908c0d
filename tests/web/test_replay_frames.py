"""Replay frames of a hand-made round whose every chip was counted by hand."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.web.replay_frames import RecordError, replay_frames

CLUBS = [f"{r}C" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
HEARTS = [c.replace("C", "H") for c in CLUBS]
SPADES = [c.replace("C", "S") for c in CLUBS]
DIAMONDS = [c.replace("C", "D") for c in CLUBS]


def sweep_record() -> dict[str, Any]:
    """Bob (seat 1, first to play) holds every club and A-9 of diamonds: he plays all 22 at once.

    Ann (seat 0) holds 10-K of diamonds, every heart and A-5 of spades; the talon is 6-K of
    spades (so QS, a board card, stays in the talon).
    """
    return {
        "game": "nain-jaune",
        "rules": {"starting_chips": 200},
        "players": ["Ann", "Bob"],
        "dealer": 0,
        "hands": [DIAMONDS[9:] + HEARTS + SPADES[:5], CLUBS + DIAMONDS[:9]],
        "talon": SPADES[5:],
        "moves": CLUBS + DIAMONDS[:9],
    }


def test_a_grand_opera_counted_by_hand() -> None:
    frames = replay_frames(sweep_record())
    assert frames["players"] == ["Ann", "Bob"]
    (rnd,) = frames["rounds"]
    steps = rnd["steps"]
    assert len(steps) == 1 + 22  # the deal, then one step per card (nobody ever passes)
    first = steps[0]
    # stakes 1+2+3+4+5 from each: boxes 10D 2, JC 4, QS 6, KH 8, 7D 10; 185 chips each
    assert [b["chips"] for b in first["board"]] == [2, 4, 6, 8, 10]
    assert first["chips"] == [185, 185]
    assert first["to_act"] == 1 and first["sequence"] == []
    assert first["text"] == ["Stakes: 15 chips each on the board"]
    assert sorted(first["hands"][1]) == sorted(CLUBS + DIAMONDS[:9])  # every hand face up
    after_jack = steps[11]
    assert after_jack["sequence"] == CLUBS[:11]
    assert after_jack["chips"] == [185, 189]  # "jack who takes": the JC box's 4 chips
    after_king = steps[13]
    assert after_king["sequence"] == []  # a king ends the sequence: Bob starts a new one
    assert any("new sequence" in t for t in after_king["text"])
    last = steps[-1]
    assert sorted(last["hands"][0]) == sorted(DIAMONDS[9:] + HEARTS + SPADES[:5])
    assert last["hands"][1] == []
    # Ann owes 10+10+10+10 (diamonds) + 85 (hearts) + 15 (spades) = 140 and pays it: 45 left;
    # she still holds 10D and KH: doubles those boxes, 2 and 8 chips: 35 left, boxes 4 and 16.
    # Bob: 185 + 4 (JC) + 10 (7D) + 140 + grand opéra sweep 4 + 6 + 16 = 26 -> 365.
    assert last["chips"] == [35, 365]
    assert [b["chips"] for b in last["board"]] == [0, 0, 0, 0, 0]
    assert last["to_act"] is None
    settlement = rnd["settlement"]
    assert settlement["winner"] == 1 and settlement["grand_opera"] is True
    assert settlement["chips"] == [35, 365]
    assert [r["paid"] for r in settlement["rows"]] == [-165, 165]
    assert [r["cards_left"] for r in settlement["rows"]] == [22, 0]
    # the same columns as the table's end of round: Ann stakes 15, pays 140 for her cards and
    # doubles the 10D (2) and KH (8) boxes; Bob stakes 15, takes JC (4) and 7D (10) while
    # playing, receives the 140 and sweeps 4 + 6 + 16 = 26 with his Grand Opéra
    columns = ("stake", "taken", "cards", "doubled", "grand_opera", "total")
    assert [[r[k] for k in columns] for r in settlement["rows"]] == [
        [-15, 0, -140, -10, 0, -165],
        [-15, 14, 140, 0, 26, 165],
    ]


def test_a_round_cut_short_has_no_settlement() -> None:
    record = sweep_record()
    record["moves"] = CLUBS[:3]
    (rnd,) = replay_frames(record)["rounds"]
    assert rnd["settlement"] is None and not rnd["finished"]
    assert rnd["steps"][-1]["sequence"] == CLUBS[:3]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"moves": ["AC", "3C"]}, "move 2 (3C) by seat 1 is illegal"),
        ({"players": ["Ann"]}, "played by 2 to 8 players"),
        ({"hands": "nope"}, "hands must be a list"),
    ],
)
def test_a_bad_record_raises_the_engines_message(change: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError) as info:
        replay_frames({**sweep_record(), **change})
    assert words in str(info.value)
