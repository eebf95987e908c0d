"""Which server process a table lives in, with ``cardroom serve --workers N``.

The parent process routes every connection naming a table to worker ``slot_of(id, N)``
(``web/router.py``), and each worker makes new tables with ids of its own slot
(:func:`new_table_id`), so the process that creates a table (and takes its lease) is the one its
connections reach. A single process is slot 0 of 1: every id is its own.
"""

from __future__ import annotations

import secrets
import zlib


def slot_of(table_id: str, slots: int) -> int:
    """The worker slot (0 to ``slots - 1``) that a table's connections are routed to."""
    return zlib.crc32(table_id.encode()) % slots if slots > 1 else 0


def new_table_id(slot: int = 0, slots: int = 1) -> str:
    """A fresh random table id whose slot is ``slot`` (drawn again until it is: ``slots``
    draws on average)."""
    while True:
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        if slot_of(table_id, slots) == slot:
            return table_id
