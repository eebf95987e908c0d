"""The work one client may cause, counted per client address and per seat.

Each counter answers whether one more is allowed and, if not, in how many seconds it will be
(the ``Retry-After`` of a 429). The counts that matter across processes (tables made and open,
replays, hints, analyses, sign-ins, wrong passwords, passkeys, Play now: :meth:`Limits.take`,
:meth:`Limits.note_table`) are kept in the database (:mod:`cardroom.store.bounds`), so every
process of ``--workers 2`` sees them; the sockets of an address and the messages of a connection
or seat are kept by each process (they bound that process's own sockets and loop).
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi.responses import JSONResponse

from cardroom.i18n import translator
from cardroom.i18n.messages import message_words
from cardroom.store.bounds import BoundStore
from cardroom.tables.chat import TokenBucket
from cardroom.web.routes.common import error_json
from cardroom.web.settings import Settings

WRONG_PASSWORD_BURST = 5
"""Wrong passwords one address may try for one name within a minute."""
ANY_ADDRESS_FACTOR = 10
"""Wrong passwords for one name from all addresses together: this many times the bound of one
address (``wrong_passwords_per_name``)."""
MAX_KEYS = 10_000
"""The most addresses or seats remembered by one counter (the oldest are forgotten first)."""


class Window:
    """At most ``limit`` events per ``seconds`` per key (a sliding window); ``name`` names its
    keys in the database when the window is shared by every process (:meth:`Limits.take`)."""

    def __init__(
        self, limit: int, seconds: float, clock: Callable[[], float], name: str = ""
    ) -> None:
        self.name = name
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

    def give_back(self, key: object) -> None:
        """Forget the latest one counted for ``key``."""
        times = self._times.get(key)
        if times:
            times.pop()

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
        self.shared: BoundStore | None = None
        """The database's counters (set when the app's store is open; None: this process's)."""
        self.creations = Window(settings.tables_per_minute, 60.0, clock, "tables")
        self.created: OrderedDict[str, list[str]] = OrderedDict()
        """Address -> the tables it created (checked against the open ones when it asks)."""
        self.sockets: dict[str, int] = {}
        self.hints = Window(settings.hints_per_minute, 60.0, clock, "hints")
        """Hints asked per (table, seat)."""
        self.replays = Window(settings.replays_per_minute, 60.0, clock, "replays")
        """Records uploaded for a replay per address."""
        self.replay_pages = Window(settings.replay_pages_per_minute, 60.0, clock, "replay-pages")
        """Further pages of uploaded records asked for per address."""
        self.analyses = Window(settings.analyses_per_hour, 3600.0, clock, "analyses")
        """Analyses of uploaded records started per address."""
        self.sign_ins = Window(settings.sign_ins_per_minute, 60.0, clock, "sign-ins")
        """Password sign-ins tried per address."""
        self.wrong_passwords = Window(
            settings.wrong_passwords_per_name, 3600.0, clock, "wrong-passwords"
        )
        """Wrong passwords per address and name (``<address>|<folded name>``) an hour."""
        self.wrong_password_burst = Window(
            WRONG_PASSWORD_BURST, 60.0, clock, "wrong-password-burst"
        )
        """Wrong passwords per address and name a minute (the first step of the back-off)."""
        self.wrong_passwords_any = Window(
            settings.wrong_passwords_per_name * ANY_ADDRESS_FACTOR,
            3600.0,
            clock,
            "wrong-passwords-any",
        )
        """Wrong passwords per name (folded) from every address together, an hour."""
        self.passkeys = Window(settings.passkey_tries_per_minute, 60.0, clock, "passkeys")
        """Passkey sign-in options and sign-ins per address."""
        self.exports = Window(settings.exports_per_hour, 3600.0, clock, "exports")
        """Exports of one's records per player (keys ``player:<id>``)."""
        self.plays = Window(settings.plays_per_minute, 60.0, clock, "plays")
        """Play now presses per address and per player (keys ``player:<id>``)."""
        self._seat_buckets: OrderedDict[tuple[str, int], TokenBucket] = OrderedDict()
        self.hashing = Turns(HASHES_QUEUED)
        """Password hashes and checks: one at a time per player (setting a password) or per
        address (signing in), in front of the process's shared hashing threads."""

    async def take(self, window: Window, key: object) -> float:
        """Count one more for ``key`` in ``window`` and answer 0, or count nothing and answer
        the seconds until one more is allowed. Shared by every process of the database when
        the window has a name and the store is open; else counted by this process."""
        if self.shared is not None and window.name:
            name = f"{window.name}:{key}"
            return await self.shared.take(name, window.limit, window.seconds)
        wait = window.wait(key)
        if wait <= 0:
            window.note(key)
        return wait

    async def give_back(self, window: Window, key: object) -> None:
        """Forget the latest one :meth:`take` counted for ``key`` (its request was refused for
        what it asked, so it did not cost what the bound is for)."""
        if self.shared is not None and window.name:
            await self.shared.give_back(f"{window.name}:{key}")
        else:
            window.give_back(key)

    async def reserve_table(self, address: str) -> str | None:
        """Hold one of ``address``'s open-table places for a table being made: a pending id to
        give to :meth:`note_table` or :meth:`release_table`, or None when its
        ``open_tables_per_client`` places are taken. Checked and held in one step, so two
        requests reaching two processes at once cannot both take the last place."""
        pending = f"{PENDING}{secrets.token_hex(6)}"
        limit = self.settings.open_tables_per_client
        if self.shared is not None:
            held = await self.shared.reserve(
                _open_key(address, ""), _open_key(address, pending), limit, PENDING_SECONDS
            )
            return pending if held else None
        tables = self.created.setdefault(address, [])
        self.created.move_to_end(address)
        if len(tables) >= limit:
            return None
        tables.append(pending)
        while len(self.created) > MAX_KEYS:
            self.created.popitem(last=False)
        return pending

    async def note_table(self, address: str, table_id: str, pending: str | None = None) -> None:
        """``address`` created ``table_id`` (in the place ``pending`` held, if given). Kept in
        the database when it is shared (a row ``open-table:<address> <table>`` for
        ``OPEN_TABLE_DAYS``), so every process counts the tables of an address."""
        if self.shared is not None:
            await self.shared.keep(_open_key(address, table_id), OPEN_TABLE_DAYS * 86400.0)
            if pending is not None:
                await self.shared.forget([_open_key(address, pending)])
            return
        tables = self.created.setdefault(address, [])
        self.created.move_to_end(address)
        if pending in tables:
            tables[tables.index(pending)] = table_id
        else:
            tables.append(table_id)
        del tables[: -4 * self.settings.open_tables_per_client]
        while len(self.created) > MAX_KEYS:
            self.created.popitem(last=False)

    async def release_table(self, address: str, pending: str) -> None:
        """The table ``pending`` held a place for was not made: the place is free again."""
        await self.forget_tables(address, [pending])

    async def created_by(self, address: str) -> list[str]:
        """The tables ``address`` created lately (newest last; its latest
        ``4 * open_tables_per_client``)."""
        if self.shared is not None:
            prefix = _open_key(address, "")
            keys = await self.shared.keys_under(prefix, 4 * self.settings.open_tables_per_client)
            return [key[len(prefix) :] for key in keys]
        return list(self.created.get(address, ()))

    async def forget_tables(self, address: str, table_ids: list[str]) -> None:
        """Tables of ``address`` found over: no longer counted (nor read again)."""
        if self.shared is not None:
            await self.shared.forget([_open_key(address, t) for t in table_ids])
            return
        gone = set(table_ids)
        tables = self.created.get(address)
        if tables is not None:
            tables[:] = [t for t in tables if t not in gone]

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


