"""A player's statistics per game, worked out from the records of the games they played.

Every game: games played and won. A game's web face adds its own figures (``add_stats`` and
``stats_json``, see :mod:`cardroom.web.faces`; a turn-based game's rounds, chips, boxes…). The
real-time games by default (from the real-time record): slaps won, and the mean reaction time:
the seconds between the last accepted change on the table and each accepted play of the
player's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cardroom.web.faces as faces
from cardroom.games.registry import game as game_of


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
        own = faces.part(game, "stats_json")
        if own is not None:
            out |= own(self)
        elif game_of(game).realtime:
            out |= realtime_json(self)
        return out


def realtime_json(stats: GameStats) -> dict[str, Any]:
    """A real-time game's own figures: slaps won and the mean reaction time."""
    mean = round(sum(stats.reactions) / len(stats.reactions), 2) if stats.reactions else None
    return {"slaps_won": stats.slaps_won, "mean_reaction": mean}


def needs_record(game: str) -> bool:
    """True when :func:`add_game` reads ``game``'s record (its face's figures, or a real-time
    game's); else a game is counted from its result alone."""
    return faces.part(game, "add_stats") is not None or game_of(game).realtime


def add_game(stats: GameStats, game: str, record: Any, seat: int, winner: int | None) -> None:
    """Add one finished game of ``game`` (its record) played from ``seat``: the face's
    ``add_stats``, a real-time game's by default :func:`add_realtime`, else the game counted
    (won when ``winner`` is ``seat``)."""
    own = faces.part(game, "add_stats")
    if own is not None:
        own(stats, record, seat, winner)
    elif game_of(game).realtime:
        add_realtime(stats, record, seat, winner)
    else:
        stats.games += 1
        stats.won += winner == seat


def add_realtime(stats: GameStats, record: Any, seat: int, winner: int | None) -> None:
    """Add one finished real-time game (its record) played from ``seat``."""
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
