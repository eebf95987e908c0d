"""Entry point of the ``cardroom`` command: the groups plus each game's commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from cardroom.cli import nain_jaune as _nain_jaune  # noqa: F401  (registers its commands)
from cardroom.cli import realtime as _realtime  # noqa: F401  (Spit and Speed commands)
from cardroom.cli import serve as _serve  # noqa: F401  (registers cardroom serve)
from cardroom.cli import simulate as _simulate  # noqa: F401  (registers simulate nain-jaune)
from cardroom.cli import tournament as _tournament  # noqa: F401  (registers its commands)
from cardroom.cli.groups import CONTEXT, REPLAYERS, cli


def record_kind(data: Any) -> str:
    """The game a parsed record belongs to: a list of rounds is a whole Nain Jaune game, a list
    of Speed games a Speed match (the first item's ``game`` decides)."""
    if isinstance(data, list):
        first = data[0] if data else None
        if isinstance(first, dict) and first.get("game") in ("speed", "spit"):
            return str(first["game"])
        return "nain-jaune"
    if isinstance(data, dict) and isinstance(data.get("game"), str):
        return str(data["game"])
    raise click.ClickException(
        'this is not a cardroom record: expected an object with a "game" field '
        "or a list of Nain Jaune rounds"
    )


@cli.command(context_settings=CONTEXT)
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def replay(record: Path, as_json: bool) -> None:
    """Replay a saved RECORD (JSON) and print what happened.

    Without --json it prints a readable account of every card and announcement; with --json,
    the result. A malformed record or an illegal move exits with status 1 and a message saying
    what is wrong (and, for a move, its number); nothing is printed on stdout then.

    \b
    Examples:
      cardroom replay cardroom-records/nain-jaune-20250101-120000-seed7.json
      cardroom replay game.json --json            winner, chips, board, next dealer…
      cardroom replay game.json --json | jq .chips
    """
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise click.ClickException(f"{record}: not valid JSON: {exc}") from exc
    kind = record_kind(data)
    replayer = REPLAYERS.get(kind)
    if replayer is None:
        known = ", ".join(sorted(REPLAYERS))
        raise click.ClickException(f"{record}: unknown game {kind!r} (known: {known})")
    code = replayer(data, as_json)
    if code:
        sys.exit(code)


def main() -> None:
    """Run the ``cardroom`` command line."""
    cli()
