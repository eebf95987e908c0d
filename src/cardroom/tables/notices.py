"""The table service's notices: what processes sharing one PostgreSQL tell each other about
the tables they hold (``tables/cluster.py`` carries them).

Change notices (another process appended an entry: applied here in seq order by the table's
:class:`~cardroom.tables.catchup.CatchUp`), presence notices (which person seats have
connections in which process: a seat connected elsewhere is present here too, for
``PRESENCE_HELD`` seconds unless repeated), deadline notices (the lease holder's takeover and
next-round timers, shown by the others), and watches (a process holding a table without its
lease asks its holder to tell it the table's changes). :class:`Notices` is a part of
:class:`~cardroom.tables.service.TableService`, and hands each notice to the kind of table that
holds it (``tables/kinds.py``); alone on its database it tells nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from cardroom.store import EventStore, LogEntry
from cardroom.tables.cluster import Coordinator

if TYPE_CHECKING:
    from cardroom.tables.kinds import TableKind

__all__ = ["PRESENCE_HELD", "PRESENCE_TTL", "STRANDED_GRACE", "Notices"]

logger = logging.getLogger(__name__)

PRESENCE_TTL = 6.0
"""Seconds another process's presence report holds unless repeated."""
STRANDED_GRACE = 10.0
"""A person whose process stopped telling their presence without saying they left (it died,
or lost the database) counts as present this much longer: the time for that process to give
up its connections (``FENCE_AFTER``) and for the page to connect to another one. What the
person could not do meanwhile is the servers' fault, not theirs: no takeover, no away."""
PRESENCE_HELD = PRESENCE_TTL + STRANDED_GRACE


class Notices:
    """The notices side of the table service (mixed into ``TableService``)."""

    if TYPE_CHECKING:  # the service's state and the other parts this one calls
        store: EventStore
        kinds: tuple[TableKind, ...]
        _coord: Coordinator | None
        _stopping: bool
        owned: set[str]
        _remote: dict[str, dict[tuple[str, int], tuple[int, float]]]

        def _owns(self, table_id: str) -> bool: ...
        def _holder(self, table_id: str) -> TableKind | None: ...
        def _spawn(self, work: Coroutine[Any, Any, None]) -> None: ...

    def _remote_seats(self, table_id: str) -> set[int]:
        """The seats of a table with connections in other processes (as they told)."""
        remote = self._remote.get(table_id)
        if not remote:
            return set()
        now = time.monotonic()
        return {seat for (_, seat), (n, at) in remote.items() if n > 0 and now - at < PRESENCE_HELD}

    def _tell_presence(self, table_id: str, seat: int, n: int) -> None:
        self._spawn(self._send_presence([f"{table_id} {seat} {n}"]))

    def _holds_any(self, table_id: str) -> bool:
        """True if this process has that table in memory (a notice of another is dropped)."""
        return self._holder(table_id) is not None

    def _on_change(self, table_id: str, seq: int, entry: LogEntry | None = None) -> None:
        kind = self._holder(table_id)
        if kind is not None:
            kind.on_change(table_id, seq, entry)

    def _on_sync(self, table_ids: list[str] | None) -> None:
        """Another process was alone and did not tell these tables' changes (``None``: any
        table's): read their log."""
        for kind in self.kinds:
            for table_id in kind.table_ids() if table_ids is None else table_ids:
                if kind.holds(table_id):
                    kind.behind(table_id)

    def _on_peer(self) -> None:
        """This process was alone and another one appeared: tell it who is connected here and
        the timers of the tables this process holds (not told while alone)."""
        assert self._coord is not None
        self._coord.watch(self._watched_ids())
        self._spawn(self._send_presence(self._presence_lines()))
        for table_id in self.owned:
            kind = self._holder(table_id)
            if kind is not None:
                kind.timers_told(table_id)

    def _watch(self, table_id: str) -> None:
        """A table now in memory here: watch it unless this process is its lease holder."""
        if self._coord is not None and not self._owns(table_id):
            self._coord.watch([table_id])

    def _watched_ids(self) -> list[str]:
        """The tables in memory here whose lease another process holds (or nobody)."""
        return [t for kind in self.kinds for t in kind.table_ids() if t not in self.owned]

    def _on_watched(self, table_ids: list[str]) -> None:
        """Another process started watching these tables (held here): tell it who is
        connected to them here and, for those this process holds the lease of, their
        timers."""
        for table_id in table_ids:
            kind = self._holder(table_id)
            if kind is not None and table_id in self.owned:
                kind.timers_told(table_id)
        self._spawn(self._send_presence(self._presence_lines(table_ids)))

    def _presence_lines(self, table_ids: list[str] | None = None) -> list[str]:
        """``"<table> <seat> <n>"`` for the person seats connected here (of these tables)."""
        ids = None if table_ids is None else set(table_ids)
        return [
            f"{tid} {seat} {n}"
            for kind in self.kinds
            for tid, seat, n in kind.connections()
            if ids is None or tid in ids
        ]

    def _on_presence(self, pid: str, table_id: str, seat: int, n: int) -> None:
        """Another process told how many connections it has to a seat (0: none any more)."""
        was = self._remote_seats(table_id)
        seen = self._remote.setdefault(table_id, {})
        if n > 0:
            seen[(pid, seat)] = (n, time.monotonic())
        else:
            seen.pop((pid, seat), None)
        kind = self._holder(table_id)
        if kind is not None and self._remote_seats(table_id) != was:
            kind.presence_changed(table_id)  # a heartbeat that changes nothing tells nothing

    async def _send_presence(self, lines: list[str]) -> None:
        coord = self._coord
        if coord is None or not coord.connected or not lines:
            return
        try:
            await coord.tell_presence(lines)
        except Exception as exc:  # the lease loop reconnects
            logger.info("presence not told: %s", exc)

    def _tell_timers(self, table_id: str, told: list[tuple[str, int | None, float]]) -> None:
        """The lease holder tells the other processes its timers of a table."""
        self._spawn(self._send_deadlines(table_id, told))

    async def _send_deadlines(
        self, table_id: str, told: list[tuple[str, int | None, float]]
    ) -> None:
        coord = self._coord
        if coord is None or not coord.connected:
            return
        try:
            await coord.tell_deadlines(table_id, told)
        except Exception as exc:  # the lease loop reconnects
            logger.info("deadlines not told: %s", exc)

    def _on_deadlines(self, table_id: str, told: list[tuple[str, int | None, float]]) -> None:
        kind = self._holder(table_id)
        if kind is not None:
            kind.on_timers(table_id, told)
