"""The toy game's commands: ``cardroom play higher-card --plain`` and its record's replayer."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from cardroom.cli.groups import REPLAYERS, echo_error, echo_json, echo_line, play
from cardroom.games.errors import RecordError, RulesError
from tests.toygame import NAME
from tests.toygame.engine import ToyGame
from tests.toygame.record import replay, to_record
from tests.toygame.rules import ToyRules
from tests.toygame.terminal import play_plain


@play.command(NAME)
@click.option("--plain", is_flag=True, help="Line by line (the only mode of this game).")
@click.option("--seed", type=int, default=0, help="The deal's seed.")
@click.option("--hand", type=int, default=5, help="Cards dealt to each player.")
@click.option("--save", type=click.Path(path_type=Path), required=True, help="Record file.")
def play_toy(plain: bool, seed: int, hand: int, save: Path) -> None:
    """Higher card against a bot, saved as a record."""
    if not plain:
        raise click.UsageError("higher-card has only the plain mode: add --plain")
    try:
        rules = ToyRules(hand=hand)
    except RulesError as exc:
        raise click.UsageError(str(exc)) from None
    game = play_plain(ToyGame(rules, seed), sys.stdin.readline, echo_line)
    save.write_text(json.dumps(to_record(game)), encoding="utf-8")


def replay_toy(data: Any, as_json: bool) -> int:
    """Replay a higher-card record; return the exit code."""
    try:
        game = replay(data)
    except RecordError as exc:
        echo_error(str(exc))
        return 1
    if as_json:
        echo_json({"tricks": game.tricks, "winner": game.winner, "over": game.over})
        return 0
    for seat, card in game.played:
        echo_line(f"Seat {seat} plays {card}.")
    echo_line(f"Tricks {game.tricks[0]}-{game.tricks[1]}.")
    return 0


REPLAYERS[NAME] = replay_toy
