"""EventStore: tables, seats and events on an async SQLAlchemy engine."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as SaTimeout
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

import cardroom.store.pgconn as pgconn
from cardroom.games.table import LogEntry
from cardroom.store.migrate import SchemaError, Upgrade, upgrade


class StoreError(RuntimeError):
    """The store cannot be opened or written (bad URL, unwritable file)."""


class SeqConflict(StoreError):
    """An entry with this ``(table_id, seq)`` is already in the log."""

    table_id: str | None = None
    """The table whose entry was refused, when the database said which (PostgreSQL)."""


class StoreUnavailable(StoreError):
    """The database did not answer (restarting, unreachable): nothing was written."""


NOTIFY_CHANNEL = "cardroom_tables"
"""PostgreSQL channel told ``"<table_id> <seq>"`` in the transaction of every entry."""


def is_database_error(exc: BaseException) -> bool:
    """True for an error of the database or of the way to it, which the caller should tell
    as ``unavailable``: a driver's error (SQLAlchemy's wrapping, any of asyncpg's, among them
    ``InternalClientError: cannot switch to state …; another operation is in progress`` of a
    connection whose statement timed out), a network error, a timeout (a statement, a pool
    checkout, a connection attempt)."""
    if isinstance(exc, IntegrityError | StoreError):
        return False
    if isinstance(exc, DBAPIError | OSError | ConnectionError | TimeoutError | SaTimeout):
        return True
    return any(k.__module__.startswith("asyncpg") for k in type(exc).__mro__[:-2])


def unavailable(exc: BaseException) -> StoreUnavailable:
    """``exc`` (see :func:`is_database_error`) as :class:`StoreUnavailable`, its first line
    as the reason."""
    reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return StoreUnavailable(
        f"the database is not answering ({reason[0] if reason else type(exc).__name__})"
    )


@contextlib.asynccontextmanager
async def _guard() -> AsyncIterator[None]:
    try:
        yield
    except (SeqConflict, IntegrityError):
        raise
    except Exception as exc:
        if not is_database_error(exc):
            raise
        raise unavailable(exc) from None


@dataclass(frozen=True, slots=True)
class TableRow:
    """A row of the ``tables`` projection with its seats (for the lobby)."""

    id: str
    game: str
    created_at: float
    status: str
    title: str
    public: bool
    summary: dict[str, Any]
    seats: list[dict[str, Any]] = field(default_factory=list)


metadata = sa.MetaData()
"""The tables as the code reads and writes them. The migrations (``store/migrations/``) make
them: a change here needs a migration (``tests/store/test_migrations.py`` compares the two)."""

tables_t = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("title", sa.String(200), nullable=False, default=""),
    sa.Column("public", sa.Boolean, nullable=False, default=True),
    sa.Column("summary", sa.JSON, nullable=False, default=dict),
)

seats_t = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("level", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("joined", sa.Boolean, nullable=False, default=False),
)

events_t = sa.Table(
    "events",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.UniqueConstraint("table_id", "seq", name="events_table_seq"),
)

_INSERT_EVENT = events_t.insert()
"""Built once: executed with a list of rows it is one executemany (the compiled form is cached)."""

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


def default_url() -> str:
    """``sqlite+aiosqlite:///<user data dir>/cardroom.db``."""
    from platformdirs import user_data_dir

    return f"sqlite+aiosqlite:///{Path(user_data_dir('cardroom')) / 'cardroom.db'}"


def resolve_url(db: str | None) -> str:
    """A ``--db`` value (a file path or a SQLAlchemy URL) as a SQLAlchemy URL."""
    if db is None or not str(db).strip():
        return default_url()
    text = str(db).strip()
    if "://" not in text:
        return f"sqlite+aiosqlite:///{Path(text).expanduser().resolve()}"
    try:
        url = make_url(text)
    except ArgumentError:
        raise StoreError(
            f"cannot read the database URL {text!r}: give a file path or a SQLAlchemy URL"
        ) from None
    if url.drivername in ("sqlite", "sqlite+pysqlite"):
        url = url.set(drivername="sqlite+aiosqlite")
    elif url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+asyncpg")
    return url.render_as_string(hide_password=False)


