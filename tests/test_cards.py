import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.cards import (
    DECK,
    Card,
    CardError,
    Rank,
    Suit,
    deal_in_packets,
    parse_card,
    parse_cards,
    shuffled_deck,
)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("10D", Rank.TEN, Suit.DIAMONDS),
        ("TD", Rank.TEN, Suit.DIAMONDS),
        ("10♦", Rank.TEN, Suit.DIAMONDS),
        ("td", Rank.TEN, Suit.DIAMONDS),
        ("qs", Rank.QUEEN, Suit.SPADES),
        ("A♣", Rank.ACE, Suit.CLUBS),
        ("7d", Rank.SEVEN, Suit.DIAMONDS),
        (" K♡ ", Rank.KING, Suit.HEARTS),
    ],
)
def test_parse_accepts_every_documented_spelling(text: str, rank: Rank, suit: Suit) -> None:
    card = parse_card(text)
    assert card.rank is rank and card.suit is suit
    assert card is Card(rank, suit)


@pytest.mark.parametrize("text", ["", "1", "11D", "XD", "10X", "D10", "QQ", "10"])
def test_parse_rejects_garbage_with_a_clear_error(text: str) -> None:
    with pytest.raises(CardError):
        parse_card(text)


def test_codes_and_pretty_forms() -> None:
    assert parse_card("TD").code == "10D"
    assert parse_card("7d").pretty == "7♦"
    assert parse_cards("AS, 2H 10c") == [
        Card(1, Suit.SPADES),
        Card(2, Suit.HEARTS),
        Card(10, Suit.CLUBS),
    ]


@given(st.sampled_from(DECK))
def test_round_trip(card: Card) -> None:
    assert parse_card(card.code) is card
    assert parse_card(card.pretty) is card
    assert parse_card(card.code.lower()) is card
    assert eval(repr(card)) is card
    assert Card.from_index(card.index) is card


def test_deck_has_52_distinct_cards() -> None:
    assert len(set(DECK)) == 52
    assert sorted(c.index for c in DECK) == list(range(52))


def test_shuffle_depends_only_on_the_rng() -> None:
    a = shuffled_deck(random.Random(7))
    b = shuffled_deck(random.Random(7))
    c = shuffled_deck(random.Random(8))
    assert a == b and a != c and sorted(a) == sorted(DECK)


def test_deal_three_at_a_time_with_a_short_last_packet() -> None:
    hands, talon = deal_in_packets(list(DECK), 22, 2)
    # 2 players x 22: seven rounds of 3 then one of 1 each
    assert hands[0][:3] == list(DECK[0:3]) and hands[1][:3] == list(DECK[3:6])
    assert hands[0][-1] is DECK[42] and hands[1][-1] is DECK[43]
    assert talon == list(DECK[44:])
    assert [len(h) for h in hands] == [22, 22]
