"""The rematch of a finished real-time table: made by the first to ask, whichever process (its
id logged as ``rematch`` on the finished table first, then the table made by whoever finds it
missing), with the same seats, options and level and a new deal; each person's token there is
fresh, its hash logged when they ask. :class:`RealtimeRematches` is a part of
:class:`~cardroom.tables.realtime_service.RealtimeTables`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardroom.games.table import hash_token
from cardroom.store import EventStore, LogEntry, StoreError
from cardroom.tables.config import BUSY, REMATCH_BUSY, REMATCH_NOT_OVER, Created, TableError
from cardroom.tables.realtime import RealtimeConfig
from cardroom.tables.realtime_clock import _Conflict, _RealtimeLive
from cardroom.tables.slots import new_table_id

__all__ = ["RETRIES", "RealtimeRematches"]

RETRIES = 8
"""Times a person's action is stamped anew and appended again after losing a seq race."""


class RealtimeRematches:
    """The rematch side of the real-time tables (mixed into ``RealtimeTables``)."""

    if TYPE_CHECKING:  # the tables' state and the other parts this one calls
        store: EventStore
        slot: int
        slots: int

        def _get(self, table_id: str) -> _RealtimeLive: ...
        def holds(self, table_id: str) -> bool: ...
        async def load(self, table_id: str, entries: Sequence[LogEntry]) -> None: ...
        async def join(self, table_id: str, seat: int, name: str) -> None: ...
        async def _read_log(self, live: _RealtimeLive, read: bool = False) -> int: ...
        async def _store_status(self, live: _RealtimeLive) -> None: ...
        async def _commit(
            self, live: _RealtimeLive, kind: str, data: dict[str, Any], ref: object = None
        ) -> None: ...
        async def create(
            self,
            config: RealtimeConfig,
            title: str = "",
            public: bool = True,
            *,
            tokens: dict[int, str] | None = None,
            rematch_of: str | None = None,
            table_id: str | None = None,
        ) -> Created: ...

    async def rematch(self, table_id: str, seat: int) -> tuple[str, str | None]:
        """The rematch of a finished table (made by the first to ask, whichever process: its
        id is logged as ``rematch`` first, then the table is made by whoever finds it missing):
        the same seats, options and level, a new deal. Answers its id and a fresh token for
        ``seat`` there (None: a bot plays it); the old table's tokens do not open it."""
        live = self._get(table_id)
        async with live.lock:
            table = live.table
            if table.status != "over":
                raise TableError("forbidden", REMATCH_NOT_OVER)
            await self._read_log(live)
            if table.rematch is None:
                with contextlib.suppress(_Conflict):  # another process logged its rematch first
                    rematch_id = new_table_id(self.slot, self.slots)
                    await self._commit(live, "rematch", {"table": rematch_id})
            new_id = table.rematch
            if new_id is None:
                raise TableError("stale", REMATCH_BUSY)
            created: Created | None = None
            if not self.holds(new_id) and not await self.store.entries(new_id):
                config = table.config
                assert config is not None
                seats = tuple(
                    type(spec)(spec.kind, spec.level, table.names[g] if g == seat else None)
                    for g, spec in enumerate(config.seats)
                )
                again = dataclasses.replace(  # the same settings: away limit, match, level
                    config,
                    options=dict(config.options),
                    seats=(seats[0], seats[1]),
                    seed=secrets.randbits(63),
                    rules_version=None,  # a new game is played under today's rules
                )
                try:
                    created = await self.create(
                        again, live.title, live.public, rematch_of=table_id, table_id=new_id
                    )
                except TableError as exc:
                    if exc.code != "stale":
                        raise  # (stale: another process made it meanwhile)
            with contextlib.suppress(StoreError):
                await self._store_status(live)
        if created is not None:  # made here: the asker's token is in its ``created`` entry
            tokens = {0: created.creator_token, **created.invites}
            if seat in tokens:
                return new_id, tokens[seat]
        token = await self._seat_token(new_id, seat)
        name = table.names[seat]
        if token is not None and name is not None:  # asking is taking the seat again
            new = self._get(new_id).table
            if new.status == "waiting" and new.names[seat] is None:
                await self.join(new_id, seat, name)
        return new_id, token

    async def _seat_token(self, table_id: str, seat: int) -> str | None:
        """A fresh token for a person's ``seat`` of a rematch (its hash logged)."""
        if not self.holds(table_id):
            await self.load(table_id, await self.store.entries(table_id))
        live = self._get(table_id)
        config = live.table.config
        assert config is not None
        if config.seats[seat].kind != "person":
            return None
        token = secrets.token_urlsafe(24)
        for _ in range(RETRIES):
            async with live.lock:
                try:
                    data = {"seat": seat, "hash": hash_token(token)}
                    await self._commit(live, "seat-token", data)
                except _Conflict:
                    continue  # another process wrote first: log it after its entries
                return token
        raise TableError("stale", BUSY)
