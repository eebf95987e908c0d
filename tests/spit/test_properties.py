"""Invariants over random streams of legal and corrupted actions from both seats."""

from __future__ import annotations

import copy
import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import DECK, Card
from cardroom.games.realtime_engine import RealtimeIllegal
from cardroom.games.spit import (
    CALL_SPIT,
    Action,
    Choose,
    Move,
    Play,
    Slap,
    SpitGame,
    SpitRules,
    TurnUp,
    action_from_json,
    game_from_header,
    record_header,
    view_of,
)

rules_strategy = st.builds(
    SpitRules,
    piles=st.sampled_from([5, 4]),
    slap=st.sampled_from(["race", "chooser"]),
    alternate_colours=st.booleans(),
)


def corrupted(g: SpitGame, seat: int, rng: random.Random) -> Action:
    """An action that is often illegal: wrong seen card, wrong pile, someone else's card…"""
    card = rng.choice(DECK)
    legal = g.legal_actions(seat)
    plays = [a for a in legal if isinstance(a, Play)]
    k = rng.randrange(9)
    if k == 0 and plays:
        a = rng.choice(plays)
        return Play(a.card, a.pile, rng.choice(DECK))  # usually a stale "seen"
    if k == 1 and plays:
        a = rng.choice(plays)
        return Play(a.card, 1 - a.pile, a.seen)
    if k == 2:
        return Play(card, rng.randrange(3), None)
    if k == 3:
        return TurnUp(rng.randrange(6))
    if k == 4:
        return Move(card, rng.randrange(6))
    if k == 5:
        return CALL_SPIT
    if k == 6:
        return Slap(rng.randrange(2))
    if k == 7:
        return Choose(rng.randrange(2))
    other = g.legal_actions(1 - seat)
    return rng.choice(other) if other else CALL_SPIT


