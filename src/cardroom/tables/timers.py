"""The timers of the tables played in turns: a person seat's takeover countdown (a
bot plays for a person gone longer than the table's ``takeover_after``; they take the seat back
when they return) and the countdown to the next round. Only the table's lease holder runs
them; the deadlines are shown to every page (``tables/notices.py`` tells the other processes).
:class:`Timers` is a part of :class:`~cardroom.tables.turns.TurnTables`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from cardroom.store import LogEntry
from cardroom.tables.live import Live

__all__ = ["Timers"]


class Timers:
    """The takeover and next-round timers of the tables played in turns (in ``TurnTables``)."""

    if TYPE_CHECKING:  # the kind's state and the other parts this one calls
        clock: Callable[[], float]

        def _owns(self, table_id: str) -> bool: ...
        def _present(self, live: Live) -> set[int]: ...
        def _tell_deadlines(self, live: Live) -> None: ...
        async def _commit(self, live: Live, kind: str, data: dict[str, Any]) -> LogEntry: ...
        async def _after(self, live: Live) -> None: ...

    async def _next_round_due(self, live: Live) -> None:
        async with live.lock:
            live.timers.pop(("next-round", None), None)
            live.deadlines.pop(("next-round", None), None)
            self._tell_deadlines(live)
            if live.table.status == "round-over":
                await self._commit(live, "round", live.table.deal())
                await self._after(live)

    def _arm_takeover(self, live: Live, seat: int) -> None:
        after = live.table.cfg.takeover_after
        if after <= 0 or ("takeover", seat) in live.timers:
            return
        if seat in live.table.left or seat in live.table.taken_over:
            return  # a bot plays that seat already: no countdown to show
        self._arm(
            live, ("takeover", seat), self.clock() + after, lambda: self._takeover_due(live, seat)
        )

    async def _takeover_due(self, live: Live, seat: int) -> None:
        async with live.lock:
            live.timers.pop(("takeover", seat), None)
            live.deadlines.pop(("takeover", seat), None)
            self._tell_deadlines(live)
            table = live.table
            if (
                table.status in ("playing", "round-over")
                and seat not in self._present(live)
                and seat not in table.taken_over
                and seat not in table.left
            ):
                await self._commit(live, "takeover", {"seat": seat, "level": table.cfg.level})
                await self._after(live)

    async def _returned(self, live: Live, seat: int) -> None:
        async with live.lock:
            table = live.table
            if (
                seat in table.taken_over
                and seat not in table.left
                and table.status != "over"
                and seat in self._present(live)  # (their page may have closed while we waited)
            ):
                await self._commit(live, "returned", {"seat": seat})
                await self._after(live)

    def _arm(
        self,
        live: Live,
        key: tuple[str, int | None],
        at: float,
        work: Callable[[], Coroutine[Any, Any, None]],
    ) -> None:
        self._cancel(live, key)
        if not self._owns(live.table.table_id):
            return

        async def later() -> None:
            await asyncio.sleep(max(0.0, at - self.clock()))
            await work()

        live.deadlines[key] = at
        live.timers[key] = asyncio.get_running_loop().create_task(later())
        self._tell_deadlines(live)

    def _cancel(self, live: Live, key: tuple[str, int | None]) -> None:
        task = live.timers.pop(key, None)
        if live.deadlines.pop(key, None) is not None:
            self._tell_deadlines(live)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _cancel_timers(self, live: Live) -> None:
        for key in list(live.timers):
            self._cancel(live, key)
