"""Spit's face in the terminal: how a seat is shown and how keys become actions (picking, turning
up, moving to a space, slapping), for the real-time terminal UI
(``cardroom.terminal.realtime_tui``) and its line-by-line mode, which find it through the
registry's ``terminal`` piece (:data:`SEAT`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from cardroom.cards import Card
from cardroom.games.spit.engine import CALL_SPIT, Choose, Move, Play, Slap, TurnUp
from cardroom.i18n import Translator
from cardroom.i18n.words import N_, labelled
from cardroom.terminal.realtime_tui import Slot, slots_empty, stock_text


class SpitSeat:
    """Spit: your stock piles; plays, turning up, moving to a space, slapping, "Spit!"."""

    call_name = N_('call "Spit!"')
    plain_call = N_('"Spit!"')
    """The call as the line-by-line mode names it (``Call "Spit!" (type s) …``)."""
    call_words = frozenset({"spit", "poeri", "crache"})
    """Words typed in the line-by-line mode that make the call (with the shared ones)."""

    def keys(self, tr: Translator, match: bool) -> str:
        """The keys line at the bottom."""
        return " · ".join([
            tr._("1-5 pick a stock pile"),
            tr._("a/← play on pile 1"),
            tr._("d/→ play on pile 2"),
            tr._("t turn up"),
            tr._("m move to a space"),
            tr._('space "Spit!"'),
            tr._("z/x slap pile 1/2"),
            tr._("q/Ctrl-C quit (saves)"),
        ])

    def slots(self, view: Any) -> list[Slot]:
        return [Slot(top, count, i) for i, (top, count) in enumerate(view.stock)]

    def play(self, slot: Slot, pile: int, seen: Card | None) -> Any:
        assert slot.card is not None
        return Play(slot.card, pile, seen)

    def picked(self, slot: Slot) -> Any:
        """Picking a face-down pile turns its top card up at once."""
        return TurnUp(slot.index) if slot.card is None and slot.count else None

    def turn_up(self, slot: Slot) -> Any:
        return TurnUp(slot.index)

    def move(self, slot: Slot, slots: Sequence[Slot]) -> Any:
        empty = slots_empty(slots)
        if slot.card is None or not empty:
            return None
        return Move(slot.card, empty[0])

    def slap(self, view: Any, pile: int) -> Any:
        return Choose(pile) if view.phase == "choose" else Slap(pile)

    def call(self) -> Any:
        return CALL_SPIT

    def opponent_text(self, view: Any, name: str, tr: Translator) -> Text:
        out = Text(labelled(name, " ", tr))
        out.append_text(stock_text(view.opponent_stock, tr))
        out.append("  " + tr._("spit pile {n}", n=view.opponent_spit_left), style="dim")
        if view.called[view.opponent]:
            out.append("  " + tr._('(called "Spit!")'))
        return out

    def centre_extra(self, view: Any, tr: Translator) -> str:
        extra = tr._("one spit pile") if view.one_pile else ""
        return extra + ("  " + tr._("new layouts: {n}", n=view.redeals) if view.redeals else "")

    def mine_extra(self, view: Any, tr: Translator) -> str:
        return tr._("spit pile {n}", n=view.spit_left)

    def shown_phase(self, phase: str) -> str:
        """The phase the status line names."""
        return phase

    def result_extra(self, engine: Any, names: Sequence[str], winner: int, tr: Translator) -> str:
        """Nothing follows the result line (a Spit game scores no points)."""
        return ""

    def plain_help(self, tr: Translator) -> str:
        """The commands of the line-by-line mode."""
        return tr._(
            "Commands: 3 1 (or 3a) plays your pile 3 on centre pile 1, 3 2 (or 3d) on pile 2; "
            's calls "Spit!"; t 3 turns up pile 3; m 3 moves pile 3\'s card to a space; '
            "z / x slap pile 1 / 2; look (or an empty line) shows the table; q quits (saved)."
        )


SEAT = SpitSeat()
"""How a Spit seat is shown and how keys become actions (the registry's ``terminal`` piece)."""
