"""Every stalemate path: both call, the countdown, one player spitting alone, both out of spit
cards (a new layout), and what counts as stuck. Outcomes worked out by hand."""

from __future__ import annotations

import pytest

from cardroom.cards import parse_card, parse_cards
from cardroom.games.realtime_engine import RealtimeIllegal
from cardroom.games.spit import CALL_SPIT, Move, Play, Slap, SpitGame, TurnUp
from cardroom.games.spit.engine import Called, NewLayout, Spat, Stalemate
from tests.spit.deals import game, position

C = parse_card

# Stock tops of ranks 2-6 never fit on the tens and queens spat first.
LOW0 = ["2C", "3C", "4C", "5C", "6C"]
LOW1 = ["2D", "3D", "4D", "5D", "6D"]


def test_both_call_spit_at_a_stalemate() -> None:
    g = game(LOW0, "10H 7H", LOW1, "10S 8S")
    g.apply(0, CALL_SPIT)
    events = g.apply(1, CALL_SPIT)
    assert events == [Called(1), Spat(0, C("10H"), 0), Spat(1, C("10S"), 1), Stalemate()]
    assert g.phase == "stalemate" and g.stalemate
    assert g.legal_actions(0) == [CALL_SPIT] and g.legal_actions(1) == [CALL_SPIT]
    before = g.snapshot()
    with pytest.raises(RealtimeIllegal, match="5C is not one rank above or below 10H"):
        g.apply(0, Play(C("5C"), 0, C("10H")))
    assert g.snapshot() == before
    assert g.apply(0, CALL_SPIT) == [Called(0)]
    assert g.phase == "stalemate" and g.called == (True, False)
    assert g.legal_actions(0) == []
    assert g.apply(1, CALL_SPIT) == [Called(1), Spat(0, C("7H"), 0), Spat(1, C("8S"), 1)]
    assert g.phase == "play" and g.stalemates == 1 and g.called == (False, False)
    assert {a for a in g.legal_actions(0) if isinstance(a, Play)} == {Play(C("6C"), 0, C("7H"))}
    assert {a for a in g.legal_actions(1) if isinstance(a, Play)} == {Play(C("6D"), 0, C("7H"))}


def test_the_countdown_resolves_a_stalemate_and_repeats_while_nobody_can_play() -> None:
    g = game(LOW0, "10H QH 7H", LOW1, "10S QS 8S")
    g.resolve_stalemate()  # the start
    assert g.phase == "stalemate" and g.stalemates == 0
    g.apply(0, CALL_SPIT)
    assert g.resolve_stalemate() == [Spat(0, C("QH"), 0), Spat(1, C("QS"), 1), Stalemate()]
    assert g.called == (False, False) and g.stalemates == 1
    assert g.resolve_stalemate() == [Spat(0, C("7H"), 0), Spat(1, C("8S"), 1)]
    assert g.phase == "play" and g.stalemates == 2
    assert len(g.centre(0)) == 3 and len(g.spit_pile(0)) == 8
    with pytest.raises(RealtimeIllegal, match="no stalemate"):
        g.resolve_stalemate()
    with pytest.raises(RealtimeIllegal, match="you can still play"):
        g.apply(1, CALL_SPIT)


def alone() -> SpitGame:
    # Seat 0 has no spit cards left; seat 1 has 10S then 8S. Nothing fits 10H or JS.
    return position(
        ["2C", "2D", "2H", "2S", "3C"],
        ["3D", "3H", "3S", "4C", "4D"],
        spit1="10S 8S",
        centre0="10H",
        centre1="JS",
    )


def test_a_player_out_of_spit_cards_lets_the_other_spit_alone_on_his_own_pile() -> None:
    g = alone()
    assert g.phase == "stalemate"
    g.apply(0, CALL_SPIT)
    events = g.apply(1, CALL_SPIT)
    assert events == [Called(1), Spat(1, C("10S"), 1), Stalemate()]
    assert g.top(0) == C("10H") and g.top(1) == C("10S")
    assert g.resolve_stalemate() == [Spat(1, C("8S"), 1), Stalemate()]
    assert g.top(0) == C("10H") and len(g.centre(1)) == 3


def test_both_out_of_spit_cards_with_stock_left_starts_the_slap_race() -> None:
    g = alone()
    g.resolve_stalemate()
    g.resolve_stalemate()
    assert g.resolve_stalemate() == [NewLayout(None)]
    assert g.phase == "slap" and not g.stalemate
    for seat in (0, 1):
        assert g.legal_actions(seat) == [Slap(0), Slap(1)]
        with pytest.raises(RealtimeIllegal, match="slap a centre pile"):
            g.apply(seat, CALL_SPIT)
        with pytest.raises(RealtimeIllegal, match="slap a centre pile"):
            g.apply(seat, Play(C("2C"), 0))
    with pytest.raises(RealtimeIllegal, match="no stalemate"):
        g.resolve_stalemate()


def test_a_turn_up_or_an_uncovering_move_is_not_a_stalemate() -> None:
    # Seat 0's pile 0 holds AD under 2C and pile 1 is an empty space: moving 2C uncovers AD.
    g = position(["AD 2C", "", "4C", "5C", "6C"], LOW1, centre0="10H", centre1="10S")
    assert g.phase == "play"
    # Nobody can play a card, but a move uncovers one: "Spit!" is refused, saying which move.
    move_left = "move 2C from stock pile 1 into the empty stock pile 2, uncovering a card"
    for seat, who in ((1, "the other player"), (0, "you")):
        with pytest.raises(RealtimeIllegal) as info:
            g.apply(seat, CALL_SPIT)
        assert info.value.reason == (
            f'not a stalemate: {who} can still {move_left} ("Spit!" is only called when '
            "nobody can move)"
        )
    g.apply(0, Move(C("2C"), 1))
    assert g.phase == "play" and g.legal_actions(0) == [TurnUp(0)]
    g.apply(0, TurnUp(0))
    # AD does not fit 10H / 10S and no pile has a card under its top: stuck.
    assert g.phase == "stalemate" and g.events[-1] == Stalemate()
    # Moving a lone card into a space only rearranges: still a stalemate.
    h = position(["2C", "", "4C", "5C", "6C"], LOW1, centre0="10H", centre1="10S")
    assert h.phase == "stalemate"
    assert set(h.legal_actions(0)) == {Move(c, 1) for c in parse_cards("2C 4C 5C 6C")} | {CALL_SPIT}
    h.apply(0, CALL_SPIT)
    h.apply(0, Move(C("4C"), 1))
    assert h.phase == "stalemate" and h.called == (True, False)
    # A face-down top card can still be turned up: not a stalemate.
    k = position(LOW0, LOW1, centre0="10H", centre1="10S", down=[(1, 4)])
    assert k.phase == "play" and k.legal_actions(1) == [TurnUp(4)]
    assert k.move_left(0) == "the other player can still turn up stock pile 5"
    assert k.move_left(1) == "you can still turn up stock pile 5"
