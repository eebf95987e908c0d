"""Shared helpers for the table service tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from cardroom.games.nain_jaune import Rules
from cardroom.tables import SeatSpec, TableConfig

STEPS = 4000


async def until(condition: Callable[[], bool], steps: int = STEPS) -> None:
    """Let the event loop run until ``condition`` holds (bounded in steps, not in seconds)."""
    for _ in range(steps):
        if condition():
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the condition never held")


def bot_config(seed: int, players: int = 3, level: str = "easy", **options: str) -> TableConfig:
    """A table whose person seat 0 stays empty (start_now fills it): bots only, no delays."""
    rules = Rules.from_options("classic", {"end": "rounds:2", **options})
    seats = (SeatSpec("person"), *(SeatSpec("bot", level) for _ in range(players - 1)))
    return TableConfig(
        rules=rules, seats=seats, seed=seed, level=level, bot_delay=0, takeover_after=0
    )
