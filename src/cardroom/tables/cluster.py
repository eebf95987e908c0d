"""Several server processes on one PostgreSQL: table leases, change and presence notices.

One asyncpg connection per process (not from the store's pool) holds:

* **leases**: a session advisory lock per table (``pg_try_advisory_lock(hashtextextended(id,
  0))``). The process holding a table's lock is its authority: it runs its bots and timers and
  deals its rounds. The lock goes with the connection, so a process that dies (or loses the
  database) frees its tables at once and another takes them at its next scan. A process takes
  the lease of a turn-based table it creates before writing the table's row, so no other
  process's scan takes it in between (with ``serve --workers`` it would run a table whose
  connections are routed to its creator, and every change would cross).
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
* **peers** (``cardroom_peers``): a process alone on the database sends no notices at all (no
  NOTIFY round trip per loop turn). Each lease connection holds a shared advisory lock
  (``PEER_LOCK``), so a process that connects sees at once whether another is there (then it
  notices from the start), and says ``hello``; the others answer ``here``. A process that
  was alone and hears of another starts noticing and first says ``sync`` with the tables whose
  notices it held back (``sync`` alone: too many to list, any table), then tells its presence
  and timers again; a process that hears ``sync`` reads those tables' log (``on_sync``). An
  entry is announced only after its commit, so whatever a lone process held back is in the log
  before its ``sync`` is sent, and everything after it is noticed. (A process that is left
  alone again keeps noticing.)
* **watches** (``cardroom_peers`` too): a table's lease holder tells its changes, presence and
  deadlines only while another process follows it. A process that holds a table in memory
  without its lease (it serves a connection or a page of it) says ``watch <id> ...`` when it
  loads the table and again with its presence every two lease intervals; every process keeps,
  per table, who watches it until when (``watch_ttl``, three repeats; ``expire``). A process
  that hears a *new* watch of a table it holds in memory answers ``watching <pid> <id> ...``
  (``<pid>``: the watcher's backend pid) and tells that table's presence and timers again; the
  watcher, on that answer, reads the table's log (``on_sync``). Nothing is missed: an entry is
  announced only after its commit, and the answer is sent after the watch is recorded, so
  what was committed while nobody watched is in the log before the answer, and everything
  announced after it is told. A process that is not a table's lease holder always tells its
  changes and presence (the holder follows every table it holds), so a person's action or
  connection in another process reaches the holder, and a bot does not take over a person
  connected elsewhere. Until a process has heard every peer's watches (one ``watch_ttl``
  after it connects or stops being alone) it tells every table, as before. A process that
  takes a table at its scan answers its watchers too (``answer``): they read what its last
  holder did not tell; the watches themselves are said to every process, so the new holder
  has them already.

Any process may append a person's action; the ``(table_id, seq)`` uniqueness is the last word
on order (a loser's entry is refused and it catches up). Real-time tables have the same
leases: the holder is their clock (bots, countdowns), see ``tables/realtime_service.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Callable
from typing import Any

from cardroom.store import NOTIFY_CHANNEL, LogEntry, pgconn
from cardroom.store.events import asyncpg_dsn

__all__ = [
    "DEADLINES_CHANNEL",
    "PEERS_CHANNEL",
    "PEER_LOCK",
    "PRESENCE_CHANNEL",
    "WATCH_TTL",
    "Coordinator",
    "asyncpg_dsn",
]

PRESENCE_CHANNEL = "cardroom_presence"
DEADLINES_CHANNEL = "cardroom_deadlines"
PEERS_CHANNEL = "cardroom_peers"
PEER_LOCK = (1667330660, 1)
"""The shared advisory lock every lease connection holds (the two-key form: its own key space,
apart from the tables' one-key leases), so a process sees whether any other is connected."""
ROUND_TRIP_DEADLINE = 2.0
"""Seconds a statement on the lease connection (a scan, a lease taken or given back, a beat,
the notices) may take; past it the connection is dropped (``lost``)."""
FENCE_AFTER = 3.0
"""A process that has had no answer on its lease connection for this long gives up every
table it runs (see ``TableService``); the server frees the leases only later
(``pgconn.SERVER_GIVES_UP``), so no two processes ever act for one table."""
WATCH_TTL = 6.0
"""How long a ``watch`` holds (its sender repeats it every few seconds, see ``watch``); also
how long a process notices every table after it connects or stops being alone."""
_HELD_BACK_MAX = 500
"""At most this many table ids are remembered while alone; past it ``sync`` means all."""
logger = logging.getLogger(__name__)

_SCAN = """
WITH free AS MATERIALIZED (
    SELECT id FROM tables
    WHERE status IN ('waiting', 'playing') AND NOT (id = ANY($1::text[]))
    ORDER BY created_at LIMIT $2
)
SELECT id FROM free WHERE pg_try_advisory_lock(hashtextextended(id, 0))
"""

_OTHERS = """
SELECT count(*) FROM pg_locks
WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = $2 AND objsubid = 2
  AND pid <> pg_backend_pid()
"""


_SHARES = """
SELECT
  (SELECT count(*) FROM pg_locks
   WHERE locktype = 'advisory' AND granted AND objsubid = 1) AS leases,
  (SELECT count(*) FROM pg_locks
   WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = $2 AND objsubid = 2)
    AS peers
"""
"""The one-key advisory locks (the tables' leases; ``bounds`` takes its own only within a
transaction, rarely) and the lease connections (each holds ``PEER_LOCK``)."""


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
        on_sync: Callable[[list[str] | None], None] | None = None,
        on_peer: Callable[[], None] | None = None,
        on_watched: Callable[[list[str]], None] | None = None,
        watch_ttl: float = WATCH_TTL,
    ) -> None:
        """``on_sync(ids)``: another process was alone and held back the change notices of
        these tables (``None``: of any table); read them from the log. ``on_peer()``: this
        process was alone and another appeared (tell it what the notices it held back said:
        presence, deadlines). ``on_watched(ids)``: another process started watching these
        tables, which this process holds in memory (tell it their presence and deadlines)."""
        self.dsn = asyncpg_dsn(url)
        self.pid = f"{os.getpid()}-{id(self):x}"
        self.on_change = on_change
        self.on_presence = on_presence
        self.on_deadlines = on_deadlines
        self.wants = wants
        self.on_sync = on_sync
        self.on_peer = on_peer
        self.on_watched = on_watched
        self.watch_ttl = watch_ttl
        self.mine: set[str] = set()
        """The tables whose lease this process holds (the service's set): their notices are
        sent only while another process watches them."""
        self.watchers: dict[str, dict[int, float]] = {}
        """Table -> {the watching process's backend pid: until when (monotonic)}."""
        self.noticing_all = True
        """Every table's notices are sent (until ``_all_until``: the others' watches heard)."""
        self._all_until = time.monotonic() + watch_ttl
        self.alone = True
        """No other process was seen on the database: no notice is sent."""
        self._held_back: set[str] | None = set()
        """Tables whose change notices were not sent while alone (``None``: too many)."""
        self.conn: Any = None
        self.last_ok = 0.0
        """When (monotonic) the lease connection last answered."""
        self.deadline = ROUND_TRIP_DEADLINE
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
        conn = await pgconn.connect(self.dsn, standard_conforming_strings="on")
        try:
            async with asyncio.timeout(2 * self.deadline):
                await conn.add_listener(NOTIFY_CHANNEL, self._changed)
                await conn.add_listener(PRESENCE_CHANNEL, self._presence)
                await conn.add_listener(DEADLINES_CHANNEL, self._deadlines)
                await conn.add_listener(PEERS_CHANNEL, self._peers)
                await conn.execute("SELECT pg_advisory_lock_shared($1, $2)", *PEER_LOCK)
                others = await conn.fetchval(_OTHERS, *PEER_LOCK)
        except BaseException:
            conn.terminate()
            raise
        self.conn = conn
        self._notice_all()
        if others:
            self._not_alone()
        await conn.execute(f"NOTIFY {PEERS_CHANNEL}, 'hello'")
        self.last_ok = time.monotonic()

    async def close(self) -> None:
        """Close the connection (every lease of this process is released)."""
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.close(), self.deadline)
            self.lost()

    def lost(self) -> None:
        """Drop the connection at once, without a word to the server (it does not answer):
        ``connected`` is False from now on."""
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.terminate()

    def silent_for(self) -> float:
        """Seconds since the lease connection last answered (infinite if it is not open)."""
        if not self.connected:
            return float("inf")
        return time.monotonic() - self.last_ok

    async def _round_trip(self, call: Callable[[Any], Any]) -> Any:
        """``await call(conn)`` under the lock within ``deadline`` seconds (the wait for the
        lock included); the connection is dropped if it does not answer in time."""
        conn = self.conn
        if conn is None:
            raise ConnectionError("the lease connection is closed")
        try:
            async with asyncio.timeout(self.deadline), self.lock:
                result = await call(conn)
        except TimeoutError:
            if conn is self.conn:
                self.lost()
            raise
        self.last_ok = time.monotonic()
        return result

    async def beat(self) -> None:
        """One round trip on the lease connection (proof that the leases are still held)."""
        await self._round_trip(lambda conn: conn.execute("SELECT 1"))

    def _notice_all(self) -> None:
        """Notice every table until the other processes' watches have all been heard."""
        self.noticing_all = True
        self._all_until = time.monotonic() + self.watch_ttl

    def tells(self, table_id: str) -> bool:
        """True if a change of this table is told: this process is not its lease holder (the
        holder follows it), or another process watches it, or the watches are not all heard
        yet."""
        return self.noticing_all or table_id not in self.mine or table_id in self.watchers

    def expire(self) -> None:
        """Forget the watches not repeated in time (called every lease interval)."""
        now = time.monotonic()
        if self.noticing_all and now >= self._all_until:
            self.noticing_all = False
        for table_id, seen in list(self.watchers.items()):
            for pid, until in list(seen.items()):
                if until <= now:
                    del seen[pid]
            if not seen:
                del self.watchers[table_id]

    def watch(self, table_ids: list[str]) -> None:
        """Say that this process holds these tables in memory without their lease: their lease
        holder tells their changes, presence and deadlines while this is repeated (within
        ``watch_ttl``). The holder answers a new watch with ``watching``: then this process
        reads their log (what was committed while nobody watched)."""
        if self.alone or not table_ids:
            return
        self._post_ids(PEERS_CHANNEL, "watch", table_ids)

    def answer(self, table_id: str) -> None:
        """Tell the watchers of a table this process just took that they must read its log."""
        for pid in self.watchers.get(table_id, ()):
            self._post(PEERS_CHANNEL, f"watching {pid} {table_id}")

    def _post_ids(self, channel: str, head: str, ids: list[str]) -> None:
        chunk: list[str] = []
        size = 0
        for table_id in ids:
            if size + len(table_id) > 7000:
                self._post(channel, head + " " + " ".join(chunk))
                chunk, size = [], 0
            chunk.append(table_id)
            size += len(table_id) + 1
        if chunk:
            self._post(channel, head + " " + " ".join(chunk))

    def _watched(self, pid: int, ids: list[str]) -> None:
        until = time.monotonic() + self.watch_ttl
        new: list[str] = []
        for table_id in ids:
            seen = self.watchers.setdefault(table_id, {})
            if pid not in seen and (self.wants is None or self.wants(table_id)):
                new.append(table_id)
            seen[pid] = until
        if new:  # recorded above: every change announced from now on is told to it
            self._post_ids(PEERS_CHANNEL, f"watching {pid}", new)
            if self.on_watched is not None:
                self.on_watched(new)

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

    def _peers(self, conn: Any, pid: int, _channel: str, payload: str) -> None:
        if pid == conn.get_server_pid():  # our own
            return
        if payload == "hello":  # a process connected: it may have been told of nobody yet
            self._post(PEERS_CHANNEL, "here")
        elif payload.startswith("watch "):
            self._watched(pid, payload[6:].split(" "))
        elif payload.startswith("watching "):
            _, to, listed = payload.split(" ", 2)
            if to == str(conn.get_server_pid()) and self.on_sync is not None:
                self.on_sync(listed.split(" "))
        elif payload.startswith("sync") and self.on_sync is not None:
            ids = payload[5:].split(" ") if payload.startswith("sync ") else None
            self.on_sync(ids)
        self._not_alone()

    def _not_alone(self) -> None:
        """Another process is there: notices from now on; ``sync`` for those held back."""
        if not self.alone:
            return
        self.alone = False
        self._notice_all()
        held, self._held_back = self._held_back, set()
        if held is None:
            self._post(PEERS_CHANNEL, "sync")
        else:
            chunk: list[str] = []
            size = 0
            for table_id in sorted(held):
                if size + len(table_id) > 7000:
                    self._post(PEERS_CHANNEL, "sync " + " ".join(chunk))
                    chunk, size = [], 0
                chunk.append(table_id)
                size += len(table_id) + 1
            if chunk:
                self._post(PEERS_CHANNEL, "sync " + " ".join(chunk))
        if self.on_peer is not None:
            self.on_peer()

    async def tell_deadlines(
        self, table_id: str, deadlines: list[tuple[str, int | None, float]]
    ) -> None:
        """Publish a table's running timers (the lease holder, whenever they change)."""
        if self.alone or not self.tells(table_id):
            return
        self._post(DEADLINES_CHANNEL, json.dumps([table_id, [list(d) for d in deadlines]]))

    def announce(self, table_id: str, entry: LogEntry) -> None:
        """Tell the other processes that ``table_id`` has ``entry`` (batched, after commit):
        the entry itself if it fits in a notice, else its seq (they read the log then)."""
        if self.alone:  # nobody to tell; told by ``sync`` if somebody comes
            held = self._held_back
            if held is not None:
                held.add(table_id)
                if len(held) > _HELD_BACK_MAX:
                    self._held_back = None
            return
        if not self.tells(table_id):  # nobody else follows it
            return
        payload = json.dumps([table_id, entry.seq, entry.kind, entry.data, entry.at])
        if len(payload.encode()) > 7000:
            payload = f"{table_id} {entry.seq}"
        self._post(NOTIFY_CHANNEL, payload)

    def _post(self, channel: str, payload: str) -> None:
        """Queue one notice: the notices of a loop turn, whatever their channel, go in one
        query (one round trip instead of one ``SELECT pg_notify`` each for deadlines and
        presence). Alone, only ``cardroom_peers`` notices are sent (presence and deadlines
        are told again when another process appears, see ``on_peer``)."""
        if self.alone and channel != PEERS_CHANNEL:
            return
        self._outbox.append((channel, payload))
        if self._flush is None or self._flush.done():
            self._flush = asyncio.get_running_loop().create_task(self._send_outbox())

    async def _send_outbox(self) -> None:
        while self._outbox:
            await asyncio.sleep(0)  # gather what the other tasks commit meanwhile
            batch, self._outbox = self._outbox[:100], self._outbox[100:]
            if not self.connected:
                continue  # they catch up from the log once connected again
            script = _notify_script(batch)

            def send(conn: Any, script: str = script) -> Any:
                return conn.execute(script)

            try:
                await self._round_trip(send)
            except Exception as exc:  # the lease loop sees the connection and reconnects
                logger.info("change notices not sent: %s", exc)

    async def scan(self, held: set[str], limit: int = 200) -> list[str]:
        """Take the lease of unfinished tables nobody holds (at most ``limit``); their ids."""
        ids = sorted(held)
        rows = await self._round_trip(lambda conn: conn.fetch(_SCAN, ids, limit))
        return [r["id"] for r in rows]

    async def shares(self) -> tuple[int, int]:
        """(table leases held by every process, processes on the database): each process's
        fair share is their quotient."""
        row = await self._round_trip(lambda conn: conn.fetchrow(_SHARES, *PEER_LOCK))
        return int(row["leases"]), max(1, int(row["peers"]))

    async def acquire(self, table_id: str) -> bool:
        """Try to take one table's lease."""
        got: bool = await self._round_trip(
            lambda conn: conn.fetchval(
                "SELECT pg_try_advisory_lock(hashtextextended($1, 0))", table_id
            )
        )
        return got

    async def release(self, table_id: str) -> None:
        """Give one table's lease back (a finished table)."""
        await self._round_trip(
            lambda conn: conn.execute(
                "SELECT pg_advisory_unlock(hashtextextended($1, 0))", table_id
            )
        )

    async def tell_presence(self, lines: list[str]) -> None:
        """Publish ``"<table> <seat> <n>"`` lines (chunked under NOTIFY's 8000 bytes)."""
        if self.alone:
            return
        chunk: list[str] = []
        size = 0
        for line in lines:
            if not self.tells(line.partition(" ")[0]):
                continue
            full = f"{self.pid} {line}"
            if size + len(full) > 7000:
                self._post(PRESENCE_CHANNEL, "\n".join(chunk))
                chunk, size = [], 0
            chunk.append(full)
            size += len(full) + 1
        if chunk:
            self._post(PRESENCE_CHANNEL, "\n".join(chunk))
