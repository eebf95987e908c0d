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
      cardroom play nain-jaune --players 5 --preset count --level hard
      cardroom play spit --bot medium             real-time Spit against a bot
      cardroom play speed --bot expert            real-time Speed against a bot
      cardroom replay game.json                   a readable account of a record
      cardroom replay game.json --json            the result as JSON
      cardroom simulate nain-jaune --rounds 1000000 --workers 2
      cardroom simulate spit --games 1000 --bots easy,expert
      cardroom tournament nain-jaune --bots heuristic,greedy,random --games 1000
      cardroom serve --host 0.0.0.0                Nain Jaune in the browser with friends

    Each command has its own --help.
    """


@cli.group(context_settings=CONTEXT)
def play() -> None:
    """Play a game in the terminal against bots.

    \b
    Examples:
      cardroom play nain-jaune                    you against three bots, full screen
      cardroom play nain-jaune --plain            line by line, for screen readers and pipes
      cardroom play nain-jaune --level expert     against the search bot
      cardroom play spit --bot hard               Spit in real time (keys in its --help)
      cardroom play speed --option side_piles=5   Speed with side piles of five
      cardroom play nain-jaune --help             every option of the game

    Every game is saved as a record (cardroom-records/ by default) that `cardroom replay` reads.
    """


@cli.group(context_settings=CONTEXT)
def simulate() -> None:
    """Play many games between bots and summarise them.

    \b
    Examples:
      cardroom simulate nain-jaune --rounds 1000000 --players 4 --workers 2
      cardroom simulate nain-jaune --rounds 100000 --bots heuristic,random --json
      cardroom simulate spit --games 1000 --bots easy,expert --seed 1
      cardroom simulate speed --games 1000 --bots hard,hard --json
    """


@cli.group(context_settings=CONTEXT)
def tournament() -> None:
    """Rank bots against each other over many deals.

    \b
    Examples:
      cardroom tournament nain-jaune --bots heuristic,greedy,random --games 1000 --players 3
      cardroom tournament nain-jaune --bots search:ms=30,heuristic --games 150 --players 4
    """
