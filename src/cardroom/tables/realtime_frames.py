"""The subscribers and frames of the real-time tables: a connection's stream of frames for its
seat (the first a full state), presence told to the other seats and processes, each change's
frames built once per seat and cursor (``subscription.fan_out``, the one fan-out of both kinds
of table), the log's earlier lines on request, and the log lines' words in English (each
connection re-renders them in its language). :class:`RealtimeFrames` is a part of
:class:`~cardroom.tables.realtime_service.RealtimeTables`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardroom.i18n import ENGLISH
from cardroom.i18n.realtime_words import line_words, reason_words
from cardroom.tables.config import WATCH_ONLY, TableError
from cardroom.tables.realtime_clock import _RealtimeLive
from cardroom.tables.subscription import Frame, Subscription, fan_out

__all__ = ["FULL_FRAME_LOG", "RealtimeFrames"]

FULL_FRAME_LOG = 200
"""The log lines a full frame carries: the last ones (``log_from`` says where they start)."""


def _in_english(lines: list[dict[str, Any]], game: str, seats: list[dict[str, Any]]) -> None:
    """Log lines' ``text`` and ``reason`` in English words, from their fields (no card codes);
    each connection re-renders them in its language."""
    names = ["", ""]
    for row in seats:
        if row.get("seat") in (0, 1):
            names[row["seat"]] = str(row.get("name") or "")
    for line in lines:
        line["text"] = line_words(line, game, names, ENGLISH) or line["text"]
        if "reason" in line:
            line["reason"] = reason_words(line["reason"], ENGLISH, line.get("reason_msg"))


class RealtimeFrames:
    """The subscribers and frames side of the real-time tables (mixed into
    ``RealtimeTables``)."""

    if TYPE_CHECKING:  # the tables' state and the other parts this one calls
        clock: Callable[[], float]
        _subscription: Callable[[str, int | None], Subscription]
        tell_presence: Callable[[str, int, int], None] | None
        _live: dict[str, _RealtimeLive]

        def _get(self, table_id: str) -> _RealtimeLive: ...
        def _present(self, live: _RealtimeLive) -> set[int]: ...

    def subscribe(self, table_id: str, seat: int | None) -> Subscription:
        """A stream of frames for ``seat`` (None: a spectator); the first is the full state."""
        live = self._get(table_id)
        config = live.table.config
        assert config is not None
        if seat is not None and config.seats[seat].kind != "person":
            raise TableError("forbidden", WATCH_ONLY)
        sub = self._subscription(table_id, seat)
        live.subs.append(sub)
        live.idle_since = None
        sub._put(self._frame(live, seat, None))
        sub.cursor = self._log_length(live)
        if seat is not None:
            self._fan_out(live, skip=sub)
            self._tell(live, seat)
            live.moved = True  # the clock logs the person back
            live.wake.set()
        return sub

    def _tell(self, live: _RealtimeLive, seat: int) -> None:
        if self.tell_presence is not None:
            n = sum(1 for s in live.subs if s.seat == seat and not s.closed)
            self.tell_presence(live.table.table_id, seat, n)

    def presence_changed(self, table_id: str) -> None:
        """Another process's connections changed: the seats' presence is shown anew."""
        live = self._live.get(table_id)
        if live is not None:
            self._fan_out(live)
            live.moved = True
            live.wake.set()

    def unsubscribe(self, sub: Subscription) -> None:
        """End a subscription (the others see the seat away)."""
        live = self._live.get(sub.table_id)
        sub.closed = True
        sub._put(None)
        if live is None or sub not in live.subs:
            return
        live.subs.remove(sub)
        live.idle_since = None  # the grace period starts at the next sweep
        if sub.seat is not None and sub.seat not in live.present():
            self._fan_out(live)
        if sub.seat is not None:
            self._tell(live, sub.seat)
            live.moved = True  # the clock logs the person away
            live.wake.set()

    def frame_for(self, table_id: str, seat: int | None) -> Frame:
        """The full ``state`` frame for ``seat`` (or a spectator)."""
        return self._frame(self._get(table_id), seat, None)

    def _log_length(self, live: _RealtimeLive) -> int:
        return live.table.log_length

    def _frame(self, live: _RealtimeLive, seat: int | None, since: int | None) -> Frame:
        if since is None:  # a full frame: the log's last lines only
            since = max(0, self._log_length(live) - FULL_FRAME_LOG)
        frame = live.table.frame(seat, since)
        present = self._present(live)
        for row in frame["seats"]:
            row["present"] = row["seat"] in present or row["bot"] is not None
        frame["title"] = live.title
        frame["creator"] = 0
        frame["now"] = self.clock()
        frame["rematch"] = f"/t/{live.table.rematch}" if live.table.rematch else None
        _in_english(frame.get("log", []), str(frame.get("game")), frame["seats"])
        return frame

    def _fan_out(
        self,
        live: _RealtimeLive,
        at: float | None = None,
        ref: object = None,
        by: int | None = None,
        skip: Subscription | None = None,
    ) -> None:
        def build(seat: int | None, since: int | None) -> Frame:
            frame = self._frame(live, seat, since)
            if since is not None:  # (a resync's full frame says neither)
                frame["at"] = at
                frame["by"] = by
            return frame

        def own(sub: Subscription, frame: Frame) -> Frame:  # the answer to its own action
            return {**frame, "ref": ref} if ref is not None and sub.seat == by else frame

        fan_out(live.subs, build, self._log_length(live), skip=skip, own=own)

    def earlier_log(self, table_id: str, seat: int | None, before: int) -> Frame:
        """A ``log`` frame: the (at most ``FULL_FRAME_LOG``) log lines before index ``before``,
        as ``seat`` may see them (a full frame carries only the last ones)."""
        live = self._get(table_id)
        table = live.table
        end = max(0, min(before, table.log_length))  # (a match's games count on)
        start = max(0, end - FULL_FRAME_LOG)
        entries = table._lines_from(start)[: end - start] if table.arbiter is not None else []
        lines = [table._log_json(entry, seat) for entry in entries]
        seats = [{"seat": s, "name": table.names[s], "bot": b} for s, b in enumerate(table.bots)]
        game = table.config.game if table.config is not None else ""
        _in_english(lines, game, seats)
        return {"type": "log", "table": table.table_id, "game": game, "seats": seats,
                "log_from": start, "log": lines}  # fmt: skip
