"""What one seat may see of a Speed game: the one place a per-seat view is built.

Public: the top card and size of each centre pile, the sizes of the side piles, draw piles and
hands, how many middle cards are still face down, who has called, the result. The seat's own
hand. Nothing else: never the other hand, a face-down card, or the order of any pile. Nothing
in a view depends on a card the seat cannot see: whether the other player can play shows only
through his calls (a call is legal only for a player who cannot play).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.cards import Card
from cardroom.games.realtime_engine import SEATS
from cardroom.games.speed.engine import Action, SpeedGame
from cardroom.games.speed.rules import SpeedRules


@dataclass(frozen=True, slots=True)
class SpeedView:
    """A seat's view of a Speed game."""

    seat: int
    rules: SpeedRules
    phase: str
    """``start``, ``play``, ``stalemate`` (a player has called for the flip) or ``over``."""
    centre: tuple[Card | None, Card | None]
    """The top card of each centre pile (None before the start)."""
    centre_sizes: tuple[int, int]
    side_sizes: tuple[int, int]
    """Cards left in each face-down side pile."""
    middle_down: int
    """Middle cards still face down (2 before the start, then 0)."""
    hand: tuple[Card, ...]
    """This seat's hand, in the order drawn."""
    hand_sizes: tuple[int, int]
    draw_sizes: tuple[int, int]
    stalemate: bool
    """A flip is due: before the start, or since a player called (the countdown runs)."""
    called: tuple[bool, bool]
    winner: int | None
    blocked: bool
    """True when the game ended because nobody could ever play again."""
    points: int
    """What the winner scored in this game (0 while it goes on)."""
    flips: int
    rebuilds: int
    legal_actions: tuple[Action, ...]
    """This seat's legal actions now, each Play with ``seen`` filled in."""

    @property
    def opponent(self) -> int:
        """The other seat."""
        return 1 - self.seat

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def cards_left(self) -> tuple[int, int]:
        """Cards each seat still has to play (hand and draw pile)."""
        return (
            self.hand_sizes[0] + self.draw_sizes[0],
            self.hand_sizes[1] + self.draw_sizes[1],
        )

    def cards_seen(self) -> frozenset[Card]:
        """Every card this view shows: the own hand and the centre tops."""
        return frozenset(self.hand) | frozenset(c for c in self.centre if c is not None)


def view_of(game: SpeedGame, seat: int) -> SpeedView:
    """The view of ``game`` for ``seat``."""
    if seat not in SEATS:
        raise ValueError(f"seat {seat!r} is not at this table: Speed seats are 0 and 1")
    res = game.result
    return SpeedView(
        seat=seat,
        rules=game.rules,
        phase=game.phase,
        centre=(game.top(0), game.top(1)),
        centre_sizes=game.centre_sizes(),
        side_sizes=game.side_sizes(),
        middle_down=0 if game.started else 2,
        hand=game.hand(seat),
        hand_sizes=game.hand_sizes(),
        draw_sizes=game.draw_sizes(),
        stalemate=game.stalemate,
        called=game.called,
        winner=res.winner if res else None,
        blocked=res.blocked if res else False,
        points=res.points if res else 0,
        flips=game.flips,
        rebuilds=game.rebuilds,
        legal_actions=tuple(game.legal_actions(seat)),
    )
