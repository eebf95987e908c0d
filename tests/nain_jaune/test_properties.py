"""Invariants over random rounds and games, for every combination of options."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import DECK, Card
from cardroom.games.nain_jaune import Game, Round, Rules, round_record, view_of
from cardroom.games.nain_jaune.engine import Doubled
from cardroom.games.nain_jaune.record import (
    RecordError,
    parse_game,
    parse_round,
    replay_game,
    replay_round,
)
from cardroom.games.nain_jaune.rules import BOARD_SETS, EndCondition

rules_strategy = st.builds(
    Rules,
    starting_chips=st.sampled_from([15, 20, 60]),
    when_blocked=st.sampled_from(["next-rank", "free-restart"]),
    payment=st.sampled_from(["points-ace-low", "card-count", "points-ace-high"]),
    forgotten_announcement=st.sampled_from(["chips-stay", "double-box"]),
    announce=st.sampled_from(["auto", "manual"]),
    grand_opera=st.sampled_from(["one-turn", "no-one-else-played", "off"]),
    may_stop=st.booleans(),
    direction=st.sampled_from(["clockwise", "anticlockwise"]),
    end=st.sampled_from(
        [EndCondition("broke"), EndCondition("last-standing"), EndCondition("rounds", 3)]
    ),
    board_cards=st.sampled_from(list(BOARD_SETS.values())),
)


def cards_in_view(view: object) -> set[Card]:
    """Every card object reachable from a view (its fields, tuples, events)."""
    found: set[Card] = set()
    stack: list[object] = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, Card):
            found.add(item)
        elif isinstance(item, (tuple, list, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, Rules):
            continue
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
    return found


def check_invariants(rnd: Round, total: int) -> None:
    places = [c for h in rnd.hands for c in h] + [c for _, c in rnd.played] + list(rnd.talon)
    assert len(places) == 52 and set(places) == set(DECK)
    assert sum(rnd.chips) + sum(rnd.board) == total
    assert min(rnd.chips) >= 0 and min(rnd.board) >= 0
    played = {c for _, c in rnd.played}
    # at the settlement a player who kept a board card shows it to double its box
    shown = {e.card for e in rnd.events if isinstance(e, Doubled) and e.reason == "held"}
    for seat in range(rnd.n):
        view = view_of(rnd, seat)
        assert cards_in_view(view) <= set(rnd.hands[seat]) | played | shown
        assert set(view.hand) == set(rnd.hands[seat])


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, n=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_random_rounds_keep_every_invariant_and_replay(rules: Rules, n: int, seed: int) -> None:
    rng = random.Random(seed)
    chips = [rng.randrange(0, 80) for _ in range(n)]
    board = [rng.randrange(0, 20) for _ in range(5)]
    rnd = Round.deal(rules, chips, board, rng.randrange(n), rng)
    total = sum(chips) + sum(board)
    check_invariants(rnd, total)
    while not rnd.over:
        actions = rnd.legal_actions()
        assert actions, "a live round always offers an action"
        rnd.apply(actions[rng.randrange(len(actions))])
        check_invariants(rnd, total)
    assert rnd.result is not None
    winner = rnd.result.winner
    assert not rnd.hands[winner]
    assert all(rnd.hands[s] for s in range(n) if s != winner)
    record = json.loads(json.dumps(round_record(rnd, [f"P{i}" for i in range(n)])))
    if rules.end.kind in ("broke", "last-standing") and min(chips) < 15:
        # a game never deals such a round (it ended, or the player dropped out): refused
        with pytest.raises(RecordError, match="cannot stake 15"):
            replay_round(parse_round(record))
        record["rules"] = {**record["rules"], "end": "rounds:3"}
    replayed = replay_round(parse_round(record))
    assert replayed.round.result == rnd.result


@settings(max_examples=25, deadline=None)
@given(rules=rules_strategy, n=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_whole_games_end_and_replay(rules: Rules, n: int, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(rules, [f"P{i}" for i in range(n)])
    total = sum(game.chips)
    while game.result is None and game.rounds_played < 40:
        rnd = game.start_round(rng)
        while not rnd.over:
            actions = rnd.legal_actions()
            rnd.apply(actions[rng.randrange(len(actions))])
        game.finish_round()
        assert sum(game.chips) + sum(game.board) == total
        if rules.end.kind == "last-standing":
            assert all(game.chips[s] >= 15 for s in game.active) or game.result is not None
    replays = replay_game(parse_game(json.loads(json.dumps(game.records))))
    final = replays[-1].round
    assert final.result is not None
    assert list(final.result.board) == game.board
    assert len(replays) == game.rounds_played
    if rules.end.kind == "rounds":
        assert game.result is not None and game.rounds_played == 3
