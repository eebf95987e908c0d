"""What one seat of the toy game may see: its own hand, the trick, the score."""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.cards import Card
from tests.toygame.engine import ToyGame


@dataclass(frozen=True, slots=True)
class ToyView:
    """Seat ``seat``'s view."""

    seat: int
    hand: tuple[Card, ...]
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[int, int]
    turn: int | None
    other_cards: int


def view_of(game: ToyGame, seat: int) -> ToyView:
    """What ``seat`` sees of ``game`` (never the other hand's cards)."""
    return ToyView(
        seat=seat,
        hand=tuple(sorted(game.hands[seat])),
        trick=tuple(game.trick),
        tricks=(game.tricks[0], game.tricks[1]),
        turn=game.turn,
        other_cards=len(game.hands[1 - seat]),
    )
