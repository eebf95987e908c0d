"""Short garbage-collection pauses for a long-running server.

CPython's full collection walks every tracked object: with a few hundred live tables (about
250 000 objects) it stops the event loop for 0.2 to 0.8 s. :class:`GcKeeper` collects the young
generations and freezes (``gc.freeze``) what survives every ``freeze_every`` seconds (1), so
every collection after that, automatic or the keeper's, walks only the objects made since the
last freeze: a few milliseconds.

The keeper runs one full collection when the server starts (:meth:`GcKeeper.start`, before it
answers anyone) and never again on the event loop: a full collection of the frozen heap is the
pause this module exists to avoid. Frozen objects are still freed by reference counting (a
finished table's state when the service drops it); only garbage in reference cycles among frozen
objects would be kept, and ``benchmarks/soak.py`` measures that the resident memory levels off.
``full_every`` brings back the old periodic unfreeze-and-collect (the soak's peer).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable


class GcKeeper:
    """Freeze the survivors every ``freeze_every`` seconds; no full collection after the start
    unless ``full_every`` (seconds) asks for the old periodic one."""

    def __init__(
        self,
        freeze_every: float = 1.0,
        full_every: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.freeze_every = freeze_every
        self.full_every = full_every
        self.clock = clock
        self.last_full: float | None = None

    def start(self) -> None:
        """The one full collection, at start-up: unfreeze, collect everything, freeze."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.last_full = self.clock()

    def step(self) -> str:
        """One turn: ``"freeze"`` (collect the young generations, freeze the survivors), or
        ``"full"`` (:meth:`start` again) when ``full_every`` is set and has passed since the
        last full collection, or when no full collection has run yet."""
        now = self.clock()
        if self.last_full is None or (
            self.full_every is not None and now - self.last_full >= self.full_every
        ):
            self.start()
            return "full"
        gc.collect(1)
        gc.freeze()
        return "freeze"

    async def run(self) -> None:
        """:meth:`step` now and every ``freeze_every`` seconds (cancel to stop)."""
        while True:
            self.step()
            await asyncio.sleep(self.freeze_every)
