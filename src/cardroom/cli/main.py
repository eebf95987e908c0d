"""Entry point of the ``cardroom`` command: the groups plus each game's commands."""

from __future__ import annotations

import errno
import os
import select
import stat
import sys
import time
from pathlib import Path
from typing import Any

import click

from cardroom.cli import analyse as _analyse  # noqa: F401  (registers cardroom analyse)
from cardroom.cli import nain_jaune as _nain_jaune  # noqa: F401  (registers its commands)
from cardroom.cli import serve as _serve  # noqa: F401  (registers cardroom serve)
from cardroom.cli import simulate as _simulate  # noqa: F401  (registers simulate nain-jaune)
from cardroom.cli import spit_speed as _spit_speed  # noqa: F401  (Spit and Speed commands)
from cardroom.cli import tournament as _tournament  # noqa: F401  (registers its commands)
from cardroom.cli.groups import CONTEXT, REPLAYERS, cli, current_lang, lang_option, printable
from cardroom.games.records import MAX_RECORD_BYTES, RecordError, brief, loads
from cardroom.i18n import translator

READ_TIMEOUT = 10.0
"""Seconds a record that is not a regular file (a pipe, a device) may take to arrive."""


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
        translator(current_lang())._(
            'this is not a cardroom record: expected an object with a "game" field or a list '
            "of Nain Jaune rounds"
        )
    )


@cli.command(context_settings=CONTEXT)
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@lang_option
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
      cardroom replay game.json --lang fr         the account in French (cy: Welsh)
    """
    where = printable(str(record))
    try:
        data = loads(read_record_bytes(record))
    except RecordError as exc:
        raise click.ClickException(f"{where}: {exc}") from None
    kind = record_kind(data)
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


def read_record_bytes(path: Path, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of a record file, at most ``limit``: a larger file is refused before it is read,
    and a pipe or device (a FIFO, ``/dev/zero``) is read only up to ``limit`` bytes and for at most
    :data:`READ_TIMEOUT` seconds. Raise :class:`RecordError` saying what is wrong."""
    too_large = RecordError(f"the file is larger than {limit // (1024 * 1024)} MiB: not a record")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise RecordError(f"cannot open it: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise RecordError("this is a folder, not a record file")
        if stat.S_ISREG(info.st_mode):
            if info.st_size > limit:
                raise too_large
            os.set_blocking(fd, True)
            data = _read_all(fd, limit, None)
        else:
            data = _read_all(fd, limit, time.monotonic() + READ_TIMEOUT)
    except OSError as exc:
        raise RecordError(f"cannot read it: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise too_large
    if not data.strip():
        raise RecordError("the file is empty")
    return data


def _read_all(fd: int, limit: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        if deadline is not None:
            left = deadline - time.monotonic()
            ready = select.select([fd], [], [], max(left, 0.0))[0] if left > 0 else []
            if not ready:
                raise RecordError(
                    f"nothing more arrived in {READ_TIMEOUT:g} s: give a record file, not a pipe "
                    "or device that never ends"
                )
        try:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
        except BlockingIOError:
            continue
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


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
