"""Nain Jaune's figures in My games (from the whole-game record replayed through the engine):
rounds played and won, the mean change of chips per round, Grand Opéras and boxes taken."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.games.nain_jaune.engine import GrandOperaSwept, Takes
from cardroom.games.nain_jaune.record import RecordError, parse_game, replay_whole_game
from cardroom.web.player_stats import GameStats


def stats_json(stats: GameStats) -> dict[str, Any]:
    """The game's own figures (means rounded to one decimal; None without rounds)."""
    return {
        "rounds": stats.rounds,
        "rounds_won": stats.rounds_won,
        "mean_chips": round(stats.chips_change / stats.rounds, 1) if stats.rounds else None,
        "grand_operas": stats.grand_operas,
        "boxes": stats.boxes,
    }


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


def add_stats(stats: GameStats, record: Any, seat: int, winner: int | None = None) -> None:
    """Add one finished game (its whole-game record) played from game seat ``seat`` (the
    winners are the record's: ``winner`` is not needed)."""
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
