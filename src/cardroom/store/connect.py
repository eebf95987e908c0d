"""How the store reaches its database: a ``--db`` value as a SQLAlchemy URL (the default
SQLite file in the user's data folder), the file of a SQLite URL, a PostgreSQL URL as a plain
asyncpg DSN, and the hooks on every new connection of the engine (SQLite's pragmas,
PostgreSQL's socket keepalives, a broken pooled connection thrown away).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

import cardroom.store.pgconn as pgconn
from cardroom.store.errors import StoreError, is_database_error


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


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None: another database, or SQLite in memory)."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite"):
        return None
    database = parsed.database
    if not database or database == ":memory:":
        return None
    return Path(database)


def asyncpg_dsn(url: str) -> str:
    """A SQLAlchemy ``postgresql+asyncpg://`` URL as a plain asyncpg DSN."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def tune_socket(dbapi_connection: Any, _record: Any) -> None:
    """Keepalives and a user timeout on a pooled connection's socket (``store/pgconn.py``)."""
    pgconn.tune_socket(getattr(dbapi_connection, "_connection", None))


def drop_broken(context: sa.engine.ExceptionContext) -> None:
    """A pooled connection whose statement timed out, or whose driver lost track of it
    (asyncpg ``InternalClientError``), or whose network failed, is thrown away, never given
    to the next request (SQLAlchemy keeps it unless the socket is already closed: the next
    request then failed with ``another operation is in progress``). Only that connection: the
    others are checked by ``pool_pre_ping``."""
    error = context.original_exception
    if is_database_error(error) and not isinstance(error, DBAPIError):
        context.is_disconnect = True
        context.invalidate_pool_on_disconnect = False


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """The pragmas of every SQLite connection (the engine's and the appends' own)."""
    # WAL + synchronous=FULL: a committed append is on disk before the commit returns, so it
    # survives kill -9 (and a power cut); busy_timeout lets two processes share the file.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
