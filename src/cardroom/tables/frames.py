"""The subscribers and frames of the tables played in turns: a connection subscribes
to a seat (or watches), gets the full state first and then one frame per change, built once
per seat and cursor and shared by the subscribers that see the same (``_fan_out``); the frame
shows who is present and the nearest deadline. :class:`Frames` is a part of
:class:`~cardroom.tables.turns.TurnTables`.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from cardroom.games.table import TableError
from cardroom.tables.config import WATCH_ONLY
from cardroom.tables.live import Live
from cardroom.tables.subscription import Frame, Subscription, fan_out

__all__ = ["Frames"]


class Frames:
    """The subscribers and frames side of the tables played in turns (mixed into ``TurnTables``)."""

    if TYPE_CHECKING:  # the kind's state and the other parts this one calls
        _live: dict[str, Live]
        _told_deadlines: dict[str, dict[tuple[str, int | None], float]]

        def _get(self, table_id: str) -> Live: ...
        def _owns(self, table_id: str) -> bool: ...
        def _present(self, live: Live) -> set[int]: ...
        def _tell_presence(self, live: Live, seat: int) -> None: ...
        def _spawn(self, work: Coroutine[Any, Any, None]) -> None: ...
        def _arm_takeover(self, live: Live, seat: int) -> None: ...
        async def _returned(self, live: Live, seat: int) -> None: ...
        def _cancel(self, live: Live, key: tuple[str, int | None]) -> None: ...

    def subscribe(self, table_id: str, seat: int | None) -> Subscription:
        """A stream of frames for ``seat`` (None: spectator); the first is the full state.

        A person coming back to a seat a bot plays for takes it back (logged ``returned``).
        """
        live = self._get(table_id)
        table = live.table
        if seat is not None and not (0 <= seat < table.n and table.is_person(seat)):
            raise TableError("forbidden", WATCH_ONLY)
        sub = Subscription(table_id, seat)
        live.subs.append(sub)
        live.idle_since = None
        if seat is not None:
            self._cancel(live, ("takeover", seat))
            if seat in table.taken_over and seat not in table.left:
                self._spawn(self._returned(live, seat))
        sub._put(self._frame(live, seat, None))  # built once present: no takeover deadline
        sub.cursor = len(table.events)
        if seat is not None:
            self._fan_out(live, skip=sub)  # the others see them present
            self._tell_presence(live, seat)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """End a subscription; a person seat's last one gone starts its takeover timer."""
        live = self._live.get(sub.table_id)
        sub.closed = True
        sub._put(None)
        if live is None or sub not in live.subs:
            return
        live.subs.remove(sub)
        live.idle_since = None  # the grace period starts at the next sweep
        seat = sub.seat
        if seat is not None and seat not in self._present(live):
            if live.table.status in ("playing", "round-over"):
                self._arm_takeover(live, seat)
            self._fan_out(live)
        if seat is not None:
            self._tell_presence(live, seat)

    def frame_for(self, table_id: str, seat: int | None) -> Frame:
        """The full ``state`` frame for ``seat`` (or a spectator); events of the current round."""
        return self._frame(self._get(table_id), seat, None)

    def _frame(self, live: Live, seat: int | None, since: int | None) -> Frame:
        return live.table.frame(seat, since, self._present(live), self._deadline(live))

    def _deadline(self, live: Live) -> dict[str, Any] | None:
        table = live.table
        deadlines = live.deadlines
        if not self._owns(table.table_id):  # the timers run in the lease holder's process
            deadlines = dict(self._told_deadlines.get(table.table_id, {}))
            if table.status != "round-over":
                deadlines.pop(("next-round", None), None)
            elif table.waiting_for_ready() and table.round_ended_at is not None:
                # from the log, even before (or without) the holder's notice
                at = table.round_ended_at + table.cfg.next_round_after
                deadlines[("next-round", None)] = at
        if not deadlines:
            return None
        turn = table.turn()
        keys = sorted(deadlines, key=lambda k: deadlines[k])
        if ("next-round", None) in deadlines:
            key: tuple[str, int | None] = ("next-round", None)
        elif turn is not None and ("takeover", turn.seat) in deadlines:
            key = ("takeover", turn.seat)
        else:
            key = keys[0]
        return {"kind": key[0], "seat": key[1], "at": deadlines[key]}

    def _fan_out(self, live: Live, skip: Subscription | None = None) -> None:
        table = live.table
        present = self._present(live)
        deadline = self._deadline(live)

        def build(seat: int | None, since: int | None) -> Frame:
            return table.frame(seat, since, present, deadline)

        fan_out(live.subs, build, len(table.events), skip=skip)
        table.forget_shared()  # the frames are built: freed once sent (web/gcpause.py)
