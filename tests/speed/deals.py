"""Helpers for hand-made Speed deals."""

from __future__ import annotations

from typing import TypedDict

from cardroom.cards import DECK, Card, parse_card, parse_cards
from cardroom.games.speed import SpeedGame, SpeedRules


class Piles(TypedDict, total=False):
    """Piles for :func:`make_deal` and :func:`new_game`, each written top first."""

    side0: str
    side1: str
    middle: str
    draw0: str
    draw1: str


def make_deal(
    *,
    side0: str = "",
    side1: str = "",
    middle: str = "",
    draw0: str = "",
    draw1: str = "",
    side_piles: int = 10,
) -> list[Card]:
    """A deal in the engine's order from piles written top first.

    A pile given short is completed with the cards nobody named, in pack order (AC 2C … KS),
    filling the piles in deal order: side 0, side 1, middle, draw 0, draw 1.
    """
    rules = SpeedRules(side_piles=side_piles)
    sizes = [side_piles, side_piles, 2, rules.draw_pile, rules.draw_pile]
    given = [parse_cards(t) for t in (side0, side1, middle, draw0, draw1)]
    named = [c for pile in given for c in pile]
    assert len(named) == len(set(named)), "a card is named twice"
    rest = [c for c in DECK if c not in set(named)]
    out: list[Card] = []
    for pile, size in zip(given, sizes, strict=True):
        assert len(pile) <= size
        need = size - len(pile)
        out.extend(pile + rest[:need])
        rest = rest[need:]
    assert len(out) == 52 and not rest
    return out


def new_game(seed: int = 0, side_piles: int = 10, **piles: str) -> SpeedGame:
    """A game from a hand-made deal (see :func:`make_deal`)."""
    rules = SpeedRules(side_piles=side_piles)
    return SpeedGame(rules, make_deal(side_piles=side_piles, **piles), seed)


def start(game: SpeedGame) -> None:
    """Both players call: the middle cards are turned."""
    from cardroom.games.speed import CALL

    game.apply(0, CALL)
    game.apply(1, CALL)


def C(code: str) -> Card:
    """One card from its code."""
    return parse_card(code)


def H(codes: str) -> tuple[Card, ...]:
    """Several cards from their codes."""
    return tuple(parse_cards(codes))
