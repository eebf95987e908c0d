"""A round's chips, per player, in the columns a person reads: the breakdown of a settlement.

Computed once from the engine's events (no I/O, nothing else): every column is a signed count of
chips (negative: the player gave them), and ``total`` is exactly the change of that player's chips
over the round (stakes included).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cardroom.games.nain_jaune.engine import (
    Doubled,
    Event,
    GrandOperaSwept,
    Paid,
    Staked,
    Takes,
)

COLUMNS = ("stake", "taken", "cards", "doubled", "grand_opera", "total")
"""The breakdown's columns, in the order they are shown."""


@dataclass(frozen=True, slots=True)
class SettlementRow:
    """One player's chips over a round (signed: negative = given away)."""

    seat: int
    """The player's position in the round (the engine's seat)."""
    stake: int = 0
    """Chips staked on the five boxes at the start (zero or negative)."""
    taken: int = 0
    """Chips taken from boxes during the round ("… who takes")."""
    cards: int = 0
    """Chips received for the cards left in the others' hands (winner) or paid for one's own."""
    doubled: int = 0
    """Chips put on the boxes whose card one still held or forgot to announce (zero or less)."""
    doubled_boxes: int = 0
    """How many boxes this player doubled (some perhaps with less than owed: short)."""
    grand_opera: int = 0
    """Chips swept off the board by a Grand Opéra."""
    short: bool = False
    """Paid less than owed somewhere (all they had)."""

    @property
    def total(self) -> int:
        """The change of the player's chips over the round."""
        return self.stake + self.taken + self.cards + self.doubled + self.grand_opera

    def to_json(self) -> dict[str, int | bool]:
        """The row as JSON (every column, ``total`` included)."""
        return {
            "seat": self.seat,
            "stake": self.stake,
            "taken": self.taken,
            "cards": self.cards,
            "doubled": self.doubled,
            "doubled_boxes": self.doubled_boxes,
            "grand_opera": self.grand_opera,
            "total": self.total,
            "short": self.short,
        }


def breakdown(events: Iterable[Event], n: int) -> tuple[SettlementRow, ...]:
    """The settlement of a round, one row per position ``0..n-1``, from its events (the
    stakes, the boxes taken during play and the settlement's payments, doublings and sweep)."""
    cols = [[0, 0, 0, 0, 0, 0] for _ in range(n)]  # stake taken cards doubled boxes opera
    short = [False] * n
    for event in events:
        if isinstance(event, Staked):
            cols[event.seat][0] -= event.amount
        elif isinstance(event, Takes):
            cols[event.seat][1] += event.amount
        elif isinstance(event, Paid):
            cols[event.payer][2] -= event.paid
            cols[event.payee][2] += event.paid
            short[event.payer] |= event.paid < event.owed
        elif isinstance(event, Doubled):
            cols[event.seat][3] -= event.paid
            cols[event.seat][4] += 1
            short[event.seat] |= event.paid < event.owed
        elif isinstance(event, GrandOperaSwept):
            cols[event.seat][5] += event.amount
    return tuple(
        SettlementRow(p, c[0], c[1], c[2], c[3], c[4], c[5], short[p]) for p, c in enumerate(cols)
    )


__all__ = ["COLUMNS", "SettlementRow", "breakdown"]