def cards_in(view: object) -> set[Card]:
    """Every card object reachable from a view (its fields, tuples, actions)."""
    found: set[Card] = set()
    stack: list[object] = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, Card):
            found.add(item)
        elif isinstance(item, (tuple, list)):
            stack.extend(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
    return found


def check_cards(g: SpitGame) -> None:
    places: list[Card] = []
    for seat in (0, 1):
        for pile in g.stock(seat):
            places.extend(pile)
        places.extend(g.spit_pile(seat))
    places.extend(g.centre(0) + g.centre(1))
    assert len(places) == 52 and set(places) == set(DECK)
    assert set(g.locations()) == set(DECK)
    assert g._stuck() == (not (g._can_progress(0) or g._can_progress(1))), "stale memo"
    for seat in (0, 1):
        for pile, up in zip(g.stock(seat), g.face_up(seat), strict=True):
            assert pile or not up, "an empty pile cannot show a card"


def hidden_shuffled(g: SpitGame, rng: random.Random) -> SpitGame:
    """A copy where every card no seat may see has been shuffled among the hidden places."""
    h = copy.deepcopy(g)
    slots: list[tuple[list[Card], int]] = []
    for seat in (0, 1):
        for i, pile in enumerate(h._stock[seat]):
            hidden = len(pile) - 1 if h._up[seat][i] else len(pile)
            slots.extend((pile, j) for j in range(hidden))
        slots.extend((h._spit[seat], j) for j in range(len(h._spit[seat])))
    for pile in h._centre:
        slots.extend((pile, j) for j in range(len(pile) - 1))
    cards = [lst[j] for lst, j in slots]
    rng.shuffle(cards)
    for (lst, j), c in zip(slots, cards, strict=True):
        lst[j] = c
    return h


def random_game(
    rules: SpitRules, seed: int, stream: int, bad: float, max_steps: int, deep: bool
) -> tuple[SpitGame, list[tuple[int | None, Action | None]]]:
    """Play a random stream; check every invariant; return the game and its accepted log."""
    g = SpitGame.new(rules, seed)
    rng = random.Random(stream)
    log: list[tuple[int | None, Action | None]] = []
    shuffled = 0
    for step in range(max_steps):
        if g.over:
            break
        if g.stalemate and rng.random() < 0.25:
            g.resolve_stalemate()
            log.append((None, None))
            check_cards(g)
            continue
        seat = rng.randrange(2)
        legal = g.legal_actions(seat)
        assert g.view(seat) == view_of(g, seat), "the cached view is out of date"
        assert g.view(seat).legal_actions == tuple(legal)
        if legal and rng.random() >= bad:
            action = rng.choice(legal)
            assert g.why_illegal(seat, action) is None
        else:
            action = corrupted(g, seat, rng)
        deep_now = deep and step % 10 == 0
        before = g.snapshot()
        if isinstance(action, Play) and action.seen is None and action.pile in (0, 1):
            as_listed: Action = Play(action.card, action.pile, g.top(action.pile))
        else:
            as_listed = action
        views = (g.view(0), g.view(1)) if deep_now else None
        why = g.why_illegal(seat, action)
        assert g.snapshot() == before
        try:
            g.apply(seat, action)
        except RealtimeIllegal as exc:
            assert why == exc.reason
            assert g.snapshot() == before, f"rejected {action} changed the state"
            if views is not None:
                assert (view_of(g, 0), view_of(g, 1)) == views
        else:
            assert why is None, f"{action} was applied although {why}"
            assert as_listed in legal, f"{action} was accepted but is not in legal_actions"
            log.append((seat, action))
            assert g.action_from_json(g.action_to_json(action)) == action
        check_cards(g)
        if deep_now:
            shown = {g.top(0), g.top(1)} | {
                p[-1] for s in (0, 1) for p, up in zip(g.stock(s), g.face_up(s), strict=True) if up
            }
            for s in (0, 1):
                assert cards_in(g.view(s)) <= shown, "a view holds a card nobody may see"
            h = hidden_shuffled(g, rng)
            shuffled += h.snapshot() != g.snapshot()
            for s in (0, 1):
                assert view_of(h, s) == view_of(g, s) == g.view(s), "a view shows a hidden card"
    assert shuffled or not deep, "the hidden-card check never shuffled anything"
    return g, log


@settings(max_examples=20, deadline=None)
@given(rules_strategy, st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_streams_keep_every_invariant(rules: SpitRules, seed: int, stream: int) -> None:
    random_game(rules, seed, stream, bad=0.35, max_steps=1000, deep=True)


@settings(max_examples=20, deadline=None)
@given(rules_strategy, st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_play_with_the_countdown_always_ends(
    rules: SpitRules, seed: int, stream: int
) -> None:
    g, _ = random_game(rules, seed, stream, bad=0.05, max_steps=60_000, deep=False)
    assert g.over and g.winner in (0, 1)
    assert g.cards_left(g.winner) == 0 and g.cards_left(1 - g.winner) > 0
    assert g.legal_actions(0) == [] and g.legal_actions(1) == []


@settings(max_examples=15, deadline=None)
@given(rules_strategy, st.integers(0, 2**32), st.integers(0, 2**32))
def test_the_record_header_round_trips_and_replays_the_same_game(
    rules: SpitRules, seed: int, stream: int
) -> None:
    g, log = random_game(rules, seed, stream, bad=0.2, max_steps=800, deep=False)
    header = json.loads(json.dumps(record_header(g, ["Ann", "Bob"])))
    assert header["game"] == "spit" and header["players"] == ["Ann", "Bob"]
    again = game_from_header(header)
    assert again.rules == rules and again.deal == g.deal and again.seed == g.seed
    assert record_header(again, ["Ann", "Bob"]) == header
    for seat, action in log:
        if seat is None:
            again.resolve_stalemate()
        else:
            assert action is not None
            again.apply(seat, action_from_json(json.loads(json.dumps(g.action_to_json(action)))))
    assert again.snapshot() == g.snapshot()
