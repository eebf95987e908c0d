"""Refusals for people: the engines' reasons with every card code turned into words."""

from __future__ import annotations

import re

from cardroom.cards import DECK
from cardroom.i18n.spit_speed_reasons import in_words

CODE = re.compile(r"(?<![\w])(10|[2-9AJQK])[CDHS♣♦♥♠](?![\w])")


def test_the_issues_examples() -> None:
    assert in_words("9D is not one rank above or below 5H") == (
        "the 9 of diamonds is not next to the 5 of hearts"
    )
    assert in_words("stale: pile 1 now shows 8C, not 7D") == (
        "too late: the pile changed (pile 1 now shows the 8 of clubs, not the 7 of diamonds)"
    )
    assert in_words("stale: the other player slapped first and the piles are shared") == (
        "too late: the other player slapped first and the piles are shared"
    )


def test_faces_tens_and_printed_cards() -> None:
    assert in_words("QS is not in your hand") == "the queen of spades is not in your hand"
    assert in_words("10C cannot go on AH: it must be one rank above or below (K-A-2 wraps)") == (
        "the 10 of clubs is not next to the ace of hearts "
        "(a card goes on one a rank above or below; king, ace, 2 follow on)"
    )
    assert in_words("Bob plays J♦ onto pile 2") == "Bob plays the jack of diamonds onto pile 2"
    # words that only look like codes are left alone
    assert in_words("seat 1 and pile 2; ASAP") == "seat 1 and pile 2; ASAP"


def test_no_card_code_survives() -> None:
    for card in DECK:
        for text in (card.code, card.pretty, f"play {card.code} on pile 1 (on {card.pretty})"):
            assert not CODE.search(in_words(text)), text
