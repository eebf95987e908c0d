"""Catching up: the entries other processes wrote that this process's copy of a table lacks.

With several processes on one database (``tables/cluster.py``) a table held in memory here may
be written by another process. Its change notices carry the entry (or only its seq, or are
missed while the lease connection is down); :class:`CatchUp` keeps, for one live table of
either kind, what was told and not applied yet, and runs the one task that applies it: the
entries told, in seq order, then the log from the store where one is missing, a notice had
none, or notices may have been lost. The table service gives it the table's lock, how to
apply one entry and what to do once entries were applied.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from cardroom.store import EventStore, LogEntry, StoreError
from cardroom.tables.config import TableError
from cardroom.tables.protocol import Table

__all__ = ["CatchUp"]

logger = logging.getLogger(__name__)


@dataclass
class CatchUp:
    """What one table in memory lacks of the log, and the task that reads it."""

    writing: int = 0
    """The seq this process is writing (its own change notice is not news)."""
    inbox: dict[int, LogEntry] = field(default_factory=dict)
    """Entries other processes told (seq -> entry), not applied yet."""
    must_read: bool = False
    """A change was told without its entry (or notices may have been missed): read the log."""
    behind: bool = False
    """A catch-up is due (the task runs until it is not)."""
    task: asyncio.Task[None] | None = None

    def news(self, table: Table, seq: int, entry: LogEntry | None) -> bool:
        """A change notice for ``seq`` (with its entry, or None: read the log): False when
        this copy has it already (or is writing it); else it is kept to be applied."""
        if seq <= max(table.seq, self.writing):
            return False
        if entry is not None:
            self.inbox[seq] = entry
        return True

    @property
    def idle(self) -> bool:
        """Nothing told waits and no catch-up is due: the next entry may be applied at once."""
        return not self.inbox and not self.behind and not self.must_read

    def fall_behind(
        self,
        read: bool,
        lock: asyncio.Lock,
        step: Callable[[], Awaitable[None]],
        stopping: Callable[[], bool],
        table_id: str,
    ) -> None:
        """Catch up soon (``read``: from the store too): the one task runs ``step`` under the
        table's ``lock`` until nothing more was told meanwhile."""
        self.must_read = self.must_read or read
        self.behind = True
        if self.task is None or self.task.done():
            work = self._run(lock, step, stopping, table_id)
            self.task = asyncio.get_running_loop().create_task(work)

    async def _run(
        self,
        lock: asyncio.Lock,
        step: Callable[[], Awaitable[None]],
        stopping: Callable[[], bool],
        table_id: str,
    ) -> None:
        while self.behind and not stopping():
            self.behind = False
            try:
                async with lock:
                    await step()
            except (StoreError, TableError) as exc:
                logger.warning("table %s cannot catch up: %s", table_id, exc)
                return

    async def read(
        self,
        table: Table,
        store: EventStore,
        apply: Callable[[LogEntry], object],
        read: bool = False,
    ) -> int:
        """Apply what other processes wrote, in seq order (the table's lock is held): the
        entries told, then the log from the store when one is missing, a notice had none, or
        ``read``. Returns how many entries were applied."""
        applied = 0
        while (told := self.inbox.pop(table.seq + 1, None)) is not None:
            apply(told)
            applied += 1
        for seq in [s for s in self.inbox if s <= table.seq]:
            del self.inbox[seq]
        if read or self.must_read or self.inbox:
            self.must_read = False
            self.inbox.clear()
            for entry in await store.entries(table.table_id, after=table.seq):
                if entry.seq != table.seq + 1:
                    break
                apply(entry)
                applied += 1
        return applied
