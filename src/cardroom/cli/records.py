"""Reading a record file for a command: bounded in size and time, and which game it is."""

from __future__ import annotations

import os
import select
import stat
import time
from pathlib import Path
from typing import Any

import click

from cardroom.cli.groups import current_lang, printable
from cardroom.games.records import MAX_RECORD_BYTES, RecordError, loads
from cardroom.i18n import translator
from cardroom.i18n.reasons import record_error_text

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


def load_record(path: Path) -> tuple[Any, str]:
    """A record file read (bounded) and parsed, and its game (:func:`record_kind`); a
    :class:`click.ClickException` naming the file says what is wrong."""
    try:
        data = loads(read_record_bytes(path))
    except RecordError as exc:
        said = record_error_text(exc, current_lang(), path=printable(str(path)))
        raise click.ClickException(said) from None
    return data, record_kind(data)
