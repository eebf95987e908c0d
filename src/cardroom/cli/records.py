"""Reading a record file for a command: bounded in size and time, and which game it is."""

from __future__ import annotations

import errno
import os
import select
import stat
import time
from pathlib import Path
from typing import Any

import click

from cardroom.cli.groups import current_lang, printable
from cardroom.games.errors import RecordError
from cardroom.games.messages import Message
from cardroom.games.records import MAX_RECORD_BYTES, loads
from cardroom.games.registry import GAMES, REALTIME, names, unnamed
from cardroom.i18n import translator
from cardroom.i18n.reasons import record_error_text

READ_TIMEOUT = 10.0
"""Seconds a record that is not a regular file (a pipe, a device) may take to arrive."""


def record_kind(data: Any) -> str:
    """The game a parsed record belongs to: a list of a real-time game's records is a match of
    it (the first item's ``game`` decides), any other list the rounds of the turn-based game."""
    if isinstance(data, list):
        first = data[0] if data else None
        if isinstance(first, dict) and first.get("game") in names(REALTIME):
            return str(first["game"])
        return unnamed()
    if isinstance(data, dict) and isinstance(data.get("game"), str):
        return str(data["game"])
    turn_based = GAMES[unnamed()].load("words")  # its record may be a bare list
    raise click.ClickException(translator(current_lang())._(turn_based.NOT_A_RECORD))


def read_record_bytes(path: Path, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of a record file, at most ``limit``: a larger file is refused before it is read,
    and a pipe or device (a FIFO, ``/dev/zero``) is read only up to ``limit`` bytes and for at most
    :data:`READ_TIMEOUT` seconds. Raise :class:`RecordError` saying what is wrong."""
    mib = limit // (1024 * 1024)
    too_large = RecordError(
        Message("rec.file-too-large", f"the file is larger than {mib} MiB: not a record", n=mib)
    )
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise RecordError(os_message(exc, "open")) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise RecordError(Message("rec.folder", "this is a folder, not a record file"))
        if stat.S_ISREG(info.st_mode):
            if info.st_size > limit:
                raise too_large
            os.set_blocking(fd, True)
            data = _read_all(fd, limit, None)
        else:
            data = _read_all(fd, limit, time.monotonic() + READ_TIMEOUT)
    except OSError as exc:
        raise RecordError(os_message(exc, "read")) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise too_large
    if not data.strip():
        raise RecordError(Message("rec.file-empty", "the file is empty"))
    return data


OS_CASES = {
    errno.ENOENT: "rec.no-file",
    errno.EACCES: "rec.no-permission",
    errno.EPERM: "rec.no-permission",
}
"""The OS errors a person meets most, each with its own words (the others: ``rec.cannot-open``
or ``rec.cannot-read`` with the system's English text as a quoted ``said``)."""


def os_message(exc: OSError, doing: str) -> Message:
    """The message of a file that cannot be opened or read (``doing``: ``open`` or ``read``):
    the English sentence as always (``cannot open it: No such file or directory``), an id per
    common case, and the OS text only as a quoted detail of the others."""
    reason = exc.strerror or errno.errorcode.get(exc.errno or 0, "")
    text = f"cannot {doing} it: {exc.strerror}"
    case = OS_CASES.get(exc.errno or 0)
    if case is not None:
        return Message(case, text)
    return Message(f"rec.cannot-{doing}", text, said=reason)


def _read_all(fd: int, limit: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        if deadline is not None:
            left = deadline - time.monotonic()
            ready = select.select([fd], [], [], max(left, 0.0))[0] if left > 0 else []
            if not ready:
                raise RecordError(
                    Message(
                        "rec.no-end",
                        f"nothing more arrived in {READ_TIMEOUT:g} s: give a record file, not a "
                        "pipe or device that never ends",
                        seconds=f"{READ_TIMEOUT:g}",
                    )
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
        said = record_error_text(exc, translator(current_lang()), path=printable(str(path)))
        raise click.ClickException(said) from None
    return data, record_kind(data)
