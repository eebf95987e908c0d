"""OpenSpiel's generic ``ISMCTSBot`` as a cardroom bot, ``ismcts``: a peer for tournaments.

The bot is given the seat's view only. It deals the hidden cards once, consistently with the
view (:func:`cardroom.games.nain_jaune.bots.search.sample_hidden`), builds the
``python_nain_jaune`` state of
that deal with the view's public actions, and asks ``ISMCTSBot`` for a move: ISMCTS then
re-deals the hidden cards itself at every simulation (``resample_from_infostate``), so the
first deal only gives it a state with the right information set. Random rollouts
(``RandomRolloutEvaluator``), ``uct_c=30`` (returns are in chips), the most visited move.

Options: ``ismcts:ms=N`` (simulate until N ms have passed, default 150; at least two
simulations, since the first only expands the root) or ``ismcts:simulations=N`` (exactly
N ≥ 2: deterministic for a seed), ``uct=C``, ``clock=wall|cpu`` (what ``ms`` counts: wall time,
the default, or CPU time of the thinking thread, for benchmarks on a loaded machine).

The OpenSpiel game is one round from ``starting_chips`` each and an empty board, which is what
a tournament deal is; the bot refuses other positions (a game's later rounds) with
:class:`BotError`. Needs the ``research`` extra (``pip install 'cardroom[research]'``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from cardroom.bots.base import REGISTRY, BotError, parse_budget, parse_clock, unknown_options
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.bots.search import public_actions, sample_hidden
from cardroom.games.nain_jaune.engine import Action
from cardroom.games.nain_jaune.research.encoding import action_from_id, action_id
from cardroom.games.nain_jaune.research.openspiel_game import NainJauneGame, NainJauneState
from cardroom.games.nain_jaune.research.resample import initial_hands
from cardroom.games.nain_jaune.view import RoundView

DEFAULT_MS = 150


class _TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """``ISMCTSBot`` whose search stops at a deadline instead of after a fixed count."""

    deadline: float | None = None
    clock: Callable[[], float] = time.perf_counter
    simulations: int = 0

    def run_search(self, state: Any) -> Any:
        if self.deadline is None:
            self.simulations = self._max_simulations
            return super().run_search(state)
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        self.simulations = 0
        while True:
            self.run_simulation(self.sample_root_state(state))
            self.simulations += 1
            # the first simulation only expands the root: at least two give it a visit
            if self.simulations >= 2 and self.clock() >= self.deadline:
                break
        return self.get_final_policy(state, self._root_node)


@dataclass
class ISMCTSPeer:
    """OpenSpiel's ISMCTS playing from a cardroom view (see the module docstring)."""

    ms: int | None = DEFAULT_MS
    simulations: int | None = None
    uct: float = 30.0
    clock: Callable[[], float] = time.perf_counter
    """What ``ms`` counts (``clock=wall|cpu``, see :data:`cardroom.bots.base.CLOCKS`)."""
    name: str = "ismcts"
    last_iterations: int = 0
    """Simulations run for the last decision."""
    _games: dict[tuple[int, int, str], NainJauneGame] = field(default_factory=dict)

    def _game(self, view: RoundView) -> NainJauneGame:
        key = (view.players, view.dealer, repr(view.rules))
        game = self._games.get(key)
        if game is None:
            game = NainJauneGame({"players": view.players, "dealer": view.dealer})
            game.rules = view.rules  # the view's exact rules, whatever preset they came from
            self._games[key] = game
        return game

    def state_of(self, view: RoundView, rng: random.Random) -> NainJauneState:
        """An OpenSpiel state in the view's information set (hidden cards dealt at random)."""
        game = self._game(view)
        hands, _ = sample_hidden(view, rng)
        queues = [list(reversed(h)) for h in initial_hands(view, hands)]
        state: NainJauneState = game.new_initial_state()
        for k in range(game.cards_dealt):
            state.apply_action(queues[game.seat_of_deal(k)].pop().index)
        for action in public_actions(view):
            state.apply_action(action_id(action))
        rnd = state.round
        assert rnd is not None
        if list(rnd.chips) != list(view.chips) or list(rnd.board) != list(view.board):
            raise BotError(
                Message(
                    "bot.ismcts-rounds",
                    "bot 'ismcts' plays single rounds from an empty board (tournament deals): "
                    "use it in cardroom tournament",
                )
            )
        return state

    def act(self, view: RoundView, rng: random.Random) -> Action:
        """The move ISMCTS visits most from this information set."""
        if len(view.legal_actions) == 1:
            self.last_iterations = 0
            return view.legal_actions[0]
        start = self.clock()
        state = self.state_of(view, rng)
        game = state.get_game()
        np_rng = np.random.RandomState(rng.getrandbits(32))
        bot = _TimedISMCTS(
            game,
            mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng),
            uct_c=self.uct,
            max_simulations=self.simulations or 2,
            random_state=np_rng,
        )
        if self.ms is not None:
            bot.deadline = start + self.ms / 1000
            bot.clock = self.clock
        choice = bot.step(state)
        self.last_iterations = bot.simulations
        return action_from_id(int(choice))


def _ismcts(options: dict[str, str]) -> ISMCTSPeer:
    unknown = set(options) - {"ms", "simulations", "uct", "clock"}
    if unknown:
        raise BotError(
            unknown_options("ismcts", unknown, "ms=N, simulations=N, uct=C or clock=wall|cpu")
        )
    bot = ISMCTSPeer(clock=parse_clock("ismcts", options))
    ms, simulations = parse_budget("ismcts", options, "simulations", 2)
    if ms is not None or simulations is not None:
        bot.ms, bot.simulations = ms, simulations
    if "uct" in options:
        try:
            bot.uct = float(options["uct"])
        except ValueError:
            typed = options["uct"]
            raise BotError(
                Message("bot.uct", f"bot 'ismcts': uct={typed!r} must be a number", typed=typed)
            ) from None
    return bot


REGISTRY["ismcts"] = _ismcts
