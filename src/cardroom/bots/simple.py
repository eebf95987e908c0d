"""The simple bots: ``random`` (uniform over legal actions) and ``greedy``."""

from __future__ import annotations

import random
from dataclasses import dataclass

from cardroom.bots.base import REGISTRY, no_options
from cardroom.games.nain_jaune.engine import Action, Claim, Pass, Play
from cardroom.games.nain_jaune.rules import card_value
from cardroom.games.nain_jaune.view import RoundView


@dataclass
class RandomBot:
    """Picks uniformly among the legal actions."""

    name: str = "random"

    def act(self, view: RoundView, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        actions = view.legal_actions
        return actions[rng.randrange(len(actions))]


@dataclass
class GreedyBot:
    """Takes every box it can, otherwise dumps its most expensive card; never stops early."""

    name: str = "greedy"

    def act(self, view: RoundView, rng: random.Random) -> Action:
        """Claim, else a board card, else the card costing most if kept; pass only if forced."""
        actions = view.legal_actions
        if any(isinstance(a, Claim) for a in actions):
            return next(a for a in actions if isinstance(a, Claim))
        plays = [a for a in actions if isinstance(a, Play)]
        if not plays:
            return next(a for a in actions if isinstance(a, Pass))
        board = set(view.board_cards)
        payment = view.rules.payment
        return max(
            plays,
            key=lambda a: (a.card in board, card_value(a.card, payment), a.card.rank, a.card.index),
        )


def _random(options: dict[str, str]) -> RandomBot:
    no_options("random", options)
    return RandomBot()


def _greedy(options: dict[str, str]) -> GreedyBot:
    no_options("greedy", options)
    return GreedyBot()


REGISTRY["random"] = _random
REGISTRY["greedy"] = _greedy
