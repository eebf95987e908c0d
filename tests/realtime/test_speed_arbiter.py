"""Speed's flip under the arbiter: the countdown runs from the first call (a public fact), a
play clears the calls, and a record of such a game replays. Positions worked out by hand."""

from __future__ import annotations

from typing import Any, TypeVar

import pytest

from cardroom.arbiter import Arbiter, VirtualClock, replay
from cardroom.games.realtime_engine import RealtimeEngine, client_action
from cardroom.games.speed import CALL, Blocked, Play, RecordError, SpeedGame, SpeedRules
from cardroom.games.spit import Play as SpitPlay
from cardroom.games.spit import SpitGame
from tests.speed.deals import C, make_deal

# Tops 5H / 9C after the start. Seat 0 holds 6D, kings and (drawn next) 7S; seat 1 twos and JS.
OPENING = make_deal(middle="5H 9C", draw0="6D KS KH KD KC 7S", draw1="2S 2H 2D 2C JS")

A = TypeVar("A")


def table(deal: list[Any], countdown: float = 3.0) -> tuple[SpeedGame, Arbiter[Any, Any]]:
    game = SpeedGame(SpeedRules(countdown=countdown), deal, 0)
    return game, Arbiter(game, VirtualClock(), ["Ann", "Bob"])


def test_the_countdown_runs_from_the_first_call_and_a_play_stops_it() -> None:
    game, arb = table(OPENING)
    assert arb.deadline == 3.0  # the start: public
    arb.tick(3.0)
    assert game.started and arb.deadline is None
    assert not arb.submit(0, CALL, 3.2).accepted  # Ann can play 6D: no call for her
    assert arb.deadline is None
    assert arb.submit(1, CALL, 4.0).accepted  # Bob cannot play: his call starts the countdown
    assert arb.deadline == 7.0 and arb.stalemates == 1
    assert arb.submit(0, Play(C("6D"), 0, C("5H")), 5.0).accepted
    assert game.called == (False, False) and arb.deadline is None  # the call lapsed
    assert arb.submit(1, CALL, 6.0).accepted
    assert arb.deadline == 9.0
    arb.tick(9.0)  # Ann could play 7S on 6D but let the countdown run out: the flip comes
    assert game.flips == 1 and arb.timeouts == 2 and arb.log[-1].timeout  # with the start
    assert arb.stalemates == 2
    data = arb.record()
    assert [a["accepted"] for a in data["actions"]] == [True, False, True, True, True, True]
    again = replay(data)
    assert again.engine.snapshot() == game.snapshot()


def test_a_blocked_game_ends_at_the_flip_and_nothing_is_logged_after() -> None:
    # Hands K K K K Q and Q Q Q J J want 10 J Q K A; every 10, A and the other jacks are in
    # the draw piles, the side piles and middle cards are all 2-7: no flip can ever help.
    deal = make_deal(
        side0="2C 2D 2H 2S 3C 3D 3H 3S 4C 4D",
        side1="4H 4S 5C 5D 5H 5S 6C 6D 6H 6S",
        middle="7C 7D",
        draw0="KS KH KD KC QS",
        draw1="QH QD QC JS JH",
    )
    game, arb = table(deal)
    arb.tick(3.0)
    assert arb.submit(0, CALL, 3.5).accepted
    arb.tick(6.5)
    assert game.over and game.winner is None
    assert arb.log[-1].events == (Blocked(None, (15, 15), 0),)
    assert not arb.submit(1, CALL, 7.0).accepted and len(arb.log) == 3


def test_a_clients_play_must_carry_the_top_card_it_saw() -> None:
    plays = (client_play(SpeedGame.new(SpeedRules(), 1)), client_play(SpitGame.new(seed=1)))
    for play in plays:
        assert isinstance(play, (Play, SpitPlay))
        assert (play.card, play.pile, play.seen) == (C("7D"), 1, C("8C"))
    assert client_action(SpeedGame.new(SpeedRules(), 1), {"type": "call"}) == CALL


def client_play(engine: RealtimeEngine[A, Any]) -> A:
    """A client's play 7D on pile 1 seen on 8C, read by ``engine``, once a play without a
    ``seen`` has been refused in both forms."""
    for data in ({"type": "play", "card": "7D", "pile": 0},
                 {"type": "play", "card": "7D", "pile": 0, "seen": None}):
        with pytest.raises(RecordError, match='a play must carry "seen"'):
            client_action(engine, data)
    return client_action(engine, {"type": "play", "card": "7D", "pile": 1, "seen": "8C"})


def test_an_old_record_with_key_presses_after_the_end_replays_to_the_right_length() -> None:
    # Before the fix the terminal logged every key pressed after the win as a refusal.
    run = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD 2D 3D"
    _, arb = table(make_deal(middle="AC 7H", draw0=run))
    arb.tick(3.0)
    seen = C("AC")
    for n, code in enumerate(run.split()):
        assert arb.submit(0, Play(C(code), 0, seen), 4.0 + n).accepted
        seen = C(code)
    data = arb.record()
    late = {"seat": 0, "action": {"type": "call"}, "accepted": False, "reason": "the game is over"}
    data["actions"] += [{"t": 100.0 + i, **late} for i in range(300)]
    rep = replay(data)
    assert rep.engine.over and len(rep.arbiter.log) == 16
    assert rep.arbiter.time - rep.arbiter.start == 18.0
