"""Invariants over streams of random legal and illegal actions from both seats."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import DECK, Card
from cardroom.games.realtime_engine import RealtimeIllegal
from cardroom.games.speed import (
    CALL,
    Action,
    NoStalemate,
    Play,
    SpeedGame,
    SpeedRules,
    action_from_json,
    action_to_json,
    game_from_header,
    record_header,
    view_of,
)

rules_st = st.builds(
    SpeedRules, side_piles=st.sampled_from([10, 5]), score_hand=st.booleans()
)
MAX_STUCK_FLIPS = 50
"""While nobody can play: drain the side piles (at most 24 cards each) and one rebuilt pair
(24 each) before a card that fits comes up (see docs)."""


def cards_in(view: object) -> set[Card]:
    """Every card reachable from a view's fields."""
    found: set[Card] = set()
    stack: list[object] = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, Card):
            found.add(item)
        elif isinstance(item, (tuple, list, frozenset, set)):
            stack.extend(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
    return found


def check_cards(game: SpeedGame) -> None:
    """The 52 cards are each in exactly one place."""
    locs = game.locations()
    assert set(locs) == set(DECK)
    middle = 0 if game.started else 2
    total = (
        sum(game.side_sizes())
        + sum(game.centre_sizes())
        + sum(game.hand_sizes())
        + sum(game.draw_sizes())
        + middle
    )
    assert total == 52
    for seat in (0, 1):
        assert len(game.hand(seat)) == min(5, game.cards_left(seat))


def random_action(rng: random.Random, game: SpeedGame) -> tuple[int, Action]:
    """Any action at all, legal or not, from either seat (sometimes a seat that isn't there)."""
    seat = rng.choice([0, 1, 0, 1, 0, 1, 2])
    if rng.random() < 0.2:
        return seat, CALL
    if rng.random() < 0.5 and seat in (0, 1) and game.hand(seat):
        card = rng.choice(game.hand(seat))
    else:
        card = rng.choice(DECK)
    pile = rng.choice([0, 1, 0, 1, 2])
    tops = [game.top(0), game.top(1)]
    seen = rng.choice([None, rng.choice(DECK), *tops])
    return seat, Play(card, pile, seen)


def play_out(game: SpeedGame, rng: random.Random, on_step: object = None) -> int:
    """Random legal and illegal actions until the game ends; returns the accepted steps."""
    accepted = 0
    # Each accepted action is a play, a call or a flip: at most 40 plays, and between two plays
    # two calls per flip and the flips themselves (flips while someone could play come only from
    # the countdown, which this driver runs 1 step in 10: a loose bound).
    bound = 40 * (3 * 4 * MAX_STUCK_FLIPS + 1) + 3
    while not game.over:
        assert accepted <= bound, "the game does not end"
        r = rng.random()
        if r < 0.35:
            seat, action = random_action(rng, game)
            reason = game.why_illegal(seat, action)
            before = game.snapshot()
            try:
                game.apply(seat, action)
            except RealtimeIllegal as exc:
                assert reason is not None and exc.reason == reason
                assert game.snapshot() == before
                continue
            assert reason is None
        elif r < 0.45 or not (game.legal_actions(0) or game.legal_actions(1)):
            before = game.snapshot()
            try:
                game.resolve_stalemate()
            except NoStalemate:
                assert not game.stalemate and game.snapshot() == before
                continue
        else:
            seat = rng.choice([s for s in (0, 1) if game.legal_actions(s)])
            action = rng.choice(game.legal_actions(seat))
            assert game.why_illegal(seat, action) is None
            game.apply(seat, action)
        accepted += 1
        check_cards(game)
        assert game.plays <= 2 * game.rules.draw_pile
        if callable(on_step):
            on_step(game)
    return accepted


@settings(max_examples=60, deadline=None)
@given(rules=rules_st, seed=st.integers(0, 2**32), driver=st.integers(0, 2**32))
def test_random_streams_keep_every_invariant(rules: SpeedRules, seed: int, driver: int) -> None:
    game = SpeedGame.new(rules, seed)
    check_cards(game)
    stuck_since = [0]

    def no_endless_flipping(g: SpeedGame) -> None:
        if not g.stuck:
            stuck_since[0] = g.flips
        assert g.flips - stuck_since[0] <= MAX_STUCK_FLIPS

    play_out(game, random.Random(driver), no_endless_flipping)
    res = game.result
    assert res is not None and game.phase == "over"
    left = (game.cards_left(0), game.cards_left(1))
    assert res.cards_left == left

    def points(loser: int) -> int:
        draw = game.draw_sizes()[loser]  # the hand too with score_hand or an empty draw pile
        return draw + game.hand_sizes()[loser] if rules.score_hand or draw == 0 else draw

    if not res.blocked:
        assert res.winner is not None and left[res.winner] == 0
        assert res.points == points(1 - res.winner)
    elif res.winner is None:
        assert left[0] == left[1] and res.points == 0
    else:
        assert left[res.winner] < left[1 - res.winner]
        assert res.points == points(1 - res.winner)
    assert game.legal_actions(0) == [] == game.legal_actions(1)


def hidden_shuffle(game: SpeedGame, seat: int, rng: random.Random) -> SpeedGame:
    """A copy where every card ``seat`` cannot see is shuffled among the places it cannot see:
    the other hand, both draw piles, the side piles, the face-down middle cards and the cards
    under the centre tops (each place keeps its size). Any rank may land anywhere, so whether
    the other player can play changes freely."""
    other = copy.deepcopy(game)
    places: list[tuple[list[Any], int]] = []
    hidden: list[list[Any]] = [*other._side, *other._draw, other._hand[1 - seat], other._middle]
    for pile in hidden:
        places.extend((pile, j) for j, c in enumerate(pile) if c is not None)
    for pile in other._centre:
        places.extend((pile, j) for j in range(len(pile) - 1))
    cards = [pile[j] for pile, j in places]
    rng.shuffle(cards)
    for (pile, j), card in zip(places, cards, strict=True):
        pile[j] = card
    return other


@settings(max_examples=30, deadline=None)
@given(rules=rules_st, seed=st.integers(0, 2**32), driver=st.integers(0, 2**32))
def test_views_and_legal_actions_depend_only_on_what_the_seat_sees(
    rules: SpeedRules, seed: int, driver: int
) -> None:
    game = SpeedGame.new(rules, seed)
    rng = random.Random(driver)
    changed = [0, 0]
    """Swaps that changed the state / whether the other seat can play."""

    def check(g: SpeedGame) -> None:
        for seat in (0, 1):
            view = view_of(g, seat)
            visible = set(g.hand(seat)) | {c for c in (g.top(0), g.top(1)) if c is not None}
            assert cards_in(view) <= visible
            swapped = hidden_shuffle(g, seat, rng)
            assert view_of(swapped, seat) == view
            assert swapped.legal_actions(seat) == g.legal_actions(seat)
            assert swapped.why_illegal(seat, CALL) == g.why_illegal(seat, CALL)
            assert (swapped.phase, swapped.stalemate) == (g.phase, g.stalemate)
            changed[0] += swapped.snapshot() != g.snapshot()
            changed[1] += swapped.can_play(1 - seat) != g.can_play(1 - seat)

    check(game)
    play_out(game, rng, check)
    assert changed[0] > 0, "the swaps never changed a hidden card"


@settings(max_examples=25, deadline=None)
@given(rules=rules_st, seed=st.integers(0, 2**32), driver=st.integers(0, 2**32))
def test_header_round_trips_and_replays(rules: SpeedRules, seed: int, driver: int) -> None:
    rules = dataclasses.replace(rules, countdown=float(driver % 5), target=driver % 3 * 25)
    game = SpeedGame.new(rules, seed)
    header = json.loads(json.dumps(record_header(game, ["Ann", "Bob"])))
    assert header["game"] == "speed" and header["players"] == ["Ann", "Bob"]
    again = game_from_header(header)
    assert again.rules == rules and again.seed == seed and again.deal == game.deal
    assert again.snapshot() == game.snapshot()
    log: list[tuple[int, dict[str, object] | None]] = []
    rng = random.Random(driver)
    while not game.over:
        acts = [(s, a) for s in (0, 1) for a in game.legal_actions(s)]
        if rng.random() < 0.3 and game.stalemate:
            game.resolve_stalemate()
            log.append((-1, None))
        elif acts:
            seat, action = rng.choice(acts)
            game.apply(seat, action)
            log.append((seat, json.loads(json.dumps(action_to_json(action)))))
        else:
            game.resolve_stalemate()
            log.append((-1, None))
    for seat, data in log:
        if data is None:
            again.resolve_stalemate()
        else:
            action = action_from_json(data)
            assert action_to_json(action) == data
            again.apply(seat, action)
    assert again.snapshot() == game.snapshot()
    assert again.result == game.result
