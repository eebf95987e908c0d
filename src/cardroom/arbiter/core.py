"""The arbiter, the one authority at a real-time table: it orders the seats' actions by time,
applies them through the game's engine, keeps the log (:class:`Entry`), runs the stalemate's
countdown, tells a log entry in words (:func:`entry_text`) and writes the game's record
(:meth:`Arbiter.record`, its header from the game's record reader, :func:`record_module`)."""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from cardroom.arbiter.clocks import Clock
from cardroom.games.errors import RecordError as BaseRecordError
from cardroom.games.messages import Message
from cardroom.games.realtime_engine import SEATS, RealtimeEngine, RealtimeIllegal, centre_name
from cardroom.games.records import placed, shown
from cardroom.games.registry import REALTIME, names
from cardroom.games.registry import game as registry_game

A = TypeVar("A")
V = TypeVar("V")

TIMEOUT = "timeout"
"""The record's action type for a countdown that ran out (its seat is null)."""
GAME_OVER = Message("rt.game-over", "the game is over")
"""The reason given for an action sent after the end (such actions are not logged)."""


class ArbiterError(ValueError):
    """A submission the arbiter cannot take at all (bad seat, time running backwards)."""


class RecordError(BaseRecordError):
    """A real-time record is malformed or does not replay as recorded.

    ``action`` is the 1-based number of the entry in ``actions`` at fault, or None when the
    problem is in the header; ``game`` the 1-based game of a match record, or None.
    """

    def __init__(self, message: str, action: int | None = None, game: int | None = None):
        # the places are fields, not glued words (see games.errors.RecordError): rec.at-action
        # "action 7: …", rec.in-game "game 3: …", rec.in-game-action "game 3: action 7: …"
        if game is not None and action is not None:
            prefix = f"game {game}: action {action}: "
            said: str = placed("rec.in-game-action", prefix, message, game=game, action=action)
        elif game is not None:
            said = placed("rec.in-game", f"game {game}: ", message, game=game)
        elif action is not None:
            said = placed("rec.at-action", f"action {action}: ", message, action=action)
        else:
            said = message
        super().__init__(said)
        self.detail = message
        self.action = action
        self.game = game


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one submitted action."""

    accepted: bool
    reason: str | None = None
    events: tuple[Any, ...] = ()

    @property
    def stale(self) -> bool:
        """True when the action was rejected because the pile it aimed at had changed."""
        return self.reason is not None and self.reason.startswith("stale: ")


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the arbiter's log: an action of a seat, or a countdown (``seat`` None)."""

    t: float
    seat: int | None
    action: Any
    """The engine's action object; None for a countdown that ran out."""
    accepted: bool
    reason: str | None = None
    events: tuple[Any, ...] = ()

    @property
    def timeout(self) -> bool:
        """True for a countdown that ran out."""
        return self.seat is None


@dataclass(order=True)
class _Posted:
    t: float
    seq: int
    seat: int = field(compare=False)
    action: Any = field(compare=False)


