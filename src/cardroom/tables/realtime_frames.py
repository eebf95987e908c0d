"""What a connection sees of a real-time table, and its record after the game: the ``state``
frame of a seat or a spectator (built from ``engine.view(seat)``, with only what that seat may
see; the game's own fields from its ``table_parts`` piece), its log lines in record form and
words, and the record of the game or of a match's games. :class:`RealtimeFrames` is a part of
:class:`~cardroom.tables.realtime.RealtimeTable`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardroom.arbiter import Arbiter, Entry, entry_text
from cardroom.cards import Card
from cardroom.games.messages import message_json
from cardroom.games.realtime_engine import SEATS
from cardroom.i18n.realtime_words import event_fields, public_refusal, public_what
from cardroom.tables.realtime_config import (
    NOT_STARTED,
    GameParts,
    LogError,
    Match,
    RealtimeConfig,
    RealtimeTableError,
)

__all__ = ["RealtimeFrames"]


def _card(card: Card | None) -> str | None:
    return card.code if card is not None else None


class RealtimeFrames:
    """The frames and records of a real-time table (mixed into ``RealtimeTable``)."""

    if TYPE_CHECKING:  # the table's state and the reading methods this part calls
        table_id: str
        seq: int
        config: RealtimeConfig | None
        names: list[str | None]
        bots: list[str | None]
        status: str
        closed: str | None
        engine: Any
        arbiter: Arbiter[Any, Any] | None
        paused_at: float | None
        away: dict[int, float]
        taken: set[int]
        _for_seat: set[int]
        forfeit: int | None
        notes: list[dict[str, Any]]
        match: Match | None
        past: list[Arbiter[Any, Any]]
        past_log: int

        @property
        def deadline(self) -> float | None: ...
        @property
        def winner(self) -> int | None: ...
        @property
        def between(self) -> bool: ...
        @property
        def next_at(self) -> float | None: ...
        @property
        def log_length(self) -> int: ...
        def game_time(self, t: float) -> float: ...
        def limit_at(self, seat: int) -> float: ...
        def _require_config(self) -> RealtimeConfig: ...
        def _require_parts(self) -> GameParts: ...

    def frame(self, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """The ``state`` frame for ``seat`` (None: a spectator), as JSON-ready data. With
        ``since``, ``log`` holds only the lines from that index on (``log_from`` says where)."""
        config = self._require_config()
        out: dict[str, Any] = {
            "type": "state",
            "table": self.table_id,
            "game": config.game,
            "seq": self.seq,
            "you": seat,
            "status": self.status,
            "closed": self.closed,
            "rules": self.engine.rules.to_json(),
            "seats": [
                {"seat": s, "name": self.names[s], "kind": config.seats[s].kind, "bot": b,
                 "away": self.away.get(s), "taken": s in self.taken,
                 "limit_at": self.limit_at(s) if s in self.away else None}
                for s, b in zip(SEATS, self.bots, strict=True)
            ],
            "deadline": None,
            "paused": None,
            "away_then": config.then(),
            "away_limit": config.away_limit,
            "forfeit": self.forfeit,
            "notes": list(self.notes),
            "winner": self.winner,
        }  # fmt: skip
        if self.match is not None:
            out["match"] = {
                **self._require_parts().match_frame(self.match),  # its unit and target
                "game": self.match.number,
                "scores": list(self.match.scores),
                "between": self.between,
                "next_at": self.next_at,
                "winner": self.match.winner,
            }  # fmt: skip
        if self.arbiter is None:
            return out
        view = self.engine.view(0 if seat is None else seat)
        out["table_view"] = self._view_json(view, seat)
        deadline = self.deadline
        if deadline is not None:
            out["deadline"] = {"kind": "countdown", "at": deadline}
        if self.paused_at is not None:
            standing = self.arbiter.deadline
            game = self.game_time(self.paused_at)
            out["paused"] = {
                "since": self.paused_at,
                "seats": sorted(self.away),
                "countdown_left": None if standing is None else max(0.0, standing - game),
            }
        start = 0 if since is None else max(0, min(since, self.log_length))
        out["log_from"] = start
        out["log"] = [self._log_json(e, seat) for e in self._lines_from(start)]

        return out

    def _view_json(self, view: Any, seat: int | None) -> dict[str, Any]:
        """A view's public fields, plus the seat's own hand and legal actions."""
        common: dict[str, Any] = {
            "phase": view.phase,
            "centre": [_card(c) for c in view.centre],
            "centre_sizes": list(view.centre_sizes),
            "called": list(view.called),
            "stalemate": view.stalemate,
            "winner": view.winner,
        }
        common.update(self._require_parts().view_frame(view, seat))
        if seat is not None:
            common["legal"] = [self.engine.action_to_json(a) for a in view.legal_actions]
        return common

    def _lines_from(self, start: int) -> list[Entry]:
        """The table talk's entries from line ``start`` on, across a match's games."""
        assert self.arbiter is not None
        if start >= self.past_log:
            return self.arbiter.log[start - self.past_log :]
        earlier = [e for arbiter in self.past for e in arbiter.log]
        return earlier[start:] + self.arbiter.log

    def _log_json(self, entry: Entry, seat: int | None) -> dict[str, Any]:
        """A log line for ``seat``: the other seat's refused actions without their cards."""
        names = list(self.arbiter.names) if self.arbiter is not None else ["", ""]
        taken = id(entry) in self._for_seat and entry.seat is not None
        if taken:
            assert entry.seat is not None
            names[entry.seat] = f"Bot (for {names[entry.seat]})"
        line: dict[str, Any] = {
            "t": entry.t, "seat": entry.seat, "accepted": entry.accepted,
            "text": entry_text(
                entry, names, viewer=-1 if seat is None else seat, public=public_what
            ),
        }  # fmt: skip
        # the fields of the text, so that each connection reads it in its own language
        line["events"] = [event_fields(e) for e in entry.events]
        if taken:
            line["for_seat"] = True
        if entry.timeout:
            line["timeout"] = True
        if entry.seat is not None and (entry.accepted or entry.seat == seat):
            line["action"] = self.engine.action_to_json(entry.action)
            if entry.reason is not None:
                line["reason"] = entry.reason
                line["engine_reason"] = entry.reason  # `reason` is put into words later
                line["reason_msg"] = message_json(entry.reason)  # its id and fields
        elif entry.seat is not None:
            line["refused"] = public_refusal(entry.action, entry.reason)
        return line

    # -- after the game -------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The game's record (``cardroom replay`` reads it): full information, for after the
        game only (the service must refuse it while the game goes on)."""
        if self.arbiter is None:
            raise RealtimeTableError("not-started", NOT_STARTED)
        if self.match is None:
            return self._ended(self.arbiter.record())
        raise LogError("a match's record is a list: use records()")

    def _ended(self, record: dict[str, Any]) -> dict[str, Any]:
        """The last game's record, told how the table closed when the game itself did not end
        it: ``ended`` ``{"reason": "forfeit", "seat": s}`` (seat ``s`` away too long, the other
        wins) or ``{"reason": "abandoned"}`` (both away as long: nobody wins)."""
        if self.closed == "forfeit" and self.forfeit is not None:
            record["ended"] = {"reason": "forfeit", "seat": self.forfeit}
        elif self.closed == "abandoned" and not (self.engine is not None and self.engine.over):
            record["ended"] = {"reason": "abandoned"}
        return record

    def records(self) -> dict[str, Any] | list[dict[str, Any]]:
        """The record: one game's, or a match's list of every game's (``cardroom replay`` and
        the replay viewer read both)."""
        if self.match is None:
            return self.record()
        assert self.arbiter is not None
        names = self.arbiter.names
        header = self._require_parts().record_header
        arbiters = [*self.past, self.arbiter]
        out = [arbiter.record(header(arbiter.engine, names, self.match)) for arbiter in arbiters]
        out[-1] = self._ended(out[-1])
        return out
