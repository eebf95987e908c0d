"""Clocks, the arbiter and records for the real-time games (the registry's ``realtime`` kind).

A real-time game has no turns. Each seat's actions carry the time they were made; the
:class:`Arbiter` is the one authority at the table: it applies them one at a time in time order
through the game's engine (:mod:`cardroom.games.realtime_engine`), rejects the ones that are no
longer legal (a play aimed at a pile whose top card changed is *stale*) without changing anything,
keeps the log, and resolves a stalemate (as the game says: a call both players make, a flip of
the side piles) itself once the table's countdown has run out. Time comes from a clock:
:class:`VirtualClock` in simulations and tests (advanced by hand, never sleeping),
:class:`WallClock` in play.

A record is the game's header (``record_header``: rules, players, seed, deal) plus ``start`` and
the log as ``actions``; :func:`replay` plays it again through a fresh engine and checks that every
action is accepted or rejected as it was, and that every countdown ran out when it did.

One concern: the real-time games' arbitration. A record is checked by running the arbiter
again (the same clocks, the same order, the same countdowns), so the arbiter, its log entries
and their replay must agree action for action and stay together; the clocks are the arbiter's
two sources of time.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from cardroom.games.errors import RecordError as BaseRecordError
from cardroom.games.messages import Message, message_of
from cardroom.games.realtime_engine import SEATS, RealtimeEngine, RealtimeIllegal, centre_name
from cardroom.games.records import (
    MAX_SECONDS,
    brief,
    get_bool,
    get_list,
    get_names,
    get_number,
    placed,
    shown,
)
from cardroom.games.registry import REALTIME, names, title
from cardroom.games.registry import game as registry_game

MAX_ACTIONS = 200_000
"""More log entries than any real game holds."""

A = TypeVar("A")
V = TypeVar("V")

TIMEOUT = "timeout"
"""The record's action type for a countdown that ran out (its seat is null)."""
GAME_OVER = Message("rt.game-over", "the game is over")
"""The reason given for an action sent after the end (such actions are not logged)."""


class Clock(Protocol):
    """Anything that tells the time in seconds."""

    def now(self) -> float: ...


class VirtualClock:
    """A clock that only moves when told to: simulations and tests run without sleeping."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        """The current virtual time in seconds."""
        return self._now

    def advance(self, seconds: float) -> float:
        """Move forward by ``seconds`` (not negative); return the new time."""
        if not seconds >= 0:
            raise ValueError(f"a clock cannot go back: advance by {seconds} seconds")
        self._now += seconds
        return self._now

    def advance_to(self, t: float) -> float:
        """Move forward to time ``t`` (never back); return it."""
        if not t >= self._now:
            raise ValueError(f"a clock cannot go back from {self._now} to {t}")
        self._now = float(t)
        return self._now


class WallClock:
    """Real time: seconds since the clock was made (``time.monotonic``, so never backwards)."""

    def __init__(self) -> None:
        self._origin = time.monotonic()

    def now(self) -> float:
        """Seconds since this clock was created."""
        return time.monotonic() - self._origin


class ArbiterError(ValueError):
    """A submission the arbiter cannot take at all (bad seat, time running backwards)."""


EMPTY_MATCH = Message("rec.rt.empty-match", "a match record is a non-empty list of game records")
"""A match record with no game in it."""


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


# -- replay -------------------------------------------------------------------------------


@dataclass(slots=True)
class Replay:
    """A replayed game: the arbiter (engine in its final state, log) and the header read."""

    arbiter: Arbiter[Any, Any]
    header: dict[str, Any]

    @property
    def engine(self) -> Any:
        """The engine, in the state the record leaves it."""
        return self.arbiter.engine

    @property
    def names(self) -> list[str]:
        """The players' names."""
        return self.arbiter.names

    @property
    def ended(self) -> dict[str, Any] | None:
        """How the table closed when play did not end it (checked by :func:`replay`):
        ``{"reason": "forfeit", "seat": s}`` (seat ``s`` away too long) or
        ``{"reason": "abandoned"}``; None for a game played to its end (or cut short)."""
        ended = self.header.get("ended")
        return ended if isinstance(ended, dict) else None

    @property
    def winner(self) -> int | None:
        """The seat that won: by a forfeit of the other, else by the game."""
        ended = self.ended
        if ended is not None:
            return 1 - int(ended["seat"]) if ended["reason"] == "forfeit" else None
        winner: int | None = self.engine.winner
        return winner

    @property
    def finished(self) -> bool:
        """True when the game was played to its end or closed by a forfeit or abandonment."""
        return bool(self.engine.over) or self.ended is not None


