"""What one seat may see of a Spit game: the one place a per-seat view is built.

Public: the top card and size of each centre pile, every face-up stock top card (both
players'), how many cards each stock pile and spit pile holds, who has called "Spit!". Never in a
view: a face-down stock card, a spit card, the order of any pile.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.cards import Card
from cardroom.games.realtime_engine import SEATS
from cardroom.games.spit.engine import Action, SpitGame
from cardroom.games.spit.rules import SpitRules

StockView = tuple[tuple[Card | None, int], ...]
"""Each stock pile as (its face-up top card or None, its number of cards)."""


@dataclass(frozen=True, slots=True)
class SpitView:
    """A seat's view of a Spit game."""

    seat: int
    rules: SpitRules
    phase: str
    """``start``, ``play``, ``stalemate``, ``slap``, ``choose`` or ``over``."""
    centre: tuple[Card | None, Card | None]
    """The top card of centre pile 0 (seat 0 spits on it) and 1, or None when empty."""
    centre_sizes: tuple[int, int]
    open_piles: tuple[bool, bool]
    """False for the unused centre pile while there is only one spit pile."""
    stock: StockView
    spit_left: int
    opponent_stock: StockView
    opponent_spit_left: int
    stalemate: bool
    called: tuple[bool, bool]
    """Which seats have called "Spit!" since the start / stalemate began."""
    chooser: int | None
    one_pile: bool
    redeals: int
    winner: int | None
    legal_actions: tuple[Action, ...]

    @property
    def opponent(self) -> int:
        """The other seat."""
        return 1 - self.seat

    @property
    def cards_left(self) -> tuple[int, int]:
        """Cards each seat still holds (stock and spit piles), by seat."""
        mine = sum(n for _, n in self.stock) + self.spit_left
        theirs = sum(n for _, n in self.opponent_stock) + self.opponent_spit_left
        return (mine, theirs) if self.seat == 0 else (theirs, mine)

    def visible_cards(self) -> frozenset[Card]:
        """Every card this view shows."""
        cards = [c for c in self.centre if c is not None]
        cards += [c for c, _ in self.stock + self.opponent_stock if c is not None]
        return frozenset(cards)


def _stock_view(game: SpitGame, seat: int) -> StockView:
    ups = game._up[seat]
    return tuple(
        [(pile[-1] if ups[i] else None, len(pile)) for i, pile in enumerate(game._stock[seat])]
    )


def view_of(game: SpitGame, seat: int) -> SpitView:
    """The view of ``game`` for ``seat`` (the engine caches it until its state changes)."""
    if seat not in SEATS:
        raise ValueError(f"there is no seat {seat!r}: Spit has seats 0 and 1")
    other = 1 - seat
    c0, c1 = game._centre
    return SpitView(
        seat=seat,
        rules=game.rules,
        phase=game.phase,
        centre=(c0[-1] if c0 else None, c1[-1] if c1 else None),
        centre_sizes=(len(c0), len(c1)),
        open_piles=(game._open[0], game._open[1]),
        stock=_stock_view(game, seat),
        spit_left=len(game._spit[seat]),
        opponent_stock=_stock_view(game, other),
        opponent_spit_left=len(game._spit[other]),
        stalemate=game.stalemate,
        called=game.called,
        chooser=game.chooser,
        one_pile=game.one_pile,
        redeals=game.redeals,
        winner=game.winner,
        legal_actions=tuple(game.legal_actions(seat)),
    )
