"""The event log's direct write paths: the internals of the event store's appends.

An append waits in a batch (:class:`_Pending`); a batch is written in one transaction by one of
two direct paths, each kept apart from SQLAlchemy's pool: for a SQLite file, one plain
``sqlite3`` connection in a thread of its own (:class:`_SqliteWriter`); for PostgreSQL, the
appends' own asyncpg connections (:class:`_PgWriter`). Both write the same rows and the same
projections' updates (:func:`_raw_batch`) as SQLAlchemy would, and a taken seq becomes a
:class:`~cardroom.store.errors.SeqConflict` naming its table when the database says which.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cardroom.store.pgconn as pgconn
from cardroom.games.table import LogEntry
from cardroom.store.connect import sqlite_pragmas
from cardroom.store.errors import SeqConflict, StoreError, is_database_error, unavailable

_SEAT_COLUMNS = ("kind", "name", "level", "token_hash", "joined")
_TABLE_COLUMNS = ("status", "title", "public", "summary")


@dataclass(slots=True, eq=False)
class _Pending:
    """An append waiting for its batch's commit."""

    table_id: str
    entry: LogEntry
    table_update: dict[str, Any] | None
    seats_update: list[dict[str, Any]] | None
    done: asyncio.Future[None]


def _fail(one: _Pending, exc: BaseException) -> None:
    if not one.done.done():
        one.done.set_exception(exc if isinstance(exc, Exception) else StoreError(repr(exc)))


_RAW_INSERT = "INSERT INTO events (table_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)"


class _SqliteWriter:
    """The appends' own path to a SQLite file: one plain ``sqlite3`` connection in one thread
    of its own, a whole batch (BEGIN IMMEDIATE, the inserts, the projections' updates, COMMIT)
    in one hand-over to that thread. Through SQLAlchemy and aiosqlite the same batch took
    about ten hand-overs (begin, execute, cursor, close, commit, each a thread wake-up and a
    future) and most of the log's CPU. Same file, same pragmas (WAL, ``synchronous=FULL``):
    COMMIT returns once the batch is on disk."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn: sqlite3.Connection | None = None
        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        """Batches for the thread, in order; None stops it."""
        self.thread: threading.Thread | None = None

    def submit(
        self,
        rows: list[tuple[str, int, str, str, float]],
        updates: list[tuple[str, tuple[Any, ...]]],
        before_commit: Callable[[], None],
        loop: asyncio.AbstractEventLoop,
    ) -> asyncio.Future[None]:
        """Hand one batch to the writer's thread: a future of ``loop`` (the running one, given
        by the caller: looking it up costs a ``getpid``, see :meth:`EventStore.append`),
        settled by one ``call_soon_threadsafe`` once the batch is committed (or failed). No
        executor work item, no ``concurrent.futures.Future`` and its chaining to the loop's
        future."""
        done: asyncio.Future[None] = loop.create_future()
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="cardroom-log", daemon=True)
            self.thread.start()
        self.jobs.put((rows, updates, before_commit, loop, done))
        return done

    def _run(self) -> None:
        """The writer's thread: each batch in turn, until told to stop."""
        while True:
            job = self.jobs.get()
            if job is None:
                if self.conn is not None:
                    self.conn.close()
                    self.conn = None
                return
            rows, updates, before_commit, loop, done = job
            try:
                self.write(rows, updates, before_commit)
            except BaseException as exc:  # handed to the loop's future
                error: BaseException | None = exc
            else:
                error = None
            with contextlib.suppress(RuntimeError):  # (the loop is closed: nobody waits)
                loop.call_soon_threadsafe(_settle, done, error)

    def _connection(self) -> sqlite3.Connection:
        if self.conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            sqlite_pragmas(conn, None)
            self.conn = conn
        return self.conn

    def write(
        self,
        rows: list[tuple[str, int, str, str, float]],
        updates: list[tuple[str, tuple[Any, ...]]],
        before_commit: Callable[[], None],
    ) -> None:
        """In the writer's thread: the batch in one transaction, all of it or nothing."""
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany(_RAW_INSERT, rows)
            for sql, params in updates:
                conn.execute(sql, params)
            before_commit()
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        """Stop the thread once the batches before this are written (blocks: call it off the
        loop) and close its connection."""
        thread = self.thread
        if thread is None:
            return
        self.jobs.put(None)
        thread.join()
        self.thread = None


_Job = tuple[
    list[tuple[str, int, str, str, float]],
    list[tuple[str, tuple[Any, ...]]],
    Callable[[], None],
    asyncio.AbstractEventLoop,
    "asyncio.Future[None]",
]


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    """On the loop: a batch's future, from the writer's thread."""
    if done.done():  # (its waiter was cancelled)
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


def _batch_conflict(batch: list[_Pending], detail: str | None = None) -> SeqConflict:
    """The error of a batch one of whose entries' seq is already taken; ``detail``:
    PostgreSQL's (``Key (table_id, seq)=(t1, 5) already exists.``), which names the table."""
    first = batch[0]
    exc = SeqConflict(
        f"table {first.table_id} already has entry {first.entry.seq}"
        if len(batch) == 1
        else "an entry of the batch is already in the log"
    )
    taken = _TAKEN.match(detail or "")
    if taken is not None:
        exc.table_id = taken.group(1)
    return exc


