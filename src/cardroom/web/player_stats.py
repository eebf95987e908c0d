"""A player's statistics per game, worked out from the records of the games they played.

Nain Jaune (from the whole-game record replayed through the engine): rounds played and won,
the mean change of chips per round, Grand Opéras and boxes taken. Spit and Speed (from the
real-time record): games played and won, slaps won, and the mean reaction time: the seconds
between the last accepted change on the table and each accepted play of the player's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.games.nain_jaune.engine import GrandOperaSwept, Takes
from cardroom.games.nain_jaune.record import RecordError, parse_game, replay_whole_game


@dataclass
class GameStats:
    """Totals over one game type's tables; :meth:`to_json` gives what the page shows."""

    games: int = 0
    won: int = 0
    rounds: int = 0
    rounds_won: int = 0
    chips_change: int = 0
    grand_operas: int = 0
    boxes: int = 0
    slaps_won: int = 0
    reactions: list[float] = field(default_factory=list)

    def add(self, other: GameStats) -> None:
        """Add another table's figures to these."""
        for name in ("games", "won", "rounds", "rounds_won", "chips_change", "grand_operas",
                     "boxes", "slaps_won"):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.reactions.extend(other.reactions)

    def to_json(self, game: str) -> dict[str, Any]:
        """The figures of this game type (means rounded to one decimal; None without data)."""
        out: dict[str, Any] = {"games": self.games, "won": self.won}
        if game == "nain-jaune":
            out |= {
                "rounds": self.rounds,
                "rounds_won": self.rounds_won,
                "mean_chips": round(self.chips_change / self.rounds, 1) if self.rounds else None,
                "grand_operas": self.grand_operas,
                "boxes": self.boxes,
            }
        else:
            out["slaps_won"] = self.slaps_won
            out["mean_reaction"] = (
                round(sum(self.reactions) / len(self.reactions), 2) if self.reactions else None
            )
        return out


def _round_seats(full: Sequence[str], players: Sequence[str]) -> list[int]:
    """The game seats of a round's players: the round lists the seats still in, in game order."""
    seats: list[int] = []
    at = 0
    for name in players:
        while at < len(full) and full[at] != name:
            at += 1
        seats.append(at)
        at += 1
    return seats


def add_nain_jaune(stats: GameStats, record: Any, seat: int) -> None:
    """Add one finished Nain Jaune game (its record) played from game seat ``seat``."""
    try:
        rounds = parse_game(record)
        whole = replay_whole_game(rounds)
    except (RecordError, ValueError):
        return
    stats.games += 1
    result = whole.game.result
    if result is not None and seat in result.winners:
        stats.won += 1
    full = rounds[0].players
    for rep in whole.replays:
        seats = _round_seats(full, rep.record.players)
        if seat not in seats:
            continue
        mine = seats.index(seat)
        res = rep.round.result
        if res is None:
            continue
        stats.rounds += 1
        stats.rounds_won += res.winner == mine
        stats.chips_change += res.chips[mine] - rep.record.chips[mine]
        for event in rep.events:
            if isinstance(event, Takes) and event.seat == mine:
                stats.boxes += 1
            elif isinstance(event, GrandOperaSwept) and event.seat == mine:
                stats.grand_operas += 1


def add_realtime(stats: GameStats, record: Any, seat: int, winner: int | None) -> None:
    """Add one finished Spit or Speed game (its record) played from ``seat``."""
    stats.games += 1
    stats.won += winner == seat
    actions = record.get("actions") if isinstance(record, dict) else None
    last: float | None = None
    for item in actions if isinstance(actions, list) else []:
        if not isinstance(item, dict) or not item.get("accepted"):
            continue
        t = item.get("t")
        kind = (item.get("action") or {}).get("type")
        if not isinstance(t, int | float):
            continue
        if item.get("seat") == seat and kind == "slap":
            stats.slaps_won += 1
        if item.get("seat") == seat and kind == "play" and last is not None:
            stats.reactions.append(float(t) - last)
        last = float(t)
