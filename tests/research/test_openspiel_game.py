"""The OpenSpiel game passes pyspiel's random simulation test; OpenSpiel's bots play it."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import ismcts, mcts

from cardroom.cards import DECK
from cardroom.games.nain_jaune import Rules, view_of
from cardroom.games.nain_jaune.research.encoding import legal_ids
from cardroom.games.nain_jaune.research.openspiel_game import NainJauneState, max_player_moves
from tests.research.helpers import swap_hidden

GAMES = [
    "python_nain_jaune",
    "python_nain_jaune(players=2,announce=manual,forgotten_announcement=double-box)",
    "python_nain_jaune(players=3,preset=count,may_stop=True)",
    "python_nain_jaune(players=5,preset=ace-high,when_blocked=next-rank,board_cards=regional)",
    "python_nain_jaune(players=8,grand_opera=off,payment=card-count,dealer=0)",
]


def _check_state(state: NainJauneState) -> None:
    """Invariants random_sim_test checks at every state it visits."""
    rnd = state.round
    if rnd is None:
        assert state.is_chance_node()
        return
    cards = [c for h in rnd.hands for c in h] + [c for _, c in rnd.played] + list(rnd.talon)
    assert sorted(c.index for c in cards) == list(range(52))
    if state.is_terminal():
        return
    p = state.current_player()
    assert state.legal_actions() == legal_ids(view_of(rnd, p))
    tensor = np.asarray(state.information_state_tensor(p))
    assert ((tensor >= 0) & (tensor <= 1)).all()
    hand = " ".join(c.code for c in rnd.hands[p])
    assert f"hand: {hand}" in state.information_state_string(p)


@pytest.mark.parametrize("name", GAMES)
def test_pyspiel_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(
        game, num_sims=2, serialize=True, verbose=False, state_checker_fn=_check_state
    )


def test_parameters_become_the_rules() -> None:
    game = pyspiel.load_game("python_nain_jaune(players=3,preset=count,payment=points-ace-high)")
    assert game.rules == Rules.from_options("count", {"payment": "points-ace-high"})
    assert game.num_players() == 3
    assert (game.min_utility(), game.max_utility()) == (-60.0, 120.0)
    assert game.max_game_length() == 45 + max_player_moves(3)
    with pytest.raises(Exception, match="nonsense"):
        pyspiel.load_game("python_nain_jaune(payment=nonsense)")


def _deal(state: Any, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        state.apply_action(rng.choice(outcomes))


def _random_moves(state: Any, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            _deal(state, rng)
            continue
        state.apply_action(rng.choice(state.legal_actions()))


def test_the_deal_goes_round_from_the_seat_after_the_dealer() -> None:
    game = pyspiel.load_game("python_nain_jaune(players=3,dealer=1)")
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and all(p == pytest.approx(1 / 52) for _, p in outcomes)
    for card in range(45):
        state.apply_action(card)
    rnd = state.round
    assert rnd is not None
    # Card k goes to seat (dealer + 1 + k) mod 3: seat 2 gets 0, 3, 6, …
    assert [c.index for c in rnd.hands[2]] == sorted(range(0, 45, 3), key=lambda i: DECK[i])
    assert [c.index for c in rnd.talon] == list(range(45, 52))
    assert state.current_player() == 2


def test_returns_are_the_chips_won() -> None:
    game = pyspiel.load_game("python_nain_jaune(players=4)")
    rng = random.Random(4)
    for _ in range(3):
        state = game.new_initial_state()
        _random_moves(state, rng, 10_000)
        rnd = state.round
        assert state.is_terminal() and rnd is not None and rnd.result is not None
        assert state.returns() == [float(c - 60) for c in rnd.result.chips]
        assert sum(state.returns()) == -sum(rnd.result.board)


def test_information_state_tensors_tell_information_states_apart() -> None:
    """Two different information-state strings never share a tensor (nor the reverse)."""
    tensor_to_string: dict[bytes, str] = {}
    string_to_tensor: dict[str, bytes] = {}
    rng = random.Random(8)
    for name in GAMES[1:3]:
        game = pyspiel.load_game(name)
        for _ in range(6):
            state = game.new_initial_state()
            _deal(state, rng)
            while not state.is_terminal():
                for p in range(game.num_players()):
                    key = np.asarray(state.information_state_tensor(p), np.float32).tobytes()
                    text = name + state.information_state_string(p)
                    assert tensor_to_string.setdefault(name.encode() + key, text) == text
                    assert string_to_tensor.setdefault(text, name.encode() + key) == (
                        name.encode() + key
                    )
                state.apply_action(rng.choice(state.legal_actions()))
    assert len(string_to_tensor) > 500


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 150), game_index=st.integers(0, 4))
def test_hidden_cards_never_reach_observations_or_information_states(
    seed: int, steps: int, game_index: int
) -> None:
    game = pyspiel.load_game(GAMES[game_index])
    rng = random.Random(seed)
    state = game.new_initial_state()
    _random_moves(state, rng, steps + 100)
    rnd = state.round
    assert rnd is not None
    for p in range(game.num_players()):
        seen = (
            state.information_state_string(p),
            state.information_state_tensor(p),
            state.observation_string(p),
            state.observation_tensor(p),
        )
        swap_hidden(rnd, p, rng)
        assert seen == (
            state.information_state_string(p),
            state.information_state_tensor(p),
            state.observation_string(p),
            state.observation_tensor(p),
        )


def _sampler(seed: int) -> Any:
    rng = random.Random(seed)
    return rng.random


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 200), game_index=st.integers(0, 4))
def test_resampled_states_agree_with_everything_the_player_knows(
    seed: int, steps: int, game_index: int
) -> None:
    game = pyspiel.load_game(GAMES[game_index])
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps + 40):  # 40 actions in: dealing, or just dealt, or playing
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    if state.is_terminal():
        with pytest.raises(ValueError, match="before the end"):
            state.resample_from_infostate(0, _sampler(seed))
        return
    acting = state.current_player()
    player = acting if acting >= 0 and rng.random() < 0.5 else rng.randrange(game.num_players())
    sample = state.resample_from_infostate(player, _sampler(seed))
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.information_state_tensor(player) == state.information_state_tensor(player)
    assert sample.observation_tensor(player) == state.observation_tensor(player)
    assert sample.current_player() == state.current_player()
    n_dealt = len(state._dealt)
    assert sample.history()[n_dealt:] == state.history()[n_dealt:]
    if state.round is None:
        assert sample.dealt_to(player) == state.dealt_to(player)
        assert len(sample._dealt) == n_dealt and len(set(sample._dealt)) == n_dealt
        return
    if player == acting:  # another seat's legal actions depend on its (resampled) hand
        assert sample.legal_actions() == state.legal_actions()
    mine, theirs = state.round, sample.round
    assert theirs is not None
    assert theirs.hands[player] == mine.hands[player]
    assert [len(h) for h in theirs.hands] == [len(h) for h in mine.hands]
    assert theirs.played == mine.played and theirs.passes == mine.passes
    if not game.rules.may_stop:
        for seat, rank in theirs.passes:
            assert all(int(c.rank) != rank for c in theirs.hands[seat])


def test_resampling_really_moves_the_hidden_cards() -> None:
    game = pyspiel.load_game("python_nain_jaune(players=3)")
    rng = random.Random(0)
    state = game.new_initial_state()
    _random_moves(state, rng, 60)
    player = state.current_player()
    assert player >= 0
    samples = {
        tuple(tuple(h) for h in state.resample_from_infostate(player, _sampler(k)).round.hands)
        for k in range(10)
    }
    assert len(samples) == 10  # ten different worlds, all consistent (see the property test)


def _play(game: Any, bots: list[Any], rng: np.random.RandomState) -> Any:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def test_openspiel_ismcts_and_mcts_bots_play_whole_games() -> None:
    game = pyspiel.load_game("python_nain_jaune(players=3)")
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=30.0, max_simulations=8, random_state=rng),
        mcts.MCTSBot(game, uct_c=30.0, max_simulations=8, evaluator=evaluator, random_state=rng),
        ismcts.ISMCTSBot(
            game, evaluator, uct_c=30.0, max_simulations=8, random_state=rng, max_world_samples=3
        ),
    ]
    for _ in range(2):
        state = _play(game, bots, rng)
        rnd = state.round
        assert state.is_terminal() and rnd is not None and rnd.result is not None
        assert state.returns() == [float(c - 60) for c in rnd.result.chips]


def test_a_public_observer_shows_no_hand_at_all() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_nain_jaune(players=3)")
    public = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE),
    )
    everyone = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
        ),
    )
    assert "hand" not in public.dict and everyone.dict["hands"].shape == (3, 52)
    state = game.new_initial_state()
    _random_moves(state, random.Random(3), 60)
    rnd = state.round
    assert rnd is not None and not state.is_terminal()
    public.set_from(state, 0)
    before = (public.tensor.copy(), public.string_from(state, 0))
    private_before = state.observation_tensor(0)
    everyone.set_from(state, 0)
    assert everyone.dict["hands"].sum() == sum(len(h) for h in rnd.hands)
    # Swap one of seat 0's own cards with a card of seat 1: nothing public changes.
    rnd.hands[0][0], rnd.hands[1][0] = rnd.hands[1][0], rnd.hands[0][0]
    public.set_from(state, 0)
    assert np.array_equal(public.tensor, before[0]) and public.string_from(state, 0) == before[1]
    assert state.observation_tensor(0) != private_before  # the seat's own observation does
