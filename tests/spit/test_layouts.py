"""New layouts (slap race, chooser), short players, the one-pile endgame, winning, variants."""

from __future__ import annotations

from typing import TypedDict, Unpack

import pytest

from cardroom.cards import Card, parse_card, parse_cards
from cardroom.games.realtime_engine import RealtimeIllegal
from cardroom.games.spit import CALL_SPIT, Choose, Move, Play, Slap, SpitGame
from cardroom.games.spit.engine import (
    Chose,
    Dealt,
    NewLayout,
    OnePile,
    Played,
    Slapped,
    Took,
    Won,
)
from cardroom.games.spit.rules import SlapRule
from tests.spit.deals import game, position

C = parse_card


def held(g: SpitGame, seat: int) -> set[Card]:
    return {c for p in g.stock(seat) for c in p} | set(g.spit_pile(seat))


def slap_race() -> SpitGame:
    """Both out of spit cards, both with stock: pile 0 holds 39 cards, pile 1 holds 3."""
    g = position(
        ["2C", "2D", "2H", "2S", "3C"],
        ["3D", "3H", "3S", "4C", "4D"],
        spit1="10S 8S",
        centre0="10H",
        centre1="JS",
    )
    for _ in range(3):
        g.resolve_stalemate()
    assert g.phase == "slap" and len(g.centre(0)) == 39 and len(g.centre(1)) == 3
    return g


def test_the_first_slap_takes_its_pile_and_the_other_player_the_other_pile() -> None:
    g = slap_race()
    small = set(g.centre(1))
    events = g.apply(1, Slap(1))
    # Seat 1 slapped the small pile: 3 + 5 stock cards = 8, fewer than 15 -> piles 1, 2, 3, 2 and
    # no spit pile; seat 0 takes the 39 cards + 5 stock = 44 -> 15 in the layout, 29 to spit.
    assert events == [
        Slapped(1, 1),
        Took(0, 0, 39),
        Took(1, 1, 3),
        Dealt(0, (1, 2, 3, 4, 5), 29),
        Dealt(1, (1, 2, 3, 2, 0), 0),
        OnePile(0),
    ]
    assert held(g, 1) == small | set(parse_cards("3D 3H 3S 4C 4D"))
    assert g.cards_left(0) == 44 and g.cards_left(1) == 8
    assert g.phase == "start" and g.one_pile and g.redeals == 1
    assert (g.is_open(0), g.is_open(1)) == (True, False)
    assert all(g.face_up(1)[:4]) and not g.face_up(1)[4]
    # Only seat 0 spits, on his own pile; pile 1 is not used from now on.
    g.apply(0, CALL_SPIT)
    g.apply(1, CALL_SPIT)
    assert len(g.centre(0)) == 1 and g.centre(1) == ()
    top = g.top(0)
    assert top is not None
    fit = next((c for c, _ in g.view(1).stock if c is not None), None)
    assert fit is not None
    with pytest.raises(RealtimeIllegal, match="only one spit pile now: play on pile 1"):
        g.apply(1, Play(fit, 1))


def test_both_slapping_the_same_pile_first_gets_it_the_other_takes_the_other() -> None:
    g = slap_race()
    big = set(g.centre(0))
    g.apply(1, Slap(0))
    assert g.cards_left(1) == 44 and g.cards_left(0) == 8
    assert held(g, 1) == big | set(parse_cards("3D 3H 3S 4C 4D"))
    assert g.is_open(1) and not g.is_open(0)
    before = g.snapshot()
    with pytest.raises(RealtimeIllegal) as err:
        g.apply(0, Slap(0))
    assert err.value.stale and g.snapshot() == before
    with pytest.raises(RealtimeIllegal, match="slap"):
        g.apply(0, Slap(1))


class ChooserOptions(TypedDict, total=False):
    slap: SlapRule


def chooser_position(**options: Unpack[ChooserOptions]) -> SpitGame:
    # Seat 0's last stock card 9C goes on 10H; he still holds KD and QD to spit.
    return position(
        ["9C"],
        ["3D", "3H", "3S", "4C", "4D"],
        spit0="KD QD",
        spit1="AS",
        centre0="10H",
        centre1="2S",
        **options,
    )


def test_clearing_the_stock_starts_a_slap_race() -> None:
    g = chooser_position()
    assert g.apply(0, Play(C("9C"), 0, C("10H"))) == [Played(0, C("9C"), 0, 0), NewLayout(0)]
    assert g.phase == "slap" and g.legal_actions(1) == [Slap(0), Slap(1)]
    with pytest.raises(RealtimeIllegal, match="cannot choose"):
        g.apply(0, Choose(1))