_TAKEN = re.compile(r"Key \(table_id, seq\)=\(([A-Za-z0-9]+), \d+\) already exists")


def _raw_updates(
    table_id: str,
    table_update: dict[str, Any] | None,
    seats_update: list[dict[str, Any]] | None,
    pg: bool = False,
) -> list[tuple[str, tuple[Any, ...]]]:
    """The projections' updates of one append (or of :meth:`EventStore.update_table`) as
    plain SQL for the direct paths (the same values SQLAlchemy writes: JSON as
    ``json.dumps`` text); ``pg``: ``$1`` placeholders."""

    def sql(table: str, columns: list[str], where: list[str]) -> str:
        marks = [f"${i + 1}" if pg else "?" for i in range(len(columns) + len(where))]
        sets = ", ".join(f"{c} = {m}" for c, m in zip(columns, marks, strict=False))
        cond = " AND ".join(f"{c} = {m}" for c, m in zip(where, marks[len(columns) :], strict=True))
        return f"UPDATE {table} SET {sets} WHERE {cond}"

    out: list[tuple[str, tuple[Any, ...]]] = []
    if table_update:
        values = {k: v for k, v in table_update.items() if k in _TABLE_COLUMNS}
        if "summary" in values:
            values["summary"] = json.dumps(values["summary"])
        if values:
            out.append((sql("tables", list(values), ["id"]), (*values.values(), table_id)))
    for seat in seats_update or []:
        values = {k: v for k, v in seat.items() if k in _SEAT_COLUMNS}
        if values:
            out.append(
                (
                    sql("seats", list(values), ["table_id", "seat"]),
                    (*values.values(), table_id, seat["seat"]),
                )
            )
    return out


def _raw_batch(
    batch: list[_Pending], pg: bool = False
) -> tuple[list[tuple[Any, ...]], list[tuple[str, tuple[Any, ...]]]]:
    """A batch for the direct paths: its ``events`` rows (JSON as text) and its projections'
    updates (:func:`_raw_updates`)."""
    rows = [
        (p.table_id, p.entry.seq, p.entry.kind, json.dumps(p.entry.data), p.entry.at)
        for p in batch
    ]
    updates = [
        u for p in batch for u in _raw_updates(p.table_id, p.table_update, p.seats_update, pg)
    ]
    return rows, updates


class _PgWriter:
    """The appends' own asyncpg connections to PostgreSQL, kept apart from SQLAlchemy's pool.

    Through the pool each batch paid a checkout with ``pool_pre_ping`` (SQLAlchemy's asyncpg
    ping is BEGIN, ``;``, ROLLBACK: three round trips) and the greenlet hand-overs of
    ``engine.connect()``: in a profile of one PostgreSQL server at 1000 tables that was more
    than the batch's own statements. Here a connection is checked by ``is_closed()``, which
    asyncpg sets as soon as the socket closes (a restarted database closes it), costing no
    round trip; a connection whose batch failed for any reason but a refused seq is closed,
    never reused, and the next batch opens a new one. One connection per batch in flight
    (:attr:`EventStore.max_flushers`) and per :meth:`EventStore.update_table` running; at
    most four are kept idle."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.idle: list[Any] = []
        """Open connections waiting for the next batch."""
        self.closed = False

    async def take(self) -> Any:
        """An open connection (an idle one, else a new one); :class:`StoreUnavailable` if the
        database does not answer."""
        while self.idle:
            conn = self.idle.pop()
            if not conn.is_closed():
                return conn
        try:
            return await pgconn.connect(self.dsn)
        except Exception as exc:
            if not is_database_error(exc):
                raise
            raise unavailable(exc) from None

    @contextlib.asynccontextmanager
    async def connection(
        self, passes: tuple[type[BaseException], ...] = ()
    ) -> AsyncIterator[Any]:
        """One of these connections for a batch or a statement, given back afterwards: kept
        when all went well or on one of ``passes`` (raised as they are: the statement was
        refused and rolled back, the connection is fine); a database or network error
        becomes :class:`StoreUnavailable`; after anything else (a cancellation
        mid-statement) it is never reused."""

        conn = await self.take()
        reusable = False
        try:
            yield conn
            reusable = True
        except passes:
            reusable = True
            raise
        except Exception as exc:  # (a timed-out statement leaves it busy: never reused)
            if not is_database_error(exc):
                raise
            raise unavailable(exc) from None
        finally:
            self.give(conn, reusable)

    async def run(self, statement: str, params: tuple[Any, ...]) -> None:
        """One statement on its own (an implicit transaction) on one of these connections."""
        async with self.connection() as conn:
            await conn.execute(statement, *params)

    def give(self, conn: Any, reusable: bool) -> None:
        """Back after a batch: kept if ``reusable``, else dropped at once (no round trip)."""
        if reusable and not self.closed and not conn.is_closed() and len(self.idle) < 4:
            self.idle.append(conn)
        else:
            conn.terminate()

    async def close(self) -> None:
        """Close the idle connections (a batch in flight gives its own back afterwards)."""
        self.closed = True
        idle, self.idle = self.idle, []
        for conn in idle:
            try:
                await asyncio.wait_for(conn.close(), 5)
            except Exception:  # (gone already, or not answering: drop it)
                conn.terminate()


_PG_INSERT = "INSERT INTO events (table_id, seq, kind, data, at) VALUES ($1, $2, $3, $4, $5)"
