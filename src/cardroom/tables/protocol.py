"""The one table protocol: what the table service needs of any game's table.

A game's table (the registry's ``table`` piece: the turn-based table in the game's folder, or
:class:`~cardroom.tables.realtime.RealtimeTable` for the real-time games) is a synchronous,
deterministic state machine rebuilt by applying its log entries one by one. Every change goes
through it the same way, in the table's lock: :meth:`Table.check` (nothing mutated; a
:class:`~cardroom.games.table.TableError` refuses it) -> the store appends the entry ->
:meth:`Table.apply` -> :meth:`Table.frame` for each subscriber's seat. No I/O, clock or
randomness of its own: the time is in the entries, and so is any deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from cardroom.games.table import LogEntry

__all__ = ["Table", "TableClass"]


class Table(Protocol):
    """A table state machine over its log (both kinds of table implement it)."""

    @property
    def table_id(self) -> str:
        """The table's id (the log's key)."""
        ...

    @property
    def seq(self) -> int:
        """The seq of the last entry applied (0: none yet)."""
        ...

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` (or a kind's own step of it, e.g. ``round-over``) or
        ``over``."""
        ...

    @property
    def rematch(self) -> str | None:
        """The id of the rematch table (logged ``rematch`` after the game), or None."""
        ...

    def check(self, kind: str, data: dict[str, Any]) -> object:
        """Refuse (``TableError``) an entry that must not follow; change nothing."""
        ...

    def apply(self, entry: LogEntry) -> None:
        """Apply an entry that was checked and stored (or read from the log)."""
        ...

    def frame(self, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see, with the log from ``since``."""
        ...


class TableClass(Protocol):
    """A table's class: a table rebuilt from its log."""

    def replay(self, table_id: str, entries: Sequence[LogEntry], /) -> Table:
        """The table after every entry of ``entries`` (refused: ``TableError``)."""
        ...
