"""The Spit and Speed analysis: reaction times, plays missed and refused, calls, slaps."""

from __future__ import annotations

import random

import pytest

from cardroom.analysis.realtime import AnalysisError, analyse
from cardroom.arbiter import Arbiter, VirtualClock
from cardroom.games.registry import new_engine
from cardroom.games.speed import CALL, Play
from cardroom.sim.realtime import new_table, run_table
from tests.speed.deals import C, new_game


def test_reaction_times_and_a_missed_play_in_a_hand_made_speed_game() -> None:
    # the middle turns 5♣ and 9♦; Ann holds 6♥ (on 5♣) and kings, with 7♠ next in her draw
    # pile; Bob holds 4♠ (on 5♣) and queens and a jack, none of which fits 5♣, 6♥, 7♠ or 9♦
    game = new_game(middle="5C 9D", draw0="6H KS KH KD KC 7S", draw1="4S QS QH QD JS")
    arbiter = Arbiter(game, VirtualClock(), ["Ann", "Bob"])
    arbiter.submit(0, CALL, 1.0)
    arbiter.submit(1, CALL, 1.25)  # both called: the middle cards are turned at 1.25
    assert {p.card for p in game.legal_actions(1) if isinstance(p, Play)} == {C("4S")}
    # Bob aims 4♠ at 5♣ but Ann is first with 6♥ (0.75 s): Bob's play is refused as stale
    assert arbiter.submit(0, Play(C("6H"), 0, C("5C")), 2.0).accepted
    assert not arbiter.submit(1, Play(C("4S"), 0, C("5C")), 2.1).accepted
    # 7♠ came into Ann's hand with the play at 2.0 and fits 6♥: played 1.5 s later
    assert arbiter.submit(0, Play(C("7S"), 0, C("6H")), 3.5).accepted
    result = analyse(arbiter.record()).to_json()
    ann, bob = result["players"]
    assert result["game"] == "speed" and result["games"] == 1
    assert ann["name"] == "Ann" and ann["plays"] == 2
    assert ann["median"] == pytest.approx(1.125) and ann["fastest"] == pytest.approx(0.75)
    assert [t for t, _ in ann["timeline"]] == [2.0, 3.5]
    assert ann["missed"] == 0 and ann["refused"] == 0 and ann["calls"] == 1
    assert bob["plays"] == 0 and bob["median"] is None
    assert bob["missed"] == 1 and bob["refused"] == 1 and bob["calls"] == 1
    assert sum(ann["histogram"]) == 2 and ann["histogram"][3] == 1  # 0.75 s: the 4th bar
    assert result["duration"] == pytest.approx(3.5)


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_simulated_bots_react_within_their_levels_ranges(game: str) -> None:
    """The easy bot reacts in 2-4 s and the expert in 0.3-0.6 s (docs/architecture.md): no
    play is measured faster than that, the expert is much faster, and it misses less."""
    engine = new_engine(game, {}, 3)
    table = new_table(engine, ["easy", "expert"], [random.Random(1), random.Random(2)], ["E", "X"])
    assert run_table(table)
    result = analyse(table.arbiter.record()).to_json()
    easy, expert = result["players"]
    assert easy["plays"] > 0 and expert["plays"] > 0
    assert easy["fastest"] >= 2.0 - 1e-9 and expert["fastest"] >= 0.3 - 1e-9
    assert expert["median"] < 1.0 < 2.0 <= easy["median"]
    assert expert["missed"] < easy["missed"]
    assert result["duration"] > 0
    if game == "spit":
        assert easy["slaps_won"] == expert["slaps_lost"]
        assert expert["slaps_won"] == easy["slaps_lost"]


def test_a_bad_record_is_refused() -> None:
    with pytest.raises(AnalysisError):
        analyse({"game": "speed", "actions": "nope"})
    with pytest.raises(AnalysisError):
        analyse([])
