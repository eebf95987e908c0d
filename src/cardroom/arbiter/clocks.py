"""The clocks of the real-time tier: anything that tells the time (:class:`Clock`),
:class:`VirtualClock` in simulations and tests (advanced by hand, never sleeping) and
:class:`WallClock` in play."""

from __future__ import annotations

import time
from typing import Protocol

__all__ = ["Clock", "VirtualClock", "WallClock"]


class Clock(Protocol):
    """Anything that tells the time in seconds."""

    def now(self) -> float: ...


class VirtualClock:
    """A clock that only moves when told to: simulations and tests run without sleeping."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        """The current virtual time in seconds."""
        return self._now

    def advance(self, seconds: float) -> float:
        """Move forward by ``seconds`` (not negative); return the new time."""
        if not seconds >= 0:
            raise ValueError(f"a clock cannot go back: advance by {seconds} seconds")
        self._now += seconds
        return self._now

    def advance_to(self, t: float) -> float:
        """Move forward to time ``t`` (never back); return it."""
        if not t >= self._now:
            raise ValueError(f"a clock cannot go back from {self._now} to {t}")
        self._now = float(t)
        return self._now


class WallClock:
    """Real time: seconds since the clock was made (``time.monotonic``, so never backwards)."""

    def __init__(self) -> None:
        self._origin = time.monotonic()

    def now(self) -> float:
        """Seconds since this clock was created."""
        return time.monotonic() - self._origin
