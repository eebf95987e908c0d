"""The command line's --help names the games the registry holds, and only through it: the
shared texts list the registered games' titles, each game's examples come from its words (in
the registry's order), and no module of ``cardroom/cli`` spells a game's name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardroom.cli.main import cli
from cardroom.games.registry import Game, games, register, unregister
from tests.toygame import ENTRY

CLI = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "cli"

HELP_EXAMPLES = {
    "cardroom": (("cardroom play higher-card --seed 3", "the toy game, dealt by seed 3"),),
    "play": (("cardroom play higher-card", "you against the toy bot"),),
}
"""This module is the toy game's words piece here: its help examples."""


@pytest.fixture
def toy() -> Iterator[Game]:
    entry = register(replace(ENTRY, words=__name__))
    try:
        yield entry
    finally:
        unregister(entry.name)


def _help(*args: str) -> str:
    res = CliRunner().invoke(cli, [*args, "--help"])
    assert res.exit_code == 0, res.output
    return " ".join(res.output.split())


def test_the_help_lists_the_registered_games_in_their_order() -> None:
    text = _help()
    assert "study card games: Nain Jaune, Spit and Speed." in text
    order = [text.index(f"cardroom play {name} ") for name in ("nain-jaune", "spit", "speed")]
    assert order == sorted(order) and order[-1] < text.index("cardroom replay game.json")
    assert "Play Nain Jaune, Spit and Speed in the terminal against bots." in _help("play")
    welsh = _help("--lang", "cy")
    assert "astudio gemau cardiau: Nain Jaune, Tafod a Chyflymder." in welsh  # a -> Ch


def test_a_game_registered_later_brings_its_title_and_examples(toy: Game) -> None:
    text = _help()
    assert "Nain Jaune, Spit, Speed and Higher card." in text
    mine = text.index("cardroom play higher-card --seed 3 the toy game, dealt by seed 3")
    assert text.index("cardroom play speed ") < mine < text.index("cardroom replay game.json")
    play = _help("play")
    assert "cardroom play higher-card you against the toy bot" in play
    assert play.index("higher-card you against") < play.index("cardroom play GAME --help")
    # it has no analysis: the analyse help does not speak of it
    assert "Higher card" not in _help("analyse")


def test_no_module_of_the_command_line_names_a_game() -> None:
    words = [w for g in games() for w in (g.name, g.title, g.name.replace("-", "_"))]
    pattern = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    naming = [p.name for p in sorted(CLI.glob("*.py")) if pattern.search(p.read_text("utf-8"))]
    assert naming == []
