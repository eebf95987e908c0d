"""No bot can see a hidden card; the search bot's sampled deals agree with what the seat knows."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.bots import make_bot
from cardroom.cards import parse_card
from cardroom.games.nain_jaune import Round, Rules, view_of
from cardroom.games.nain_jaune.bots.search import known_lacks, rebuild, sample_hidden, unseen_cards
from tests.nain_jaune.test_properties import cards_in_view, rules_strategy

BOTS = [
    "random",
    "greedy",
    "heuristic",
    "search:iterations=3",
    "search:iterations=2,policy=greedy",
    "expert:iterations=20",
    "expert:iterations=5,lookahead=on",
    "expert:iterations=5,model=fit",
    "expert:iterations=5,model=learned",
]


def advance(rnd: Round, steps: int, seed: int) -> None:
    """Play ``steps`` random legal actions (fewer if the round ends first)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if rnd.result is not None:
            return
        actions = rnd.legal_actions()
        rnd.apply(actions[rng.randrange(len(actions))])


@settings(max_examples=60, deadline=None)
@given(
    rules=rules_strategy,
    players=st.integers(2, 8),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 120),
)
def test_sampled_deals_agree_with_the_seat_knowledge(
    rules: Rules, players: int, seed: int, steps: int
) -> None:
    rnd = Round.deal(rules, [60] * players, [0] * 5, seed % players, random.Random(seed))
    advance(rnd, steps, seed)
    for seat in range(players):
        view = view_of(rnd, seat)
        hands, talon = sample_hidden(view, random.Random(seed + seat))
        assert hands[seat] == list(view.hand)
        assert [len(h) for h in hands] == list(view.hand_sizes)
        assert len(talon) == view.talon_size
        hidden = [c for p, h in enumerate(hands) if p != seat for c in h] + talon
        assert sorted(hidden) == sorted(unseen_cards(view))
        lacks = known_lacks(view)
        for p, hand in enumerate(hands):
            assert not any(lacks[p] >> int(c.rank) & 1 for c in hand)
        if not rules.may_stop:  # every "without X" is true of the real hands, so of the sample
            for p, rank in view.passes:
                assert all(c.rank != rank for c in rnd.hands[p])
        # the sampled world, rebuilt, shows this seat exactly what the real one does
        if rnd.result is None:
            assert view_of(rebuild(view, (hands, talon)), seat) == view


def test_sampling_respects_strong_constraints() -> None:
    # Seat 0 leads 5C 6C; nobody else holds a 7 (all in the talon): both others said
    # "without 7" so no sample may give them one, however the rest is dealt.
    from tests.bots.test_heuristic import after_the_dead_seven

    rnd = after_the_dead_seven(Rules())
    view = view_of(rnd, 0)
    for s in range(50):
        hands, talon = sample_hidden(view, random.Random(s))
        assert all(c.rank != 7 for c in hands[1] + hands[2])
        assert sum(c.rank == 7 for c in talon) == 4


@settings(max_examples=15, deadline=None)
@given(
    rules=rules_strategy,
    players=st.integers(2, 6),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 80),
)
def test_swapping_hidden_cards_changes_no_decision(
    rules: Rules, players: int, seed: int, steps: int
) -> None:
    rnd = Round.deal(rules, [60] * players, [0] * 5, 0, random.Random(seed))
    advance(rnd, steps, seed)
    if rnd.result is not None:
        return
    seat = rnd.to_act
    view = view_of(rnd, seat)
    # the view holds no card but the seat's own and those played
    assert cards_in_view(view) <= set(view.hand) | {c for _, c in view.played}
    # another true state: the other hands and the talon dealt again, everything public equal
    # (a different deal when one exists: the first of a few samples that differs)
    real = [sorted(h) for p, h in enumerate(rnd.hands) if p != seat] + [sorted(rnd.talon)]
    other = rebuild(view, sample_hidden(view, random.Random(seed)))
    for k in range(1, 10):
        if [sorted(h) for p, h in enumerate(other.hands) if p != seat] + [
            sorted(other.talon)
        ] != real:
            break
        other = rebuild(view, sample_hidden(view, random.Random(seed + k)))
    for spec in BOTS:
        a = make_bot(spec).act(view_of(rnd, seat), random.Random(seed))
        b = make_bot(spec).act(view_of(other, seat), random.Random(seed))
        assert a == b, spec


@pytest.mark.parametrize("spec", BOTS)
def test_every_bot_finishes_rounds_with_legal_actions(spec: str) -> None:
    for seed in range(2):
        rnd = Round.deal(Rules(), [60] * 4, [0] * 5, 0, random.Random(seed))
        bot = make_bot(spec)
        rng = random.Random(seed)
        while rnd.result is None:
            view = view_of(rnd, rnd.to_act)
            action = bot.act(view, rng)
            assert action in view.legal_actions
            rnd.apply(action)


def test_opponent_leads_are_read_from_the_public_events() -> None:
    from cardroom.games.nain_jaune.bots.search import Lead, opponent_leads
    from tests.bots.test_heuristic import after_the_dead_seven

    rnd = after_the_dead_seven(Rules())
    # seen from seat 1: seat 0 led 5C first (stakes on the board: 3 players x 1..5), then
    # led nothing else (8C came after the dead 7, as the next rank, not as a free lead)
    assert opponent_leads(view_of(rnd, 1)) == [Lead(0, parse_card("5C"), 0, 0, (3, 6, 9, 12, 15))]
    assert opponent_leads(view_of(rnd, 0)) == []  # its own leads are not evidence


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6), steps=st.integers(0, 40))
def test_the_true_hands_explain_every_lead_of_heuristic_players(
    players: int, seed: int, steps: int
) -> None:
    # Every seat plays the heuristic, a function of its view: in the true world the heuristic
    # reproduces each lead, so the true hands weigh 1 (a wrong reconstruction would not).
    from cardroom.games.nain_jaune.bots.search import lead_weight, opponent_leads

    rnd = Round.deal(Rules(), [60] * players, [0] * 5, 0, random.Random(seed))
    bot = make_bot("heuristic")
    for _ in range(steps * players):
        if rnd.result is not None:
            return
        rnd.apply(bot.act(view_of(rnd, rnd.to_act), random.Random(0)))
    if rnd.result is not None:
        return
    for seat in range(players):
        view = view_of(rnd, seat)
        assert lead_weight(view, opponent_leads(view), rnd.hands) == 1.0
