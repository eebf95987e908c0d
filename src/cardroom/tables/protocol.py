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

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, cast

from cardroom.games.registry import game, unnamed
from cardroom.games.table import LogEntry, TableConfig, turn_based_game

__all__ = [
    "Table", "TableClass", "Turn", "TurnTable", "game_in", "table_class", "turn_table_class",
]


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


class Turn(Protocol):
    """Who acts now at a turn-based table."""

    @property
    def seat(self) -> int:
        """The seat to act."""
        ...

    @property
    def bot(self) -> str | None:
        """The bot spec or level deciding for the seat, None for a person."""
        ...


class TurnTable(Table, Protocol):
    """A turn-based table (the registry's ``table`` piece of a ``turn-based`` game): what the
    table service's seats, bots, timers and frames read of it, on top of :class:`Table`.

    Its log's kinds are those the service writes: ``created``, ``joined``, ``started``
    (``filled``, ``dealer``), ``round`` (:meth:`deal`'s data), ``action`` (``seat``,
    ``action`` as text, ``by``), ``takeover``, ``returned``, ``ready``, ``left``, and after
    the game ``rematch`` and ``seat-token``. Its status is ``waiting``, ``playing``,
    ``round-over`` (a round ended, the next one is not dealt) or ``over``.
    """

    names: list[str]
    joined: list[bool]
    left: set[int]
    """Persons who left: a bot plays their seat to the end (they are in :attr:`taken_over`)."""
    taken_over: dict[int, str]
    """Person seats a bot plays for now: seat -> level."""
    token_hashes: dict[int, str]
    events: list[dict[str, Any]]
    """Every public event so far (subscribers keep a cursor into it)."""
    round_ended_at: float | None

    @property
    def cfg(self) -> TableConfig[Any]:
        """The table's config (once created)."""
        ...

    @property
    def n(self) -> int:
        """The number of seats."""
        ...

    def is_person(self, seat: int) -> bool:
        """A person's seat (not a bot's, not filled by a bot at the start)."""
        ...

    def person_seats(self) -> list[int]:
        """The seats persons play (joined or not)."""
        ...

    def turn(self) -> Turn | None:
        """Who must act now (None unless a round is being played)."""
        ...

    def needs_deal(self) -> bool:
        """True when the game is on and no round is dealt yet (the service logs :meth:`deal`)."""
        ...

    def waiting_for_ready(self) -> list[int]:
        """Persons still in the game who have not asked for the next round."""
        ...

    def entry(self, kind: str, data: dict[str, Any], at: float) -> LogEntry:
        """The next entry of the log (checked first: raises ``TableError``)."""
        ...

    def deal(self) -> dict[str, Any]:
        """The data of the next ``round`` entry (from the table's seed)."""
        ...

    def bot_view(self, seat: int) -> Any:
        """What ``seat`` sees now, as the game's bots take it (a snapshot, safe in a thread)."""
        ...

    def action_text(self, action: Any) -> str:
        """A bot's action as the text an ``action`` entry holds."""
        ...

    def frame(
        self,
        seat: int | None,
        since: int | None = None,
        present: frozenset[int] | set[int] = frozenset(),
        deadline: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see, with the public events from ``since``."""
        ...

    def forget_shared(self) -> None:
        """Drop the parts :meth:`frame` kept for this change's frames."""
        ...

    def summary(self) -> dict[str, Any]:
        """The lobby's summary of the table."""
        ...

    def record(self) -> list[dict[str, object]]:
        """The game's record (replay format), once over."""
        ...

    def round_events(self, k: int) -> list[dict[str, Any]]:
        """The public events of round ``k``; ``TableError('not-found')`` if not played."""
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
    return name if isinstance(name, str) else unnamed()


def table_class(name: str) -> TableClass:
    """The table class of game ``name`` (its registry's ``table`` piece);
    :class:`~cardroom.games.registry.UnknownGame` if no game has that name."""
    return cast(TableClass, game(name).load("table"))


def turn_table_class(name: str) -> Callable[[str], TurnTable]:
    """The table class of turn-based game ``name``: a new, empty table of it by id
    (``TableError('bad-request')`` naming the turn-based games when ``name`` is not one)."""
    return cast(Callable[[str], TurnTable], turn_based_game(name).load("table"))
