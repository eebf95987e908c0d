"""Issue 10's terminal defects, driven by Textual's pilot on a virtual clock: the end of the
game, Ctrl-C, the key lines at 80 and 120 columns, log wrapping, pile numbers, hidden cards in
the live log, and the move left when "Spit!" is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.widgets import RichLog, Static

from cardroom.arbiter import VirtualClock, replay
from cardroom.cards import Card
from cardroom.cli.main import cli
from cardroom.games.speed import Play as SpeedPlay
from cardroom.games.speed import SpeedGame, SpeedRules
from cardroom.terminal.realtime_tui import RealtimeApp
from tests.speed.deals import C, H, make_deal
from tests.spit.deals import position

SLOW_BOT = "reaction:min=100,max=100"
"""A bot that does nothing during a test unless the test moves the clock."""

# Seat 0's draw pile is the run 2C … KC AD 2D 3D onto the middle AC: Ann can play all 15.
RUN = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD 2D 3D"


def app_with(game: str, engine: Any, tmp_path: Path, **kw: Any) -> tuple[RealtimeApp, VirtualClock]:
    """The app for ``game`` on a virtual clock, playing ``engine`` (a hand-made deal)."""
    clock = VirtualClock()
    app = RealtimeApp(game, {}, 1, kw.get("bot", SLOW_BOT), "Ann", tmp_path, clock=clock)
    app._start(engine)
    return app, clock


def screen_lines(widget: Static | RichLog) -> list[str]:
    """The lines a widget shows on screen, as plain text."""
    return [
        "".join(seg.text for seg in widget.render_line(y)) for y in range(widget.size.height)
    ]


def status(app: RealtimeApp) -> str:
    return str(app.query_one("#status", Static).render())


def slot_key(app: RealtimeApp, card: Card) -> str:
    return str([s.card for s in app.current_slots()].index(card) + 1)


def saved(tmp_path: Path) -> dict[str, Any]:
    (path,) = tmp_path.glob("*.json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


async def test_the_winning_move_is_shown_saved_and_later_keys_change_nothing(
    tmp_path: Path,
) -> None:
    game = SpeedGame(SpeedRules(), make_deal(middle="AC 7H", draw0=RUN), 0)
    app, clock = app_with("speed", game, tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("space")
        clock.advance_to(3.0)  # the countdown turns AC / 7H
        app.pump()
        for n, card in enumerate(H(RUN)):
            clock.advance_to(4.0 + n)
            await pilot.press(slot_key(app, card), "a")
        assert game.over and game.winner == 0
        await pilot.pause()
        # The screen shows the winning card, the result and what to press.
        assert app.view.centre[0] == C("3D") and app.view.phase == "over"
        assert "Ann wins (cards left: 0 / 15)." in status(app)
        assert "press q to quit" in status(app)
        assert app.log_lines[-1] == "Press q to quit."
        # The record on disk already holds the winning move and replays as finished.
        data = saved(tmp_path)
        assert data["actions"][-1] == {
            "t": 18.0, "seat": 0, "accepted": True,
            "action": {"type": "play", "card": "3D", "pile": 0, "seen": "2D"},
        }  # fmt: skip
        assert replay(data).engine.over
        # Keys pressed after the end send nothing: the record does not grow.
        entries = len(app.arbiter.log)
        for t in (19.0, 25.0, 60.0):
            clock.advance_to(t)
            await pilot.press("1", "a", "space", "d")
        assert len(app.arbiter.log) == entries
        # the bot kept 5 cards in hand and 10 to draw: 10 points, and the screen says why
        assert status(app).endswith(
            "Ann wins (cards left: 0 / 15). Ann scores 10 points: one for each card left in the "
            "loser's draw pile.   press q to quit"
        )
        await pilot.press("q")
    result = CliRunner().invoke(cli, ["replay", str(next(tmp_path.glob("*.json"))), "--json"])
    out = json.loads(result.output)
    assert out["finished"] and out["winner"] == 0 and out["rejected"] == 0
    assert out["seconds"] == 18.0 and out["actions"] == 16 and out["timeouts"] == 1


def test_the_arbiter_logs_nothing_after_the_end() -> None:
    from cardroom.arbiter import Arbiter

    game = SpeedGame(SpeedRules(), make_deal(middle="AC 7H", draw0=RUN), 0)
    clock = VirtualClock()
    arb: Arbiter[Any, Any] = Arbiter(game, clock, ["A", "B"])
    arb.submit(0, game.legal_actions(0)[0], 0.5)
    arb.tick(3.0)
    seen = C("AC")
    for n, card in enumerate(H(RUN)):
        assert arb.submit(0, SpeedPlay(card, 0, seen), 4.0 + n).accepted
        seen = card
    assert game.over and len(arb.log) == 17 and arb.time == 18.0
    out = arb.submit(1, SpeedPlay(C("2S"), 0, seen), 500.0)
    assert not out.accepted and out.reason == "the game is over"
    assert len(arb.log) == 17 and arb.time == 18.0 and arb.tick(900.0) == []


async def test_ctrl_c_saves_and_quits(tmp_path: Path) -> None:
    for game in ("spit", "speed"):
        folder = tmp_path / game
        app = RealtimeApp(game, {}, 5, SLOW_BOT, "Ann", folder, clock=VirtualClock())
        async with app.run_test() as pilot:
            await pilot.press("space")
            await pilot.press("ctrl+c")
            assert not app.is_running
        (path,) = folder.glob("*.json")
        assert app.farewell == [f"Record saved to {path}"]


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("game", ["spit", "speed"])
async def test_every_key_is_on_screen(tmp_path: Path, game: str, width: int) -> None:
    app = RealtimeApp(game, {}, 5, SLOW_BOT, "Ann", tmp_path, clock=VirtualClock())
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        keys = app.query_one("#keys", Static)
        assert keys.region.right <= width and keys.region.bottom <= 24
        shown = " ".join(line.strip() for line in screen_lines(keys))
        assert all(len(line.rstrip()) <= width for line in screen_lines(keys))
        wanted = ["1-5 pick", "a/← play on pile 1", "d/→ play on pile 2", "q/Ctrl-C quit"]
        if game == "spit":
            wanted += ["t turn up", "m move to a space", "z/x slap pile 1/2", 'space "Spit!"']
        else:
            wanted += ["space call for the flip"]
        for text in wanted:
            assert text in shown, (text, shown)
        assert ("n next game" in shown) is False  # only in a match


async def test_long_log_lines_wrap_without_losing_a_character(tmp_path: Path) -> None:
    app = RealtimeApp("spit", {}, 5, SLOW_BOT, "Ann", tmp_path, clock=VirtualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.query_one("#log", RichLog)
        log.clear()
        words = [f"word{i:02d}" for i in range(40)] + ["LAST!"]
        for _ in range(30):  # enough lines for the scroll bar to show
            app.write_log(" ".join(words))
        await pilot.pause()
        width = log.scrollable_content_region.width
        assert width < 78  # the border and the scroll bar take their columns
        assert all(strip.cell_length <= width for strip in log.lines)
        per_line = len(log.lines) // 30
        assert per_line * 30 == len(log.lines) and per_line > 1
        text = " ".join(strip.text.strip() for strip in log.lines[-per_line:])
        assert text == " ".join(words)


async def test_the_live_log_never_names_the_bots_hidden_cards(tmp_path: Path) -> None:
    # Tops 5H / 9C after the start. The bot (seat 1) holds 2S 2H 2D 2C JS.
    game = SpeedGame(SpeedRules(), make_deal(middle="5H 9C", draw1="2S 2H 2D 2C JS"), 0)
    app, clock = app_with("speed", game, tmp_path)
    async with app.run_test() as pilot:
        clock.advance_to(3.0)
        app.pump()
        # A play aimed at a top that is gone (stale) and one that does not fit: both refused.
        app.arbiter.submit(1, SpeedPlay(C("JS"), 0, C("KD")), 3.5)
        app.arbiter.submit(1, SpeedPlay(C("2S"), 1, C("9C")), 3.6)
        app.after_change()
        await pilot.pause()
        log = "\n".join(app.log_lines)
        assert "Bot: too late for pile 1, it had changed" in log
        assert "Bot: a play on pile 2 refused" in log
        for card in H("2S 2H 2D 2C JS"):
            assert card.code not in log and card.pretty not in log
    # The record, read after the game, tells everything.
    data = saved(tmp_path)
    assert data["actions"][-1]["reason"] == "2S cannot go on 9C: it must be one rank above or " \
        "below (K-A-2 wraps)"


async def test_spit_piles_are_numbered_alike_on_screen_and_in_the_log(tmp_path: Path) -> None:
    # Seat 0's stock pile 3 (index 2) has a face-down top: pressing 3 turns it up.
    engine = position(
        ["AD", "2C", "KS 3C", "4C", "5C"], ["2D", "3D", "4D", "5D", "6D"],
        spit0="9H", spit1="9S", centre0="10H", centre1="10S", down=[(0, 2)],
    )  # fmt: skip
    app, _ = app_with("spit", engine, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        mine = "".join(screen_lines(app.query_one("#mine", Static)))
        assert "3:▒▒(2)" in mine
        await pilot.press("3")
        assert "Ann turns up 3♣ on stock pile 3" in app.log_lines[-1]
        centre = "".join(screen_lines(app.query_one("#centre", Static)))
        assert "pile 1 10♥" in centre and "pile 2 10♠" in centre


async def test_a_refused_spit_call_names_the_move_left(tmp_path: Path) -> None:
    # Nothing fits 10H / 10S, but Ann's stock pile 1 holds AD under 2C and pile 2 is empty.
    engine = position(
        ["AD 2C", "", "4C", "5C", "6C"], ["2D", "3D", "4D", "5D", "6D"],
        spit0="9H", spit1="9S", centre0="10H", centre1="10S",
    )  # fmt: skip
    app, _ = app_with("spit", engine, tmp_path)
    async with app.run_test(size=(160, 30)) as pilot:
        await pilot.press("space")
        assert (
            "refused: not a stalemate: you can still move the 2 of clubs from stock pile 1 "
            "into the empty stock pile 2, uncovering a card" in status(app)
        )
        await pilot.press("1", "m")
        moved = "Ann moves 2♣ from stock pile 1 to the empty stock pile 2"
        assert app.log_lines[-1].endswith(moved)
