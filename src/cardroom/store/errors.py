"""The store's errors, and how a database's failure becomes one.

Every store (the log, chat, players, bots, bounds, analyses) raises :class:`StoreError` when
it cannot be used, :class:`StoreUnavailable` when the database does not answer (nothing was
written) and :class:`SeqConflict` when a log entry's ``(table_id, seq)`` is taken; its
statements run under :func:`_guard`, which turns a driver's or the network's error into
:class:`StoreUnavailable`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as SaTimeout


class StoreError(RuntimeError):
    """The store cannot be opened or written (bad URL, unwritable file)."""


class SeqConflict(StoreError):
    """An entry with this ``(table_id, seq)`` is already in the log."""

    table_id: str | None = None
    """The table whose entry was refused, when the database said which (PostgreSQL)."""


class StoreUnavailable(StoreError):
    """The database did not answer (restarting, unreachable): nothing was written."""


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
