"""The toy game's bots (its registry entry's ``bots`` piece): at every level, the lowest card
that still takes the trick if there is one, else the lowest card."""

from __future__ import annotations

import random

from cardroom.cards import Card
from tests.toygame.view import ToyView


class ToyBot:
    """Takes a trick as cheaply as it can, and throws its lowest card when it cannot."""

    name = "toy"

    def act(self, view: ToyView, rng: random.Random) -> Card:
        """The card to play for ``view.seat``."""
        hand = sorted(view.hand, key=lambda c: (c.rank, c.code))
        if view.trick:
            lead = view.trick[0][1]
            takers = [c for c in hand if c.rank > lead.rank]
            if takers:
                return takers[0]
        return hand[0]


def make_bot(spec: str) -> ToyBot:
    """The toy game's bot for any level or spec (the table service asks the game for its
    bots by spec)."""
    return ToyBot()
