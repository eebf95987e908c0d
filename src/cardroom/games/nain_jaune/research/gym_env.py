"""Nain Jaune as a Gymnasium environment: one learning seat, cardroom bots in the other seats.

>>> import gymnasium as gym
>>> import cardroom.games.nain_jaune.research.gym_env  # registers "cardroom/NainJaune-v0"
>>> env = gym.make("cardroom/NainJaune-v0", players=3, opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape
((361,), (54,))

One episode is one round. The observation is the learning seat's encoded view (see
:mod:`cardroom.games.nain_jaune.research.encoding`); the legal actions are ``info["action_mask"]``
(also
``env.unwrapped.action_masks()``, the name sb3-contrib's ``MaskablePPO`` looks for). The reward
is 0 until the round ends, then the chips the seat won (chips after settling minus chips before
the stakes). An illegal action ends the episode with ``illegal_reward`` (default: minus the
starting chips, worse than any real outcome) and ``info["illegal_action"] = True``, or raises
with ``illegal_action="raise"``: it is never replaced by another action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

try:
    import gymnasium as gym
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - depends on what is installed
    raise ImportError(
        f"{exc.name} is missing: install the research extra, in the cardroom project "
        "folder: pip install '.[research]'"
    ) from exc

from cardroom.bots.base import Bot, make_bot
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

ENV_ID = "cardroom/NainJaune-v0"
_MAX_REDEALS = 1000


class NainJauneEnv(gym.Env[np.ndarray, np.int64]):
    """One round of Nain Jaune for the seat ``seat``; bots (``opponents``) play the others.

    ``opponents`` is one bot spec for every other seat or a list of one spec per other seat,
    in seat order (``"random"``, ``"greedy"``, … as accepted by :func:`cardroom.bots.make_bot`).
    ``dealer=None`` draws the dealer at every reset. A deal in which the round would end before
    the learning seat ever acts (a bot going out in one turn first) is skipped and redealt.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        dealer: int | None = None,
        illegal_action: Literal["terminate", "raise"] = "terminate",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.players = check_players(players)
        if not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"seat={seat!r} is not a seat: use 0..{players - 1}")
        self.seat = seat
        self.rules = make_rules(preset, options)
        self.dealer = check_dealer(dealer, players)
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(
                f"opponents: give one bot spec, or {players - 1} (one per other seat)"
            )
        others = [s for s in range(players) if s != seat]
        self.bots: dict[int, Bot] = {
            s: make_bot(spec) for s, spec in zip(others, specs, strict=True)
        }
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"illegal_action={illegal_action!r}: use 'terminate' or 'raise'")
        self.illegal_action = illegal_action
        self.illegal_reward = (
            float(-self.rules.starting_chips) if illegal_reward is None else float(illegal_reward)
        )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode={render_mode!r}: use None or 'ansi'")
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            0.0, 1.0, shape=(observation_size(players),), dtype=np.float32
        )
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self.round: Round | None = None
        self._bot_rngs: dict[int, random.Random] = {}
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new round and let the bots play until the learning seat must act."""
        super().reset(seed=seed)
        for _ in range(_MAX_REDEALS):
            deal_seed = int(self.np_random.integers(2**62))
            rng = random.Random(deal_seed)
            self.round = deal_round(self.rules, self.players, self.dealer, rng)
            self._bot_rngs = {s: random.Random(f"{deal_seed}/seat/{s}") for s in self.bots}
            self._play_bots()
            if self.round.result is None:
                self._done = False
                return self._observe(), self._info()
        raise RuntimeError("the learning seat never got to act in 1000 deals")  # pragma: no cover

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an id 0..53) for the learning seat, then the bots until its turn."""
        rnd = self.round
        if rnd is None or self._done:
            raise RuntimeError("the episode is over: call reset()")
        move = action_from_id(action)
        reason = rnd.why_illegal(move)
        if reason is not None:
            if self.illegal_action == "raise":
                raise IllegalAction(move, reason + " (use info['action_mask'])")
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), self.illegal_reward, True, False, info
        rnd.apply(move)
        self._play_bots()
        over = rnd.result is not None
        self._done = over
        reward = float(chips_won(rnd, self.seat)) if over else 0.0
        return self._observe(), reward, over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (for sb3-contrib's MaskablePPO)."""
        return action_mask(view_of(self._round(), self.seat)).astype(bool)

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the text of what the learning seat sees."""
        if self.render_mode is None or self.round is None:
            return None
        return describe_view(view_of(self.round, self.seat))

    def _play_bots(self) -> None:
        rnd = self._round()
        while rnd.result is None and rnd.to_act != self.seat:
            s = rnd.to_act
            rnd.apply(self.bots[s].act(view_of(rnd, s), self._bot_rngs[s]))

    def _observe(self) -> np.ndarray:
        return encode_view(view_of(self._round(), self.seat))

    def _info(self) -> dict[str, Any]:
        view = view_of(self._round(), self.seat)
        info: dict[str, Any] = {"action_mask": action_mask(view)}
        if view.winner is not None:
            info["winner"] = view.winner
        return info

    def _round(self) -> Round:
        if self.round is None:
            raise RuntimeError("call reset() before using the environment")
        return self.round


if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="cardroom.games.nain_jaune.research.gym_env:NainJauneEnv")
