"""The rematches and leaving of the tables played in turns: the same table again once
the game is over (its id logged on the finished table first, so whoever asks, in whichever
process, lands on the same one; each person's token there fresh, logged as a hash when they ask),
and a person leaving a game in progress (a bot of the table's level plays their seat to the end).
:class:`Rematches` is a part of :class:`~cardroom.tables.turns.TurnTables`.
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cardroom.games.table import SeatSpec, TableConfig, TableError, hash_token
from cardroom.store import LogEntry
from cardroom.tables.config import (
    REMATCH_BUSY,
    REMATCH_NOT_OVER,
    REMATCH_PLAYERS,
    Created,
)
from cardroom.tables.live import Live
from cardroom.tables.protocol import TurnTable
from cardroom.tables.slots import new_table_id

__all__ = ["Rematches"]


class Rematches:
    """The rematch and leaving side of the tables played in turns (mixed into ``TurnTables``)."""

    if TYPE_CHECKING:  # the kind's state and the other parts this one calls
        slot: int
        slots: int

        async def _load(self, table_id: str) -> Live: ...
        async def _commit(self, live: Live, kind: str, data: dict[str, Any]) -> LogEntry: ...
        async def _after(self, live: Live) -> None: ...
        async def _catch_up_locked(self, live: Live, read: bool = False) -> bool: ...
        def _cancel(self, live: Live, key: tuple[str, int | None]) -> None: ...
        async def create(
            self,
            config: TableConfig[Any],
            *,
            table_id: str | None = None,
            rematch_of: str | None = None,
        ) -> Created: ...

    async def rematch(self, table_id: str, seat: int) -> tuple[str, str | None]:
        """The rematch of a finished table (made by the first player to ask): its id and a
        fresh token for ``seat``'s seat there (None: a bot plays that seat now; the person
        watches). Same seats, options and bots; persons keep their names.

        The rematch's id is logged on this table first (``rematch``), so whoever asks, in
        whichever process, lands on the same table; each person's token there is new, logged as
        a hash (``seat-token``) when they ask.
        """
        live = await self._load(table_id)
        async with live.lock:
            table = live.table
            if table.status != "over":
                raise TableError("forbidden", REMATCH_NOT_OVER)
            if seat not in table.person_seats():
                raise TableError("forbidden", REMATCH_PLAYERS)
            if table.rematch is None:
                with contextlib.suppress(TableError):  # another process logged one first
                    rematch_id = new_table_id(self.slot, self.slots)
                    await self._commit(live, "rematch", {"table": rematch_id})
                if table.rematch is None:
                    await self._catch_up_locked(live, read=True)
            new_id = table.rematch
            if new_id is None:
                raise TableError("stale", REMATCH_BUSY)
            again = self._rematch_config(table)
        try:
            created = await self.create(again, table_id=new_id, rematch_of=table_id)
        except TableError as exc:
            if exc.code != "stale":
                raise
        else:  # made here: this person's seat token is already in its ``created`` entry
            tokens = {0: created.creator_token, **created.invites}
            if seat in tokens and again.seats[seat].kind == "person":
                return new_id, tokens[seat]
        return new_id, await self._seat_token(new_id, seat)

    @staticmethod
    def _rematch_config(table: TurnTable) -> TableConfig[Any]:
        """The same table again: persons keep their seats and names, bots theirs; seats
        bots played from the start or since their person left go to bots (seat 0 stays a
        person's: it is the creator's)."""
        cfg = table.cfg
        seats = tuple(
            SeatSpec("person", name=table.names[g])
            if g == 0 or (table.is_person(g) and g not in table.left)
            else SeatSpec("bot", spec.level if spec.kind == "bot" else cfg.level)
            for g, spec in enumerate(cfg.seats)
        )
        return replace(cfg, seats=seats, seed=secrets.randbits(63))

    async def _seat_token(self, table_id: str, seat: int) -> str | None:
        """A fresh token for a person's ``seat`` of a rematch (its hash logged)."""
        live = await self._load(table_id)
        if seat >= live.table.n or not live.table.is_person(seat):
            return None
        token = secrets.token_urlsafe(24)
        async with live.lock:
            await self._commit(live, "seat-token", {"seat": seat, "hash": hash_token(token)})
        return token

    async def leave(self, table_id: str, seat: int) -> None:
        """The person at ``seat`` leaves a game in progress: a bot of the table's level plays
        their seat to the end (logged ``left``)."""
        live = await self._load(table_id)
        async with live.lock:
            table = live.table
            if table.status == "over":
                return
            await self._commit(live, "left", {"seat": seat, "level": table.cfg.level})
            self._cancel(live, ("takeover", seat))
            await self._after(live)

