"""The toy game's engine: deal, play a card, take tricks."""

from __future__ import annotations

import random

from cardroom.cards import Card, shuffled_deck
from cardroom.games.errors import RulesError
from tests.toygame.rules import ToyRules


class IllegalPlay(RulesError):
    """A card that may not be played now (not your turn, not in your hand, game over)."""


class ToyGame:
    """One game of higher card between seats 0 and 1, dealt from ``seed``."""

    def __init__(self, rules: ToyRules, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        deck = shuffled_deck(random.Random(f"higher-card/{seed}"))
        self.hands: list[list[Card]] = [deck[: rules.hand], deck[rules.hand : 2 * rules.hand]]
        self.leader = 0
        self.trick: list[tuple[int, Card]] = []
        self.tricks = [0, 0]
        self.played: list[tuple[int, Card]] = []

    @property
    def over(self) -> bool:
        """True once both hands are empty."""
        return not self.hands[0] and not self.hands[1]

    @property
    def turn(self) -> int | None:
        """The seat to play (None once the game is over)."""
        if self.over:
            return None
        return self.leader if not self.trick else 1 - self.leader

    @property
    def winner(self) -> int | None:
        """The seat with more tricks once over (None: not over, or a draw)."""
        if not self.over or self.tricks[0] == self.tricks[1]:
            return None
        return 0 if self.tricks[0] > self.tricks[1] else 1

    def play(self, seat: int, card: Card) -> int | None:
        """Seat ``seat`` plays ``card``; returns the seat that took the trick if it closed."""
        if seat != self.turn:
            raise IllegalPlay(f"it is not seat {seat}'s turn")
        if card not in self.hands[seat]:
            raise IllegalPlay(f"{card} is not in seat {seat}'s hand")
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.played.append((seat, card))
        if len(self.trick) < 2:
            return None
        (lead_seat, lead), (other_seat, other) = self.trick
        taker = other_seat if other.rank > lead.rank else lead_seat
        self.tricks[taker] += 1
        self.leader = taker
        self.trick = []
        return taker