def test_chooser_variant_the_player_who_cleared_chooses_no_slap() -> None:
    g = chooser_position(slap="chooser")
    g.apply(0, Play(C("9C"), 0, C("10H")))
    assert g.phase == "choose" and g.chooser == 0
    assert g.legal_actions(0) == [Choose(0), Choose(1)] and g.legal_actions(1) == []
    before = g.snapshot()
    with pytest.raises(RealtimeIllegal, match="seat 0 cleared the stock and chooses"):
        g.apply(1, Choose(0))
    with pytest.raises(RealtimeIllegal, match="choosing"):
        g.apply(1, Slap(1))
    assert g.snapshot() == before
    events = g.apply(0, Choose(1))
    # Seat 0: pile 1 (2S) + his spit cards KD QD = 3 cards; seat 1: the other 49.
    assert events[:3] == [Chose(0, 1), Took(0, 1, 1), Took(1, 0, 43)]
    assert held(g, 0) == set(parse_cards("2S KD QD"))
    assert events[3:] == [Dealt(0, (1, 2, 0, 0, 0), 0), Dealt(1, (1, 2, 3, 4, 5), 34), OnePile(1)]
    assert g.phase == "start" and g.chooser is None


def test_one_pile_the_short_player_clearing_first_wins() -> None:
    g = position(
        ["9C"],
        ["3D", "3H", "3S", "4C", "4D"],
        spit1="5S",
        centre1="10H",
        rest="spit1",
        one_pile=True,
    )
    assert (g.is_open(0), g.is_open(1)) == (False, True)
    assert g.apply(0, Play(C("9C"), 1, C("10H"))) == [Played(0, C("9C"), 0, 1), Won(0)]
    assert g.over and g.winner == 0 and g.phase == "over" and g.cards_left(0) == 0
    assert g.legal_actions(0) == [] and g.legal_actions(1) == [] and not g.stalemate
    before = g.snapshot()
    with pytest.raises(RealtimeIllegal, match="the game is over"):
        g.apply(1, Play(C("4D"), 1))
    with pytest.raises(RealtimeIllegal, match="no stalemate"):
        g.resolve_stalemate()
    assert g.snapshot() == before


def test_one_pile_the_spitter_clearing_first_takes_nothing_the_other_takes_pile_and_stock() -> None:
    g = position(
        ["2C", "2D", "2H", "2S", "3C"],
        ["9C"],
        spit1="5S",
        centre1="10H",
        rest="spit1",
        one_pile=True,
    )
    spit = set(g.spit_pile(1))
    events = g.apply(1, Play(C("9C"), 1, C("10H")))
    assert events[:4] == [Played(1, C("9C"), 0, 1), NewLayout(1), Took(0, 1, 2), Took(1, None, 0)]
    assert held(g, 1) == spit and len(spit) == 45
    assert held(g, 0) == set(parse_cards("10H 9C 2C 2D 2H 2S 3C"))
    assert events[4:] == [Dealt(0, (1, 2, 3, 1, 0), 0), Dealt(1, (1, 2, 3, 4, 5), 30)]
    assert g.one_pile and (g.is_open(0), g.is_open(1)) == (False, True)


def test_one_pile_moves_to_the_other_pile_when_the_spitter_becomes_the_short_player() -> None:
    g = position(
        ["2C", "2D", "2H", "2S", "3C"],
        ["9C"],
        spit1="5S 6S",
        centre1="10H",
        rest="centre1",
        one_pile=True,
    )
    events = g.apply(1, Play(C("9C"), 1, C("10H")))
    # Seat 1 keeps 5S 6S (no spit pile now); seat 0 takes 43 + 10H + 9C + 5 stock = 50 cards.
    assert held(g, 1) == set(parse_cards("5S 6S"))
    assert events[-3:] == [
        Dealt(0, (1, 2, 3, 4, 5), 35),
        Dealt(1, (1, 1, 0, 0, 0), 0),
        OnePile(0),
    ]
    assert g.one_pile and (g.is_open(0), g.is_open(1)) == (True, False)


def test_one_pile_ends_when_both_can_deal_a_spit_pile_again() -> None:
    spit1 = "5S 6S 7S 8S 10S JS QS KS AS 4S 5H 6H 7H 8H 9H JH"
    g = position(
        ["2C", "2D", "2H", "2S", "3C"],
        ["9C"],
        spit1=spit1,
        centre1="10H",
        rest="centre1",
        one_pile=True,
    )
    g.apply(1, Play(C("9C"), 1, C("10H")))
    # Seat 1 keeps his 16 spit cards: 15 + 1; seat 0 takes 29 + 10H + 9C + 5 stock = 36.
    assert held(g, 1) == set(parse_cards(spit1))
    assert [len(g.spit_pile(s)) for s in (0, 1)] == [21, 1]
    assert not g.one_pile and g.is_open(0) and g.is_open(1)


