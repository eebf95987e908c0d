"""Spit's reaction-bot strategy, registered in :data:`cardroom.bots.reaction.STRATEGIES` when
imported (the registry's ``bots`` piece for Spit)."""

from __future__ import annotations

import random
from typing import Any

from cardroom.bots.reaction import STRATEGIES
from cardroom.games.spit import CallSpit, Choose, Move, Slap, SpitView, TurnUp
from cardroom.games.spit import Play as SpitPlay


def _smaller_pile(view: Any, rng: random.Random) -> int:
    sizes = view.centre_sizes
    if sizes[0] == sizes[1]:
        return rng.randrange(2)
    return 0 if sizes[0] < sizes[1] else 1


def spit_strategy(view: SpitView, rng: random.Random) -> Any | None:
    """Spit: slap (or choose) the smaller pile; call "Spit!" when stuck; play a stock card,
    preferring piles with face-down cards beneath; turn up a face-down card; move a card into an
    empty space only when that uncovers a face-down card."""
    actions = view.legal_actions
    if view.phase == "over" or not actions:
        return None
    if view.phase in ("slap", "choose"):
        pile = _smaller_pile(view, rng)
        kind = Slap if view.phase == "slap" else Choose
        return next((a for a in actions if isinstance(a, kind) and a.pile == pile), None)
    if view.stalemate:
        return next((a for a in actions if isinstance(a, CallSpit)), None)
    counts = {top: n for top, n in view.stock if top is not None}
    plays = [a for a in actions if isinstance(a, SpitPlay)]
    if plays:
        deep = [a for a in plays if counts.get(a.card, 0) > 1]
        return rng.choice(deep or plays)
    turn_ups = [a for a in actions if isinstance(a, TurnUp)]
    if turn_ups:
        return turn_ups[0]
    moves = [a for a in actions if isinstance(a, Move) and counts.get(a.card, 0) > 1]
    return moves[0] if moves else None


STRATEGIES["spit"] = spit_strategy
