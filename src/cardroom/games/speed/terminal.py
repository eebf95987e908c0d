"""Speed's face in the terminal: how a seat is shown and how keys become actions, for the
real-time terminal UI (``cardroom.terminal.realtime_tui``) and its line-by-line mode, which find
it through the registry's ``terminal`` piece (:data:`SEAT`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from cardroom.cards import Card
from cardroom.games.speed.engine import CALL, Play
from cardroom.i18n import Translator
from cardroom.i18n.words import N_
from cardroom.terminal.realtime_tui import Slot


class SpeedSeat:
    """Speed: your hand, sorted by rank; plays and the flip."""

    call_name = N_("call for the flip")
    plain_call = N_("the flip")
    """The call as the line-by-line mode names it (``Call the flip (type s) …``)."""
    call_words = frozenset({"flip"})
    """Words typed in the line-by-line mode that make the call (with the shared ones)."""

    def keys(self, tr: Translator, match: bool) -> str:
        """The keys line at the bottom (``n`` only in a match)."""
        keys = [
            tr._("1-5 pick a card"),
            tr._("a/← play on pile 1"),
            tr._("d/→ play on pile 2"),
            tr._("space call for the flip (when you cannot play)"),
        ]
        if match:
            keys.append(tr._("n next game"))
        keys.append(tr._("q/Ctrl-C quit (saves)"))
        return " · ".join(keys)

    def slots(self, view: Any) -> list[Slot]:
        hand = sorted(view.hand, key=lambda c: c.sort_key)
        return [Slot(c, 1, i) for i, c in enumerate(hand)]

    def play(self, slot: Slot, pile: int, seen: Card | None) -> Any:
        assert slot.card is not None
        return Play(slot.card, pile, seen)

    def call(self) -> Any:
        return CALL

    def opponent_text(self, view: Any, name: str, tr: Translator) -> Text:
        o = view.opponent
        text = tr._(
            "{name}: {hand} in hand, {draw} to draw",
            name=name, hand=view.hand_sizes[o], draw=view.draw_sizes[o],
        )
        return Text(text + ("  " + tr._("(called)") if view.called[o] else ""))

    def centre_extra(self, view: Any, tr: Translator) -> str:
        return tr._("side piles {left} / {right}", left=view.side_sizes[0],
                    right=view.side_sizes[1])

    def mine_extra(self, view: Any, tr: Translator) -> str:
        return tr._("{n} to draw", n=view.draw_sizes[view.seat])

    def shown_phase(self, phase: str) -> str:
        """The phase the status line names: a call stands at a stalemate (whether the caller's
        opponent can play is theirs)."""
        return "flip called" if phase == "stalemate" else phase

    def result_extra(self, engine: Any, names: Sequence[str], winner: int, tr: Translator) -> str:
        """What the winner scores, after the result line."""
        result = getattr(engine, "result", None)
        if result is None:
            return ""
        return (
            tr.ngettext(
                "{name} scores {n} point: one for each card left in the loser's draw pile "
                "and hand.",
                "{name} scores {n} points: one for each card left in the loser's draw pile "
                "and hand.",
                result.points, name=names[winner],
            )
            if engine.rules.score_hand
            else tr.ngettext(
                "{name} scores {n} point: one for each card left in the loser's draw pile.",
                "{name} scores {n} points: one for each card left in the loser's draw pile.",
                result.points, name=names[winner],
            )
        )  # fmt: skip

    def plain_help(self, tr: Translator) -> str:
        """The commands of the line-by-line mode."""
        return tr._(
            "Commands: 3 1 (or 3a) plays your card 3 on centre pile 1, 3 2 (or 3d) on pile 2; "
            "s calls for the flip; n deals the next game of a match; look (or an empty line) "
            "shows the table; q quits (saved)."
        )


SEAT = SpeedSeat()
"""How a Speed seat is shown and how keys become actions (the registry's ``terminal`` piece)."""