def _sqlite_file(url: str) -> Path | None:
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite"):
        return None
    database = parsed.database
    if not database or database == ":memory:":
        return None
    return Path(database)


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
            _sqlite_pragmas(conn, None)
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


def asyncpg_dsn(url: str) -> str:
    """A SQLAlchemy ``postgresql+asyncpg://`` URL as a plain asyncpg DSN."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


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


class EventStore:
    """The log of every table; open it with :meth:`open`."""

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self.engine = engine
        self.url = url
        self.notifies = engine.dialect.name == "postgresql"
        """Tell other processes of every entry (PostgreSQL NOTIFY, in the same transaction)."""
        self.announce: Callable[[str, LogEntry], None] | None = None
        """If set, called after each committed entry instead of a NOTIFY in its transaction
        (PostgreSQL commits NOTIFYing transactions one at a time, fsync included)."""
        # SQLite has one writer at a time: writers of this process queue here, in order, instead
        # of meeting in SQLite's busy handler (which gives up under load: "database is locked").
        self._write_lock: asyncio.Lock | contextlib.nullcontext[None] = (
            asyncio.Lock() if engine.dialect.name == "sqlite" else contextlib.nullcontext()
        )
        self._queue: list[_Pending] = []
        self._flushers: set[asyncio.Task[None]] = set()
        self.max_flushers = 1 if engine.dialect.name == "sqlite" else 2
        """Transactions of :meth:`append` in flight at once: SQLite has one writer; on
        PostgreSQL a second batch is written while the first one's commit is on its way (a
        table's next entry is appended only after its previous one returned, so two batches
        never hold seq n and n+1 of one table)."""
        self.max_batch = 500
        """At most this many entries in one transaction."""
        self.commit_interval = 0.008
        """Seconds from one batch's start to the next while appends come together. A commit
        costs the server about the same CPU whatever its size (SQLite: the fsync's block
        I/O, the writer thread's wake-ups and GIL hand-overs; both: the loop's futures and
        wake-ups): with this machine's fast fsync, 1000 SQLite tables made ~600 commits a
        second of about two entries each. Paced, the entries that meet in the window share
        a commit (~125 a second). An entry is still acknowledged only once its batch is
        committed; a lone append (the queue and the last batch of one entry each) is never
        held back, so one table playing alone, a test or an import is not slowed."""
        self._last_batch = (-1.0, 0)
        """The loop's time at the last batch's start and its number of entries."""
        self.batches = 0
        """Transactions written by :meth:`append` so far (for tests and benchmarks)."""
        self.upgraded: Upgrade | None = None
        """What :meth:`open` did to the schema (None: it was up to date)."""
        path = _sqlite_file(url)
        self._writer = _SqliteWriter(path) if path is not None else None
        """The appends' direct path to a SQLite file (None: SQLAlchemy writes them)."""
        self._pg_writer = (
            _PgWriter(asyncpg_dsn(url)) if engine.dialect.driver == "asyncpg" else None
        )
        """The appends' own connections to PostgreSQL (None: another database)."""
        self._loop: tuple[asyncio.AbstractEventLoop, int] | None = None
        """The loop of the last :meth:`append` and its thread, used again while it runs in this
        thread: CPython 3.11's ``asyncio.get_running_loop()`` makes a ``getpid`` system call
        each time (~155 ns here; the two checks ~50 ns)."""

    @classmethod
    async def open(cls, url: str | None = None) -> EventStore:
        """Connect (``url`` None: the default SQLite file) and bring its schema up to date.

        An empty database gets every table; an older one is upgraded in place by the
        migrations (:mod:`cardroom.store.migrate`; a SQLite file is copied beside itself
        first): :attr:`upgraded` says what was done.

        Raises :class:`StoreError` with a one-line reason if the database cannot be used.
        """
        full = resolve_url(url)
        path = _sqlite_file(full)
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder of {path}: {exc.strerror}") from None
            if not os.access(path.parent, os.W_OK):
                raise StoreError(f"cannot write the database folder {path.parent}")
        try:
            options: dict[str, Any] = {}
            if full.startswith("postgresql"):
                # a restarted database leaves dead pooled connections: test each before use;
                # a silent one: every statement, checkout and connection has a deadline
                options = {
                    "pool_pre_ping": True,
                    "pool_size": 10,
                    "max_overflow": 10,
                    "pool_timeout": pgconn.CONNECT_TIMEOUT,
                    "connect_args": pgconn.connect_args(),
                }
            engine = create_async_engine(full, **options)
        except (ArgumentError, ImportError) as exc:
            raise StoreError(f"cannot use the database {full!r}: {exc}") from None
        migrating = engine
        if engine.dialect.name == "sqlite":
            sa.event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        else:
            sa.event.listen(engine.sync_engine, "connect", _tune_socket)
            sa.event.listen(engine.sync_engine, "handle_error", _drop_broken)
            # an upgrade may wait for another server's and run long: no statement deadline
            migrating = create_async_engine(full, poolclass=NullPool)
        store = cls(engine, full)
        try:
            store.upgraded = await upgrade(migrating, full, path)
        except SchemaError as exc:
            await engine.dispose()
            raise StoreError(str(exc)) from None
        except (OperationalError, OSError, DBAPIError, sqlite3.Error) as exc:
            await engine.dispose()
            raise StoreError(f"cannot open the database {full}: {exc}") from None
        finally:
            if migrating is not engine:
                await migrating.dispose()
        return store

    async def close(self) -> None:
        """Dispose of the engine (and close the appends' own connection)."""
        if self._writer is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._writer.close)
        if self._pg_writer is not None:
            await self._pg_writer.close()
        await self.engine.dispose()

    async def create_table(
        self,
        table_id: str,
        game: str,
        entry: LogEntry,
        title: str,
        public: bool,
        seats: list[dict[str, Any]],
    ) -> None:
        """Insert the table, its seats and its first entry (seq 1, ``created``) at once."""
        async with _guard(), self._write_lock, self.engine.begin() as conn:
            try:
                await conn.execute(
                    tables_t.insert().values(
                        id=table_id,
                        game=game,
                        created_at=entry.at,
                        status="waiting",
                        title=title,
                        public=public,
                        summary={},
                    )
                )
            except IntegrityError:
                raise SeqConflict(f"table {table_id} already exists") from None
            if seats:
                await conn.execute(
                    seats_t.insert(),
                    [
                        {"table_id": table_id, "seat": s["seat"]}
                        | {k: s.get(k) for k in _SEAT_COLUMNS}
                        | {"joined": bool(s.get("joined")), "name": s.get("name") or ""}
                        for s in seats
                    ],
                )
            await self._insert_event(conn, table_id, entry)
        if self.announce is not None:
            self.announce(table_id, entry)

    async def append(
        self,
        table_id: str,
        entry: LogEntry,
        *,
        table_update: dict[str, Any] | None = None,
        seats_update: list[dict[str, Any]] | None = None,
    ) -> None:
        """Append one entry (and update the projections); return once it is durable.

        Group commit: the entries of this process that arrive while a commit is in flight, or
        within :attr:`commit_interval` of the last batch's start while others are appending,
        are written together in the next transaction (one fsync, one PostgreSQL commit for
        them all); every caller still waits for its own entry. Raises :class:`SeqConflict` if
        ``(table_id, entry.seq)`` is already there (only that caller: the others of its batch
        are written one by one then) and :class:`StoreUnavailable` if the database does not
        answer (nothing of the batch is written then).
        """
        held = self._loop
        if held is None or held[1] != threading.get_ident() or not held[0].is_running():
            held = self._loop = (asyncio.get_running_loop(), threading.get_ident())
        loop = held[0]
        pending = _Pending(table_id, entry, table_update, seats_update, loop.create_future())
        self._queue.append(pending)
        if len(self._flushers) < self.max_flushers:
            self._flushers.add(loop.create_task(self._flush()))
        try:
            # awaited as it is, not through asyncio.shield (a second future and its callbacks
            # per append): a cancelled caller cancels its own future only, which the batch's
            # end then leaves alone (_done and _fail look before they set it)
            await pending.done
        except asyncio.CancelledError:
            if pending in self._queue:  # not taken into a batch yet: nothing is written
                self._queue.remove(pending)
            raise

    async def _flush(self) -> None:
        try:
            await self._flush_queue()
        finally:  # no await between the empty queue and this: no append is left behind
            task = asyncio.current_task()
            if task is not None:
                self._flushers.discard(task)

    async def _flush_queue(self) -> None:
        if not self._queue:
            return
        loop = self._queue[0].done.get_loop()  # (no getpid: see _loop)
        while self._queue:
            last, size = self._last_batch
            if self.commit_interval and (size > 1 or len(self._queue) > 1):
                wait = last + self.commit_interval - loop.time()
                if wait > 0:  # others are appending too: let them join this batch
                    await asyncio.sleep(wait)
                    continue
            batch = self._queue[: self.max_batch]
            self._last_batch = (loop.time(), len(batch))
            del self._queue[: len(batch)]
            self.batches += 1
            try:
                await self._write_batch(batch)
            except SeqConflict as exc:  # a seq already taken: only its caller fails
                losers = [p for p in batch if p.table_id == exc.table_id]
                if losers and len(losers) < len(batch):  # the database named it: the rest
                    for one in losers:  # go again as one batch, first in the queue
                        _fail(one, _batch_conflict([one]))
                    self._queue[:0] = [p for p in batch if p.table_id != exc.table_id]
                    continue
                for one in batch:  # each entry alone
                    try:
                        await self._write_batch([one])
                    except BaseException as exc:  # handed to its caller
                        _fail(one, exc)
                    else:
                        self._done(one)
            except BaseException as exc:  # handed to every caller of the batch
                for one in batch:
                    _fail(one, exc)
                if not isinstance(exc, Exception):
                    for one in self._queue:
                        _fail(one, exc)
                    self._queue.clear()
                    raise
            else:
                for one in batch:
                    self._done(one)

    def _done(self, one: _Pending) -> None:
        if self.announce is not None:
            self.announce(one.table_id, one.entry)
        if not one.done.done():
            one.done.set_result(None)

    async def _write_batch(self, batch: list[_Pending]) -> None:
        """Write ``batch`` in one transaction (all of it or, on any error, none of it)."""
        if self._writer is not None:
            await self._write_batch_raw(self._writer, batch)
            return
        if self._pg_writer is not None:
            await self._write_batch_pg(self._pg_writer, batch)
            return
        async with _guard(), self._write_lock, self.engine.begin() as conn:
            rows = [
                {"table_id": p.table_id, "seq": p.entry.seq, "kind": p.entry.kind,
                 "data": p.entry.data, "at": p.entry.at}
                for p in batch
            ]  # fmt: skip
            try:
                await conn.execute(_INSERT_EVENT, rows)
            except IntegrityError:
                raise _batch_conflict(batch) from None
            if self.notifies and self.announce is None:
                for p in batch:
                    await conn.execute(
                        sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, f"{p.table_id} {p.entry.seq}"))
                    )
            for p in batch:
                await self._update_projections(conn, p)
            self._before_commit(batch)

    async def _write_batch_raw(self, writer: _SqliteWriter, batch: list[_Pending]) -> None:
        rows, updates = _raw_batch(batch)
        async with self._write_lock:
            try:
                done = batch[0].done  # (its loop is the running one)
                await writer.submit(
                    rows, updates, partial(self._before_commit, batch), done.get_loop()
                )
            except sqlite3.IntegrityError:
                raise _batch_conflict(batch) from None
            except (sqlite3.OperationalError, sqlite3.DatabaseError, OSError) as exc:
                raise StoreUnavailable(f"the database is not answering ({exc})") from None

    async def _write_batch_pg(self, writer: _PgWriter, batch: list[_Pending]) -> None:
        """The batch on one of the appends' own asyncpg connections (:class:`_PgWriter`).

        Entries alone (the usual batch): one prepared ``executemany``, which asyncpg sends
        as one pipeline ending in one Sync, so PostgreSQL runs it as one implicit
        transaction (all rows or none: asyncpg >= 0.22) and answers once it is committed:
        one round trip. With projections' updates or in-transaction notices: BEGIN, the
        statements and COMMIT, as before."""
        import asyncpg

        rows, updates = _raw_batch(batch, pg=True)
        notify = self.notifies and self.announce is None
        refused = asyncpg.IntegrityConstraintViolationError  # (rolled back: connection fine)
        try:
            async with writer.connection(passes=(refused,)) as raw:
                if updates or notify:
                    async with raw.transaction():
                        await raw.executemany(_PG_INSERT, rows)
                        if notify:
                            for p in batch:
                                await raw.execute(
                                    "SELECT pg_notify($1, $2)", NOTIFY_CHANNEL,
                                    f"{p.table_id} {p.entry.seq}",
                                )  # fmt: skip
                        for statement, params in updates:
                            await raw.execute(statement, *params)
                        self._before_commit(batch)
                else:
                    self._before_commit(batch)  # (its statement is its commit: none sent yet)
                    await raw.executemany(_PG_INSERT, rows)
        except refused as exc:
            raise _batch_conflict(batch, getattr(exc, "detail", None)) from None

    def _before_commit(self, batch: list[_Pending]) -> None:
        """A hook for tests (a crash between the writes and the commit)."""

    async def _update_projections(self, conn: AsyncConnection, p: _Pending) -> None:
        if p.table_update:
            values = {k: v for k, v in p.table_update.items() if k in _TABLE_COLUMNS}
            if values:
                await conn.execute(
                    tables_t.update().where(tables_t.c.id == p.table_id).values(**values)
                )
        for seat in p.seats_update or []:
            values = {k: v for k, v in seat.items() if k in _SEAT_COLUMNS}
            if values:
                await conn.execute(
                    seats_t.update()
                    .where(seats_t.c.table_id == p.table_id, seats_t.c.seat == seat["seat"])
                    .values(**values)
                )

    async def update_table(self, table_id: str, values: dict[str, Any]) -> None:
        """Update the ``tables`` projection alone (status, title, public, summary)."""
        values = {k: v for k, v in values.items() if k in _TABLE_COLUMNS}
        if values and self._pg_writer is not None:  # one statement on an appends' connection
            [(statement, params)] = _raw_updates(table_id, values, None, pg=True)
            await self._pg_writer.run(statement, params)
        elif values:
            async with _guard(), self._write_lock, self.engine.begin() as conn:
                await conn.execute(
                    tables_t.update().where(tables_t.c.id == table_id).values(**values)
                )

    async def _insert_event(self, conn: AsyncConnection, table_id: str, entry: LogEntry) -> None:
        try:
            await conn.execute(
                _INSERT_EVENT,
                {"table_id": table_id, "seq": entry.seq, "kind": entry.kind, "data": entry.data,
                 "at": entry.at},
            )  # fmt: skip
        except IntegrityError:
            raise SeqConflict(f"table {table_id} already has entry {entry.seq}") from None
        if self.notifies and self.announce is None:
            await conn.execute(
                sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, f"{table_id} {entry.seq}"))
            )

    async def entries(self, table_id: str, after: int = 0) -> list[LogEntry]:
        """The entries of a table after seq ``after`` (0: all of them), in seq order."""
        query = (
            sa.select(events_t.c.seq, events_t.c.kind, events_t.c.data, events_t.c.at)
            .where(events_t.c.table_id == table_id, events_t.c.seq > after)
            .order_by(events_t.c.seq)
        )
        async with _guard(), self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [LogEntry(r.seq, r.kind, dict(r.data), r.at) for r in rows]

    async def table_ids(self, status: set[str] | None = None) -> list[str]:
        """The ids of the tables (with one of ``status`` if given), oldest first."""
        query = sa.select(tables_t.c.id).order_by(tables_t.c.created_at, tables_t.c.id)
        if status is not None:
            query = query.where(tables_t.c.status.in_(sorted(status)))
        async with _guard(), self.engine.connect() as conn:
            return [r.id for r in (await conn.execute(query)).all()]

    async def list_tables(
        self, status: set[str] | None = None, public: bool | None = None, limit: int = 100
    ) -> list[TableRow]:
        """Tables for the lobby, newest first, with their seats (no token hashes)."""
        query = sa.select(tables_t).order_by(tables_t.c.created_at.desc()).limit(limit)
        if status is not None:
            query = query.where(tables_t.c.status.in_(sorted(status)))
        if public is not None:
            query = query.where(tables_t.c.public == public)
        async with _guard(), self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
            ids = [r.id for r in rows]
            seats: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
            if ids:
                seat_rows = (
                    await conn.execute(
                        sa.select(
                            seats_t.c.table_id,
                            seats_t.c.seat,
                            seats_t.c.kind,
                            seats_t.c.name,
                            seats_t.c.level,
                            seats_t.c.joined,
                        )
                        .where(seats_t.c.table_id.in_(ids))
                        .order_by(seats_t.c.table_id, seats_t.c.seat)
                    )
                ).all()
                for s in seat_rows:
                    seats[s.table_id].append(
                        {
                            "seat": s.seat,
                            "kind": s.kind,
                            "name": s.name,
                            "level": s.level,
                            "joined": bool(s.joined),
                        }
                    )
        return [
            TableRow(
                r.id,
                r.game,
                r.created_at,
                r.status,
                r.title,
                bool(r.public),
                dict(r.summary or {}),
                seats[r.id],
            )
            for r in rows
        ]

    async def token_hashes(self, table_id: str) -> dict[int, str]:
        """The stored token hashes of a table's person seats."""
        query = sa.select(seats_t.c.seat, seats_t.c.token_hash).where(
            seats_t.c.table_id == table_id, seats_t.c.token_hash.is_not(None)
        )
        async with self.engine.connect() as conn:
            return {r.seat: r.token_hash for r in (await conn.execute(query)).all()}


def _tune_socket(dbapi_connection: Any, _record: Any) -> None:
    """Keepalives and a user timeout on a pooled connection's socket (``store/pgconn.py``)."""
    pgconn.tune_socket(getattr(dbapi_connection, "_connection", None))


def _drop_broken(context: sa.engine.ExceptionContext) -> None:
    """A pooled connection whose statement timed out, or whose driver lost track of it
    (asyncpg ``InternalClientError``), or whose network failed, is thrown away, never given
    to the next request (SQLAlchemy keeps it unless the socket is already closed: the next
    request then failed with ``another operation is in progress``). Only that connection: the
    others are checked by ``pool_pre_ping``."""
    error = context.original_exception
    if is_database_error(error) and not isinstance(error, DBAPIError):
        context.is_disconnect = True
        context.invalidate_pool_on_disconnect = False


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL + synchronous=FULL: a committed append is on disk before the commit returns, so it
    # survives kill -9 (and a power cut); busy_timeout lets two processes share the file.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
