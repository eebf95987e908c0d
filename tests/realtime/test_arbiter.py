"""The arbiter on a virtual clock, with the small ``fake`` game (tests/realtime/fake.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from cardroom.arbiter import (
    Arbiter,
    ArbiterError,
    RecordError,
    VirtualClock,
    replay,
    replay_any,
)
from cardroom.cards import parse_cards
from cardroom.games.registry import REALTIME, Game, register, unregister
from tests.realtime.fake import Call, FakeGame, FakeRules, Play, Slap, new_game

C = parse_cards


@pytest.fixture(autouse=True)
def _fake_records() -> Iterator[None]:
    fake = "tests.realtime.fake"
    register(
        Game(
            "fake", "Fake", REALTIME, (2, 2), f"{fake}:FakeRules", f"{fake}:FakeGame",
            f"{fake}:FakeView", fake, "cardroom.tables.realtime:RealtimeTable", "builtins:int",
        )
    )  # fmt: skip
    yield
    unregister("fake")


def table(
    hands: tuple[str, str] = ("5C 9D", "5H 2S"), side: str = "KC 4D 6S", countdown: float = 3.0
) -> tuple[FakeGame, VirtualClock, Arbiter[Any, Any]]:
    """Side cards are popped from the end: the first flip turns 6S (pile 0) and 4D (pile 1)."""
    game = new_game([C(hands[0]), C(hands[1])], C(side), FakeRules(countdown))
    clock = VirtualClock()
    return game, clock, Arbiter(game, clock, ["Ann", "Bob"])


def started() -> tuple[FakeGame, VirtualClock, Arbiter[Any, Any]]:
    game, clock, arb = table()
    assert arb.submit(0, Call(), 0.5).accepted
    assert arb.submit(1, Call(), 0.7).accepted
    assert [c.code for c in (game.top(0), game.top(1)) if c] == ["6S", "4D"]
    return game, clock, arb


def test_clocks_never_go_back() -> None:
    clock = VirtualClock(2.0)
    assert clock.advance(0.5) == 2.5
    assert clock.advance_to(4.0) == 4.0
    with pytest.raises(ValueError):
        clock.advance_to(3.0)
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_actions_posted_out_of_order_are_applied_in_time_order() -> None:
    game, _, arb = started()
    (six,) = C("6S")
    arb.post(1, Play(C("5H")[0], 0, six), 2.0)
    arb.post(0, Play(C("5C")[0], 0, six), 1.5)
    done = arb.advance(3.0)
    assert [(seat, out.accepted) for seat, _, out in done] == [(0, True), (1, False)]
    assert game.top(0) == C("5C")[0]
    assert done[1][2].stale
    assert [e.t for e in arb.log[-2:]] == [1.5, 2.0]


def test_stale_action_changes_nothing_and_is_logged() -> None:
    game, _, arb = started()
    (five_c, five_h, six) = C("5C 5H 6S")
    assert arb.submit(0, Play(five_c, 0, six), 1.0).accepted
    before = game.snapshot()
    out = arb.submit(1, Play(five_h, 0, six), 1.1)
    assert not out.accepted and out.stale
    assert out.reason == "stale: pile 0 now shows 5C, not 6S"
    assert game.snapshot() == before
    last = arb.log[-1]
    assert (last.t, last.seat, last.accepted, last.reason) == (1.1, 1, False, out.reason)
    # An illegal but not stale action is rejected the same way, with its own reason.
    out = arb.submit(1, Play(C("2S")[0], 1, None), 1.2)
    assert (out.accepted, out.stale, out.reason) == (False, False, "2S does not fit on 4D")
    assert game.snapshot() == before


def test_countdown_resolves_the_start_at_exactly_the_deadline() -> None:
    game, _, arb = table(countdown=3.0)
    assert arb.deadline == 3.0
    assert arb.tick(2.999) == []
    assert game.phase == "start"
    (entry,) = arb.tick(3.0)
    assert (entry.t, entry.seat, entry.accepted) == (3.0, None, True)
    assert game.phase == "play" and game.top(0) == C("6S")[0]
    assert arb.deadline is None and arb.timeouts == 1 and arb.stalemates == 0


def test_an_action_after_the_deadline_comes_after_the_timeout() -> None:
    _, _, arb = table(countdown=2.0)
    out = arb.submit(0, Play(C("5C")[0], 0, C("6S")[0]), 5.0)
    assert out.accepted
    assert [(e.t, e.seat) for e in arb.log] == [(2.0, None), (5.0, 0)]


def test_one_call_waits_both_calls_resolve_and_zero_countdown_never_times_out() -> None:
    game, _, arb = table(countdown=0.0)
    assert arb.deadline is None
    assert arb.submit(0, Call(), 1.0).accepted
    assert arb.tick(100.0) == [] and game.phase == "start"
    again = arb.submit(0, Call(), 101.0)
    assert (again.accepted, again.reason) == (False, "already called")
    assert arb.submit(1, Call(), 102.0).accepted
    assert game.phase == "play" and arb.timeouts == 0


def test_a_stalemate_in_play_is_counted_and_timed_from_when_it_began() -> None:
    # 5C on 6S leaves nothing playable: seat 0 holds 9D, seat 1 holds 9H 2S; tops 5C and 4D.
    game, _, arb = table(hands=("5C 9D", "9H 2S"), side="7C 10H KC 4D 6S", countdown=3.0)
    arb.tick(3.0)
    assert arb.submit(0, Play(C("5C")[0], 0, C("6S")[0]), 4.0).accepted
    assert game.stalemate and arb.stalemate_since == 4.0 and arb.deadline == 7.0
    assert arb.stalemates == 1
    (entry,) = arb.tick(7.5)
    assert entry.t == 7.0
    # KC (pile 0) and 10H (pile 1) come up: 9D and 9H fit 10H.
    assert not game.stalemate and game.top(1) == C("10H")[0]


def test_both_slap_the_same_pile_first_by_time_wins() -> None:
    game, _, arb = table(hands=("5C", "9H 2S"))
    arb.tick(3.0)
    assert arb.submit(0, Play(C("5C")[0], 0, C("6S")[0]), 4.0).accepted
    assert game.phase == "slap"
    arb.post(1, Slap(0), 4.9)
    arb.post(0, Slap(0), 4.8)
    done = arb.advance(6.0)
    assert [(seat, out.accepted) for seat, _, out in done] == [(0, True), (1, False)]
    assert game.took == [0, 1]


def test_bad_submissions_are_refused_and_change_nothing() -> None:
    game, _, arb = started()
    before = (game.snapshot(), len(arb.log))
    with pytest.raises(ArbiterError):
        arb.submit(2, Call(), 1.0)
    with pytest.raises(ArbiterError, match="time order"):
        arb.submit(0, Call(), 0.1)
    assert (game.snapshot(), len(arb.log)) == before


def played_record() -> dict[str, object]:
    game, _, arb = table(hands=("5C 9D", "5H 4S"), side="7C 10H KC 4D 6S", countdown=3.0)
    arb.submit(1, Call(), 1.0)
    arb.tick(3.0)  # seat 0 never called: the countdown turns 6S and 4D
    arb.submit(0, Play(C("5C")[0], 0, C("6S")[0]), 3.5)
    arb.submit(1, Play(C("5H")[0], 0, C("6S")[0]), 3.6)  # stale
    arb.submit(1, Play(C("5H")[0], 1, C("4D")[0]), 3.9)
    arb.submit(1, Play(C("4S")[0], 0, C("5C")[0]), 4.2)
    assert game.winner == 1
    record = arb.record()
    replayed: dict[str, object] = json.loads(json.dumps(record))
    return replayed


def test_a_record_replays_to_the_same_state_and_flags() -> None:
    record = played_record()
    actions = record["actions"]
    assert isinstance(actions, list)
    assert [(a["seat"], a["accepted"]) for a in actions] == [
        (1, True), (None, True), (0, True), (1, False), (1, True), (1, True),
    ]
    assert actions[1] == {"t": 3.0, "seat": None, "action": {"type": "timeout"}, "accepted": True}
    assert actions[3]["reason"] == "stale: pile 0 now shows 5C, not 6S"
    rep = replay(record)
    assert rep.engine.winner == 1
    assert rep.engine.snapshot()[2] == [C("6S 5C 4S"), C("4D 5H")]
    assert [e.accepted for e in rep.arbiter.log] == [a["accepted"] for a in actions]
    assert len(replay_any([record, record])) == 2


@pytest.mark.parametrize(
    ("number", "change", "message"),
    [
        (4, {"accepted": True}, "recorded as accepted but is illegal: stale"),
        (3, {"accepted": False}, "recorded as rejected"),
        (2, {"t": 3.5}, "ran out at 3.5, but it runs out at 3.0"),
        (3, {"seat": 2}, "seat must be 0, 1 or null"),
        (3, {"action": {"type": "dance"}}, "unknown action type"),
        (3, {"t": "soon"}, "must be a number of seconds"),
        (5, {"t": 1.0}, "earlier than the action before"),
    ],
)
def test_a_tampered_record_fails_naming_the_action(
    number: int, change: dict[str, object], message: str
) -> None:
    record = played_record()
    actions = record["actions"]
    assert isinstance(actions, list)
    actions[number - 1] = {**actions[number - 1], **change}
    with pytest.raises(RecordError, match=message) as info:
        replay(record)
    assert info.value.action == number
    assert str(info.value).startswith(f"action {number}: ")


def test_a_missing_timeout_or_a_made_up_one_is_caught() -> None:
    record = played_record()
    actions = record["actions"]
    assert isinstance(actions, list)
    del actions[1]  # the play at 3.5 now meets the countdown that ran out at 3.0
    with pytest.raises(RecordError, match="before this action") as info:
        replay(record)
    assert info.value.action == 2
    record = played_record()
    actions = record["actions"]
    assert isinstance(actions, list)
    actions.insert(3, {"t": 3.55, "seat": None, "action": {"type": "timeout"}, "accepted": True})
    with pytest.raises(RecordError, match="no countdown is running") as info:
        replay(record)
    assert info.value.action == 4


def test_a_match_record_names_the_game_at_fault() -> None:
    good, bad = played_record(), played_record()
    bad_actions = bad["actions"]
    assert isinstance(bad_actions, list)
    bad_actions[2]["accepted"] = False
    with pytest.raises(RecordError) as info:
        replay_any([good, bad])
    assert (info.value.game, info.value.action) == (2, 3)
    assert str(info.value).startswith("game 2: action 3: ")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "non-empty list"),
        ("x", "JSON object"),
        ({"game": "chess"}, "unknown real-time game 'chess'"),
        ({"game": "fake", "rules": {}}, "bad fake header"),
    ],
)
def test_malformed_records_say_what_is_wrong(data: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay_any(data)


def test_a_stalemate_right_after_both_calls_gets_a_fresh_countdown() -> None:
    # Both call at the start; 6S and 4D fit neither 9D nor 9H: a new stalemate from t=1.5.
    game, _, arb = table(hands=("9D", "9H"), side="10C 7H KC 4D 6S", countdown=3.0)
    assert arb.submit(0, Call(), 1.0).accepted
    assert arb.deadline == 3.0
    assert arb.submit(1, Call(), 1.5).accepted
    assert game.stalemate and game.top(0) == C("6S")[0]
    assert (arb.stalemate_since, arb.deadline, arb.stalemates) == (1.5, 4.5, 1)
    assert arb.tick(3.0) == []
    (entry,) = arb.tick(4.5)
    assert entry.t == 4.5 and game.top(0) == C("KC")[0]
