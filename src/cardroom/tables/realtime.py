"""A real-time game's table for the web service: synchronous, deterministic, rebuilt from its log.

A :class:`RealtimeTable` is a state machine over log entries; it does no I/O, runs no tasks and
reads no clock. Every entry carries the server's time stamp ``t`` (seconds), and the table feeds
those times to the :class:`~cardroom.arbiter.Arbiter` through a virtual clock, so applying the
same entries always gives the same game, the same refusals and the same countdowns.

Entry kinds (``data`` of each):

=========== ====================================================================================
``created``  ``{"config": RealtimeConfig.to_json()}``: game, rules, seats, seed (seq 1)
``joined``   ``{"seat": s, "name": str}``: a person took his seat
``started``  ``{"t": t, "filled": [s, ...]}``: the game clock starts at ``t``; empty person seats
             in ``filled`` are played by bots of the table's level
``action``   ``{"seat": s, "action": {...}, "t": t, "by": "person"|"bot"}``: an action in its
             record form, as it arrived; stored *before* it is applied, accepted or refused by
             the arbiter (refusals, stale plays among them, are part of the game's record)
``timeout``  ``{"t": t}``: the countdown ran out; ``t`` is exactly :attr:`RealtimeTable.deadline`
``over``     ``{"t": t, "reason": "won"|"abandoned"}``: the table is closed
``rematch``  ``{"table": id}``: once the game is over, the id of its rematch, logged before
             that table is made (the first process to log it wins: every process offers it)
``away``     ``{"seat": s, "t": t, "since": t0}``: a person seat has no connection since ``t0``
             (``t0 <= t``, never before the last entry: after a restart, the last entry's
             time, so the downtime is a pause): the game pauses from ``t0``
``back``     ``{"seat": s, "t": t}``: the person is back (at a seat away or taken by a bot);
             once no seat is away the game goes on from ``t``
``takeover`` ``{"seat": s, "t": t}``: a seat away for the table's ``away_limit`` is played by a
             bot of the table's level from ``t`` (``away_then`` ``bot``)
``seat-token`` ``{"seat": s, "hash": h}``: a rematch's person seat opens with a new token
             (given to that person when they ask; only its hash is kept)
``next``     ``{"t": t}``: a match (as the game makes it of the config: to a target score in
             its rules, or until a player has won ``games`` games): the next game is dealt
             (``BETWEEN`` seconds after a game that left the match open, the scores shown)
=========== ====================================================================================

``over`` may also be ``{"t": t, "reason": "forfeit", "seat": s}``: seat ``s`` was away for the
table's ``away_limit`` (``away_then`` ``forfeit``); the other seat wins.

**Game time.** The arbiter's clock is *game time*: an entry's time ``t`` less the seconds the
game spent paused before it (:attr:`RealtimeTable.paused_for`). While a seat is away nothing is
applied but presence entries, the countdown stands still and the bots wait; a paused countdown
runs on from where it stopped. The record (game time only) never shows the pauses.

The service (not here) stamps each arrival with its clock, asks :meth:`RealtimeTable.check`
(which changes nothing), appends the entry to the store, then :meth:`RealtimeTable.apply` s it
and sends :meth:`RealtimeTable.frame` to each connection. Before an action stamped at or after
:attr:`RealtimeTable.deadline` it must log the ``timeout`` first (``check`` refuses the action
otherwise), so the log alone says when every countdown ran out.

Frames hold only what their seat may see: they are built from ``engine.view(seat)`` (the one
place a seat's view is made) and never carry a face-down card, the order of a face-down pile,
or the other player's hand. A spectator gets the public part only.

**The game's own part.** This module names no game: what differs between the real-time games
comes from the game's ``table_parts`` piece in the registry (:class:`GameParts`): how a match is
made of the config, the rules version of a log that names none, the game's own fields of a
``table_view``, a match's unit and target in a frame, and the header of a match's records.

The table's parts: :mod:`cardroom.tables.realtime_config` (its config, what its game tells it,
its errors and refusals; every name re-exported here) and :mod:`cardroom.tables.realtime_frames`
(what a connection sees, and the records after the game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol

from cardroom.arbiter import Arbiter, VirtualClock
from cardroom.games.messages import Message, message_of
from cardroom.games.realtime_engine import SEATS, client_action
from cardroom.games.registry import new_engine
from cardroom.tables.config import (
    ALREADY_STARTED,
    GAME_OVER,
    REMATCH_ONCE,
    TOKEN_FOR_PERSON,
)
from cardroom.tables.realtime_config import (
    AWAY_THEN,
    BETWEEN_GAMES,
    CLOSED,
    MAX_AWAY_LIMIT,
    MAX_GAMES,
    NOT_STARTED,
    PAUSED,
    GameParts,
    LogError,
    Match,
    RealtimeConfig,
    RealtimeSeat,
    RealtimeTableError,
    entry_seat,
    entry_time,
    game_parts,
)
from cardroom.tables.realtime_frames import RealtimeFrames

__all__ = [
    "AWAY_THEN",
    "BETWEEN",
    "BETWEEN_GAMES",
    "CLOSED",
    "KINDS",
    "MAX_AWAY_LIMIT",
    "MAX_GAMES",
    "MAX_NAME",
    "NOTES_KEPT",
    "NOT_STARTED",
    "PAUSED",
    "GameParts",
    "LogEntryLike",
    "LogError",
    "Match",
    "RealtimeConfig",
    "RealtimeSeat",
    "RealtimeTable",
    "RealtimeTableError",
    "Status",
    "game_parts",
]

Status = Literal["waiting", "playing", "over"]
KINDS = (
    "created", "joined", "started", "action", "timeout", "over", "rematch", "away", "back",
    "takeover", "next", "seat-token",
)  # fmt: skip
BETWEEN = 6.0
"""Seconds the scores are shown between two games of a match before the next is dealt."""
NOTES_KEPT = 20
"""Presence lines a frame carries (the table talk's lines for away, back, takeover, forfeit)."""
MAX_NAME = 24


class LogEntryLike(Protocol):
    """What the table reads of a stored entry (``cardroom.store.LogEntry`` fits)."""

    @property
    def seq(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def data(self) -> dict[str, Any]: ...


class RealtimeTable(RealtimeFrames):
    """One real-time game's table, rebuilt by applying its log entries in order."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.seq = 0
        """The number of entries applied (the last entry's ``seq``)."""
        self.config: RealtimeConfig | None = None
        self.names: list[str | None] = [None, None]
        self.bots: list[str | None] = [None, None]
        """Each seat's bot level once the table started (None: a person plays it)."""
        self.status: Status = "waiting"
        self.closed: str | None = None
        """Why the table was closed (``over`` entry), or None."""
        self.rematch: str | None = None
        """The id of the rematch table (``rematch`` entry), or None."""
        self.engine: Any = None
        self.arbiter: Arbiter[Any, Any] | None = None
        self._clock = VirtualClock()
        self.time = 0.0
        """The time stamp of the last entry that had one (the server's clock)."""
        self.paused_for = 0.0
        """Seconds of server time spent paused before now (game time = time - paused_for)."""
        self.paused_at: float | None = None
        """When the running pause began (some person seat is away), or None."""
        self.away: dict[int, float] = {}
        """Person seats away (no connection) and since when that was logged (their limit counts
        from then); a seat a bot took is not here."""
        self.taken: set[int] = set()
        self._for_seat: set[int] = set()  # id() of the entries a bot played in a taken seat
        """Person seats a bot plays since their person was away too long."""
        self.forfeit: int | None = None
        """The seat that lost by being away too long (``over`` with reason ``forfeit``)."""
        self.notes: list[dict[str, Any]] = []
        """The table talk's presence lines (away, back, takeover, forfeit, abandoned), each with
        ``at``, the log line it comes before, so a page puts it in place in its reader's words;
        the last :data:`NOTES_KEPT`."""
        self.parts: GameParts | None = None
        """The game's own part of its table (from the ``created`` entry on)."""
        self.match: Match | None = None
        """A match: its games so far (``engine`` is the current one)."""
        self.past: list[Arbiter[Any, Any]] = []
        """The arbiters of a match's finished games (``arbiter`` plays the current one)."""
        self.past_log = 0
        """How many log lines those games had (a frame's log counts on across games)."""
        self.ended_at: float | None = None
        """The server time of the entry that ended the current game of a match."""

    @classmethod
    def replay(cls, table_id: str, entries: Sequence[LogEntryLike]) -> RealtimeTable:
        """The table as its entries leave it."""
        table = cls(table_id)
        for entry in entries:
            table.apply(entry)
        return table

    # -- reading ------------------------------------------------------------------------------

    @property
    def deadline(self) -> float | None:
        """When the running countdown runs out on the server's clock (log a ``timeout`` then),
        or None (none runs, or the game is paused)."""
        if self.arbiter is None or self.status != "playing" or self.paused_at is not None:
            return None
        deadline = self.arbiter.deadline
        return None if deadline is None else deadline + self.paused_for

    @property
    def paused(self) -> bool:
        """True while a person seat is away (nothing but presence entries is applied)."""
        return self.paused_at is not None

    def game_time(self, t: float) -> float:
        """The arbiter's time for the server time ``t``: paused seconds do not count."""
        base = t if self.paused_at is None else min(t, self.paused_at)
        game = base - self.paused_for
        return game if self.arbiter is None else max(game, self.arbiter.time)

    def server_time(self, game: float) -> float:
        """The server time at which game time ``game`` comes (while not paused)."""
        return game + self.paused_for

    def people(self) -> list[int]:
        """The seats people play (a seat a bot took over from its person among them)."""
        config = self._require_config()
        return [
            g for g in SEATS
            if config.seats[g].kind == "person" and (self.bots[g] is None or g in self.taken)
        ]  # fmt: skip

    def limit_at(self, seat: int) -> float:
        """When seat ``seat``, away, reaches the table's ``away_limit``."""
        return self.away[seat] + self._require_config().away_limit

    @property
    def next_limit(self) -> tuple[float, int] | None:
        """``(when, seat)``: the first away seat to reach the limit, or None."""
        if self.status != "playing" or not self.away:
            return None
        return min((self.limit_at(g), g) for g in self.away)

    @property
    def winner(self) -> int | None:
        """The seat that won: by the game (the match), or because the other forfeited."""
        if self.forfeit is not None:
            return 1 - self.forfeit
        if self.match is not None:
            return self.match.winner
        return self.engine.winner if self.engine is not None and self.engine.over else None

    @property
    def between(self) -> bool:
        """True between two games of a match (the scores shown, the next game not dealt)."""
        return (
            self.match is not None and self.status == "playing" and bool(self.engine.over)
            and not self.match.over
        )  # fmt: skip

    @property
    def next_at(self) -> float | None:
        """When the next game of the match is dealt (None: not between games, or paused)."""
        if not self.between or self.paused_at is not None or self.ended_at is None:
            return None
        return max(self.ended_at, self.time) + BETWEEN

    @property
    def log_length(self) -> int:
        """The table talk's lines so far (every game of a match)."""
        return self.past_log + (len(self.arbiter.log) if self.arbiter is not None else 0)

    def _require_config(self) -> RealtimeConfig:
        if self.config is None:
            raise LogError("the first entry must be 'created'")
        return self.config

    def _require_parts(self) -> GameParts:
        if self.parts is None:
            raise LogError("the first entry must be 'created'")
        return self.parts

    # -- checking and applying ------------------------------------------------------------------

    def check(self, kind: str, data: Mapping[str, Any], *, person: bool = True) -> Any:
        """Raise RealtimeTableError if the entry cannot be applied now; change nothing. For an
        ``action`` return the parsed action (from a person, a play must carry ``seen``)."""
        if kind not in KINDS:
            raise LogError(f"unknown entry kind {kind!r}")
        if kind == "created":
            if self.config is not None:
                raise LogError("the table is already created")
            RealtimeConfig.from_json(data.get("config"))
            return None
        config = self._require_config()
        if kind == "rematch":
            if self.status != "over" or self.rematch is not None:
                raise RealtimeTableError("forbidden", REMATCH_ONCE)
            if not isinstance(data.get("table"), str) or not data["table"]:
                raise LogError("a rematch names its table")
            return None
        if kind == "seat-token":
            person = config.seats[entry_seat(data)].kind == "person"
            if not person or not isinstance(data.get("hash"), str):
                raise RealtimeTableError("bad-request", TOKEN_FOR_PERSON)
            return None
        if self.closed is not None:
            raise RealtimeTableError("over", CLOSED)
        if kind == "joined":
            seat = entry_seat(data)
            if config.seats[seat].kind != "person" or self.status != "waiting":
                taken = f"seat {seat} cannot be joined now"
                raise RealtimeTableError("forbidden", Message("table.cannot-join", taken))
            name = data.get("name")
            if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
                raise LogError(f"a name has 1 to {MAX_NAME} characters")
            return None
        if kind == "started":
            if self.status != "waiting":
                raise RealtimeTableError("bad-request", ALREADY_STARTED)
            entry_time(data)
            filled = data.get("filled", [])
            if not isinstance(filled, list) or not all(s in SEATS for s in filled):
                raise LogError("filled is a list of seats")
            for s in SEATS:
                if config.seats[s].kind == "person" and self.names[s] is None and s not in filled:
                    raise LogError(f"seat {s} is empty: fill it or wait")
            return None
        if kind == "over":
            entry_time(data)
            reason = data.get("reason")
            if reason not in ("won", "abandoned", "forfeit"):
                raise LogError("reason is won, abandoned or forfeit")
            if reason == "won" and not (self.engine is not None and self.engine.over):
                raise LogError("nobody has won yet")
            if reason == "forfeit":
                self._check_limit(data, "forfeit")
            return None
        if self.status == "waiting" or self.arbiter is None:
            raise RealtimeTableError("not-started", NOT_STARTED)
        if self.status == "over":
            raise RealtimeTableError("over", GAME_OVER)
        t = entry_time(data)
        if t < self.time:
            raise LogError(f"time {t} is before the last entry's")
        deadline = self.deadline
        if kind == "timeout":
            if deadline is None or deadline != t:
                raise LogError(f"no countdown runs out at {t}")
            return None
        if kind in ("away", "back", "takeover"):
            return self._check_presence(kind, data, t, deadline)
        if kind == "next":
            if not self.between or self.paused_at is not None:
                raise LogError("no game of a match is to be dealt now")
            return None
        if self.between:
            raise RealtimeTableError("not-started", BETWEEN_GAMES)
        if deadline is not None and deadline <= t:
            raise LogError(f"the countdown ran out at {deadline}: log the timeout first")
        seat = entry_seat(data)
        if self.paused_at is not None:
            raise RealtimeTableError("paused", PAUSED)
        try:
            if person and data.get("by", "person") == "person":
                return client_action(self.engine, data.get("action"))
            return self.engine.action_from_json(data.get("action"))
        except ValueError as exc:
            inner = message_of(exc)  # the person's own seat: its words need no "seat N: "
            said: str = f"seat {seat}: {exc}"
            if isinstance(inner, Message):
                said = Message(inner.id, said, **inner.fields)
            raise RealtimeTableError("bad-request", said) from None

    def _check_presence(
        self, kind: str, data: Mapping[str, Any], t: float, deadline: float | None
    ) -> None:
        seat = entry_seat(data)
        if seat not in self.people():
            raise LogError(f"seat {seat} is a bot's seat")
        if kind == "away":
            if seat in self.away or seat in self.taken:
                raise LogError(f"seat {seat} is away already")
            since = entry_time({"t": data.get("since", t)})
            first = self.time if self.paused_at is None else self.paused_at
            if not first <= since <= t:
                raise LogError("a seat is away since a time between the last entry and now")
            if deadline is not None and deadline <= since:
                raise LogError(f"the countdown ran out at {deadline}: log the timeout first")
        elif kind == "back":
            if seat not in self.away and seat not in self.taken:
                raise LogError(f"seat {seat} is not away")
        else:
            self._check_limit(data, "bot")

    def _check_limit(self, data: Mapping[str, Any], then: str) -> None:
        """A seat away for the limit may be forfeited or taken over (as the table says)."""
        config = self._require_config()
        seat = entry_seat(data)
        if self.status != "playing" or seat not in self.away:
            raise LogError(f"seat {seat} is not away")
        if config.then() != then:
            raise LogError(f"this table's away seats {config.then()}")
        if entry_time(data) < self.limit_at(seat):
            raise LogError(f"seat {seat} has not been away long enough")

    def _resume(self, t: float) -> None:
        if not self.away and self.paused_at is not None:
            self.paused_for += max(0.0, t - self.paused_at)
            self.paused_at = None

    def apply(self, entry: LogEntryLike) -> None:
        """Apply the next entry (its ``seq`` must follow); refused entries raise and change
        nothing. An ``action`` may still be refused *by the arbiter* (stale, illegal): that is
        part of the game and goes into its record."""
        if entry.seq != self.seq + 1:
            raise LogError(f"entry {entry.seq} does not follow {self.seq}")
        data = entry.data
        parsed = self.check(entry.kind, data, person=False)
        kind = entry.kind
        if kind == "created":
            self.config = RealtimeConfig.from_json(data["config"])
            self.names = [s.name for s in self.config.seats]
            options = {k: str(v) for k, v in self.config.options.items()}
            self.engine = new_engine(
                self.config.game, options, self.config.seed, self.config.rules_version
            )
            self.parts = game_parts(self.config.game)
            self.match = self.parts.new_match(
                self.engine.rules, self.config.seed, self.config.games, self.config.rules_version
            )
            if self.match is not None:
                self.engine = self.match.game
        elif kind == "joined":
            self.names[entry_seat(data)] = str(data["name"]).strip()
        elif kind == "started":
            config = self._require_config()
            t = entry_time(data)
            for s in SEATS:
                spec = config.seats[s]
                if spec.kind == "bot" or s in data.get("filled", []):
                    self.bots[s] = spec.level if spec.kind == "bot" else config.level
                    if self.names[s] is None:
                        self.names[s] = f"{str(self.bots[s]).capitalize()} bot"
            self._clock = VirtualClock(t)
            self.time = t
            names = [n or f"Seat {s}" for s, n in enumerate(self.names)]
            self.arbiter = Arbiter(self.engine, self._clock, names)
            self.status = "playing"
        elif kind == "timeout":
            assert self.arbiter is not None and self.arbiter.deadline is not None
            game = self.arbiter.deadline  # exactly, whatever the pauses before
            self._clock.advance_to(game)
            self.arbiter.tick(game)
            self.time = entry_time(data)
        elif kind == "action":
            assert self.arbiter is not None
            t = entry_time(data)
            game = self.game_time(t)
            self._clock.advance_to(game)
            seat = entry_seat(data)
            self.arbiter.submit(seat, parsed, game)
            if seat in self.taken and data.get("by") == "bot":
                played = [e for e in self.arbiter.log[-3:] if e.seat == seat]
                if played:
                    self._for_seat.add(id(played[-1]))
            self.time = t
        elif kind in ("away", "back", "takeover"):
            self._apply_presence(kind, data)
        elif kind == "next":
            assert self.match is not None and self.arbiter is not None
            t = entry_time(data)
            game = self.game_time(t)
            self.past.append(self.arbiter)
            self.past_log += len(self.arbiter.log)
            self.engine = self.match.next_game()
            self._clock = VirtualClock(game)
            self.arbiter = Arbiter(self.engine, self._clock, self.arbiter.names)
            self.ended_at = None
            self.time = t
        elif kind == "rematch":
            self.rematch = str(data["table"])
        elif kind == "seat-token":
            pass  # the service keeps the seats' token hashes
        else:
            self.closed = str(data["reason"])
            self.status = "over"
            if self.closed == "forfeit":
                self.forfeit = entry_seat(data)
                self._note("forfeit", self.forfeit, entry_time(data))
            elif self.closed == "abandoned" and self.arbiter is not None:
                self._note("abandoned", None, entry_time(data))
            if self.arbiter is not None:
                self.time = max(self.time, entry_time(data))
        if self.engine is not None and self.engine.over and self.status == "playing":
            if self.match is None or self.match.over:
                self.status = "over"
            elif self.ended_at is None:
                self.ended_at = self.time
        self.seq = entry.seq

    def _apply_presence(self, kind: str, data: Mapping[str, Any]) -> None:
        config = self._require_config()
        seat = entry_seat(data)
        t = entry_time(data)
        if kind == "away":
            since = entry_time({"t": data.get("since", t)})
            self.away[seat] = t  # the limit counts from when it is known (after a restart too)
            if self.paused_at is None:
                self.paused_at = since
        elif kind == "back":
            if seat in self.taken:
                self.taken.discard(seat)
                self.bots[seat] = None
            self.away.pop(seat, None)
        else:
            del self.away[seat]
            self.taken.add(seat)
            self.bots[seat] = config.level
        self._note(kind, seat, t)
        self._resume(t)
        self.time = t

    def _note(self, kind: str, seat: int | None, t: float) -> None:
        self.notes.append({"kind": kind, "seat": seat, "t": t, "at": self.log_length})
        del self.notes[:-NOTES_KEPT]
