"""The work one client may cause, counted per client address and per seat (in this process).

Each counter answers whether one more is allowed and, if not, in how many seconds it will be
(the ``Retry-After`` of a 429). Nothing here is stored: a restart forgets the counts.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from cardroom.tables.chat import TokenBucket
from cardroom.web.settings import Settings

MAX_KEYS = 10_000
"""The most addresses or seats remembered by one counter (the oldest are forgotten first)."""


class Window:
    """At most ``limit`` events per ``seconds`` per key (a sliding window)."""

    def __init__(self, limit: int, seconds: float, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.seconds = seconds
        self.clock = clock
        self._times: OrderedDict[object, deque[float]] = OrderedDict()

    def wait(self, key: object) -> float:
        """Seconds until ``key`` may have one more (0: now); nothing is counted."""
        times = self._times.get(key)
        if times is None:
            return 0.0
        now = self.clock()
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if len(times) < self.limit:
            return 0.0
        return times[0] + self.seconds - now

    def note(self, key: object) -> None:
        """Count one for ``key`` now."""
        times = self._times.setdefault(key, deque())
        self._times.move_to_end(key)
        times.append(self.clock())
        while len(self._times) > MAX_KEYS:
            self._times.popitem(last=False)


class Limits:
    """The per-address and per-seat counters of one app (``app.state.limits``)."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self.creations = Window(settings.tables_per_minute, 60.0, clock)
        self.created: OrderedDict[str, list[str]] = OrderedDict()
        """Address -> the tables it created (checked against the open ones when it asks)."""
        self.sockets: dict[str, int] = {}
        self.hints = Window(settings.hints_per_minute, 60.0, clock)
        """Hints asked per (table, seat)."""
        self.replays = Window(settings.replays_per_minute, 60.0, clock)
        """Records uploaded for a replay per address."""
        self.sign_ins = Window(settings.sign_ins_per_minute, 60.0, clock)
        """Password sign-ins tried per address."""
        self.wrong_passwords = Window(settings.wrong_passwords_per_name, 3600.0, clock)
        """Wrong passwords per name (casefolded), from any address."""
        self.passkeys = Window(settings.passkey_tries_per_minute, 60.0, clock)
        """Passkey sign-in options and sign-ins per address."""
        self.plays = Window(settings.plays_per_minute, 60.0, clock)
        """Play now presses per address and per player (keys ``("player", id)``)."""
        self._seat_buckets: OrderedDict[tuple[str, int], TokenBucket] = OrderedDict()

    def note_table(self, address: str, table_id: str) -> None:
        """``address`` created ``table_id``."""
        self.creations.note(address)
        tables = self.created.setdefault(address, [])
        self.created.move_to_end(address)
        tables.append(table_id)
        del tables[: -4 * self.settings.open_tables_per_client]
        while len(self.created) > MAX_KEYS:
            self.created.popitem(last=False)

    def created_by(self, address: str) -> list[str]:
        """The tables ``address`` created lately (newest last)."""
        return list(self.created.get(address, ()))

    def open_socket(self, address: str) -> bool:
        """Count one more websocket of ``address``; False (nothing counted) past the bound."""
        n = self.sockets.get(address, 0)
        if n >= self.settings.sockets_per_address:
            return False
        self.sockets[address] = n + 1
        return True

    def close_socket(self, address: str) -> None:
        """One websocket of ``address`` closed."""
        n = self.sockets.get(address, 0) - 1
        if n <= 0:
            self.sockets.pop(address, None)
        else:
            self.sockets[address] = n

    def seat_bucket(self, table_id: str, seat: int) -> TokenBucket:
        """The message bucket shared by every connection of one seat."""
        key = (table_id, seat)
        bucket = self._seat_buckets.get(key)
        if bucket is None:
            bucket = TokenBucket(self.settings.seat_rate_per_second, self.settings.seat_rate_burst)
            self._seat_buckets[key] = bucket
            while len(self._seat_buckets) > MAX_KEYS:
                self._seat_buckets.popitem(last=False)
        else:
            self._seat_buckets.move_to_end(key)
        return bucket


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))