class Arbiter(Generic[A, V]):
    """The one authority at a real-time table.

    ``submit(seat, action, t)`` applies an action now (at time ``t``, default the clock's time);
    ``post`` queues one for later and ``advance(t)`` applies everything queued up to ``t`` in time
    order (ties: in the order posted). Before any action at time ``t`` the arbiter resolves a
    stalemate whose countdown ran out at or before ``t``, logging it at its exact deadline. The
    time never goes back: an action stamped earlier than the last one applied is refused with
    :class:`ArbiterError` and changes nothing.
    """

    def __init__(
        self,
        engine: RealtimeEngine[A, V],
        clock: Clock,
        names: Sequence[str],
        countdown: float | None = None,
    ) -> None:
        if len(names) != len(SEATS):
            raise ArbiterError(
                Message(
                    "arbiter.players",
                    f"a real-time table has {len(SEATS)} players, not {len(names)}",
                    n=len(names),
                )
            )
        self.engine = engine
        self.clock = clock
        self.names = list(names)
        if countdown is None:
            rules: Any = getattr(engine, "rules", None)
            countdown = float(getattr(rules, "countdown", 0.0))
        if not (countdown >= 0 and math.isfinite(countdown)):
            raise ArbiterError(
                Message(
                    "arbiter.countdown",
                    f"the countdown must be 0 or more seconds, not {countdown}",
                    seconds=float(countdown),
                )
            )
        self.countdown = countdown
        self.start = clock.now()
        self.time = self.start
        """The time of the last thing the arbiter did."""
        self.log: list[Entry] = []
        self.stalemates = 0
        """Stalemates met in play (not counting a "start" phase), however they were resolved."""
        self.timeouts = 0
        """Stalemates resolved by the countdown rather than by both calls."""
        self._since: float | None = None
        self._queue: list[_Posted] = []
        self._seq = 0
        self._stalemate = False
        self._note_stalemate(self.start)

    # -- time -----------------------------------------------------------------------------

    @property
    def deadline(self) -> float | None:
        """When the current stalemate's countdown runs out (None: no stalemate, or no countdown)."""
        if self._since is None or self.countdown <= 0:
            return None
        return self._since + self.countdown

    @property
    def stalemate_since(self) -> float | None:
        """When the current stalemate began, or None."""
        return self._since

    @property
    def stalemate(self) -> bool:
        """The engine's ``stalemate`` as of the last change (the engine changes only through
        the arbiter, so this saves asking it again)."""
        return self._stalemate

    def _note_stalemate(self, t: float) -> None:
        self._stalemate = bool(self.engine.stalemate) and not self.engine.over
        if self._stalemate:
            if self._since is None:
                self._since = t
                if self.engine.phase != "start":
                    self.stalemates += 1
        else:
            self._since = None

    def _time(self, t: float | None) -> float:
        now = self.clock.now() if t is None else float(t)
        if not math.isfinite(now):
            raise ArbiterError(
                Message(
                    "arbiter.time",
                    f"an action's time must be a number of seconds, not {t!r}",
                    value=repr(t),
                )
            )
        if now < self.time:
            raise ArbiterError(
                Message(
                    "arbiter.time-order",
                    f"time {now:.6f} is earlier than the last thing applied ({self.time:.6f}): "
                    "submit actions in time order",
                    t=now,
                    before=self.time,
                )
            )
        return now

    def tick(self, t: float | None = None) -> list[Entry]:
        """Resolve every stalemate whose countdown ran out by time ``t``; return those entries.
        After the end of the game the clock of the table stops: nothing happens any more."""
        if self.engine.over:
            return []
        now = self._time(t)
        out: list[Entry] = []
        deadline = self.deadline
        while deadline is not None and deadline <= now:
            events = tuple(self.engine.resolve_stalemate())
            entry = Entry(deadline, None, None, True, None, events)
            self.log.append(entry)
            out.append(entry)
            self.timeouts += 1
            self.time = deadline
            self._since = None
            self._note_stalemate(deadline)
            deadline = self.deadline
        self.time = now
        return out

    # -- actions --------------------------------------------------------------------------

    def submit(self, seat: int, action: A, t: float | None = None) -> Outcome:
        """Apply ``action`` of ``seat`` at time ``t`` (after any countdown due by then).

        Once the game is over an action is refused and not logged: the record (and its length in
        time) ends with the move that finished the game.
        """
        if seat not in SEATS:
            raise ArbiterError(
                Message("arbiter.seat", f"seat must be 0 or 1, not {seat!r}", value=repr(seat))
            )
        if self.engine.over:
            return Outcome(False, GAME_OVER)
        now = self._time(t)
        self.tick(now)
        if self.engine.over:  # the countdown's flip ended the game
            return Outcome(False, GAME_OVER)
        return self._apply(seat, action, now)

    def _apply(self, seat: int, action: A, now: float) -> Outcome:
        engine: Any = self.engine
        stalemate_before = self._stalemate
        called_before = tuple(getattr(engine, "called", ())) if stalemate_before else ()
        try:
            events = tuple(engine.apply(seat, action))
        except RealtimeIllegal as exc:
            self.log.append(Entry(now, seat, action, False, exc.reason))
            return Outcome(False, exc.reason)
        self.log.append(Entry(now, seat, action, True, None, events))
        if (
            getattr(engine, "renews_countdown", True)
            and stalemate_before
            and any(called_before)
            and not any(getattr(engine, "called", ()))
        ):
            # Both called: the engine resolved the stalemate; one that follows at once is new.
            self._since = None
        self._note_stalemate(now)
        return Outcome(True, None, events)

    def post(self, seat: int, action: A, t: float) -> None:
        """Queue ``action`` of ``seat`` made at time ``t``; :meth:`advance` applies it."""
        if seat not in SEATS:
            raise ArbiterError(
                Message("arbiter.seat", f"seat must be 0 or 1, not {seat!r}", value=repr(seat))
            )
        stamp = self._time(t)
        heapq.heappush(self._queue, _Posted(stamp, self._seq, seat, action))
        self._seq += 1

    @property
    def pending(self) -> int:
        """How many posted actions wait for :meth:`advance`."""
        return len(self._queue)

    def advance(self, t: float | None = None) -> list[tuple[int, A, Outcome]]:
        """Apply the queued actions made up to ``t``, in time order; then run the countdown."""
        now = self._time(t)
        done: list[tuple[int, A, Outcome]] = []
        while self._queue and self._queue[0].t <= now:
            item = heapq.heappop(self._queue)
            done.append((item.seat, item.action, self.submit(item.seat, item.action, item.t)))
        self.tick(now)
        return done

    # -- records --------------------------------------------------------------------------

    def record(self, header: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game's record: its header (by default the game's ``record_header``), the
        arbiter's start time and every log entry."""
        if header is None:
            header = record_module(self.engine.game).record_header(self.engine, self.names)
        data: dict[str, Any] = dict(header)
        data["start"] = self.start
        data["actions"] = [entry_to_json(self.engine, e) for e in self.log]
        return data


