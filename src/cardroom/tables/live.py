"""A turn-based table held in memory by the table service: the table, its lock, its
subscribers, its bots' task and timers, and what other processes wrote that it lacks."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from cardroom.tables.catchup import CatchUp
from cardroom.tables.protocol import TurnTable
from cardroom.tables.subscription import SeatsPresent, Subscription, Wake

__all__ = ["Live"]


@dataclass
class Live(SeatsPresent):
    """A table held in memory with its lock, subscribers, bot task and timers."""

    table: TurnTable
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subs: list[Subscription] = field(default_factory=list)
    wake: Wake = field(default_factory=Wake)
    """Set when the bots may have a move (the bot task waits for it)."""
    bot_task: asyncio.Task[None] | None = None
    timers: dict[tuple[str, int | None], asyncio.Task[None]] = field(default_factory=dict)
    deadlines: dict[tuple[str, int | None], float] = field(default_factory=dict)
    catch: CatchUp = field(default_factory=CatchUp)
    """What other processes wrote that this copy lacks (``tables/catchup.py``)."""
    idle_since: float | None = None
    """When the sweep first saw the table finished with nobody connected (None: not idle)."""
