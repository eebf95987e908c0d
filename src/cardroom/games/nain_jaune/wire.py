"""A seat's ``state`` frame (what a table sends one seat over its websocket) read back into the
:class:`~cardroom.games.nain_jaune.view.RoundView` a bot decides on, and a bot's action written
as the protocol's ``act`` message.

A program playing at a table sees only its frames; this is how it gets the same view the
server's own bots get from the round itself (:func:`~cardroom.games.nain_jaune.view.view_of`):
the frame says every public thing and the seat's own hand, legal actions and pending claim.
Seats in a frame are the table's seats; a view's are the round's (the players still in the
game, in order), as in :func:`view_of`.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from cardroom.cards import parse_card
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.engine import (
    CLAIM,
    PASS,
    Action,
    CardPlayed,
    Claim,
    Doubled,
    Event,
    Forgot,
    FreeSequence,
    GrandOperaSwept,
    NextRank,
    OutOfCards,
    Paid,
    Play,
    Staked,
    Takes,
    Without,
)
from cardroom.games.nain_jaune.rules import STAKES, Rules
from cardroom.games.nain_jaune.view import RoundView

__all__ = [
    "ENCODING",
    "FrameError",
    "Reader",
    "act_message",
    "action_of",
    "action_text",
    "seat_of",
    "view_from_frame",
]

EVENT_CLASSES: dict[str, type] = {
    "play": CardPlayed,
    "takes": Takes,
    "forgot": Forgot,
    "without": Without,
    "next-rank": NextRank,
    "new-sequence": FreeSequence,
    "out": OutOfCards,
    "paid": Paid,
    "doubled": Doubled,
    "grand-opera": GrandOperaSwept,
}
"""A frame event's ``kind`` -> the engine's event class (the table's other events, such as
``joined`` or ``round-over``, are not the round's)."""
_SEAT_FIELDS = frozenset({"seat", "payer", "payee"})
_CARD_FIELDS = frozenset({"card"})


class FrameError(ValueError):
    """A frame that cannot be read as a seat's view (it says what is missing)."""


ENCODING = "cardroom.games.nain_jaune.research.encoding"
"""Where the research adapters' observation and action encoding lives (a policy trained with
them decides on ``encode_view(view)`` and ``action_mask(view)``; ``action_from_id`` reads its
answer): named, not imported, as the registry names pieces (the research face stands above the
rules core)."""


def action_text(action: Action) -> str:
    """The wire form of an action (``"7D"``, ``"pass"``, ``"claim"``)."""
    if isinstance(action, Play):
        return action.card.code
    return "claim" if isinstance(action, Claim) else "pass"


def action_of(text: str) -> Action:
    """An action from its wire form (a ``legal`` entry of a frame)."""
    word = text.strip().lower()
    if word == "pass":
        return PASS
    if word == "claim":
        return CLAIM
    return Play(parse_card(text.strip()))


def act_message(action: Action, frame: dict[str, Any]) -> dict[str, Any]:
    """The ``act`` message for ``action``, decided on ``frame`` (its ``seq`` says which
    state the bot saw: the table refuses it as stale if the table has moved on)."""
    out: dict[str, Any] = {"type": "act", "action": action_text(action), "seq": frame["seq"]}
    return out


def seat_of(frame: dict[str, Any]) -> int | None:
    """The table seat the frame is for (None: a spectator's)."""
    you = frame.get("you")
    return you if isinstance(you, int) else None


def _round_seats(frame: dict[str, Any]) -> list[int]:
    return [row["seat"] for row in frame.get("seats", ()) if row.get("in_round")]


def _event(data: dict[str, Any], pos: dict[int, int]) -> Event | None:
    cls = EVENT_CLASSES.get(str(data.get("kind")))
    if cls is None:
        return None
    values: dict[str, Any] = {}
    for f in fields(cls):
        value = data[f.name]
        if f.name in _SEAT_FIELDS:
            value = pos[value]
        elif f.name in _CARD_FIELDS:
            value = parse_card(value)
        elif f.name == "reason" and isinstance(data.get("reason_msg"), dict):
            value = Message(str(data["reason_msg"]["id"]), str(value))
        values[f.name] = value
    event: Event = cls(**values)
    return event


def _stakes(data: dict[str, Any], pos: dict[int, int], rules: Rules) -> list[Staked]:
    """The engine's ``Staked`` events behind a frame's one ``stakes`` line (each seat puts
    ``STAKES[box]`` in each box, or all it has left, box by box)."""
    labels = [card.pretty for card in rules.board_cards]
    out: list[Staked] = []
    by_pos = sorted((pos[int(g)], int(total)) for g, total in data["stakes"].items())
    for p, total in by_pos:
        left = total
        for box, stake in enumerate(STAKES):
            amount = min(stake, left)
            left -= amount
            out.append(Staked(p, box, labels[box], amount))
    return out


def view_from_frame(frame: dict[str, Any]) -> RoundView | None:
    """The seat's view of the round in ``frame`` (None: no round is being played, or the
    frame is a spectator's or a seat not in this round). Raises :class:`FrameError` for a
    frame that is not a Nain Jaune state frame."""
    try:
        return _view(frame)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, FrameError):
            raise
        raise FrameError(f"not a Nain Jaune state frame ({type(exc).__name__}: {exc})") from exc


