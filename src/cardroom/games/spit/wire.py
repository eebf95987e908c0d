"""A Spit seat's ``state`` frame read back into the :class:`~cardroom.games.spit.view.SpitView`
the real-time bots decide on, and an action written as the protocol's ``act`` message.

The frame's ``table_view`` holds what :func:`~cardroom.games.spit.view.view_of` gives the seat
(the public piles and the seat's legal actions, each play with the ``seen`` card the arbiter
checks); this reads it back so a program at the table decides on the same view as the server's
own bots.
"""

from __future__ import annotations

from typing import Any

from cardroom.cards import Card, parse_card
from cardroom.games.spit.engine import Action, action_from_json, action_to_json
from cardroom.games.spit.rules import SpitRules
from cardroom.games.spit.view import SpitView, StockView

__all__ = ["Reader", "act_message", "view_from_frame"]


def _card(code: str | None) -> Card | None:
    return None if code is None else parse_card(code)


def _stock(rows: list[list[Any]]) -> StockView:
    return tuple((_card(top), int(n)) for top, n in rows)


def view_from_frame(frame: dict[str, Any]) -> SpitView | None:
    """The seat's view in ``frame`` (None: a spectator's frame or no game on the table)."""
    seat = frame.get("you")
    tv = frame.get("table_view")
    if not isinstance(seat, int) or not isinstance(tv, dict) or seat not in (0, 1):
        return None
    other = 1 - seat
    centre = tuple(_card(c) for c in tv["centre"])
    return SpitView(
        seat=seat,
        rules=SpitRules.from_json(frame["rules"]),
        phase=str(tv["phase"]),
        centre=(centre[0], centre[1]),
        centre_sizes=(int(tv["centre_sizes"][0]), int(tv["centre_sizes"][1])),
        open_piles=(bool(tv["open_piles"][0]), bool(tv["open_piles"][1])),
        stock=_stock(tv["stocks"][seat]),
        spit_left=int(tv["spit_left"][seat]),
        opponent_stock=_stock(tv["stocks"][other]),
        opponent_spit_left=int(tv["spit_left"][other]),
        stalemate=bool(tv["stalemate"]),
        called=(bool(tv["called"][0]), bool(tv["called"][1])),
        chooser=tv["chooser"],
        one_pile=bool(tv["one_pile"]),
        redeals=int(tv["redeals"]),
        winner=tv["winner"],
        legal_actions=tuple(action_from_json(a) for a in tv.get("legal", ())),
    )


def act_message(action: Action, frame: dict[str, Any]) -> dict[str, Any]:
    """The ``act`` message for ``action`` (a play carries the top card its sender saw)."""
    del frame  # (the play's ``seen`` card says what was seen: no ``seq``)
    return {"type": "act", "action": action_to_json(action)}


class Reader:
    """Reads one connection's frames into views (each frame's view is whole)."""

    def reset(self) -> None:
        """A new connection (nothing is kept between frames)."""

    def view(self, frame: dict[str, Any]) -> Any:
        """The seat's view in ``frame`` (see :func:`view_from_frame`)."""
        return view_from_frame(frame)
