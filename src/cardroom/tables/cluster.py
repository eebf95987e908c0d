"""Several server processes on one PostgreSQL: table leases, change and presence notices.

One asyncpg connection per process (not from the store's pool) holds:

* **leases**: a session advisory lock per table (``pg_try_advisory_lock(hashtextextended(id,
  0))``). The process holding a table's lock is its authority: it runs its bots and timers and
  deals its rounds. The lock goes with the connection, so a process that dies (or loses the
  database) frees its tables at once and another takes them at its next scan.
* **change notices**: every entry is told on ``cardroom_tables`` once committed (the entry
  itself as JSON, ``[table, seq, kind, data, at]``, or ``"<table> <seq>"`` if too big), the
  notices of a loop turn (with the presence and deadlines notices below) in one simple query
  of ``NOTIFY`` statements (see ``announce``); a process holding that table in memory applies
  it (or reads the entries it lacks) and tells its own connections. A process skips its own
  notices (the backend pid of its connection) and, without decoding them, those of tables it
  does not hold.
* **presence**: which person seats have a connection in which process (``cardroom_presence``,
  ``"<pid> <table> <seat> <n>"``, again every few seconds), so that the lease holder does not
  let a bot take over a person who is connected to another process.
* **deadlines**: the lease holder's timers (a person's takeover, the next round) as it arms
  and cancels them (``cardroom_deadlines``, ``[table, [[kind, seat, at], ...]]``), so the
  other processes show the same countdowns without running them.

Any process may append a person's action; the ``(table_id, seq)`` uniqueness is the last word
on order (a loser's entry is refused and it catches up). Spit and Speed tables have the same
leases: the holder is their clock (bots, countdowns), see ``tables/spit_speed_service.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import Callable
from typing import Any

from cardroom.store import NOTIFY_CHANNEL, LogEntry
from cardroom.store.events import asyncpg_dsn

__all__ = ["DEADLINES_CHANNEL", "PRESENCE_CHANNEL", "Coordinator", "asyncpg_dsn"]

PRESENCE_CHANNEL = "cardroom_presence"
DEADLINES_CHANNEL = "cardroom_deadlines"
logger = logging.getLogger(__name__)

_SCAN = """
WITH free AS MATERIALIZED (
    SELECT id FROM tables
    WHERE status IN ('waiting', 'playing') AND NOT (id = ANY($1::text[]))
    ORDER BY created_at LIMIT $2
)
SELECT id FROM free WHERE pg_try_advisory_lock(hashtextextended(id, 0))
"""


def _notify_script(notices: list[tuple[str, str]]) -> str:
    """``NOTIFY`` statements for ``(channel, payload)`` pairs as one simple query: no
    statement to bind, no row to send back (``SELECT pg_notify(...)`` returns one per notice).
    The connection keeps ``standard_conforming_strings`` on, so doubling ``'`` is the
    quoting."""
    return "".join(
        f"NOTIFY {channel}, '{p.replace(chr(39), chr(39) * 2)}';" for channel, p in notices
    )


class Coordinator:
    """This process's lease connection: leases, notices in and out."""

    def __init__(
        self,
        url: str,
        on_change: Callable[[str, int, LogEntry | None], None],
        on_presence: Callable[[str, str, int, int], None],
        on_deadlines: Callable[[str, list[tuple[str, int | None, float]]], None] | None = None,
        wants: Callable[[str], bool] | None = None,
    ) -> None:
        self.dsn = asyncpg_dsn(url)
        self.pid = f"{os.getpid()}-{id(self):x}"
        self.on_change = on_change
        self.on_presence = on_presence
        self.on_deadlines = on_deadlines
        self.wants = wants
        self.conn: Any = None
        self.lock = asyncio.Lock()
        self._outbox: list[tuple[str, str]] = []
        """Notices of every channel waiting for the next query, in order."""
        self._flush: asyncio.Task[None] | None = None

    @property
    def connected(self) -> bool:
        """True while the lease connection is open (the leases are held)."""
        return self.conn is not None and not self.conn.is_closed()

    async def connect(self) -> None:
        """Open the lease connection and listen (raises if the database does not answer)."""
        import asyncpg

        conn = await asyncpg.connect(
            self.dsn, timeout=5, server_settings={"standard_conforming_strings": "on"}
        )
        await conn.add_listener(NOTIFY_CHANNEL, self._changed)
        await conn.add_listener(PRESENCE_CHANNEL, self._presence)
        await conn.add_listener(DEADLINES_CHANNEL, self._deadlines)
        self.conn = conn

    async def close(self) -> None:
        """Close the connection (every lease of this process is released)."""
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.close(), 5)
            self.conn = None

    def _changed(self, conn: Any, pid: int, _channel: str, payload: str) -> None:
        if pid == conn.get_server_pid():  # our own notice: this process has the entry
            return
        if payload.startswith("["):  # the entry itself: no need to read the log
            if self.wants is not None:  # ids are letters and digits: '["<id>", ...'
                table_id, _, _ = payload[2:].partition('"')
                if not self.wants(table_id):
                    return  # a table this process does not hold: not decoded
            with contextlib.suppress(ValueError, TypeError, KeyError):
                table_id, seq, kind, data, at = json.loads(payload)
                self.on_change(str(table_id), int(seq), LogEntry(int(seq), kind, data, at))
            return
        table_id, _, seq = payload.partition(" ")
        with contextlib.suppress(ValueError):
            self.on_change(table_id, int(seq), None)

    def _presence(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        for line in payload.splitlines():
            parts = line.split(" ")
            if len(parts) == 4 and parts[0] != self.pid:
                with contextlib.suppress(ValueError):
                    self.on_presence(parts[0], parts[1], int(parts[2]), int(parts[3]))

    def _deadlines(self, conn: Any, pid: int, _channel: str, payload: str) -> None:
        if self.on_deadlines is None:
            return
        if pid == conn.get_server_pid():  # our own timers
            return
        if self.wants is not None and not self.wants(payload[2:].partition('"')[0]):
            return
        with contextlib.suppress(ValueError, TypeError, KeyError):
            table_id, rows = json.loads(payload)
            told = [(str(k), None if s is None else int(s), float(at)) for k, s, at in rows]
            self.on_deadlines(str(table_id), told)

    async def tell_deadlines(
        self, table_id: str, deadlines: list[tuple[str, int | None, float]]
    ) -> None:
        """Publish a table's running timers (the lease holder, whenever they change)."""
        self._post(DEADLINES_CHANNEL, json.dumps([table_id, [list(d) for d in deadlines]]))

    def announce(self, table_id: str, entry: LogEntry) -> None:
        """Tell the other processes that ``table_id`` has ``entry`` (batched, after commit):
        the entry itself if it fits in a notice, else its seq (they read the log then)."""
        payload = json.dumps([table_id, entry.seq, entry.kind, entry.data, entry.at])
        if len(payload.encode()) > 7000:
            payload = f"{table_id} {entry.seq}"
        self._post(NOTIFY_CHANNEL, payload)

    def _post(self, channel: str, payload: str) -> None:
        """Queue one notice: the notices of a loop turn, whatever their channel, go in one
        query (one round trip instead of one ``SELECT pg_notify`` each for deadlines and
        presence)."""
        self._outbox.append((channel, payload))
        if self._flush is None or self._flush.done():
            self._flush = asyncio.get_running_loop().create_task(self._send_outbox())

    async def _send_outbox(self) -> None:
        while self._outbox:
            await asyncio.sleep(0)  # gather what the other tasks commit meanwhile
            batch, self._outbox = self._outbox[:100], self._outbox[100:]
            if not self.connected:
                continue  # they catch up from the log once connected again
            try:
                async with self.lock:
                    await self.conn.execute(_notify_script(batch))
            except Exception as exc:  # the lease loop sees the connection and reconnects
                logger.info("change notices not sent: %s", exc)

    async def scan(self, held: set[str], limit: int = 200) -> list[str]:
        """Take the lease of unfinished tables nobody holds (at most ``limit``); their ids."""
        async with self.lock:
            rows = await self.conn.fetch(_SCAN, sorted(held), limit)
        return [r["id"] for r in rows]

    async def acquire(self, table_id: str) -> bool:
        """Try to take one table's lease."""
        async with self.lock:
            got: bool = await self.conn.fetchval(
                "SELECT pg_try_advisory_lock(hashtextextended($1, 0))", table_id
            )
        return got

    async def release(self, table_id: str) -> None:
        """Give one table's lease back (a finished table)."""
        async with self.lock:
            await self.conn.execute("SELECT pg_advisory_unlock(hashtextextended($1, 0))", table_id)

    async def tell_presence(self, lines: list[str]) -> None:
        """Publish ``"<table> <seat> <n>"`` lines (chunked under NOTIFY's 8000 bytes)."""
        chunk: list[str] = []
        size = 0
        for line in lines:
            full = f"{self.pid} {line}"
            if size + len(full) > 7000:
                self._post(PRESENCE_CHANNEL, "\n".join(chunk))
                chunk, size = [], 0
            chunk.append(full)
            size += len(full) + 1
        if chunk:
            self._post(PRESENCE_CHANNEL, "\n".join(chunk))
