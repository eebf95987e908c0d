"""Nain Jaune as a PettingZoo AEC environment: one round per episode, 2 to 8 agents.

>>> from cardroom.games.nain_jaune.research.pettingzoo_env import env
>>> table = env(players=4, preset="classic")
>>> table.reset(seed=7)
>>> obs, reward, terminated, truncated, info = table.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). ``agent_selection`` is the seat to
act; the same agent often acts several times in a row (a player goes on while he can).
Observations are ``{"observation": float32 vector, "action_mask": int8[54]}`` built from the
agent's own view only (see :mod:`cardroom.games.nain_jaune.research.encoding`). The reward is given
when the
round ends: the chips each seat won (chips after settling minus chips before the stakes).
An illegal action raises :class:`~cardroom.games.nain_jaune.engine.IllegalAction`; wrap the
environment in ``pettingzoo.utils.wrappers.TerminateIllegalWrapper`` to end the episode instead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on what is installed
    raise ImportError(
        f"{exc.name} is missing: install the research extra, in the cardroom project "
        "folder: pip install '.[research]'"
    ) from exc

from cardroom.games.nain_jaune.engine import IllegalAction, Round
from cardroom.games.nain_jaune.research.encoding import (
    ACTION_COUNT,
    action_from_id,
    action_mask,
    describe_view,
    encode_view,
    observation_size,
)
from cardroom.games.nain_jaune.research.table import (
    check_dealer,
    check_players,
    chips_won,
    deal_round,
    make_rules,
)
from cardroom.games.nain_jaune.view import view_of


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's usual out-of-bounds and order checks (see raw_env)."""
    inner = raw_env(**kwargs)
    checked = wrappers.AssertOutOfBoundsWrapper(inner)
    return wrappers.OrderEnforcingWrapper(checked)


class raw_env(AECEnv):  # type: ignore[misc]
    """One round of Nain Jaune, every seat an agent.

    ``players`` 2..8; ``preset`` and ``options`` choose the rules (``options`` maps option names
    to values, as on the command line); ``dealer`` fixes the dealer, or None draws it at every
    reset. ``render_mode="ansi"`` renders what the agent to act sees.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "nain_jaune_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        dealer: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.players = check_players(players)
        self.rules = make_rules(preset, options)
        self.dealer = check_dealer(dealer, players)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r}: use None or 'ansi'")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        size = observation_size(players)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(ACTION_COUNT,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(ACTION_COUNT) for a in self.possible_agents}
        self._rng: random.Random | None = None
        self.round: Round | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The (shared) observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The (shared) action space: ``Discrete(54)``."""
        return self.action_spaces[agent]

    def seat(self, agent: str) -> int:
        """The seat number of ``player_<seat>``."""
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round; ``seed`` restarts the deal stream (same seed, same rounds).

        ``options`` is accepted for the PettingZoo API and not used: settings go to the
        constructor.
        """
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.round = deal_round(self.rules, self.players, self.dealer, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.round.to_act]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation, computed from its own view only."""
        view = view_of(self._live_round(), self.seat(agent))
        return {"observation": encode_view(view), "action_mask": action_mask(view)}

    def step(self, action: Any) -> None:
        """Apply the action (an id 0..53) of ``agent_selection``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        rnd = self._live_round()
        move = action_from_id(action)
        reason = rnd.why_illegal(move)
        if reason is not None:
            raise IllegalAction(move, reason + " (use the action_mask)")
        self._cumulative_rewards[agent] = 0
        rnd.apply(move)
        if rnd.result is not None:
            self.rewards = {a: chips_won(rnd, self.seat(a)) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._clear_rewards()
            self.agent_selection = self.possible_agents[rnd.to_act]
        self._accumulate_rewards()
        if rnd.result is not None:
            self._deads_step_first()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the text of what the agent to act sees."""
        if self.render_mode is None or self.round is None:
            return None
        return describe_view(view_of(self.round, self.seat(self.agent_selection)))

    def close(self) -> None:
        """Nothing to release."""

    def _live_round(self) -> Round:
        if self.round is None:
            raise RuntimeError("call reset() before using the environment")
        return self.round
