"""The command groups each game's CLI module adds its commands to, and the replay registry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

Replayer = Callable[[Any, bool], int]
"""Replays a parsed record; the flag asks for JSON; returns the exit code."""

REPLAYERS: dict[str, Replayer] = {}
"""Record kind (the record's ``game`` field) -> the function that replays it."""


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="cardroom")
def cli() -> None:
    """cardroom: play, replay, simulate and study Nain Jaune, Spit and Speed.

    \b
    Examples:
      cardroom play nain-jaune                    play against three bots
      cardroom play nain-jaune --players 5 --preset count
      cardroom replay game.json                   a readable account of a record
      cardroom replay game.json --json            the result as JSON

    Each command has its own --help.
    """


@cli.group(context_settings=CONTEXT)
def play() -> None:
    """Play a game in the terminal against bots.

    \b
    Examples:
      cardroom play nain-jaune                    you against three bots, full screen
      cardroom play nain-jaune --plain            line by line, for screen readers and pipes
      cardroom play nain-jaune --help             every option of the game

    Every game is saved as a record (cardroom-records/ by default) that `cardroom replay` reads.
    """


@cli.group(context_settings=CONTEXT)
def simulate() -> None:
    """Play many games between bots and summarise them."""


@cli.group(context_settings=CONTEXT)
def tournament() -> None:
    """Rank bots against each other over many deals."""
