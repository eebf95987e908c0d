"""Reaction bots: their timing per level, looking again after a stale play, and blindness to
everything their seat's view hides."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardroom.arbiter import Arbiter, VirtualClock
from cardroom.bots.base import BotError
from cardroom.bots.reaction import LEVELS, Timing, make_reaction_bot
from cardroom.cards import DECK, Card
from cardroom.games.registry import new_engine
from cardroom.games.speed import CALL, Play, SpeedGame, SpeedRules
from cardroom.sim.realtime import Table
from tests.speed.deals import make_deal


@pytest.mark.parametrize("level", list(LEVELS))
def test_reaction_and_reaim_times_stay_in_the_level_range(level: str) -> None:
    timing = LEVELS[level]
    bot = make_reaction_bot(level, "speed", 0, random.Random(level))
    game = SpeedGame.new(SpeedRules(), 4)
    now = 0.0
    for _ in range(200):
        bot.plan = None
        bot.observe(game.view(0), now)
        assert bot.due is not None and timing.low <= bot.due - now <= timing.high
        now += 1.0
        bot.rejected(True, game.view(0), now)
        assert bot.due is not None
        assert timing.reaim * timing.low <= bot.due - now <= timing.reaim * timing.high
    assert bot.reaims == 200


def test_levels_are_the_documented_ranges() -> None:
    assert {k: (t.low, t.high) for k, t in LEVELS.items()} == {
        "easy": (2.0, 4.0), "medium": (1.0, 3.0), "hard": (0.5, 1.75), "expert": (0.3, 0.6),
    }


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("wizard", "unknown bot 'wizard'"),
        ("easy:min=1", "takes no options"),
        ("reaction:min=2,max=1", "below min"),
        ("reaction:min=-1", "0 or more"),
        ("reaction:min=x", "numbers of seconds"),
        ("reaction:speed=3", "takes min, max and reaim"),
        ("reaction:min=1,max=2,reaim=0", "reaim"),
    ],
)
def test_bad_bot_names_say_what_to_do(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        make_reaction_bot(spec, "speed", 0, random.Random(0))


def test_a_custom_reaction_range_is_used() -> None:
    bot = make_reaction_bot("reaction:min=0.2,max=0.25,reaim=0.4", "speed", 1, random.Random(1))
    assert bot.timing == Timing(0.2, 0.25, 0.4)


def started_speed() -> SpeedGame:
    # Middle cards 7D (pile 0) and 5C (pile 1); seat 0 holds 8S 6H 2C 2D 2H, seat 1 8C 6S ...
    deal = make_deal(middle="7D 5C", draw0="8S 6H 2C 2D 2H", draw1="8C 6S 3C 3D 3H")
    game = SpeedGame(SpeedRules(), deal, 0)
    game.apply(0, CALL)
    game.apply(1, CALL)
    return game


def test_a_bot_keeps_its_aim_is_refused_as_stale_then_reaims() -> None:
    game = started_speed()
    clock = VirtualClock()
    arb: Arbiter[Any, Any] = Arbiter(game, clock, ["A", "B"])
    bot = make_reaction_bot("reaction:min=1,max=1,reaim=0.5", "speed", 0, random.Random(3))
    bot.observe(game.view(0), 0.0)
    planned = bot.plan
    assert planned is not None and planned.due == 1.0
    assert isinstance(planned.action, Play) and planned.action.seen is game.top(planned.action.pile)
    pile = planned.action.pile
    # The opponent plays on that very pile first: the bot is told, but its hand is moving.
    theirs = next(a for a in game.legal_actions(1) if isinstance(a, Play) and a.pile == pile)
    assert arb.submit(1, theirs, 0.5).accepted
    bot.observe(game.view(0), 0.5)
    assert bot.plan is planned
    out = arb.submit(0, bot.act(1.0), 1.0)
    assert out.stale
    bot.rejected(out.stale, game.view(0), 1.0)
    assert bot.due == 1.5 and bot.reaims == 1


def test_a_phase_change_makes_the_bot_look_again() -> None:
    deal = make_deal(middle="7D 5C", draw0="8S 2C 2D 2H 10C")
    game = SpeedGame(SpeedRules(), deal, 0)
    bot = make_reaction_bot("reaction:min=2,max=2", "speed", 0, random.Random(0))
    bot.observe(game.view(0), 0.0)
    assert bot.plan is not None and bot.plan.action == CALL
    game.resolve_stalemate()  # the countdown turns the middle cards before the bot calls
    bot.observe(game.view(0), 1.0)
    assert bot.plan is not None and bot.plan.due == 3.0
    assert bot.plan.action == Play(Card.parse("8S"), 0, Card.parse("7D"))


def _swap(deal: list[Card], a: int, b: int) -> list[Card]:
    out = list(deal)
    out[a], out[b] = out[b], out[a]
    return out


HIDDEN_SWAPS = {
    # Speed: the bottoms of the two side piles, the bottom two of seat 1's draw pile.
    "speed": ((9, 19), (50, 51)),
    # Spit: the last two of seat 0's own spit pile, the two bottom cards of seat 1's fifth
    # stock pile (face down under three more).
    "spit": ((24, 25), (36, 37)),
}


@pytest.mark.parametrize("game", ["speed", "spit"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hidden_cards_do_not_change_a_bots_decisions(game: str, seed: int) -> None:
    """Swap hidden cards: until one of them is shown to seat 0, its bot makes exactly the same
    moves at the same times (and so does seat 1's, which cannot see them either)."""
    deal = list(DECK)
    random.Random(seed).shuffle(deal)
    other = deal
    for a, b in HIDDEN_SWAPS[game]:
        other = _swap(other, a, b)
    tables = []
    for cards in (deal, other):
        engine = new_engine(game, {}, 0)
        engine = type(engine)(engine.rules, cards, seed)
        clock = VirtualClock()
        arb: Arbiter[Any, Any] = Arbiter(engine, clock, ["A", "B"])
        bots = [
            make_reaction_bot("hard", game, s, random.Random(f"{seed}/{s}")) for s in (0, 1)
        ]
        table = Table(engine, arb, clock, bots, keep_trace=True)
        table.show(0.0)
        tables.append(table)
    first, second = tables
    steps = 0
    while first.engine.view(0) == second.engine.view(0) and steps < 400:
        assert first.trace == second.trace
        assert first.bots[0].plan == second.bots[0].plan
        if not (first.step() and second.step()):
            break
        steps += 1
    assert first.engine.snapshot() != second.engine.snapshot()
    mine = [t for t in first.trace if t[1] == 0]
    assert len(mine) >= 8, "the hidden cards came up too soon for a meaningful test"
