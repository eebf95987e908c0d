"""Spit's face on the web (the registry's ``web`` piece, see :mod:`cardroom.web.faces`): its
own parts of a replay step (stock piles, spit piles, new layouts), a match's result in games
won, its rules page's drawing. Beside it: its options in the lobby
(``lobby_realtime.html``), its keys (``keys.html``), its Play now button (``play.html``), its
rules link (``rules_link.html``) and its part of the table page (``realtime.js``). The rest is
the real-time tier's."""

from __future__ import annotations

from typing import Any

from cardroom.web.replay_realtime import checked_realtime as checked
from cardroom.web.replay_realtime import realtime_page as page
from cardroom.web.routes.rules import pile_html

__all__ = [
    "MATCH_OF_GAMES",
    "PAGE",
    "checked",
    "match_result",
    "page",
    "replay_step",
    "rules_parts",
]

PAGE = {"slaps": True}
"""What the pages know of Spit's own: it has a slap race (the analysis shows slaps)."""

MATCH_OF_GAMES = True
"""A table may ask for a match of several games (the lobby's ``games`` option)."""



def replay_step(engine: Any, views: list[Any]) -> dict[str, Any]:
    """Spit's part of a replay step: each seat's stock piles face up or down, what is left of
    each spit pile and the new layouts so far."""
    return {
        "stocks": [
            [
                {"cards": [c.code for c in pile], "up": bool(up)}
                for pile, up in zip(engine.stock(seat), engine.face_up(seat), strict=True)
            ]
            for seat in (0, 1)
        ],
        "spit_left": [views[0].spit_left, views[1].spit_left],
        "redeals": views[0].redeals,
    }


def match_result(replays: list[Any], number: int) -> dict[str, Any]:
    """Game ``number`` (from 1) of a Spit match record: the games won by each seat before and
    after it, and the match's winner at its last game (the one who won it: the match ends at
    its target, or when a player leaves for too long)."""
    wins = [0, 0]
    before = wins
    for n, rep in enumerate(replays[:number], start=1):
        if n == number:
            before = list(wins)
        if rep.winner is not None:
            wins[rep.winner] += 1
    last = number == len(replays)
    winner = replays[-1].winner if last else None
    return {"game": number, "scores": before, "after": wins, "winner": winner, "unit": "games"}


def rules_parts(tr: object) -> dict[str, str]:
    """The drawn part of the rules text: ``{{spit_layout}}``, one player's five stock piles
    of 1 to 5 cards, each top card face up (the caption, in the page's words, is the text's)."""
    tops = ("4H", "9C", "KD", "2S", "7H")
    piles = [pile_html(["back"] * k, top) for k, top in enumerate(tops)]
    return {"spit_layout": f'<div class="rules-layout" aria-hidden="true">{"".join(piles)}</div>'}
