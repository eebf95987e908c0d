"""A real-time game's record played again: :func:`replay` (one game) and :func:`replay_any`
(a game or a match's list of games) feed every recorded action at its time through a fresh
engine and arbiter, and check that each is accepted or refused as recorded and that every
countdown ran out where the record says (:class:`Replay`: the arbiter and header read)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardroom.arbiter.clocks import VirtualClock
from cardroom.arbiter.core import TIMEOUT, Arbiter, ArbiterError, RecordError, record_module
from cardroom.games.errors import RecordError as BaseRecordError
from cardroom.games.messages import Message, message_of
from cardroom.games.realtime_engine import SEATS
from cardroom.games.records import (
    MAX_SECONDS,
    brief,
    get_bool,
    get_list,
    get_names,
    get_number,
    shown,
)
from cardroom.games.registry import REALTIME, names, title

MAX_ACTIONS = 200_000
"""More log entries than any real game holds."""

EMPTY_MATCH = Message("rec.rt.empty-match", "a match record is a non-empty list of game records")
"""A match record with no game in it."""


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
