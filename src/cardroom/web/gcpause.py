"""Short garbage-collection pauses for a long-running server.

CPython's full collection walks every tracked object: with a few hundred live tables (about
250 000 objects) it stopped the event loop for 0.2 to 0.6 s every few seconds under load (the
slowest answers of ``benchmarks/load.py``). :class:`GcKeeper` instead freezes (``gc.freeze``)
what survives every ``freeze_every`` seconds (1), so the automatic collections only walk the
objects made since (no full collection was seen at 300 and 500 tables then); every
``full_every`` seconds (600) it unfreezes and runs one full collection, so cyclic garbage
among frozen objects (a finished table's) is not kept for ever.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable


class GcKeeper:
    """Freeze the survivors now and then; one full collection every ``full_every`` seconds."""

    def __init__(
        self,
        freeze_every: float = 1.0,
        full_every: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.freeze_every = freeze_every
        self.full_every = full_every
        self.clock = clock
        self.last_full: float | None = None

    def step(self) -> str:
        """One turn: ``"full"`` (unfreeze, collect everything, freeze) or ``"freeze"`` (collect
        the young generations, freeze the survivors)."""
        now = self.clock()
        if self.last_full is None or now - self.last_full >= self.full_every:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.last_full = now
            return "full"
        gc.collect(1)
        gc.freeze()
        return "freeze"

    async def run(self) -> None:
        """:meth:`step` now and every ``freeze_every`` seconds (cancel to stop)."""
        while True:
            self.step()
            await asyncio.sleep(self.freeze_every)
