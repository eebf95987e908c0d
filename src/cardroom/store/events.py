"""EventStore: tables, seats and events on an async SQLAlchemy engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class StoreError(RuntimeError):
    """The store cannot be opened or written (bad URL, unwritable file)."""


class SeqConflict(StoreError):
    """An entry with this ``(table_id, seq)`` is already in the log."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One accepted change of a table: its position ``seq`` (1, 2, …), kind, data and time."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float


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


def default_url() -> str:
    """``sqlite+aiosqlite:///<user data dir>/cardroom.db``."""
    raise NotImplementedError


def resolve_url(db: str | None) -> str:
    """A ``--db`` value (a file path or a SQLAlchemy URL) as a SQLAlchemy URL."""
    raise NotImplementedError


class EventStore:
    """The log of every table; open it with :meth:`open`."""

    @classmethod
    async def open(cls, url: str | None = None) -> EventStore:
        """Connect (``url`` None: the default SQLite file) and create the schema."""
        raise NotImplementedError

    async def close(self) -> None:
        """Dispose of the engine."""
        raise NotImplementedError

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
        raise NotImplementedError

    async def append(
        self,
        table_id: str,
        entry: LogEntry,
        *,
        table_update: dict[str, Any] | None = None,
        seats_update: list[dict[str, Any]] | None = None,
    ) -> None:
        """Append one entry (and update the projections) in one transaction.

        Raises :class:`SeqConflict` if ``(table_id, entry.seq)`` is already there.
        """
        raise NotImplementedError

    async def entries(self, table_id: str) -> list[LogEntry]:
        """Every entry of a table, in seq order."""
        raise NotImplementedError

    async def table_ids(self, status: set[str] | None = None) -> list[str]:
        """The ids of the tables (with one of ``status`` if given), oldest first."""
        raise NotImplementedError

    async def list_tables(
        self, status: set[str] | None = None, public: bool | None = None, limit: int = 100
    ) -> list[TableRow]:
        """Tables for the lobby, newest first."""
        raise NotImplementedError