def test_one_pile_stalemate_without_spit_cards_the_player_with_more_stock_takes_the_pile() -> None:
    g = position(
        ["2C", "2D"], ["3H", "3S", "4C", "4D", "5C"], centre1="10H", rest="centre1", one_pile=True
    )
    assert g.phase == "stalemate"
    events = g.resolve_stalemate()
    assert events[:3] == [NewLayout(None), Took(0, None, 0), Took(1, 1, 45)]
    assert held(g, 0) == set(parse_cards("2C 2D"))
    assert events[3:] == [Dealt(0, (1, 1, 0, 0, 0), 0), Dealt(1, (1, 2, 3, 4, 5), 35)]
    # A tie: the player whose pile it is (seat 1) takes it.
    h = position(["2C", "2D"], ["3H", "3S"], centre1="10H", rest="centre1", one_pile=True)
    assert h.resolve_stalemate()[:3] == [NewLayout(None), Took(0, None, 0), Took(1, 1, 48)]


def test_a_player_with_no_spit_cards_who_clears_his_stock_wins() -> None:
    g = chooser_position()
    g._spit[0] = []  # hand over KD QD to seat 1's spit pile: 52 cards still in place
    g._spit[1][:0] = parse_cards("QD KD")
    assert g.apply(0, Play(C("9C"), 0, C("10H"))) == [Played(0, C("9C"), 0, 0), Won(0)]
    assert g.winner == 0 and g.cards_left(1) == 8


def test_four_pile_variant() -> None:
    g = game(["2C", "3C", "4C", "5C"], "10H 7H", ["2D", "3D", "4D", "5D"], "10S 8S", piles=4)
    assert [len(p) for p in g.stock(0)] == [1, 2, 3, 4] and len(g.spit_pile(0)) == 16
    assert g.spit_pile(1)[:2] == (C("10S"), C("8S"))
    g.resolve_stalemate()
    assert g.phase == "stalemate"  # 2-5 on 10s
    p = position(
        ["2C", "", "4C", "5C"], ["2D", "3D", "4D", "5D"], centre0="10H", centre1="10S", piles=4
    )
    with pytest.raises(RealtimeIllegal, match="only 4 stock spaces"):
        p.apply(0, Move(C("4C"), 4))
    # Exactly 10 cards: a full four-pile layout and no spit pile, so one spit pile.
    s = position(
        ["9C"],
        ["3D", "3H", "3S", "4C"],
        spit0="KD QD 2H 2S 3C 6C 7C 8C",
        spit1="AS",
        centre0="10H",
        centre1="5H JD",
        piles=4,
    )
    s.apply(0, Play(C("9C"), 0, C("10H")))
    s.apply(0, Slap(1))
    assert g.rules.layout == 10 and s.cards_left(0) == 10
    assert [len(q) for q in s.stock(0)] == [1, 2, 3, 4] and s.spit_pile(0) == ()
    assert s.one_pile and s.is_open(1) and not s.is_open(0)


def test_alternate_colours_variant() -> None:
    g = position(
        ["6H", "6C", "9D", "9S", "KC"], ["2D"], centre0="7D", centre1="8S", alternate_colours=True
    )
    plays = {a for a in g.legal_actions(0) if isinstance(a, Play)}
    assert plays == {Play(C("6C"), 0, C("7D")), Play(C("9D"), 1, C("8S"))}
    with pytest.raises(RealtimeIllegal, match="other colour"):
        g.apply(0, Play(C("6H"), 0, C("7D")))
    with pytest.raises(RealtimeIllegal, match="other colour"):
        g.apply(0, Play(C("9S"), 1, C("8S")))
    g.apply(0, Play(C("9D"), 1, C("8S")))
    # Only same-colour neighbours left: a stalemate under this variant, not without it.
    h = position(["6H", "9S"], ["2D"], centre0="7D", centre1="8S", alternate_colours=True)
    assert h.phase == "stalemate"
    k = position(["6H", "9S"], ["2D"], centre0="7D", centre1="8S")
    assert k.phase == "play"


def test_ranks_turn_the_corner_king_ace_two() -> None:
    g = position(["KC", "2D", "QC", "AD", "5C"], ["7S"], centre0="AS", centre1="KH")
    plays = {a for a in g.legal_actions(0) if isinstance(a, Play)}
    assert plays == {
        Play(C("KC"), 0, C("AS")),
        Play(C("2D"), 0, C("AS")),
        Play(C("QC"), 1, C("KH")),
        Play(C("AD"), 1, C("KH")),
    }
    with pytest.raises(RealtimeIllegal, match="QC is not one rank above or below AS"):
        g.apply(0, Play(C("QC"), 0))
    g.apply(0, Play(C("AD"), 1, C("KH")))
    g.apply(0, Play(C("2D"), 1, C("AD")))
    assert g.top(1) == C("2D")
