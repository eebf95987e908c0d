"""Speed's face on the web (the registry's ``web`` piece, see :mod:`cardroom.web.faces`): its
own parts of a replay step (hands, draw and side piles, points) and of a finished game's
result, its rules page's drawing. Beside it: its options in the lobby
(``lobby_realtime.html``), its keys (``keys.html``), its Play now button (``play.html``), its
rules link (``rules_link.html``) and its part of the table page (``realtime.js``). The rest is
the real-time tier's."""

from __future__ import annotations

from typing import Any

from cardroom.web.replay_realtime import checked_realtime as checked
from cardroom.web.replay_realtime import realtime_page as page
from cardroom.web.routes.rules import pile_html

__all__ = [
    "checked",
    "page",
    "points_from",
    "replay_step",
    "result_parts",
    "rules_parts",
]



def replay_step(engine: Any, views: list[Any]) -> dict[str, Any]:
    """Speed's part of a replay step: both hands, the draw and side piles' sizes, the points."""
    return {
        "hands": [[c.code for c in views[seat].hand] for seat in (0, 1)],
        "draw_sizes": list(views[0].draw_sizes),
        "side_sizes": list(views[0].side_sizes),
        "points": views[0].points,
    }


def result_parts(final: Any) -> dict[str, Any]:
    """A finished game's points and what they counted (:func:`points_from`)."""
    if not final.over:
        return {}
    return {"points": final.view(0).points, "points_from": points_from(final)}


def points_from(game: Any) -> str | None:
    """What a finished Speed game's points counted: ``draw`` (the loser's draw pile), ``hand``
    (his hand, his draw pile being empty: rules version 4) or ``both`` (``score_hand``)."""
    res = game.result
    if res is None or res.winner is None:
        return None
    if game.rules.score_hand:
        return "both"
    loser = 1 - res.winner
    return "hand" if game.draw_sizes()[loser] == 0 and res.points > 0 else "draw"


def rules_parts(tr: object) -> dict[str, str]:
    """The drawn part of the rules text: ``{{speed_layout}}``, a side pile at each end, the two
    middle piles between them; below, a hand of five and its draw pile."""
    back3, back4 = ["back"] * 3, ["back"] * 4
    side = pile_html(back3, None)
    row1 = [side, pile_html([], "6C"), pile_html([], "JH"), side]
    row2 = [pile_html([], c) for c in ("2D", "5S", "7C", "10H", "QS")] + [pile_html(back4, None)]
    return {
        "speed_layout": '<div class="rules-layout rules-rows" aria-hidden="true">'
        f"<div>{''.join(row1)}</div><div>{''.join(row2)}</div></div>"
    }
