"""Action ids and observation vectors, checked on a hand-made deal."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import DECK, Card, parse_cards
from cardroom.games.nain_jaune import CLAIM, PASS, Play, Round, Rules, view_of
from cardroom.games.nain_jaune.research.encoding import (
    ACTION_COUNT,
    CLAIM_ACTION,
    PASS_ACTION,
    UnknownAction,
    action_from_id,
    action_id,
    action_mask,
    encode_view,
    observation_pieces,
    observation_size,
)
from tests.nain_jaune.deals import new_round, play
from tests.research.helpers import random_players, random_rules, swap_hidden

C = Card.parse


def test_every_action_id_round_trips() -> None:
    for i in range(ACTION_COUNT):
        assert action_id(action_from_id(i)) == i
    assert action_from_id(PASS_ACTION) == PASS
    assert action_from_id(CLAIM_ACTION) == CLAIM
    assert action_from_id(np.int32(C("QS").index)) == Play(C("QS"))  # numpy integers too
    assert action_id(Play(C("AC"))) == 0 and action_id(Play(C("KS"))) == 51


@pytest.mark.parametrize("bad", [-1, 54, 2.5, "3", None])
def test_bad_action_ids_say_what_is_allowed(bad: object) -> None:
    with pytest.raises(UnknownAction, match="0 to 53"):
        action_from_id(bad)  # type: ignore[arg-type]


def test_an_unannounced_play_has_no_id() -> None:
    with pytest.raises(UnknownAction, match="pass instead of claim"):
        action_id(Play(C("QS"), forget=True))


@pytest.mark.parametrize("n", range(2, 9))
def test_observation_size_is_the_sum_of_its_pieces(n: int) -> None:
    assert observation_size(n) == 148 + 71 * n
    rnd = Round.deal(Rules(), [60] * n, [0] * 5, 0, random.Random(n))
    assert encode_view(view_of(rnd, 0)).shape == (observation_size(n),)


def _three_seats_after_three_moves() -> Round:
    rnd = new_round(
        Rules(),
        3,
        {
            0: "5S 9S 9H 9D 9C 8S 8H 8D 8C 7S 7H 7C 6S 6H 6C",
            1: "3C AS AH AD AC 2S 2H 2D 2C KS KH KD KC QS QH",
        },
        talon="10D JC QC JD JH JS 10C",
        dealer=0,
    )
    play(rnd, "3C", "pass", "4H")
    return rnd


def _pieces(vector: np.ndarray, n: int) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    start = 0
    for name, shape in observation_pieces(n):
        size = int(np.prod(shape))
        out[name] = vector[start : start + size].reshape(shape)
        start += size
    return out


def test_a_hand_made_position_encodes_as_worked_out_by_hand() -> None:
    rnd = _three_seats_after_three_moves()
    p = _pieces(encode_view(view_of(rnd, 0)), 3)
    hand = {c.index for c in parse_cards("5S 9S 9H 9D 9C 8S 8H 8D 8C 7S 7H 7C 6S 6H 6C")}
    assert set(np.flatnonzero(p["hand"])) == hand
    assert set(zip(*np.nonzero(p["played_by"]), strict=True)) == {
        (1, C("3C").index),
        (2, C("4H").index),
    }
    assert list(np.flatnonzero(p["need"])) == [4]  # a 5 is needed
    assert list(p["to_act"]) == [0, 0, 1]
    assert list(p["leader"]) == [0, 0, 1]
    assert list(p["dealer"]) == [1, 0, 0]
    assert np.allclose(p["hand_sizes"], [1, 14 / 15, 14 / 15])
    assert set(zip(*np.nonzero(p["without"]), strict=True)) == {(1, 3)}  # seat 1: without 4
    assert np.allclose(p["chips"], [45 / 180] * 3)
    assert np.allclose(p["board"], np.array([3, 6, 9, 12, 15]) / 180)
    assert not p["claimed"].any() and not p["forgotten"].any() and not p["winner"].any()
    assert not p["pending_claim"].any()
    assert list(p["rules"]) == [0, 1, 0, 0, 0, 0, 1, 0, 0, 0]
    assert set(np.flatnonzero(p["board_cards"])) == {
        C(x).index for x in ("10D", "JC", "QS", "KH", "7D")
    }

    # Seat 1 sees the same table turned: itself first, then seat 2, then seat 0.
    q = _pieces(encode_view(view_of(rnd, 1)), 3)
    assert set(zip(*np.nonzero(q["played_by"]), strict=True)) == {
        (0, C("3C").index),
        (1, C("4H").index),
    }
    assert list(q["to_act"]) == [0, 1, 0]
    assert list(q["dealer"]) == [0, 0, 1]
    assert set(zip(*np.nonzero(q["without"]), strict=True)) == {(0, 3)}


def test_the_mask_is_exactly_the_legal_actions() -> None:
    rnd = _three_seats_after_three_moves()
    mask = action_mask(view_of(rnd, 2))
    assert set(np.flatnonzero(mask)) == {C(x).index for x in ("5H", "5D", "5C")}
    assert not action_mask(view_of(rnd, 0)).any()


def test_a_pending_claim_and_a_forgotten_box_show() -> None:
    rules = Rules(announce="manual")
    rnd = new_round(
        rules,
        2,
        {0: "9D 10D JD QD KD AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AH 2H 3H 4H"},
        talon="5S 6S 7S 8S 9S 10S JS QS",
        dealer=1,
    )
    play(rnd, "9D", "10D")
    p = _pieces(encode_view(view_of(rnd, 0)), 2)
    assert list(p["pending_claim"]) == [1, 0, 0, 0, 0]
    play(rnd, "JD")  # plays on without claiming: 10D is forgotten
    p = _pieces(encode_view(view_of(rnd, 0)), 2)
    assert list(p["forgotten"]) == [1, 0, 0, 0, 0]
    assert not p["pending_claim"].any() and not p["claimed"].any()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 200))
def test_swapping_hidden_cards_changes_no_observation(seed: int, steps: int) -> None:
    """What a seat sees never depends on where the cards it cannot see are."""
    rng = random.Random(seed)
    n = random_players(rng)
    rnd = Round.deal(random_rules(rng), [60] * n, [0] * 5, rng.randrange(n), rng)
    for _ in range(steps):
        if rnd.over:
            break
        actions = rnd.legal_actions()
        rnd.apply(actions[rng.randrange(len(actions))])
    seat = rng.randrange(n)
    before = encode_view(view_of(rnd, seat))
    mask = action_mask(view_of(rnd, seat))
    others = {s: encode_view(view_of(rnd, s)) for s in range(n) if s != seat}
    hands = [list(h) for h in rnd.hands]
    for _ in range(3):
        swap_hidden(rnd, seat, rng)
    assert np.array_equal(encode_view(view_of(rnd, seat)), before)
    assert np.array_equal(action_mask(view_of(rnd, seat)), mask)
    # The swap is real: a seat whose hand changed sees the change.
    for s, old in others.items():
        if rnd.hands[s] != hands[s]:
            assert not np.array_equal(encode_view(view_of(rnd, s)), old)


def test_deck_indices_are_the_card_ids() -> None:
    assert [action_id(Play(c)) for c in DECK] == list(range(52))
