"""The Gymnasium environment passes Gymnasium's checker; bots play the other seats."""

from __future__ import annotations

import random
import warnings
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardroom.bots import BotError
from cardroom.games.nain_jaune import IllegalAction, view_of
from cardroom.games.nain_jaune.research.encoding import PASS_ACTION, encode_view
from cardroom.games.nain_jaune.research.gym_env import ENV_ID, NainJauneEnv
from tests.research.helpers import swap_hidden


class EnvOptions(TypedDict, total=False):
    """The options of :class:`NainJauneEnv` these tests give."""

    players: int
    seat: int
    opponents: str | Sequence[str]
    preset: str
    options: Mapping[str, Any]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2, "opponents": "greedy", "options": {"announce": "manual"}},
        {"players": 4, "seat": 2, "preset": "count", "opponents": "heuristic"},
        {"players": 8, "seat": 7, "opponents": ["random", "greedy"] * 3 + ["random"]},
    ],
)
def test_gymnasium_check_env(kwargs: EnvOptions) -> None:
    check_env(NainJauneEnv(**kwargs), skip_render_check=True)


def test_check_env_through_gym_make_with_rendering() -> None:
    made = gym.make(ENV_ID, players=3, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*different from the unwrapped version")
        check_env(made)
    made.close()


def _episode(env: NainJauneEnv, seed: int, rng: random.Random) -> tuple[float, int]:
    obs, info = env.reset(seed=seed)
    steps = 0
    while True:
        assert env.observation_space.contains(obs)
        assert np.array_equal(info["action_mask"], env.action_masks().astype(np.int8))
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        assert not truncated
        if terminated:
            return float(reward), steps
        assert reward == 0.0


@pytest.mark.parametrize("seat", [0, 2])
def test_the_final_reward_is_the_chips_the_seat_won(seat: int) -> None:
    env = NainJauneEnv(players=3, seat=seat, opponents="greedy")
    rng = random.Random(seat)
    for seed in range(4):
        reward, _ = _episode(env, seed, rng)
        rnd = env.round
        assert rnd is not None and rnd.result is not None
        assert reward == rnd.result.chips[seat] - 60


def test_only_the_learning_seat_is_asked_to_act() -> None:
    env = NainJauneEnv(players=4, seat=1)
    obs, _ = env.reset(seed=9)
    rnd = env.round
    assert rnd is not None and rnd.to_act == 1
    assert np.array_equal(obs, encode_view(view_of(rnd, 1)))


def test_seeds_reproduce_whole_episodes() -> None:
    def trace(seed: int) -> list[object]:
        env = NainJauneEnv(players=5, opponents="random")
        rng = random.Random(0)
        _episode(env, seed, rng)
        assert env.round is not None
        return list(env.round.played)

    assert trace(3) == trace(3)
    assert trace(3) != trace(4)


def test_an_illegal_action_ends_the_episode_or_raises() -> None:
    env = NainJauneEnv(players=3, dealer=2)  # seat 0 opens: it may not pass
    env.reset(seed=1)
    _, reward, terminated, truncated, info = env.step(PASS_ACTION)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-60.0, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = NainJauneEnv(players=3, dealer=2, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction, match="action_mask"):
        strict.step(PASS_ACTION)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        NainJauneEnv(players=3, seat=3)
    with pytest.raises(ValueError, match="one per other seat"):
        NainJauneEnv(players=4, opponents=["random"])
    with pytest.raises(BotError, match="unknown bot"):
        NainJauneEnv(opponents="nobody")


def test_the_observation_ignores_the_bots_cards() -> None:
    env = NainJauneEnv(players=4, opponents="greedy")
    obs, _ = env.reset(seed=21)
    rnd = env.round
    assert rnd is not None
    rng = random.Random(1)
    assert swap_hidden(rnd, 0, rng)
    assert np.array_equal(encode_view(view_of(rnd, 0)), obs)
