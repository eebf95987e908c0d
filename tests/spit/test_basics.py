"""The start, plays, stale actions, turning up, moving: hand-made deals worked out by hand."""

from __future__ import annotations

import pytest

from cardroom.cards import parse_card, parse_cards
from cardroom.games.realtime_engine import RealtimeIllegal
from cardroom.games.spit import CALL_SPIT, Move, Play, SpitGame, SpitRules, TurnUp, lay_out
from cardroom.games.spit.engine import Called, Played, Spat, TurnedUp
from tests.spit.deals import game, make_deal

C = parse_card

# Seat 0 shows 2C 9D JH 4S KC and spits 7D first; seat 1 shows 3D 9H QS 6H AH and spits 8S.
TOPS0 = ["2C", "AC 9D", "JH", "4S", "KC"]
TOPS1 = ["3D", "9H", "QS", "6H", "AH"]


def started() -> SpitGame:
    g = game(TOPS0, "7D", TOPS1, "8S")
    g.apply(0, CALL_SPIT)
    g.apply(1, CALL_SPIT)
    return g


def test_lay_out_deals_piles_of_one_to_five_then_the_spit_pile() -> None:
    cards = parse_cards("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD 2D 3D 4D")
    stock, spit = lay_out(cards, 5)
    assert [[c.code for c in p] for p in stock] == [
        ["AC"],
        ["2C", "3C"],
        ["4C", "5C", "6C"],
        ["7C", "8C", "9C", "10C"],
        ["JC", "QC", "KC", "AD", "2D"],
    ]
    assert [c.code for c in spit] == ["4D", "3D"]  # 3D is turned first (top is last)
    stock, spit = lay_out(cards[:7], 5)  # a short packet: piles 1, 2, 3, then 1
    assert [len(p) for p in stock] == [1, 2, 3, 1, 0] and spit == []


def test_the_start_waits_for_both_calls_then_each_spits_on_his_own_pile() -> None:
    g = game(TOPS0, "7D", TOPS1, "8S")
    assert g.phase == "start" and g.stalemate
    assert g.top(0) is None and g.top(1) is None
    assert g.legal_actions(0) == [CALL_SPIT]
    with pytest.raises(RealtimeIllegal, match="before"):
        g.apply(0, Play(C("9D"), 1))
    assert g.apply(0, CALL_SPIT) == [Called(0)]
    assert g.called == (True, False) and g.legal_actions(0) == []
    with pytest.raises(RealtimeIllegal, match="already called"):
        g.apply(0, CALL_SPIT)
    events = g.apply(1, CALL_SPIT)
    assert events == [Called(1), Spat(0, C("7D"), 0), Spat(1, C("8S"), 1)]
    assert g.phase == "play" and not g.stalemate
    assert (g.top(0), g.top(1)) == (C("7D"), C("8S"))
    assert g.called == (False, False)
    assert len(g.spit_pile(0)) == 10 and len(g.spit_pile(1)) == 10


def test_the_countdown_resolves_the_start_without_calls() -> None:
    g = game(TOPS0, "7D", TOPS1, "8S")
    g.apply(1, CALL_SPIT)
    g.resolve_stalemate()
    assert (g.top(0), g.top(1)) == (C("7D"), C("8S")) and g.phase == "play"
    with pytest.raises(RealtimeIllegal, match="no stalemate"):
        g.resolve_stalemate()


def test_a_play_and_the_stale_play_that_loses_the_race() -> None:
    g = started()
    # Both see 8S on pile 1 and hold a nine; seat 0 gets there first.
    assert g.apply(0, Play(C("9D"), 1, C("8S"))) == [Played(0, C("9D"), 1, 1)]
    assert g.top(1) == C("9D") and len(g.centre(1)) == 2
    assert g.stock(0)[1] == (C("AC"),) and g.face_up(0)[1] is False
    before = g.snapshot()
    with pytest.raises(RealtimeIllegal) as err:
        g.apply(1, Play(C("9H"), 1, C("8S")))
    assert err.value.stale and "now shows 9D" in err.value.reason
    assert g.snapshot() == before
    # Without "seen" the engine checks the rank: a nine on a nine is no play.
    with pytest.raises(RealtimeIllegal, match="not one rank above or below 9D"):
        g.apply(1, Play(C("9H"), 1))
    assert g.snapshot() == before
    # Seat 1's 6H still goes on seat 0's 7D (suits ignored).
    g.apply(1, Play(C("6H"), 0, C("7D")))
    assert g.top(0) == C("6H")


def test_turn_up_reveals_the_card_under_a_played_one() -> None:
    g = started()
    g.apply(0, Play(C("9D"), 1, C("8S")))
    assert TurnUp(1) in g.legal_actions(0)
    with pytest.raises(RealtimeIllegal, match="already face up"):
        g.apply(0, TurnUp(0))
    with pytest.raises(RealtimeIllegal, match="no stock pile 5"):
        g.apply(0, TurnUp(5))
    assert g.apply(0, TurnUp(1)) == [TurnedUp(0, 1, C("AC"))]
    assert g.face_up(0)[1] is True
    with pytest.raises(RealtimeIllegal, match="not a face-up top card"):
        g.apply(1, Play(C("AC"), 0))  # seat 0's card


def test_move_into_an_empty_space_never_a_sixth_pile() -> None:
    # Seat 0's pile 0 is the lone 8H: it goes on 7D, leaving an empty space.
    g = game(["8H", "AC 9D", "JH", "4S", "KC"], "7D", TOPS1, "8S")
    g.apply(0, CALL_SPIT)
    g.apply(1, CALL_SPIT)
    g.apply(0, Play(C("8H"), 0, C("7D")))
    assert g.stock(0)[0] == ()
    with pytest.raises(RealtimeIllegal, match="only 5 stock spaces"):
        g.apply(0, Move(C("KC"), 5))
    with pytest.raises(RealtimeIllegal, match="stock pile 4 is not an empty space"):
        g.apply(0, Move(C("KC"), 3))
    assert Move(C("KC"), 0) in g.legal_actions(0)
    g.apply(0, Move(C("KC"), 0))
    assert g.stock(0)[0] == (C("KC"),) and g.face_up(0)[0]
    assert len(g.stock(0)[4]) == 4 and not g.face_up(0)[4]
    assert TurnUp(4) in g.legal_actions(0)


def test_rules_options_are_read_and_checked() -> None:
    r = SpitRules.from_options(
        {"piles": "4", "slap": "chooser", "alternate-colours": "yes", "countdown": "0"}
    )
    assert (r.piles, r.slap, r.alternate_colours, r.countdown) == (4, "chooser", True, 0.0)
    assert SpitRules.from_json(r.to_json()) == r
    from cardroom.games.spit import RulesError

    for bad in (
        {"piles": "6"},
        {"slap": "grab"},
        {"countdown": "-1"},
        {"colour": "x"},
        {"alternate_colours": "maybe"},
        {"countdown": "nan"},
    ):
        with pytest.raises(RulesError):
            SpitRules.from_options(bad)


def test_new_shuffles_with_the_seed() -> None:
    a, b = SpitGame.new(SpitRules(), 5), SpitGame.new(SpitRules(), 5)
    assert a.deal == b.deal and a.deal != SpitGame.new(SpitRules(), 6).deal
    assert make_deal(TOPS0, "7D", TOPS1, "8S")[2] == C("9D")