def _number(value: Any, where: str, action: int | None = None) -> float:
    try:
        return get_number(value, where, 0.0, MAX_SECONDS, "a number of seconds")
    except BaseRecordError as exc:
        raise RecordError(message_of(exc), action) from None


def replay(data: Any) -> Replay:
    """Replay one real-time game record; raise :class:`RecordError` on any mismatch.

    Every action is fed at its recorded time through a fresh engine and arbiter; each must be
    accepted or rejected as recorded, and each countdown entry must fall exactly where the
    countdown runs out (and no countdown may run out unrecorded). The game is played under the
    version of its rules the record names; a record written before records had versions is
    replayed under the versions it may have been played under, latest first, and the first
    under which it replays is kept (``replay.engine.rules_version``; the error of the latest if
    none).
    """
    if not isinstance(data, dict):
        which = " or ".join(title(name) for name in names(REALTIME))  # the games' titles
        raise RecordError(
            Message(
                "rec.rt.not-object",
                f"a {which} record is a JSON object with a 'game' field",
                field="game",
            )
        )
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError(Message("rec.rt.no-game", "the record has no 'game' name", field="game"))
    module = record_module(game)
    try:
        read_versions = getattr(module, "rules_versions", None)
        versions = [None] if read_versions is None else read_versions(data)
    except ValueError as exc:
        raise RecordError(message_of(exc)) from None
    failed: RecordError | None = None
    for version in versions:  # several only for a record written before records had versions
        try:
            return _replay_under(module, data, version)
        except RecordError as exc:
            failed = failed or exc
    assert failed is not None
    raise failed


def _replay_under(module: Any, data: dict[str, Any], version: int | None) -> Replay:
    try:
        engine = (
            module.game_from_header(data, version) if version else module.game_from_header(data)
        )
        players = get_names(data.get("players"), 2)
        actions = get_list(data.get("actions"), "actions", MAX_ACTIONS)
    except RecordError:
        raise
    except ValueError as exc:
        raise RecordError(message_of(exc)) from None
    start = _number(data.get("start", 0.0), "start")
    clock = VirtualClock(start)
    arbiter: Arbiter[Any, Any] = Arbiter(engine, clock, players)
    for number, item in enumerate(actions, start=1):
        try:
            _replay_entry(arbiter, clock, engine, number, item)
        except RecordError:
            raise
        except (BaseRecordError, ArbiterError) as exc:
            raise RecordError(message_of(exc), number) from None
    _check_ended(data.get("ended"), engine)
    return Replay(arbiter, data)


BAD_ENDED = Message(
    "rec.rt.ended",
    "ended must be a forfeit by seat 0 or 1, or an abandoned game that play did not end",
    field="ended",
)


def _check_ended(ended: Any, engine: Any) -> None:
    """A record's ``ended``: absent, a forfeit by seat 0 or 1, or an abandoned game still on."""
    if ended is None:
        return
    if not isinstance(ended, dict):
        raise RecordError(BAD_ENDED)
    reason, seat = ended.get("reason"), ended.get("seat")
    forfeit = reason == "forfeit" and set(ended) == {"reason", "seat"}
    if forfeit and type(seat) is int and seat in SEATS:
        return
    if reason == "abandoned" and set(ended) == {"reason"} and not engine.over:
        return
    raise RecordError(BAD_ENDED)


def _check_action(raw: Any) -> dict[str, Any]:
    """An action object's shape, before the engine reads it: a ``type`` string, and fields that
    are card codes, small whole numbers (seats, piles) or null."""
    if not isinstance(raw, dict):
        raise RecordError(
            Message(
                "rec.rt.action-object",
                f'action must be an object like {{"type": ...}}, not {brief(raw)}',
                field="action",
                value=shown(raw),
            )
        )
    kind = raw.get("type")
    if not isinstance(kind, str) or len(kind) > 20:
        raise RecordError(
            Message(
                "rec.rt.action-type",
                f"an action's type must be a name like \"play\", not {brief(kind)}",
                field="type",
                value=shown(kind),
            )
        )
    for key, value in raw.items():
        if key == "type" or value is None:
            continue
        if isinstance(value, str) and len(value) <= 20:
            continue
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 100:
            continue
        raise RecordError(
            Message(
                "rec.rt.action-field",
                f"{kind} action, {brief(key)}: {brief(value)} is neither a card nor a pile number",
                kind=shown(kind),
                field=shown(key),
                value=shown(value),
            )
        )
    return raw


