"""Sampling the hidden cards from a seat's view: hand-made cases and properties."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import DECK, parse_cards
from cardroom.games.nain_jaune import CLAIM, PASS, Action, Play, Round, RoundView, Rules, view_of
from cardroom.games.nain_jaune.engine import CardPlayed, Takes, Without
from cardroom.games.nain_jaune.research.resample import (
    InconsistentView,
    _feasible,
    initial_hands,
    sample_hidden,
    unknown_cards,
)
from tests.research.helpers import random_players, random_rules


def _view(rules: Rules, hand: str, passes: tuple[tuple[int, int], ...]) -> RoundView:
    """Seat 0's view at a two-seat table, 22 cards each, nothing played yet."""
    return RoundView(
        seat=0,
        rules=rules,
        players=2,
        dealer=1,
        to_act=0,
        need=None,
        leader=None,
        hand=tuple(sorted(parse_cards(hand))),
        hand_sizes=(22, 22),
        talon_size=8,
        chips=(45, 45),
        board=(2, 4, 6, 8, 10),
        played=(),
        passes=passes,
        forgotten=(),
        pending_claim=None,
        legal_actions=(),
        events=(),
        winner=None,
    )


# Seat 0 holds every club and diamond but the 5s and 6s: the eight 5s and 6s are unknown.
_RANKS = ["A", "2", "3", "4", "7", "8", "9", "10", "J", "Q", "K"]
_HAND = " ".join(f"{r}{s}" for s in "CD" for r in _RANKS)
_FIVES_AND_SIXES = set(parse_cards("5C 5D 5H 5S 6C 6D 6H 6S"))


def test_a_seat_without_5_and_6_forces_them_all_into_the_talon() -> None:
    view = _view(Rules(), _HAND, ((1, 5), (1, 6)))
    for seed in range(5):
        hands, talon = sample_hidden(view, random.Random(seed))
        assert set(talon) == _FIVES_AND_SIXES  # worked out by hand: the talon holds 8 cards
        assert set(hands[1]) == set(DECK) - set(hands[0]) - _FIVES_AND_SIXES
        assert hands[0] == list(view.hand)


def test_with_may_stop_a_without_proves_nothing() -> None:
    view = _view(Rules(may_stop=True), _HAND, ((1, 5), (1, 6)))
    talons = [set(sample_hidden(view, random.Random(s))[1]) for s in range(20)]
    assert any(t != _FIVES_AND_SIXES for t in talons)


def test_an_impossible_view_is_refused() -> None:
    view = _view(Rules(), _HAND, tuple((1, r) for r in range(1, 14)))
    with pytest.raises(InconsistentView, match="without"):
        sample_hidden(view, random.Random(0))


def test_with_no_information_each_hidden_card_is_in_the_talon_a_tenth_of_the_time() -> None:
    rnd = Round.deal(Rules(), [60] * 4, [0] * 5, 3, random.Random(1))
    view = view_of(rnd, 0)
    card = unknown_cards(view)[0]
    rng = random.Random(2)
    hits = Counter(
        "talon" if card in sample_hidden(view, rng)[1] else "hand" for _ in range(400)
    )
    # 4 talon cards among 40 unknown: expect 40 of 400; sd about 6.
    assert 20 <= hits["talon"] <= 60


def _random_view(seed: int, steps: int) -> RoundView:
    rng = random.Random(seed)
    n = random_players(rng)
    rnd = Round.deal(random_rules(rng), [60] * n, [0] * 5, rng.randrange(n), rng)
    for _ in range(steps):
        snapshot = rnd.clone()
        actions = rnd.legal_actions()
        rnd.apply(actions[rng.randrange(len(actions))])
        if rnd.over:
            rnd = snapshot
            break
    return view_of(rnd, rng.randrange(n))


def _moves(view: RoundView) -> list[Action]:
    """The actions of the round so far, read back from its public events."""
    out: list[Action] = []
    for event in view.events:
        if isinstance(event, CardPlayed):
            out.append(Play(event.card))
        elif isinstance(event, Without):
            out.append(PASS)
        elif isinstance(event, Takes) and view.rules.announce == "manual":
            out.append(CLAIM)
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 150), tries=st.sampled_from([0, 200]))
def test_every_sample_agrees_with_the_view(seed: int, steps: int, tries: int) -> None:
    """Both samplers (rejection, tries=200; card by card, tries=0) respect every fact."""
    view = _random_view(seed, steps)
    hands, talon = sample_hidden(view, random.Random(seed), tries=tries)
    assert hands[view.seat] == sorted(view.hand)
    assert [len(h) for h in hands] == list(view.hand_sizes)
    assert len(talon) == view.talon_size
    everything = [c for h in hands for c in h] + talon + [c for _, c in view.played]
    assert sorted(c.index for c in everything) == list(range(52))
    if not view.rules.may_stop:
        for seat, rank in view.passes:
            assert all(int(c.rank) != rank for c in hands[seat])
    # The sampled deal replays: the same moves are legal from it, and the seat sees the same.
    start = initial_hands(view, hands)
    replay = Round(view.rules, [60] * view.players, [0] * 5, view.dealer, start, talon)
    for move in _moves(view):
        replay.apply(move)
    assert view_of(replay, view.seat) == view


def _hall(counts: dict[int, int], caps: dict[int, int], banned: dict[int, frozenset[int]]) -> bool:
    ranks = [r for r, k in counts.items() if k]
    for size in range(1, len(ranks) + 1):
        for group in itertools.combinations(ranks, size):
            room = sum(
                cap for h, cap in caps.items() if any(r not in banned.get(h, ()) for r in group)
            )
            if sum(counts[r] for r in group) > room:
                return False
    return True


@settings(max_examples=150, deadline=None)
@given(
    counts=st.dictionaries(st.integers(1, 5), st.integers(0, 4), max_size=5),
    caps=st.dictionaries(st.integers(-1, 3), st.integers(0, 5), min_size=1, max_size=4),
    banned_lists=st.dictionaries(st.integers(-1, 3), st.sets(st.integers(1, 5)), max_size=4),
)
def test_the_max_flow_feasibility_check_agrees_with_halls_theorem(
    counts: dict[int, int], caps: dict[int, int], banned_lists: dict[int, set[int]]
) -> None:
    banned = {h: frozenset(s) for h, s in banned_lists.items()}
    assert _feasible(Counter(counts), dict(caps), banned) == _hall(counts, caps, banned)
