"""Nain Jaune commands: ``cardroom play nain-jaune`` and the replay of Nain Jaune records."""

from __future__ import annotations

import json
from typing import Any

import click

from cardroom.cli.groups import REPLAYERS
from cardroom.cli.nain_jaune_text import replay_lines
from cardroom.games.nain_jaune.record import (
    RecordError,
    Replay,
    parse_game,
    replay_game,
    result_json,
)


def replay_result(replays: list[Replay], whole_game: bool) -> dict[str, Any]:
    """The ``--json`` result: one round's fields; for a whole game the last round's + ``rounds``."""
    rounds = [{**result_json(rep), "players": list(rep.record.players)} for rep in replays]
    if not whole_game:
        return rounds[0]
    return {**rounds[-1], "rounds": rounds}


def replay_nain_jaune(data: Any, as_json: bool) -> int:
    """Replay a Nain Jaune round (an object) or whole game (a list); return the exit code."""
    try:
        replays = replay_game(parse_game(data))
    except RecordError as exc:
        click.echo(f"Error: {exc}", err=True)
        return 1
    if as_json:
        click.echo(json.dumps(replay_result(replays, isinstance(data, list)), ensure_ascii=False))
    else:
        for line in replay_lines(replays):
            click.echo(line)
    return 0


REPLAYERS["nain-jaune"] = replay_nain_jaune
