"""A Speed seat's ``state`` frame read back into the :class:`~cardroom.games.speed.view.SpeedView`
the real-time bots decide on, and an action written as the protocol's ``act`` message.

The frame's ``table_view`` holds what :func:`~cardroom.games.speed.view.view_of` gives the seat
but ``rebuilds`` (how many times the centre piles were rebuilt, which no bot reads and the frame
does not carry: it is 0 here).
"""

from __future__ import annotations

from typing import Any

from cardroom.cards import parse_card
from cardroom.games.speed.engine import Action, action_from_json, action_to_json
from cardroom.games.speed.rules import SpeedRules
from cardroom.games.speed.view import SpeedView

__all__ = ["Reader", "act_message", "view_from_frame"]


def _pair(values: list[Any]) -> tuple[int, int]:
    return int(values[0]), int(values[1])


def view_from_frame(frame: dict[str, Any]) -> SpeedView | None:
    """The seat's view in ``frame`` (None: a spectator's frame or no game on the table)."""
    seat = frame.get("you")
    tv = frame.get("table_view")
    if not isinstance(seat, int) or not isinstance(tv, dict) or seat not in (0, 1):
        return None
    c0, c1 = (None if c is None else parse_card(c) for c in tv["centre"])
    return SpeedView(
        seat=seat,
        rules=SpeedRules.from_json(frame["rules"]),
        phase=str(tv["phase"]),
        centre=(c0, c1),
        centre_sizes=_pair(tv["centre_sizes"]),
        side_sizes=_pair(tv["side_sizes"]),
        middle_down=int(tv["middle_down"]),
        hand=tuple(parse_card(c) for c in tv.get("hand", ())),
        hand_sizes=_pair(tv["hand_sizes"]),
        draw_sizes=_pair(tv["draw_sizes"]),
        stalemate=bool(tv["stalemate"]),
        called=(bool(tv["called"][0]), bool(tv["called"][1])),
        winner=tv["winner"],
        blocked=bool(tv["blocked"]),
        points=int(tv["points"]),
        flips=int(tv["flips"]),
        rebuilds=0,
        legal_actions=tuple(action_from_json(a) for a in tv.get("legal", ())),
    )


def act_message(action: Action, frame: dict[str, Any]) -> dict[str, Any]:
    """The ``act`` message for ``action`` (a play carries the top card its sender saw)."""
    del frame
    return {"type": "act", "action": action_to_json(action)}


class Reader:
    """Reads one connection's frames into views (each frame's view is whole)."""

    def reset(self) -> None:
        """A new connection (nothing is kept between frames)."""

    def view(self, frame: dict[str, Any]) -> Any:
        """The seat's view in ``frame`` (see :func:`view_from_frame`)."""
        return view_from_frame(frame)
