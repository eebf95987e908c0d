"""Spit through the arbiter, the reaction bots and the terminal UI."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.widgets import Static

from cardroom.arbiter import VirtualClock, replay
from cardroom.cli.main import cli
from cardroom.games.spit import CallSpit, Play, Slap, SpitGame, SpitRules, TurnUp
from cardroom.games.spit.bots import spit_strategy
from cardroom.sim.realtime import Table, new_table, play_one, run_table
from cardroom.terminal.realtime_tui import RealtimeApp


def table_at_slap(seed: int) -> Table:
    """Two bots play from ``seed`` until the first slap race opens."""
    engine = SpitGame.new(SpitRules(), seed)
    table = new_table(engine, ["expert", "hard"], [random.Random(1), random.Random(2)], ["A", "B"])
    while engine.phase != "slap":
        assert table.step(), "the game ended without a slap race"
    return table


@pytest.mark.parametrize("seed", [1, 2])
def test_both_slap_the_same_pile_the_first_by_time_gets_it(seed: int) -> None:
    table = table_at_slap(seed)
    arb = table.arbiter
    now = arb.time
    arb.post(1, Slap(0), now + 0.30)
    arb.post(0, Slap(0), now + 0.25)
    done = arb.advance(now + 1.0)
    (first, second) = done
    assert (first[0], first[2].accepted) == (0, True)
    assert (second[0], second[2].accepted, second[2].stale) == (1, False, True)
    slapped = [e for e in first[2].events if type(e).__name__ == "Slapped"]
    assert [(e.seat, e.pile) for e in slapped] == [(0, 0)]
    took = {e.seat: e.pile for e in first[2].events if type(e).__name__ == "Took"}
    assert took == {0: 0, 1: 1}


def test_the_bot_slaps_the_smaller_pile() -> None:
    table = table_at_slap(3)
    for seat in (0, 1):
        view = table.engine.view(seat)
        sizes = view.centre_sizes
        action = spit_strategy(view, random.Random(0))
        if sizes[0] != sizes[1]:
            assert action == Slap(0 if sizes[0] < sizes[1] else 1)
        else:
            assert isinstance(action, Slap)


def test_the_bot_calls_spit_when_stuck_and_turns_up_cards() -> None:
    game = SpitGame.new(SpitRules(), 4)
    assert spit_strategy(game.view(0), random.Random(0)) == CallSpit()
    game.resolve_stalemate()
    view = game.view(0)
    action = spit_strategy(view, random.Random(0))
    if any(isinstance(a, Play) for a in view.legal_actions):
        assert isinstance(action, Play)
    elif game.stalemate:
        assert action == CallSpit()
    else:
        assert isinstance(action, TurnUp) or action is None


def test_spit_games_between_bots_finish_and_replay() -> None:
    for n in range(3):
        result = play_one("spit", ["hard", "medium"], {}, 9, n)
        assert result.finished and result.winner is not None
    engine = SpitGame.new(SpitRules.from_options({"slap": "chooser", "piles": "4"}), 2)
    table = new_table(engine, ["expert", "easy"], [random.Random(3), random.Random(4)], ["A", "B"])
    assert run_table(table)
    rep = replay(json.loads(json.dumps(table.arbiter.record())))
    assert rep.engine.winner == engine.winner
    assert rep.engine.cards_left(0) == engine.cards_left(0)
    assert [e.accepted for e in rep.arbiter.log] == [e.accepted for e in table.arbiter.log]


def test_simulate_spit_json() -> None:
    args = ["simulate", "spit", "--games", "4", "--bots", "expert,expert", "--seed", "2", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 4 and set(data["wins"]) == {"expert", "expert#2"}
    assert data["redeals_per_game"] > 0


def _status(app: RealtimeApp) -> str:
    return str(app.query_one("#status", Static).render())


def _log(app: RealtimeApp) -> str:
    return "\n".join(app.log_lines)


async def test_spit_by_keys_turn_up_play_refusal_and_quit(tmp_path: Path) -> None:
    clock = VirtualClock()
    app = RealtimeApp("spit", {}, 4, "reaction:min=100,max=100", "Ann", tmp_path, clock=clock)
    async with app.run_test() as pilot:
        await pilot.press("space")
        clock.advance_to(3.0)
        app.pump()
        await pilot.pause()
        assert app.engine.phase in ("play", "stalemate")
        view: Any = app.view
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        tops = [top for top, _ in view.stock]
        assert plays  # seed 4: QH and AS fit the king on pile 0
        play = plays[0]
        await pilot.press(str(tops.index(play.card) + 1), "a" if play.pile == 0 else "d")
        assert app.engine.top(play.pile) is play.card
        assert f"Ann plays {play.card.pretty}" in _log(app)
        # A stock card that fits neither centre pile is refused with the engine's reason.
        view = app.view
        bad = next(
            (i for i, (top, _) in enumerate(view.stock)
             if top is not None and not any(
                 isinstance(a, Play) and a.card is top for a in view.legal_actions)),
            None,
        )
        assert bad is not None
        await pilot.press(str(bad + 1), "a")
        assert "refused:" in _status(app) and "is not next to" in _status(app)  # in words
        await pilot.press("q")
    (path,) = tmp_path.glob("spit-*.json")
    data = json.loads(path.read_text())
    rep = replay(data)
    assert [e.accepted for e in rep.arbiter.log] == [a["accepted"] for a in data["actions"]]


async def test_a_face_down_pile_turns_up_when_picked(tmp_path: Path) -> None:
    clock = VirtualClock()
    app = RealtimeApp("spit", {}, 4, "reaction:min=100,max=100", "Ann", tmp_path, clock=clock)
    async with app.run_test() as pilot:
        clock.advance_to(3.0)
        app.pump()
        stock = app.engine.stock(0)
        pile = next(i for i, p in enumerate(stock) if len(p) > 1)
        top = stock[pile][-1]
        # Play the face-up top away first if it fits; otherwise move on to a pile we can clear.
        view: Any = app.view
        fits = [a for a in view.legal_actions if isinstance(a, Play) and a.card is top]
        assert fits  # seed 4: AS on stock pile 1 (2 cards) fits the king on pile 0
        await pilot.press(str(pile + 1), "a" if fits[0].pile == 0 else "d")
        assert app.view.stock[pile][0] is None
        await pilot.press(str(pile + 1))
        assert app.view.stock[pile][0] is stock[pile][-2]
        assert "turns up" in _log(app)


async def test_in_the_chooser_variant_the_player_who_emptied_his_layout_chooses_by_key(
    tmp_path: Path,
) -> None:
    clock = VirtualClock()
    options = {"slap": "chooser"}
    app = RealtimeApp("spit", options, 3, "reaction:min=2,max=2", "Ann", tmp_path, clock=clock)
    rng = random.Random(0)
    async with app.run_test() as pilot:
        engine: Any = app.engine
        for _ in range(2000):
            if engine.phase == "choose" and engine.chooser == 0:
                break
            assert not engine.over
            action = spit_strategy(app.view, rng) if engine.phase != "choose" else None
            if action is not None:
                app.submit(action)  # Ann is quick: she acts before the bot's two seconds
            else:
                due = [x for x in (app.bot.due, app.arbiter.deadline) if x is not None]
                clock.advance_to(min(due))
                app.pump()
        assert engine.phase == "choose" and engine.chooser == 0
        await pilot.pause()
        assert "Ann chooses a pile" in _status(app)
        smaller = 0 if engine.view(0).centre_sizes[0] <= engine.view(0).centre_sizes[1] else 1
        await pilot.press("z" if smaller == 0 else "x")
        assert engine.phase == "start"
        assert f"Ann chooses pile {smaller + 1}" in _log(app)  # piles 1 and 2 on screen
