"""EventStore: tables, seats and events on an async SQLAlchemy engine.

The log's tables (``tables``, ``seats``, ``events``) and the store that appends to them (group
commit, batches written by the direct paths of :mod:`cardroom.store.writers`) and reads them.
Its errors are :mod:`cardroom.store.errors`', how it reaches its database
:mod:`cardroom.store.connect`'s; the names other modules read here are kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

import cardroom.store.pgconn as pgconn
from cardroom.games.table import LogEntry
from cardroom.store.connect import asyncpg_dsn as asyncpg_dsn
from cardroom.store.connect import default_url as default_url
from cardroom.store.connect import drop_broken, sqlite_file, sqlite_pragmas, tune_socket
from cardroom.store.connect import resolve_url as resolve_url
from cardroom.store.errors import SeqConflict as SeqConflict
from cardroom.store.errors import StoreError as StoreError
from cardroom.store.errors import StoreUnavailable as StoreUnavailable
from cardroom.store.errors import _guard as _guard
from cardroom.store.errors import is_database_error as is_database_error
from cardroom.store.errors import unavailable as unavailable
from cardroom.store.migrate import SchemaError, Upgrade, upgrade
from cardroom.store.writers import (
    _PG_INSERT,
    _SEAT_COLUMNS,
    _TABLE_COLUMNS,
    _batch_conflict,
    _fail,
    _Pending,
    _raw_batch,
    _raw_updates,
    _SqliteWriter,
)
from cardroom.store.writers import _PgWriter as _PgWriter

NOTIFY_CHANNEL = "cardroom_tables"
"""PostgreSQL channel told ``"<table_id> <seq>"`` in the transaction of every entry."""


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
        path = sqlite_file(url)
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
        path = sqlite_file(full)
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
            sa.event.listen(engine.sync_engine, "connect", sqlite_pragmas)
        else:
            sa.event.listen(engine.sync_engine, "connect", tune_socket)
            sa.event.listen(engine.sync_engine, "handle_error", drop_broken)
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