def entry_to_json(engine: RealtimeEngine[A, V], entry: Entry) -> dict[str, Any]:
    """One log entry in record form."""
    action = {"type": TIMEOUT} if entry.seat is None else engine.action_to_json(entry.action)
    out: dict[str, Any] = {
        "t": entry.t,
        "seat": entry.seat,
        "action": action,
        "accepted": entry.accepted,
    }
    if entry.reason is not None:
        out["reason"] = entry.reason
    return out


def entry_text(
    entry: Entry,
    names: Sequence[str],
    viewer: int | None = None,
    public: Callable[[str], str | None] | None = None,
) -> str:
    """What one log entry means, in words. With ``viewer`` (a seat, for the live log) the other
    seat's refused actions are told without their cards, which may be hidden from the viewer
    (a card still in his hand); ``None`` (a replay, after the game) tells everything.

    ``public`` says a game's own kind of action, refused, as everyone may know it (``"a slap
    refused"``), from its kind (the action's class name in lower case; None: no words for it);
    a play is said here, any other action without words is ``an action refused``."""
    if entry.timeout:
        said = "; ".join(e.describe(names) for e in entry.events)
        return f"countdown over: {said}"
    who = names[entry.seat] if entry.seat is not None else "?"
    if not entry.accepted:
        if viewer is not None and entry.seat != viewer:
            return f"{who}: {_public_refusal(entry, public)}"
        return f"{who}: {entry.action} refused: {entry.reason}"
    said = "; ".join(e.describe(names) for e in entry.events)
    return said or f"{who}: {entry.action}"


def _public_refusal(entry: Entry, public: Callable[[str], str | None] | None) -> str:
    """A refused action of the other seat, naming no card: its kind, a play's pile, and
    whether it was stale."""
    action = entry.action
    kind = type(action).__name__.lower()
    pile = getattr(action, "pile", None)
    if kind == "play":
        where = f" on {centre_name(pile)}" if isinstance(pile, int) else ""
        what = f"a play{where} refused"
    else:
        what = (public(kind) if public is not None else None) or "an action refused"
    why = " (stale: the pile had changed)" if (entry.reason or "").startswith("stale: ") else ""
    return f"{what}{why}"


def record_module(game: str) -> Any:
    """The record reader of real-time game ``game`` (``record_header(game, players)``,
    ``game_from_header(data)``), from the registry; :class:`RecordError` if there is none."""
    if game not in names(REALTIME):
        known = ", ".join(sorted(names(REALTIME)))
        raise RecordError(
            Message(
                "rec.rt.unknown-game",
                f"unknown real-time game {game!r} (known: {known})",
                value=shown(game),
            )
        )
    return registry_game(game).load("record")
