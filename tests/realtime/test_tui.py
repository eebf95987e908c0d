"""The real-time terminal UI driven by Textual's pilot, on a virtual clock."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from textual.widgets import Static

from cardroom.arbiter import VirtualClock, replay
from cardroom.cards import Card
from cardroom.cli.main import cli
from cardroom.games.speed import Play
from cardroom.terminal.realtime_tui import RealtimeApp

SLOW_BOT = "reaction:min=100,max=100"
"""A bot that does nothing during a test unless the test moves the clock."""


def speed_app(tmp_path: Path, seed: int = 5) -> tuple[RealtimeApp, VirtualClock]:
    clock = VirtualClock()
    app = RealtimeApp("speed", {}, seed, SLOW_BOT, "Ann", tmp_path, clock=clock)
    return app, clock


def status(app: RealtimeApp) -> str:
    return str(app.query_one("#status", Static).render())


def log_text(app: RealtimeApp) -> str:
    return "\n".join(app.log_lines)


def slot_of(app: RealtimeApp, card: Card) -> str:
    cards = [s.card for s in app.current_slots()]
    return str(cards.index(card) + 1)


async def test_play_a_card_by_keys_and_see_a_refusal(tmp_path: Path) -> None:
    app, clock = speed_app(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("space")  # Ann calls; the bot has not: the countdown turns the cards
        assert app.engine.called == (True, False)
        clock.advance_to(3.0)
        app.pump()
        await pilot.pause()
        assert app.engine.phase == "play"
        assert "countdown over" in log_text(app)
        play = next(a for a in app.view.legal_actions if isinstance(a, Play))
        await pilot.press(slot_of(app, play.card), "a" if play.pile == 0 else "d")
        assert app.engine.top(play.pile) is play.card
        assert f"Ann plays {play.card.pretty} onto pile {play.pile + 1}" in log_text(app)
        # A card that fits neither pile is refused, with the engine's reason on screen.
        tops = app.view.centre
        bad = next(
            s.card for s in app.current_slots()
            if s.card is not None and all(
                abs(int(s.card.rank) - int(t.rank)) not in (1, 12) for t in tops if t
            )
        )
        await pilot.press(slot_of(app, bad), "a")
        assert "refused:" in status(app) and "is not next to" in status(app)
        assert app.engine.top(0) is tops[0]


async def test_a_play_aimed_at_a_pile_that_changed_is_stale(tmp_path: Path) -> None:
    app, clock = speed_app(tmp_path, seed=8)
    async with app.run_test() as pilot:
        clock.advance_to(3.0)
        app.pump()
        await pilot.pause()
        mine = next(a for a in app.view.legal_actions if isinstance(a, Play))
        await pilot.press(slot_of(app, mine.card))  # Ann picks her card, aiming at the pile
        theirs = next(
            (a for a in app.engine.legal_actions(1) if isinstance(a, Play) and a.pile == mine.pile),
            None,
        )
        assert theirs is not None  # seed 8: 2S (Ann) and 4H (the bot) both fit 3S on pile 0
        clock.advance_to(3.5)
        assert app.arbiter.submit(1, theirs, 3.5).accepted
        app.after_change()
        await pilot.press("a" if mine.pile == 0 else "d")
        assert "refused: too late: pile" in status(app)
        assert "refused: too late:" in log_text(app)


async def test_quit_saves_a_record_that_replays(tmp_path: Path) -> None:
    app, clock = speed_app(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("space")
        clock.advance_to(3.0)
        app.pump()
        play = next(a for a in app.view.legal_actions if isinstance(a, Play))
        await pilot.press(slot_of(app, play.card), "a" if play.pile == 0 else "d")
        await pilot.press("q")
    (path,) = tmp_path.glob("speed-*.json")
    data = json.loads(path.read_text())
    assert data["players"] == ["Ann", "Bot"]
    assert [a["action"]["type"] for a in data["actions"]] == ["call", "timeout", "play"]
    rep = replay(data)
    assert rep.engine.top(play.pile) is play.card
    assert app.farewell == [f"Record saved to {path}"]


async def test_a_speed_match_goes_on_with_n_and_saves_every_game(tmp_path: Path) -> None:
    clock = VirtualClock()
    app = RealtimeApp("speed", {"target": "500"}, 2, SLOW_BOT, "Ann", tmp_path, clock=clock)
    async with app.run_test() as pilot:
        for number in (1, 2):
            while not app.engine.over:
                actions = app.view.legal_actions
                if actions:
                    app.submit(actions[0])
                else:
                    due = [x for x in (app.bot.due, app.arbiter.deadline) if x is not None]
                    clock.advance_to(min(due))
                    app.pump()
            await pilot.pause()
            assert app.match.number == number
            if number == 1:
                await pilot.press("n")
                assert app.match.number == 2 and not app.engine.over
        await pilot.press("q")
    (path,) = tmp_path.glob("speed-*.json")
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert len(out["games"]) == 2 and out["scores"] == list(app.match.scores)
    assert out["winner"] is None  # nobody has 500 points yet


async def test_every_change_is_saved_and_ctrl_q_saves_too(tmp_path: Path) -> None:
    app, _ = speed_app(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("space")
        (path,) = tmp_path.glob("speed-*.json")  # saved at once: a crash would lose nothing
        assert [a["action"] for a in json.loads(path.read_text())["actions"]] == [{"type": "call"}]
        await pilot.press("ctrl+q")
    assert app.farewell == [f"Record saved to {path}"]
    assert replay(json.loads(path.read_text())).engine.called == (True, False)


def test_play_refuses_a_records_folder_it_cannot_write(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = CliRunner().invoke(cli, ["play", "speed", "--records", str(blocker / "sub")])
    assert result.exit_code == 1 and "cannot save records" in result.output
    result = CliRunner().invoke(cli, ["play", "spit", "--bot", "wizard"])
    assert result.exit_code == 2 and "unknown bot 'wizard'" in result.output
