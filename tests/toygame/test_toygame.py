"""A game registered only under tests/ is played in the terminal's plain mode, recorded and
replayed by ``cardroom replay``, through the registry alone (no module outside this folder
names it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardroom.cards import parse_card
from cardroom.cli.main import cli
from cardroom.games.registry import Game, game, names
from tests.toygame import NAME, registered
from tests.toygame.engine import IllegalPlay, ToyGame
from tests.toygame.rules import ToyRules

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy() -> Iterator[Game]:
    with registered() as entry:
        yield entry


def test_the_engine_takes_tricks_by_rank() -> None:
    game = ToyGame(ToyRules(hand=2), seed=0)
    game.hands = [[parse_card("9H"), parse_card("2C")], [parse_card("KD"), parse_card("3S")]]
    assert game.play(0, parse_card("9H")) is None
    assert game.play(1, parse_card("KD")) == 1  # king beats nine: seat 1 leads next
    with pytest.raises(IllegalPlay):
        game.play(0, parse_card("2C"))
    assert game.play(1, parse_card("3S")) is None
    assert game.play(0, parse_card("2C")) == 1
    assert game.tricks == [0, 2] and game.winner == 1 and game.over


def test_the_game_is_registered_only_while_asked(toy: Game) -> None:
    assert game(NAME) is toy and NAME in names()


def test_played_plain_recorded_and_replayed(toy: Game, tmp_path: Path) -> None:
    seed, hand = 7, 3
    mine = sorted(ToyGame(ToyRules(hand=hand), seed).hands[0])
    record = tmp_path / "toy.json"
    moves = "\n".join(str(c) for c in mine) + "\n"
    runner = CliRunner()
    played = runner.invoke(
        cli,
        ["play", NAME, "--plain", "--seed", str(seed), "--hand", str(hand), "--save", str(record)],
        input=moves,
    )
    assert played.exit_code == 0, played.output
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["game"] == NAME and len(data["plays"]) == 2 * hand
    assert [card for seat, card in data["plays"] if seat == 0] == [str(c) for c in mine]

    # worked out independently of the engine: replay the recorded plays trick by trick
    tricks, plays = [0, 0], data["plays"]
    for i in range(0, len(plays), 2):
        (lead_seat, lead), (other_seat, other) = plays[i], plays[i + 1]
        rank = {str(c): c.rank for c in map(parse_card, (lead, other))}
        tricks[other_seat if rank[other] > rank[lead] else lead_seat] += 1
    replayed = runner.invoke(cli, ["replay", str(record), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["tricks"] == tricks
    assert sum(tricks) == hand


def test_no_module_outside_this_folder_names_the_toy_game() -> None:
    outside = [
        path
        for folder in ("src", "benchmarks")
        for path in (ROOT / folder).rglob("*")
        if path.is_file()
        and path.suffix in (".py", ".js", ".html", ".po")
        and ("higher-card" in path.read_text(encoding="utf-8", errors="replace")
             or "toygame" in path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert outside == []
