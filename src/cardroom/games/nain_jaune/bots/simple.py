"""The simple bots: ``random`` (uniform over legal actions) and ``greedy``."""

from __future__ import annotations

import random
from dataclasses import dataclass

from cardroom.bots.base import REGISTRY, no_options
from cardroom.cards import Card
from cardroom.games.nain_jaune.engine import Action, Claim, Pass, Play
from cardroom.games.nain_jaune.rules import card_value
from cardroom.games.nain_jaune.view import RoundView


@dataclass
class RandomBot:
    """Picks uniformly among the legal actions (no draw from ``rng`` when there is only one)."""

    name: str = "random"

    def act(self, view: RoundView, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        return actions[rng.randrange(len(actions))]


@dataclass
class GreedyBot:
    """Takes the most it can at once: boxes first, then the costliest cards; never stops early.

    Following, it plays the board card of the asked rank if it holds one. Leading, it plays
    the card whose run of consecutive cards in its hand (no look at what others may hold)
    takes the most chips from the boxes, then sheds the most points, then is the lowest rank.
    """

    name: str = "greedy"

    def act(self, view: RoundView, rng: random.Random) -> Action:
        """Claim, else the play that grabs the most now; pass only if forced."""
        actions = view.legal_actions
        if any(isinstance(a, Claim) for a in actions):
            return next(a for a in actions if isinstance(a, Claim))
        plays = [a for a in actions if isinstance(a, Play)]
        if not plays:
            return next(a for a in actions if isinstance(a, Pass))
        board = {c: view.board[i] for i, c in enumerate(view.board_cards)}
        payment = view.rules.payment
        if view.need is not None:
            return max(plays, key=lambda a: (a.card in board, -a.card.index))
        by_rank: dict[int, list[Card]] = {}
        for card in view.hand:
            by_rank.setdefault(int(card.rank), []).append(card)

        def run_gain(card: Card) -> tuple[int, int, int, int]:
            chips = board.get(card, 0) if card in board else 0
            points = card_value(card, payment)
            rank = int(card.rank) + 1
            while rank <= 13 and rank in by_rank:
                best = max(by_rank[rank], key=lambda c: (c in board, -c.index))
                chips += board.get(best, 0)
                points += card_value(best, payment)
                rank += 1
            return (chips + (card in board), points, -int(card.rank), -card.index)

        return max(plays, key=lambda a: run_gain(a.card))


def _random(options: dict[str, str]) -> RandomBot:
    no_options("random", options)
    return RandomBot()


def _greedy(options: dict[str, str]) -> GreedyBot:
    no_options("greedy", options)
    return GreedyBot()


REGISTRY["random"] = _random
REGISTRY["greedy"] = _greedy
