"""The ``oracle`` yardstick: the expert's search seeing every card, for measurement only.

At each decision it plays every distinct choice out once on the true deal (the expert's compiled
rollouts, ``heuristic`` for every seat afterwards) and takes the best. It is no player: it needs
the round itself, which only the simulation's own loop
(:func:`cardroom.games.nain_jaune.sim.play.play_round`)
hands it (``sees_all``); asked through the bot interface (a view, as a table does) it refuses.
``cardroom tournament nain-jaune --bots oracle,heuristic`` measures how much a search that knew
the hidden cards would gain, the ceiling the expert's sampling of them is compared with.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from cardroom.bots.base import REGISTRY, Bot, BotError, no_options
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.bots.expert import ROLLOUT_POLICIES, prepare, run_worlds
from cardroom.games.nain_jaune.bots.search import MISMATCH, candidates
from cardroom.games.nain_jaune.engine import Action, Round
from cardroom.games.nain_jaune.view import RoundView, view_of


@dataclass
class OracleBot:
    """The expert's search on the true deal (see the module docstring)."""

    name: str = "oracle"
    sees_all: bool = True

    def act(self, view: RoundView, rng: random.Random) -> Action:
        """Refused: the oracle needs every card, a view has only the seat's own."""
        raise BotError(
            Message(
                "bot.oracle",
                "the oracle sees every card: it plays only in simulations, never at a table",
            )
        )

    def act_seeing(self, rnd: Round, rng: random.Random) -> Action:
        """The best choice of the seat to act with every card known."""
        view = view_of(rnd, rnd.to_act)
        cands = candidates(view)
        if len(cands) == 1:
            return cands[0]
        prep = prepare(view, ([list(h) for h in rnd.hands], list(rnd.talon)))
        policies = np.full(view.players, ROLLOUT_POLICIES["heuristic"], np.int64)
        totals = np.zeros(len(cands), np.float64)
        run_worlds(prep, policies, MISMATCH, 1, np.array([0, 0], np.int64), totals, False)
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]


def _oracle(options: dict[str, str]) -> Bot:
    no_options("oracle", options)
    return OracleBot()


REGISTRY.setdefault("oracle", _oracle)
