"""What one seat may see of a round: the one place a per-seat view is built.

Everything public is here (cards played and by whom, every "without X", the board, chips, hand
and talon sizes, every announcement); nothing hidden is (other hands, the talon).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.cards import Card
from cardroom.games.nain_jaune.engine import Action, Event, Round
from cardroom.games.nain_jaune.rules import Rules


@dataclass(frozen=True, slots=True)
class RoundView:
    """A seat's view of a round."""

    seat: int
    rules: Rules
    players: int
    dealer: int
    to_act: int | None
    need: int | None
    """The rank that must be played next, or None when a new sequence starts."""
    leader: int | None
    """The seat that placed the last card."""
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    talon_size: int
    chips: tuple[int, ...]
    board: tuple[int, ...]
    played: tuple[tuple[int, Card], ...]
    passes: tuple[tuple[int, int], ...]
    """(seat, rank) for every "without <rank>" said this round."""
    forgotten: tuple[tuple[int, Card], ...]
    pending_claim: Card | None
    legal_actions: tuple[Action, ...]
    """The seat's legal actions (empty unless it is the seat's turn)."""
    events: tuple[Event, ...]
    winner: int | None

    @property
    def my_turn(self) -> bool:
        """True when this seat must act."""
        return self.to_act == self.seat

    @property
    def board_cards(self) -> tuple[Card, ...]:
        """The five board cards, in box order."""
        return self.rules.board_cards

    def cards_seen(self) -> frozenset[Card]:
        """Every card this seat knows the place of: its hand and all cards played."""
        return frozenset(self.hand) | frozenset(c for _, c in self.played)


def view_of(rnd: Round, seat: int) -> RoundView:
    """The view of ``rnd`` for ``seat``."""
    if not 0 <= seat < rnd.n:
        raise ValueError(f"seat {seat} is not at this table (0..{rnd.n - 1})")
    to_act = rnd.current_player
    return RoundView(
        seat=seat,
        rules=rnd.rules,
        players=rnd.n,
        dealer=rnd.dealer,
        to_act=to_act,
        need=rnd.need,
        leader=rnd.leader,
        hand=tuple(rnd.hands[seat]),
        hand_sizes=tuple(len(h) for h in rnd.hands),
        talon_size=len(rnd.talon),
        chips=tuple(rnd.chips),
        board=tuple(rnd.board),
        played=tuple(rnd.played),
        passes=tuple(rnd.passes),
        forgotten=tuple(rnd.forgotten),
        pending_claim=rnd.pending_claim if to_act == seat else None,
        legal_actions=tuple(rnd.legal_actions()) if to_act == seat else (),
        events=tuple(rnd.events),
        winner=rnd.result.winner if rnd.result else None,
    )
