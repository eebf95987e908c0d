"""The learned Nain Jaune lead policy (issue 31): the kernel's inference against its Python
reference, the heuristic's weights against the heuristic, the shipped weights' shape."""

from __future__ import annotations

import random
from importlib.resources import files

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.bots import make_bot
from cardroom.games.nain_jaune import Round, Rules, view_of
from cardroom.games.nain_jaune import kernel as fast
from cardroom.games.nain_jaune.bots.expert import ExpertBot
from cardroom.games.nain_jaune.engine import Play
from cardroom.games.nain_jaune.research.policy import Budget, heuristic_weights, train
from tests.nain_jaune.test_properties import rules_strategy


def leads(rules: Rules, players: int, seed: int) -> list[Round]:
    """Every free lead with two ranks or more of a round played by random choices."""
    rng = random.Random(seed)
    rnd = Round.deal(rules, [60] * players, [0] * 5, 0, random.Random(seed))
    out = []
    while rnd.result is None:
        s = fast.encode_round(rnd)
        hand = int(s[fast.S_HANDS + rnd.to_act])
        free = s[fast.S_NEED] == 0 and s[fast.S_PENDING] < 0 and s[fast.S_AWAIT] == 0
        ranks = {(c >> 2) for c in range(52) if hand >> c & 1}
        if free and len(ranks) > 1:
            out.append(rnd.clone())
        rnd.apply(rng.choice(rnd.legal_actions()))
    return out


@settings(max_examples=30, deadline=None)
@given(
    rules=rules_strategy,
    players=st.integers(2, 8),
    seed=st.integers(0, 10**6),
    wseed=st.integers(0, 10**6),
)
def test_kernel_inference_equals_the_python_reference(
    rules: Rules, players: int, seed: int, wseed: int
) -> None:
    r = fast.encode_rules(rules)
    w = np.random.default_rng(wseed).normal(size=fast.N_FEATURES)
    for rnd in leads(rules, players, seed):
        s = fast.encode_round(rnd)
        seat = rnd.to_act
        hand, mask = int(s[fast.S_HANDS + seat]), int(s[fast.S_PLAYED_MASK])
        compiled = np.zeros((14, fast.N_FEATURES))
        python = np.zeros((14, fast.N_FEATURES))
        ranks = fast._lead_features(s, r, seat, hand, mask, compiled)
        assert fast.lead_features(s, r, seat, hand, mask, python) == ranks
        assert ranks == sum(1 << k for k in {int(c.rank) for c in rnd.hands[seat]})
        np.testing.assert_array_equal(compiled, python)
        choice = fast._learned_lead(s, r, seat, hand, mask, w)
        assert fast.learned_choice(s, r, seat, hand, mask, w) == choice
        assert hand >> choice & 1


@settings(max_examples=25, deadline=None)
@given(rules=rules_strategy, players=st.integers(2, 8), seed=st.integers(0, 10**6))
def test_the_heuristic_weights_lead_as_the_heuristic(
    rules: Rules, players: int, seed: int
) -> None:
    """The starting point of training is the heuristic itself (the readable bot's leads)."""
    r = fast.encode_rules(rules)
    w = heuristic_weights()
    bot = make_bot("heuristic")
    for rnd in leads(rules, players, seed):
        s = fast.encode_round(rnd)
        seat = rnd.to_act
        c = fast._learned_lead(
            s, r, seat, int(s[fast.S_HANDS + seat]), int(s[fast.S_PLAYED_MASK]), w
        )
        action = bot.act(view_of(rnd, seat), random.Random(0))
        assert isinstance(action, Play)
        assert action.card.index == (c & 3) * 13 + (c >> 2)


def test_shipped_weights_have_the_shape_training_makes() -> None:
    shipped = np.load(str(files("cardroom.games.nain_jaune") / fast.POLICY_FILE))
    assert set(shipped.files) == {"weights", "version", "seed", "budget"}
    assert int(shipped["version"]) == 1 and str(shipped["budget"]) == "full"
    made = train(0, Budget(1, 3, 4))
    assert made.shape == shipped["weights"].shape == fast.POLICY_WEIGHTS.shape
    assert made.dtype == shipped["weights"].dtype
    np.testing.assert_array_equal(fast.POLICY_WEIGHTS, shipped["weights"])
    # the learned weights are not the heuristic's
    assert not np.allclose(shipped["weights"], heuristic_weights())


def test_the_expert_rolls_out_with_the_learned_policy() -> None:
    bot = make_bot("expert:iterations=20,policy=learned")
    assert isinstance(bot, ExpertBot) and bot.policy == "learned"
    rnd = Round.deal(Rules(), [60] * 4, [0] * 5, 0, random.Random(3))
    while rnd.result is None:
        view = view_of(rnd, rnd.to_act)
        rnd.apply(bot.act(view, random.Random(1)))
    assert sum(rnd.chips) + sum(rnd.board) == 240  # every chip is still on the table


def test_an_iteration_on_learned_rollouts_needs_the_kernels_policy() -> None:
    """The v2 step labels with the kernel's compiled ``learned`` rollouts: from weights that
    are not the kernel's it refuses rather than label with another policy."""
    import pytest

    with pytest.raises(ValueError, match="is not the policy these iterations made"):
        train(0, Budget(1, 3, 4, (3, 4)))
