"""Shared helpers for the table service tests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.tables import SeatSpec

STEPS = 4000
# However loaded the machine, a condition gets at least this long to hold.
DEADLINE = 60.0


async def until(condition: Callable[[], bool], steps: int = STEPS) -> None:
    """Let the event loop run until ``condition`` holds: at least ``steps`` turns of the loop
    and at least ``DEADLINE`` seconds, so a busy machine (slow turns) cannot fail it."""
    deadline = time.monotonic() + DEADLINE
    step = 0
    while step < steps or time.monotonic() < deadline:
        if condition():
            return
        await asyncio.sleep(0.002)
        step += 1
    raise AssertionError("the condition never held")


def bot_config(seed: int, players: int = 3, level: str = "easy", **options: str) -> TableConfig:
    """A table whose person seat 0 stays empty (start_now fills it): bots only, no delays."""
    rules = Rules.from_options("classic", {"end": "rounds:2", **options})
    seats = (SeatSpec("person"), *(SeatSpec("bot", level) for _ in range(players - 1)))
    return TableConfig(
        rules=rules, seats=seats, seed=seed, level=level, bot_delay=0, takeover_after=0
    )
