"""Decimals in the terminal as the language writes them: the Spit/Speed countdown and
``cardroom analyse``'s seconds and chips (``2,5`` in French; Welsh, like English, ``2.5``)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from click.testing import CliRunner
from textual.widgets import Static

from cardroom.arbiter import VirtualClock
from cardroom.bots.base import make_bot
from cardroom.cli.main import cli
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import game_record
from cardroom.games.registry import new_engine
from cardroom.sim.realtime import new_table, run_table
from cardroom.terminal.realtime_tui import RealtimeApp

ENGLISH_DECIMAL = re.compile(r"\d\.\d")
FRENCH_DECIMAL = re.compile(r"\d,\d")


async def _countdown_shown(tmp_path: Path, lang: str) -> str:
    """The status line just after Ann calls for the flip, the bot silent: a 2.5 s countdown."""
    clock = VirtualClock()
    app = RealtimeApp(
        "speed",
        {"countdown": "2.5"},
        5,
        "reaction:min=100,max=100",
        "Ann",
        tmp_path,
        clock=clock,
        lang=lang,
    )
    async with app.run_test() as pilot:
        await pilot.press("space")
        assert app.engine.called == (True, False)
        app._redraw_status()
        await pilot.pause()
        return str(app.query_one("#status", Static).render())


async def test_the_countdown_has_a_decimal_comma_in_french(tmp_path: Path) -> None:
    french = await _countdown_shown(tmp_path / "fr", "fr")
    assert "compte à rebours 2,5 s" in french, french
    welsh = await _countdown_shown(tmp_path / "cy", "cy")
    assert "2.5" in welsh and "2,5" not in welsh, welsh
    english = await _countdown_shown(tmp_path / "en", "en")
    assert "countdown 2.5 s" in english, english


def _spit_record(tmp_path: Path) -> Path:
    table = new_table(
        new_engine("spit", {}, 3),
        ["easy", "expert"],
        [random.Random(1), random.Random(2)],
        ["Eve", "Xan"],
    )
    assert run_table(table)
    path = tmp_path / "spit.json"
    path.write_text(json.dumps(table.arbiter.record()))
    return path


def test_the_reaction_times_are_written_as_each_language_writes_decimals(tmp_path: Path) -> None:
    path = _spit_record(tmp_path)
    data = json.loads(CliRunner().invoke(cli, ["analyse", str(path), "--json"]).output)
    median = data["players"][0]["median"]
    french = CliRunner().invoke(cli, ["analyse", str(path), "--lang", "fr"]).output
    assert f"{median:.2f}".replace(".", ",") + " s" in french
    assert "0,25 s par barre" in french
    assert not ENGLISH_DECIMAL.search(french), french
    english = CliRunner().invoke(cli, ["analyse", str(path)]).output
    assert f"{median:.2f} s" in english and "0.25 s a bar" in english
    assert not FRENCH_DECIMAL.search(english), english


def test_the_chips_of_an_analysis_are_written_as_french_writes_decimals(tmp_path: Path) -> None:
    rules = Rules.from_options("classic", {"end": "rounds:2"})
    bots = [make_bot(b) for b in ("random", "greedy", "heuristic")]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(rules, ["Ann", "Bob", "Cat"], bots, 5)))
    args = ["analyse", str(path), "--worlds", "16", "--all"]
    french = CliRunner().invoke(cli, [*args, "--lang", "fr"]).output
    english = CliRunner().invoke(cli, args).output
    assert FRENCH_DECIMAL.search(french) and not ENGLISH_DECIMAL.search(french), french
    assert ENGLISH_DECIMAL.search(english) and not FRENCH_DECIMAL.search(english), english
    assert re.search(r"\d\u202f%|\d\u00a0%|\d %", french), french  # « 62 % »
