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

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

from cardroom.games.registry import TURN_BASED, game, names
from cardroom.games.table import LogEntry

__all__ = ["Table", "TableClass", "game_in", "table_class"]


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
    """A table's class: a new, empty table (its first entry is ``created``), or a table
    rebuilt from its log."""

    def __call__(self, table_id: str, /) -> Table:
        """A table with no entry applied yet."""
        ...

    def replay(self, table_id: str, entries: Sequence[LogEntry], /) -> Table:
        """The table after every entry of ``entries`` (refused: ``TableError``)."""
        ...


def game_in(created: Mapping[str, Any]) -> str:
    """The game a table plays, from its ``created`` entry's data. A log written before tables
    named their game is the first turn-based game's (the only game there was)."""
    config = created.get("config")
    name = config.get("game") if isinstance(config, dict) else None
    return name if isinstance(name, str) else names(TURN_BASED)[0]


def table_class(name: str) -> TableClass:
    """The table class of game ``name`` (its registry's ``table`` piece);
    :class:`~cardroom.games.registry.UnknownGame` if no game has that name."""
    return cast(TableClass, game(name).load("table"))