def _replay_entry(
    arbiter: Arbiter[Any, Any], clock: VirtualClock, engine: Any, number: int, item: Any
) -> None:
    if not isinstance(item, dict):
        raise RecordError(
            Message(
                "rec.rt.entry-object",
                "each action must be an object with t, seat, action, accepted",
                fields="t, seat, action, accepted",
            ),
            number,
        )
    t = _number(item.get("t"), "t", number)
    if t < arbiter.time:
        raise RecordError(
            Message(
                "rec.rt.time-order",
                f"time {t} is earlier than the action before ({arbiter.time})",
                t=t,
                before=arbiter.time,
            ),
            number,
        )
    seat = item.get("seat", "missing")
    accepted = get_bool(item.get("accepted"), "accepted")
    raw = _check_action(item.get("action"))
    clock.advance_to(t)
    before = len(arbiter.log)
    if seat is None:
        if raw.get("type") != TIMEOUT:
            raise RecordError(
                Message(
                    "rec.rt.seatless",
                    f'an entry without a seat must be {{"type": "{TIMEOUT}"}}',
                    value=f'{{"type": "{TIMEOUT}"}}',
                ),
                number,
            )
        if not accepted:
            raise RecordError(
                Message("rec.rt.countdown-accepted", "a countdown entry is always accepted"),
                number,
            )
        due = arbiter.deadline
        if due != t:
            when = f"it runs out at {due}" if due is not None else "no countdown is running"
            said = f"the record says a countdown ran out at {t}, but {when}"
            if due is None:
                raise RecordError(Message("rec.rt.countdown-none", said, t=t), number)
            raise RecordError(Message("rec.rt.countdown-at", said, t=t, due=due), number)
        arbiter.tick(t)
        fired = arbiter.log[before:]
        if len(fired) > 1:
            raise RecordError(
                Message(
                    "rec.rt.countdown-again",
                    f"the countdown ran out again at {fired[1].t}, which the record does not show",
                    t=fired[1].t,
                ),
                number + 1,
            )
        return
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        raise RecordError(
            Message(
                "rec.rt.seat",
                f"seat must be 0, 1 or null (a countdown), not {brief(seat)}",
                field="seat",
                value=shown(seat),
            ),
            number,
        )
    try:
        action = engine.action_from_json(raw)
    except ValueError as exc:
        raise RecordError(
            Message("rec.rt.seat-action", f"seat {seat}: {exc}", seat=seat, detail=message_of(exc)),
            number,
        ) from None
    outcome = arbiter.submit(seat, action, t)
    if len(arbiter.log) > before + 1:
        missed = arbiter.log[before]
        raise RecordError(
            Message(
                "rec.rt.countdown-missed",
                f"the countdown ran out at {missed.t}, before this action, but the record has no "
                "timeout there",
                t=missed.t,
            ),
            number,
        )
    if outcome.accepted != accepted:
        if accepted:
            raise RecordError(
                Message(
                    "rec.rt.accepted-illegal",
                    f"seat {seat}'s {brief(raw, 80)} was recorded as accepted but is illegal: "
                    f"{outcome.reason}",
                    seat=seat,
                    value=shown(raw, 80),
                    reason=outcome.reason or Message("refused", "not now"),
                ),
                number,
            )
        raise RecordError(
            Message(
                "rec.rt.rejected-legal",
                f"seat {seat}'s {brief(raw, 80)} was recorded as rejected "
                f"({brief(item.get('reason'))}) but is legal",
                seat=seat,
                value=shown(raw, 80),
            ),
            number,
        )


def replay_any(data: Any) -> list[Replay]:
    """Replay a game record, or a list of them (a match's games), in order."""
    if isinstance(data, list):
        if not data:
            raise RecordError(EMPTY_MATCH)
        out = []
        for i, item in enumerate(data, start=1):
            try:
                out.append(replay(item))
            except RecordError as exc:
                raise RecordError(exc.detail, exc.action, i) from None
        return out
    return [replay(data)]


def cards_left(engine: Any) -> list[int | None]:
    """Each seat's cards still to get rid of, when the engine can say (``cards_left(seat)``)."""
    method = getattr(engine, "cards_left", None)
    if method is None:
        return [None, None]
    return [int(method(seat)) for seat in SEATS]
