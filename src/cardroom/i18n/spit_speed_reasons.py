"""Refusals and log lines of the real-time games told in words: never a card code like ``9D``.

The engines give reasons in record form (``"9D is not one rank above or below 5H"``, ``"stale:
pile 1 now shows 8C, not 7D"``); :func:`in_words` turns them into what a person reads on the
page (``"the 9 of diamonds is not next to the 5 of hearts"``, ``"too late: the pile changed
(pile 1 now shows the 8 of clubs, not the 7 of diamonds)"``).
"""

from __future__ import annotations

import re

_RANKS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "T": "10"}
_SUITS = {
    "C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades",
    "♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades",
}  # fmt: skip
_CODE = re.compile(r"(?<![\w])(10|[2-9AJQKT])([CDHS♣♦♥♠])(?![\w])")
_PHRASES = (
    (re.compile(r"\bstale: (the other player slapped first.*)$"), r"too late: \1"),
    (re.compile(r"\bstale: (.*)$"), r"too late: the pile changed (\1)"),
    (re.compile(r" is not one rank above or below "), " is not next to "),
    (
        re.compile(r" cannot go on (.*?): it must be one rank above or below \(K-A-2 wraps\)"),
        r" is not next to \1 (a card goes on one a rank above or below; king, ace, 2 follow on)",
    ),
    (re.compile(r" must be the other colour to "), " must be the other colour from "),
)


def card_words(rank: str, suit: str) -> str:
    """``("9", "D")`` -> ``"the 9 of diamonds"``; ``("A", "S")`` -> ``"the ace of spades"``."""
    return f"the {_RANKS.get(rank, rank)} of {_SUITS[suit]}"


def in_words(text: str) -> str:
    """A reason or log line with every card code replaced by the card's name in words."""
    for pattern, replacement in _PHRASES:
        text = pattern.sub(replacement, text)
    return _CODE.sub(lambda m: card_words(m.group(1), m.group(2)), text)
