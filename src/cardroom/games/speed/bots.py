"""Speed's reaction-bot strategy, registered in :data:`cardroom.bots.reaction.STRATEGIES` when
imported (the registry's ``bots`` piece for Speed)."""

from __future__ import annotations

import random
from typing import Any

from cardroom.bots.reaction import STRATEGIES, followers
from cardroom.games.speed import CallFlip, SpeedView
from cardroom.games.speed import Play as SpeedPlay


def speed_strategy(view: SpeedView, rng: random.Random) -> Any | None:
    """Speed: play, preferring a card that starts a run; call for the flip when it has no card
    to play (its legal actions offer the call only then)."""
    actions = view.legal_actions
    if view.phase == "over" or not actions:
        return None
    plays = [a for a in actions if isinstance(a, SpeedPlay)]
    if not plays:
        return next((a for a in actions if isinstance(a, CallFlip)), None)
    best = max(followers(a.card, view.hand) for a in plays)
    return rng.choice([a for a in plays if followers(a.card, view.hand) == best])


STRATEGIES["speed"] = speed_strategy