def _view(frame: dict[str, Any]) -> RoundView | None:
    if frame.get("type") != "state":
        raise FrameError(f"a state frame was expected, not {frame.get('type')!r}")
    rnd = frame.get("round")
    you = seat_of(frame)
    if rnd is None or you is None or "hand" not in rnd:
        return None
    seats = _round_seats(frame)
    if you not in seats:
        return None
    pos = {g: p for p, g in enumerate(seats)}
    rules = Rules.from_json(frame["rules"])
    me = pos[you]

    def at(g: int | None) -> int | None:
        return None if g is None else pos[g]

    def by_seat(values: dict[str, int]) -> tuple[int, ...]:
        return tuple(values[str(g)] for g in seats)

    events: list[Event] = []
    for data in frame.get("events", ()):
        if data.get("kind") == "stakes":
            events.extend(_stakes(data, pos, rules))
        else:
            event = _event(data, pos)
            if event is not None:
                events.append(event)
    to_act = at(rnd["to_act"])
    claim = rnd.get("pending_claim")
    board_codes = [box["card"] for box in rnd["board"]]
    if board_codes != [c.code for c in rules.board_cards]:
        raise FrameError("the frame's board is not its rules' board")
    return RoundView(
        seat=me,
        rules=rules,
        players=len(seats),
        dealer=pos[rnd["dealer"]],
        to_act=to_act,
        need=rnd["need"],
        leader=at(rnd["leader"]),
        hand=tuple(parse_card(c) for c in rnd["hand"]),
        hand_sizes=by_seat(rnd["hand_sizes"]),
        talon_size=int(rnd["talon_size"]),
        chips=by_seat(rnd["chips"]),
        board=tuple(int(box["chips"]) for box in rnd["board"]),
        played=tuple((pos[g], parse_card(c)) for g, c in rnd["played"]),
        passes=tuple((pos[g], int(r)) for g, r in rnd["passes"]),
        forgotten=tuple((e.seat, e.card) for e in events if isinstance(e, Forgot)),
        pending_claim=parse_card(claim) if claim is not None and to_act == me else None,
        legal_actions=tuple(action_of(a) for a in rnd.get("legal", ())) if to_act == me else (),
        events=tuple(events),
        winner=at(rnd["winner"]),
    )


class Reader:
    """Reads one connection's frames in order into views.

    A connection's first frame, and a ``resync`` one, carry the round's events from its start;
    every later frame only the events new since the frame before. The reader keeps the round's
    so far (from its ``round`` event); :meth:`reset` when a new connection begins.
    """

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] | None = None

    def reset(self) -> None:
        """A new connection: its first frame is whole again."""
        self.events = None

    def view(self, frame: dict[str, Any]) -> RoundView | None:
        """The seat's view after ``frame`` (see :func:`view_from_frame`)."""
        if frame.get("type") != "state":
            return None
        new = list(frame.get("events") or ())
        if self.events is None or frame.get("resync"):
            self.events = new
        else:
            self.events.extend(new)
        events = self.events
        for i in range(len(events) - 1, -1, -1):
            if events[i].get("kind") == "round":
                del events[:i]
                break
        return view_from_frame({**frame, "events": events})
