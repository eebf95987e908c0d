"""The PettingZoo AEC environment passes PettingZoo's own tests and keeps hands hidden."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cardroom.games.nain_jaune import IllegalAction, RulesError
from cardroom.games.nain_jaune.research.encoding import PASS_ACTION
from cardroom.games.nain_jaune.research.pettingzoo_env import env, raw_env
from tests.research.helpers import OPTION_SETS, swap_hidden


@pytest.mark.parametrize(
    ("players", "preset", "options"),
    [
        (2, "classic", OPTION_SETS[1]),
        (4, "count", OPTION_SETS[2]),
        (5, "ace-high", OPTION_SETS[3]),
        (8, "classic", OPTION_SETS[4]),
    ],
)
def test_pettingzoo_api_test(players: int, preset: str, options: dict[str, object]) -> None:
    with warnings.catch_warnings():
        # Dict observations with action masks always draw these two advisory warnings.
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        api_test(env(players=players, preset=preset, options=options), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=3, options={"announce": "manual", "may_stop": "true"}), 200)


def _play_out(table: raw_env, rng: random.Random) -> dict[str, float]:
    """Play random legal actions to the end; return each agent's last cumulative reward."""
    totals: dict[str, float] = {}
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _ = table.last()
        if terminated or truncated:
            totals[agent] = float(reward)
            table.step(None)
            continue
        table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("players", [2, 3, 6])
def test_rewards_are_the_chips_won_in_the_round(players: int) -> None:
    table = raw_env(players=players)
    rng = random.Random(players)
    for episode in range(3):
        table.reset(seed=episode)
        totals = _play_out(table, rng)
        rnd = table.round
        assert rnd is not None and rnd.result is not None
        assert set(totals) == set(table.possible_agents)
        for seat in range(players):
            expected = rnd.result.chips[seat] - 60
            assert totals[f"player_{seat}"] == expected
        # Chips only move between seats and the board.
        assert sum(totals.values()) == -sum(rnd.result.board)
        assert table.agents == []


def test_same_seed_same_round_and_reset_without_seed_goes_on() -> None:
    a, b = raw_env(players=4), raw_env(players=4)
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.round is not None and b.round is not None
    assert a.round.hands == b.round.hands and a.round.dealer == b.round.dealer
    first = [list(h) for h in a.round.hands]
    a.reset()
    assert a.round.hands != first


def test_the_agent_to_act_is_the_seat_to_act() -> None:
    table = raw_env(players=4, dealer=2)
    table.reset(seed=3)
    assert table.agent_selection == "player_3"  # the seat after the dealer opens
    obs = table.observe("player_3")
    assert obs["action_mask"].sum() == 12  # any of the twelve cards
    assert not table.observe("player_0")["action_mask"].any()


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    table = raw_env(players=3)
    table.reset(seed=5)
    rnd = table.round
    assert rnd is not None
    before = (table.agent_selection, [list(h) for h in rnd.hands], list(rnd.played))
    with pytest.raises(IllegalAction, match="action_mask"):
        table.step(PASS_ACTION)  # the opener cannot pass
    assert (table.agent_selection, [list(h) for h in rnd.hands], list(rnd.played)) == before


def test_bad_settings_are_refused_with_a_hint() -> None:
    with pytest.raises(RulesError, match="2 to 8"):
        raw_env(players=9)
    with pytest.raises(RulesError, match="payment"):
        raw_env(options={"payment": "nonsense"})
    with pytest.raises(RulesError, match="dealer"):
        raw_env(players=3, dealer=3)


def test_observations_ignore_hidden_cards() -> None:
    table = raw_env(players=5)
    rng = random.Random(2)
    table.reset(seed=2)
    rnd = table.round
    assert rnd is not None
    for _ in range(40):
        agent = table.agent_selection
        obs = table.observe(agent)
        table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if rnd.over:
            break
    for seat in range(5):
        before = table.observe(f"player_{seat}")
        swap_hidden(rnd, seat, rng)
        after = table.observe(f"player_{seat}")
        assert np.array_equal(before["observation"], after["observation"])
        assert np.array_equal(before["action_mask"], after["action_mask"])


def test_render_shows_the_acting_seat_only() -> None:
    table = raw_env(players=3, render_mode="ansi")
    table.reset(seed=1)
    text = table.render()
    assert text is not None and text.startswith(f"seat {table.agent_selection[-1]} of 3")
    rnd = table.round
    assert rnd is not None
    seat = int(table.agent_selection[-1])
    assert " ".join(c.code for c in rnd.hands[seat]) in text
    for other in range(3):
        if other != seat:
            assert " ".join(c.code for c in rnd.hands[other]) not in text