HASHES_QUEUED = 1
"""Password hashes one player (or address signing in) may have waiting behind its running one;
past it: 429 at once."""
OPEN_TABLE_DAYS = 30
"""How long the database remembers who made a table (one still open after that is no longer
counted against its maker)."""
PENDING = "pending-"
"""How the id of a place held for a table being made begins (never a table's id)."""
PENDING_SECONDS = 120.0
"""How long a held place lasts if its request never ends (a process killed while making it)."""


def _open_key(address: str, table_id: str) -> str:
    return f"open-table:{address} {table_id}"


def refusal(
    status: int, code: str, id: str, lang: str, wait: float | None = None, **fields: object
) -> JSONResponse:
    """The answer past a bound: ``{"error": code, "message": words, "id": id}`` (message ``id``
    of :mod:`cardroom.i18n.bound_words` in ``lang``), with ``Retry-After`` when ``wait`` is
    given."""
    response = error_json(status, code, message_words(id, fields, translator(lang)), id=id)
    if wait is not None:
        response.headers["Retry-After"] = retry_after(wait)
    return response


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


class Busy(Exception):
    """A key already has its one turn running and as many waiting as allowed."""


class Turns:
    """One at a time per key, and at most ``queued`` more waiting for it (past that:
    :class:`Busy`). Put in front of a pool every client shares (the password hashes), so that
    one client holds at most one of its places and everybody else's turn comes after at most
    one of theirs."""

    def __init__(self, queued: int) -> None:
        self.queued = queued
        self._locks: dict[str, asyncio.Lock] = {}
        self._count: dict[str, int] = {}

    @asynccontextmanager
    async def turn(self, key: str) -> AsyncIterator[None]:
        """Wait for ``key``'s turn (:class:`Busy` at once if too many already wait)."""
        n = self._count.get(key, 0)
        if n > self.queued:
            raise Busy(key)
        self._count[key] = n + 1
        lock = self._locks.setdefault(key, asyncio.Lock())
        try:
            async with lock:
                yield
        finally:
            left = self._count[key] - 1
            if left:
                self._count[key] = left
            else:
                del self._count[key], self._locks[key]
