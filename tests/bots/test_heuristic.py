"""The heuristic bot on hand-made positions whose best move was worked out by hand."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.bots import make_bot
from cardroom.cards import DECK, parse_card, parse_cards
from cardroom.games.nain_jaune import Round, Rules, view_of
from cardroom.games.nain_jaune.engine import Play
from tests.nain_jaune.deals import new_round, play
from tests.nain_jaune.test_properties import rules_strategy

TALON_OF_SEVENS = "7C 7D 7H 7S AC AD AS"
# Seat 0 leads 5C 6C, nobody has a 7 (all four are in the talon), so seats 1 and 2 say
# "without 7"; seat 0 goes on with 8C .. KC and leads again holding 2H 3H 4H 6H 8H 9H KS.
SEAT0 = "5C 6C 8C 9C 10C JC QC KC 2H 3H 4H 6H 8H 9H KS"
SEAT1 = "2C 3C 4C 2D 3D 4D 5D 6D 8D 9D JD QD KD 5H 10H"


def choice(rnd: Round, seat: int, seed: int = 0) -> Play:
    action = make_bot("heuristic").act(view_of(rnd, seat), random.Random(seed))
    assert isinstance(action, Play)
    return action


def seat0_leads(hand: str, talon: str) -> Round:
    """Three players, seat 0 to lead with ``hand``; the rest split between seats 1 and 2."""
    mine, rest_talon = parse_cards(hand), parse_cards(talon)
    rest = [c for c in DECK if c not in mine and c not in rest_talon]
    return Round(Rules(), [60] * 3, [0] * 5, 2, [mine, rest[:15], rest[15:]], rest_talon)


def after_the_dead_seven(rules: Rules) -> Round:
    rnd = new_round(rules, 3, {0: SEAT0, 1: SEAT1}, TALON_OF_SEVENS, dealer=2)
    play(rnd, "5C", "6C", "pass", "pass", "pass", "8C", "9C", "10C", "JC", "QC", "KC")
    assert rnd.to_act == 0 and rnd.need is None
    return rnd


def test_a_rank_everyone_else_lacks_extends_the_run() -> None:
    # From 6H: 6, 7 dead (seats 1 and 2 said "without 7"), 8H, 9H; 10 is still out there:
    # 3 cards, 23 points -> 323. From 2H: 2, 3, 4 (5 is out there): 3 cards, 9 points -> 309.
    rnd = after_the_dead_seven(Rules())
    assert choice(rnd, 0).card == parse_card("6H")


def test_with_may_stop_a_pass_proves_nothing() -> None:
    # A player may say "without 7" holding one: 6H is a run of one (106), 2H 3H 4H wins (309).
    rnd = after_the_dead_seven(Rules(may_stop=True))
    assert choice(rnd, 0).card == parse_card("2H")


def test_the_run_that_empties_the_hand_is_taken() -> None:
    hand = "AC 2C 3C 4C 5C 6C 8C 9C 10C JC QC KC 6H 8H 9H"
    other = "2D 3D 4D 5D 6D 8D 9D 10D JD QD KD 2H 3H 4H 5H"
    rnd = new_round(Rules(), 3, {0: hand, 1: other}, "7C 7D 7H 7S AD AH AS", dealer=2)
    play(rnd, "AC", "2C", "3C", "4C", "5C", "6C", "pass", "pass", "pass")
    play(rnd, "8C", "9C", "10C", "JC", "QC", "KC")
    # 6H, the dead 7, 8H, 9H: out. 8H 9H alone would be worth 217.
    assert choice(rnd, 0).card == parse_card("6H")
    play(rnd, "6H", "pass", "pass", "pass", "8H", "9H")
    assert rnd.result is not None and rnd.result.winner == 0


def test_an_ace_chain_is_led_before_a_longer_chain() -> None:
    # A 2 -> 200 + 3 + 150 = 353; 4 5 6 -> 300 + 15 = 315; the king alone -> 0.
    hand = "AS 2S 4C 5C 6C 9C JH KS 2D 4D 5D 6D 9D 9H JS"
    rnd = seat0_leads(hand, "7C 7D 7H 7S 8C 8D 8H")
    assert choice(rnd, 0).card == parse_card("AS")


def test_the_longest_chain_is_led() -> None:
    # 8 9 10 J Q K: six cards, 57 points -> 657; 2 3 4 5 6: five cards -> 520.
    hand = "2C 3C 4C 5C 6C 2S 9S 10S JH KC 4H 5H 8C 8H QC"
    rnd = seat0_leads(hand, "7C 7D 7H 7S AC AD AH")
    assert choice(rnd, 0).card == parse_card("8C")


def test_a_lone_king_is_kept_unless_its_box_is_rich() -> None:
    # Runs of one card only: 2 -> 102, 4 -> 104, 6 -> 106, 8 -> 108. A plain king alone
    # scores 0; K♥ alone, on its box of 12 chips (3 players x 4), scores 120.
    others = "2C 2D 2H 2S 4C 4D 4H 4S 6C 6D 6H 6S 8C 8D"
    rnd = seat0_leads(others + " KC", "7C 7D 7H 7S AC AD AH")
    assert choice(rnd, 0).card == parse_card("8C")
    rnd = seat0_leads(others + " KH", "7C 7D 7H 7S AC AD AH")
    assert rnd.board[3] == 12
    assert choice(rnd, 0).card == parse_card("KH")


def test_following_plays_the_board_card_of_the_rank() -> None:
    hand = "6C 7C 7D 2H 3H 4H 9H 10H 2S 3S 4S 9S 10S JS QH"
    rnd = seat0_leads(hand, "AC AD AH AS 5C 5D 5H")
    play(rnd, "6C")
    assert choice(rnd, 0) == Play(parse_card("7D"))


@settings(max_examples=25, deadline=None)
@given(rules=rules_strategy, players=st.integers(2, 8), seed=st.integers(0, 10**6))
def test_always_legal_and_never_uses_its_rng(rules: Rules, players: int, seed: int) -> None:
    rnd = Round.deal(rules, [60] * players, [0] * 5, 0, random.Random(seed))
    bot = make_bot("heuristic")
    while rnd.result is None:
        view = view_of(rnd, rnd.to_act)
        action = bot.act(view, random.Random(1))
        assert action in view.legal_actions
        assert bot.act(view, random.Random(2)) == action
        rnd.apply(action)
    assert rnd.result is not None
