"""Entry point of the ``cardroom`` command: the groups plus each game's commands."""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import click

from cardroom.cli import analyse as _analyse  # noqa: F401  (registers cardroom analyse)
from cardroom.cli import bot as _bot  # noqa: F401  (cardroom bot connect)
from cardroom.cli import serve as _serve  # noqa: F401  (registers cardroom serve)
from cardroom.cli import serve_bots as _serve_bots  # noqa: F401  (cardroom serve-bots)
from cardroom.cli.groups import (
    CONTEXT,
    REPLAYERS,
    cli,
    current_lang,
    lang_option,
    load_game_commands,
    printable,
)
from cardroom.cli.records import load_record, read_record_bytes, record_kind  # noqa: F401
from cardroom.games.records import brief
from cardroom.games.registry import names
from cardroom.i18n import translator

load_game_commands()  # each registered game's own commands

__all__ = ["cli", "main", "replay"]


@cli.command(context_settings=CONTEXT, help_fields=lambda tr: {"game": next(iter(names()), "game")})
@click.argument("record", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@lang_option
def replay(record: Path, as_json: bool) -> None:
    """Replay a saved RECORD (JSON) and print what happened.

    Without --json it prints a readable account of every card and announcement; with --json,
    the result. A malformed record or an illegal move exits with status 1 and a message saying
    what is wrong (and, for a move, its number); nothing is printed on stdout then.

    \b
    Examples:
      cardroom replay cardroom-records/{game}-20250101-120000-seed7.json
      cardroom replay game.json --json            winner, chips, board, next dealer…
      cardroom replay game.json --json | jq .chips
      cardroom replay game.json --lang fr         the account in French (cy: Welsh)
    """
    where = printable(str(record))
    data, kind = load_record(record)
    replayer = REPLAYERS.get(kind)
    if replayer is None:
        known = ", ".join(sorted(REPLAYERS))
        raise click.ClickException(
            translator(current_lang())._("{path}: unknown game {game} (known: {known})",
                                         path=where, game=brief(kind), known=known)
        )
    code = replayer(data, as_json)
    if code:
        sys.exit(code)


def main() -> None:
    """Run the ``cardroom`` command line."""
    try:
        cli()
    except OSError as exc:
        # output that cannot be written (``> /dev/full``, a closed pipe): one line, no traceback
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        reason = exc.strerror or errno.errorcode.get(exc.errno or 0, str(exc))
        what = printable(str(exc.filename)) if exc.filename else "cannot write the output"
        sys.stderr.write(f"Error: {what}: {reason}\n")
        sys.exit(1)
