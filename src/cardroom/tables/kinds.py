"""The one protocol of a kind of table: what the table service asks of the tables it holds.

There are two kinds: tables played in turns (:class:`~cardroom.tables.turns.TurnTables`) and
tables played in real time (:class:`~cardroom.tables.realtime_service.RealtimeTables`). Each
holds its live tables, and answers every request about them, and what the cluster needs of
them (``tables/leases.py``, ``tables/notices.py``). :class:`~cardroom.tables.service.TableService`
finds the kind that holds a table (or that claims its ``created`` entry, and loads it there) and
asks it; it names neither kind's internals. A request a kind has no meaning for (a round's events
of a table in real time, an action in real time at a table in turns) is refused in words.

:class:`KindHooks` is what the service tells a kind of the cluster (alone on its database, every
hook says "this process is the only one").
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from cardroom.store import LogEntry
from cardroom.tables.subscription import Frame, Subscription

__all__ = ["KindHooks", "TableKind"]


class KindHooks:
    """The cluster as a kind of table sees it (set by the service when it shares the database)."""

    def __init__(self) -> None:
        self.owns: Callable[[str], bool] = lambda _table_id: True
        """True when this process is the table's authority (its lease holder; always, alone)."""
        self.new_table: Callable[[str], AbstractAsyncContextManager[None]] = lambda _table_id: (
            contextlib.nullcontext()
        )
        """Around writing a new table's row and putting it in memory: takes its lease first
        and gives it back if that fails."""
        self.remote_present: Callable[[str], set[int]] = lambda _table_id: set()
        """Seats with a connection in another process."""
        self.tell_presence: Callable[[str, int, int], None] | None = None
        """Tell the other processes ``(table, seat, connections here)``."""
        self.watch: Callable[[str], None] | None = None
        """Say to the other processes that this one holds a table without its lease (its
        lease holder then tells its changes)."""
        self.check_store: Callable[[], None] = lambda: None
        """Refuse at once (``unavailable``) while this process has lost the database."""
        self.tell_timers: Callable[[str, list[tuple[str, int | None, float]]], None] | None = None
        """The lease holder tells the other processes a table's timers ``(kind, seat, at)``."""


class TableKind(Protocol):
    """A kind of table: its live tables, their requests, and what the cluster asks of them."""

    # -- which tables ---------------------------------------------------------------------------

    def claims(self, created: LogEntry) -> bool:
        """True when a table's ``created`` entry is a table of this kind."""
        ...

    def holds(self, table_id: str) -> bool:
        """True when this process holds that table in memory."""
        ...

    async def load(self, table_id: str, entries: Sequence[LogEntry]) -> None:
        """Rebuild a table from its log; run it (``take``) if this process owns it, else watch
        it. ``ValueError`` or ``TableError`` if the log cannot be read as this kind's."""
        ...

    def table_ids(self) -> list[str]:
        """The tables held in memory."""
        ...

    def status(self, table_id: str) -> str | None:
        """The status of a table held here (None: not held)."""
        ...

    # -- requests -------------------------------------------------------------------------------

    def game_of(self, table_id: str) -> str:
        """The table's game (its registry name)."""
        ...

    def seat_of(self, table_id: str, token: str | None) -> int | None:
        """The seat a token opens (None: a spectator); ``forbidden`` if wrong."""
        ...

    def seat_state(self, table_id: str, seat: int) -> str:
        """``waiting``, ``over``, ``playing`` or ``away`` (a bot plays the seat for now)."""
        ...

    async def join(self, table_id: str, seat: int, name: str) -> None:
        """A person takes their seat under ``name``."""
        ...

    async def start_now(self, table_id: str, seat: int) -> None:
        """The creator starts the table; empty person seats get bots."""
        ...

    async def act(self, table_id: str, seat: int, action: str, seen_seq: int) -> None:
        """A person's action in turns (its text, against the seq its sender saw)."""
        ...

    async def act_realtime(self, table_id: str, seat: int, action: Any, ref: object = None) -> None:
        """A person's action in real time (in record form, with what its sender saw)."""
        ...

    async def ready(self, table_id: str, seat: int) -> None:
        """The person at ``seat`` asks for the next round."""
        ...

    async def leave(self, table_id: str, seat: int) -> None:
        """The person at ``seat`` leaves a game in progress."""
        ...

    async def hint(self, table_id: str, seat: int, seq: int, lang: str = "en") -> tuple[str, str]:
        """A suggestion for the seat's own move: ``(action, reason)``."""
        ...

    async def rematch(self, table_id: str, seat: int) -> tuple[str, str | None]:
        """The rematch of a finished table and ``seat``'s fresh token there."""
        ...

    async def record(self, table_id: str) -> Any:
        """The record of a finished table (``forbidden`` before)."""
        ...

    def round_events(self, table_id: str, k: int) -> list[dict[str, Any]]:
        """The public events of round ``k``."""
        ...

    def earlier_log(self, table_id: str, seat: int | None, before: int) -> Frame:
        """The log lines before index ``before`` (a ``log`` frame)."""
        ...

    # -- subscribers ----------------------------------------------------------------------------

    def subscribe(self, table_id: str, seat: int | None) -> Subscription:
        """A stream of frames for ``seat`` (None: a spectator); the first is the full state."""
        ...

    def unsubscribe(self, sub: Subscription) -> None:
        """End a subscription."""
        ...

    def frame_for(self, table_id: str, seat: int | None) -> Frame:
        """The full ``state`` frame for ``seat``."""
        ...

    def subscriptions(self, table_id: str) -> list[Subscription]:
        """This process's connections to a table."""
        ...

    def connections(self) -> list[tuple[str, int, int]]:
        """``(table, seat, n)`` for every person seat with connections here."""
        ...

    # -- the cluster ----------------------------------------------------------------------------

    async def take(self, table_id: str) -> None:
        """This process is now the table's authority: read the log's news, run it."""
        ...

    def lose(self, table_id: str) -> None:
        """This process is no longer the table's authority: its bots and timers stop here."""
        ...

    async def give_away(self, table_id: str) -> bool:
        """Stop running a table between two changes, to give its lease to another process;
        False (nothing done) when it is busy, over or not held."""
        ...

    def on_change(self, table_id: str, seq: int, entry: LogEntry | None = None) -> None:
        """Another process appended ``seq`` (with the entry, or None: read the log)."""
        ...

    def behind(self, table_id: str, read: bool = True) -> None:
        """Catch up with the log soon (notices may have been lost)."""
        ...

    def presence_changed(self, table_id: str) -> None:
        """Another process's connections to a table changed: presence is shown anew."""
        ...

    def on_beat(self, table_id: str) -> None:
        """The lease holder's periodic look at a table it runs (e.g. a countdown for a person
        whose process went without a word)."""
        ...

    def timers_told(self, table_id: str) -> None:
        """Tell the other processes this table's timers again (one just appeared)."""
        ...

    def on_timers(self, table_id: str, told: list[tuple[str, int | None, float]]) -> None:
        """The lease holder of a table held here told its timers."""
        ...

    def unload(self, table_id: str) -> None:
        """Drop a finished table nobody is connected to (read from the log when next asked)."""
        ...

    def evict_idle(self, now: float, grace: float) -> list[str]:
        """Drop the finished tables nobody has been connected to for ``grace`` seconds."""
        ...

    async def stop(self) -> None:
        """Stop every table's tasks (the log is complete); end the subscriptions."""
        ...
