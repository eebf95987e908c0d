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

What the keeper's step costs (``benchmarks/soak.py``, 300 tables, 5 minutes, a loaded
machine): its collections 0.4 s of CPU a minute and gc's own automatic ones (about 1,000 a
minute) 0.8 to 1.0 s, and none of them freed anything. Raising gc's own threshold of the
youngest generation from 700 to 10,000 cut the two together by 18 to 32 %, but the keeper's
step then grew from about 16 to 25 ms and the longest collection doubled, so the schedule is
kept as it is.

One such cycle came with every connection: asyncio's socket transport keeps a bound method of
itself (``_read_ready_cb``), so a closed connection (its transport, its socket and their
dictionaries) waited for a full collection that never comes; the soak's final collection found
them all (about five objects per connection closed). :func:`break_transport_cycles`, called
by :meth:`GcKeeper.start`, drops that method once the connection is lost, and reference
counting frees the transport.

The server's keeper also switches gc's own collections off (``automatic=False``, the default
of ``Settings.gc_automatic``): its step, every quarter second by default
(``Settings.gc_step_every``), is then the only collection. gc's own young
collections ran every 700 container allocations, each walking every young object alive at
that moment, and a full table service allocates fast (a frame per seat per change): a native
profile at 1000 tables found them at 18 % of the event loop's CPU. The keeper's step walks
only what survived the second (garbage freed by reference counting is gone by then); garbage
in cycles waits at most ``freeze_every`` seconds, as it may already between two freezes.

What a step costs is what is young and still alive when it runs (with what those objects point
to): garbage freed by reference counting before it is never walked. A census of the young
generations just before the steps at 1000 tables (2026-11-27) found, besides the awaits in
flight, objects kept alive for up to a second for nothing: each connection's last frame (the
pump's loop variable, until the next frame came), each table's shared frame parts (kept until
its next change), the bots' last view and generator (through the next move's delay), and the
words memo's 8,192 parts (``i18n/words.py``). They are dropped now: the frame once it is sent,
the shared parts once a change's frames are built, the bot's move once committed, and the memo
by ``before_step`` (the app passes ``words.forget_memo``).
"""

from __future__ import annotations

import asyncio
import gc
import time
from asyncio import selector_events
from collections.abc import Callable, Sequence
from typing import Any


def break_transport_cycles() -> bool:
    """Make a lost socket connection's transport free itself by reference counting: after
    asyncio's own ``_call_connection_lost``, drop the bound method of itself it keeps (the
    cycle transport -> ``_read_ready_cb`` -> transport). Idempotent; False when this Python's
    asyncio has no such transport or attribute (nothing done)."""
    cls: Any = getattr(selector_events, "_SelectorSocketTransport", None)
    lost = getattr(cls, "_call_connection_lost", None)
    if lost is None or not hasattr(cls, "_read_ready__data_received"):
        return False
    if getattr(lost, "breaks_cycle", False):
        return True

    def _call_connection_lost(self: Any, exc: BaseException | None) -> None:
        try:
            lost(self, exc)
        finally:
            self._read_ready_cb = None

    _call_connection_lost.breaks_cycle = True  # type: ignore[attr-defined]
    cls._call_connection_lost = _call_connection_lost
    return True


class GcKeeper:
    """Freeze the survivors every ``freeze_every`` seconds; no full collection after the start
    unless ``full_every`` (seconds) asks for the old periodic one."""

    def __init__(
        self,
        freeze_every: float = 1.0,
        full_every: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        automatic: bool = True,
        before_step: Sequence[Callable[[], None]] = (),
    ) -> None:
        self.freeze_every = freeze_every
        self.before_step = tuple(before_step)
        """Called at the start of every step, before its collection: memos that only share
        work within one change empty themselves there, so what they hold is freed by
        reference counting instead of being walked (see the module's last paragraph)."""
        self.full_every = full_every
        self.clock = clock
        self.last_full: float | None = None
        self.automatic = automatic
        """False: gc's own collections are switched off from :meth:`start` to :meth:`close`,
        and the keeper's step is the only collection (see the module's last paragraph)."""
        self._disabled = False

    def start(self) -> None:
        """The one full collection, at start-up: unfreeze, collect everything, freeze (and,
        once, :func:`break_transport_cycles`)."""
        break_transport_cycles()
        if not self.automatic and gc.isenabled():
            gc.disable()
            self._disabled = True
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.last_full = self.clock()

    def step(self) -> str:
        """One turn: ``"freeze"`` (collect the young generations, freeze the survivors), or
        ``"full"`` (:meth:`start` again) when ``full_every`` is set and has passed since the
        last full collection, or when no full collection has run yet."""
        for forget in self.before_step:
            forget()
        now = self.clock()
        if self.last_full is None or (
            self.full_every is not None and now - self.last_full >= self.full_every
        ):
            self.start()
            return "full"
        gc.collect(1)
        gc.freeze()
        return "freeze"

    def close(self) -> None:
        """Give gc its own collections back if :meth:`start` switched them off."""
        if self._disabled:
            self._disabled = False
            gc.enable()

    async def run(self) -> None:
        """:meth:`step` now and every ``freeze_every`` seconds (cancel to stop)."""
        while True:
            self.step()
            await asyncio.sleep(self.freeze_every)
