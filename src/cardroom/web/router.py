"""``cardroom serve --workers N``: the parent routes each connection to one worker, by table.

With one listening socket shared by the workers, the kernel hands each connection to any of
them, so the people of a table end up in both processes and each change is applied and framed
twice (by the lease holder, and by the other on its notice). Instead, as game servers route a
room's players to one process, the parent keeps the listening socket and the workers get none:

* the parent (:class:`Router`, one single-threaded ``selectors`` loop, no threads, so forking is
  safe) accepts, waits for the connection's first bytes, looks at its request line without
  consuming a byte (``MSG_PEEK``), and hands the socket itself to a worker over a
  ``SOCK_SEQPACKET`` pair (``socket.send_fds``; one message, one descriptor), then closes its
  own copy. Bytes are never proxied: the worker talks to the client directly.
* a path naming a table (:func:`table_in`: ``/ws/<id>``, ``/t/<id>...``, ``/j/<id>.<token>``,
  ``/api/tables/<id>/...``, replays and analyses) goes to slot ``crc32(id) % N``
  (``tables/slots.py``); anything else, or a request line not complete in the first bytes,
  round-robin. A slot whose worker is dead or being replaced, or whose channel is full: the
  next one. A connection silent for ``wait`` seconds goes to any worker (its header timeout,
  ``web/server.py``, answers it); at most ``max_waiting`` wait (past it, the oldest is handed
  over at once).
* each worker (:class:`HandedServer`) runs uvicorn listening on nothing and builds the protocol
  for every socket it receives exactly as uvicorn does for one it accepts, so the header
  timeout, the connection cap and keep-alive apply as before. The channel closing (the parent
  gone) stops it.
* the parent also wakes on SIGCHLD, SIGTERM and SIGINT (``signal.set_wakeup_fd``): a dead
  worker is replaced after half a second (meanwhile its slot's connections go to the next),
  and Ctrl-C or SIGTERM stops them all.

The workers make new tables with ids of their own slot, so the creator (the lease holder) is
the process the table's connections reach. Tables made before a restart, or whose worker died,
are taken by any process as before: correct, only split until they end.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import re
import selectors
import signal
import socket
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import uvicorn

from cardroom.tables.slots import slot_of

__all__ = ["HandedServer", "Router", "next_live", "pick_slot", "table_in"]

_TABLE_PATH = re.compile(
    rb"/(?:ws|t|j|api/tables|analysis|api/analysis|replay|api/replay)/([A-Za-z0-9_-]{1,64})"
    rb"(?:[/?.]|$)"
)
_NOT_IDS = {b"upload"}  # POST /api/analysis/upload names no table


def table_in(head: bytes) -> str | None:
    """The table id that the request line at the start of ``head`` names in its path (None:
    no table, or the line is not complete in ``head``)."""
    end = head.find(b"\n")
    if end < 0:
        return None
    parts = head[:end].rstrip(b"\r").split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/"):
        return None
    target = parts[1]
    if not target.startswith(b"/"):  # absolute form: http://host/path
        _scheme, sep, rest = target.partition(b"://")
        if not sep:
            return None
        slash = rest.find(b"/")
        target = rest[slash:] if slash >= 0 else b"/"
    found = _TABLE_PATH.match(target)
    if found is None or found.group(1) in _NOT_IDS:
        return None
    return found.group(1).decode("ascii")


def next_live(slot: int, live: Sequence[bool]) -> int | None:
    """``slot`` if its worker is live, else the next live one (wrapping); None if none is."""
    count = len(live)
    for step in range(count):
        candidate = (slot + step) % count
        if live[candidate]:
            return candidate
    return None


def pick_slot(head: bytes, workers: int, turn: int) -> tuple[int, bool]:
    """The slot a connection whose first bytes are ``head`` goes to, before looking at which
    are live: ``(crc32(id) % workers, True)`` for a table's path, else ``(turn % workers,
    False)`` (round-robin: the caller advances ``turn``)."""
    table_id = table_in(head)
    if table_id is None:
        return turn % workers, False
    return slot_of(table_id, workers), True


def _noop(_signum: int, _frame: object) -> None:
    """A handler, so that the signal reaches the wakeup descriptor."""


class Router:
    """The parent of ``--workers N``: forks the workers, routes connections, replaces the dead.

    ``work(slot, channel)`` runs in each forked worker (its return ends the process)."""

    SIGNALS = (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM)

    def __init__(
        self,
        listener: socket.socket,
        workers: int,
        work: Callable[[int, socket.socket], None],
        *,
        wait: float = 2.0,
        max_waiting: int = 1024,
        replace_after: float = 0.5,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.listener = listener
        self.workers = workers
        self.work = work
        self.wait = wait
        self.max_waiting = max_waiting
        self.replace_after = replace_after
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self.channels: list[socket.socket | None] = [None] * workers
        """The parent's end of each slot's channel (None: dead or being replaced)."""
        self.pids: dict[int, int] = {}
        """Worker pid -> slot."""
        self.waiting: collections.OrderedDict[socket.socket, float] = collections.OrderedDict()
        """Accepted connections whose first bytes have not come, oldest first, with when they
        are handed over anyway."""
        self.parked: collections.deque[socket.socket] = collections.deque()
        """Connections no worker could take (none live, or every channel full)."""
        self.replacing: dict[int, float] = {}
        """Slot -> when its new worker is started."""
        self.turn = 0
        self.stopping = False
        self.selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()

    # -- workers ------------------------------------------------------------------------------

    def _spawn(self, slot: int) -> None:
        parent_end, child_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the worker: nothing of the parent's routing stays open in it
            code = 0
            try:
                signal.set_wakeup_fd(-1)
                for number in self.SIGNALS:
                    signal.signal(number, signal.SIG_DFL)
                self.selector.close()
                for sock in (
                    self.listener,
                    self._wake_r,
                    self._wake_w,
                    parent_end,
                    *(c for c in self.channels if c is not None),
                    *self.waiting,
                    *self.parked,
                ):
                    sock.close()
                self.work(slot, child_end)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        child_end.close()
        parent_end.setblocking(False)
        self.channels[slot] = parent_end
        self.pids[pid] = slot

    def _reap(self) -> None:
        while self.pids:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                self.pids.clear()
                return
            if pid == 0:
                return
            slot = self.pids.pop(pid, None)
            if slot is None:
                continue
            channel, self.channels[slot] = self.channels[slot], None
            if channel is not None:
                channel.close()
            if not self.stopping:
                self.say(
                    f"worker {pid} ended ({describe(status)}): its tables move to the other "
                    "workers; starting a new one"
                )
                self.replacing[slot] = time.monotonic() + self.replace_after

    def _stop(self) -> None:
        if self.stopping:
            return
        self.stopping = True
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(self.listener)
        for sock in [*self.waiting, *self.parked]:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(sock)
            sock.close()
        self.waiting.clear()
        self.parked.clear()
        self.replacing.clear()
        for pid in list(self.pids):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    # -- connections --------------------------------------------------------------------------

    def _hand(self, conn: socket.socket, slot: int) -> bool:
        """Send ``conn`` to ``slot``'s worker, or the next that takes it; close our copy."""
        live = [channel is not None for channel in self.channels]
        target = next_live(slot, live)
        while target is not None:
            channel = self.channels[target]
            assert channel is not None
            try:
                socket.send_fds(channel, [b"c"], [conn.fileno()])
            except OSError:  # full (BlockingIOError) or its worker just died: the next one
                live[target] = False
                target = next_live(target, live)
                continue
            conn.close()
            return True
        return False

    def _route(self, conn: socket.socket, head: bytes) -> None:
        slot, by_table = pick_slot(head, self.workers, self.turn)
        if not by_table:
            self.turn += 1
        if not self._hand(conn, slot):
            self.parked.append(conn)

    def _any(self, conn: socket.socket) -> None:
        self._route(conn, b"")

    def _accept(self) -> None:
        for _ in range(64):
            try:
                conn, _address = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # e.g. out of descriptors: try again at the next wake
                return
            conn.setblocking(False)
            self.waiting[conn] = time.monotonic() + self.wait
            self.selector.register(conn, selectors.EVENT_READ, "conn")
            while len(self.waiting) > self.max_waiting:
                oldest, _ = self.waiting.popitem(last=False)
                self.selector.unregister(oldest)
                self._any(oldest)

    def _readable(self, conn: socket.socket) -> None:
        try:
            head = conn.recv(4096, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            head = b""
        del self.waiting[conn]
        self.selector.unregister(conn)
        if not head:  # closed before sending anything (or reset): nothing to answer
            conn.close()
            return
        self._route(conn, head)

    # -- the loop -----------------------------------------------------------------------------

    def _timeout(self, now: float) -> float | None:
        times = [*self.replacing.values()]
        if self.waiting:
            times.append(next(iter(self.waiting.values())))
        timeout = max(0.0, min(times) - now) if times else None
        if self.parked and any(c is not None for c in self.channels):
            timeout = 0.05 if timeout is None else min(timeout, 0.05)
        return timeout

    def _due(self, now: float) -> None:
        for slot, when in list(self.replacing.items()):
            if when <= now:
                del self.replacing[slot]
                self._spawn(slot)
        while self.waiting:
            conn, when = next(iter(self.waiting.items()))
            if when > now:
                break
            del self.waiting[conn]
            self.selector.unregister(conn)
            self._any(conn)
        while self.parked:
            conn = self.parked.popleft()
            slot = self.turn % self.workers
            self.turn += 1
            if not self._hand(conn, slot):
                self.parked.appendleft(conn)
                break

    def run(self) -> None:
        """Start the workers and route until they have all ended after Ctrl-C or SIGTERM."""
        self.listener.setblocking(False)
        for sock in (self._wake_r, self._wake_w):
            sock.setblocking(False)
        previous: dict[int, Any] = {n: signal.getsignal(n) for n in self.SIGNALS}
        old_wakeup: int = signal.set_wakeup_fd(self._wake_w.fileno(), warn_on_full_buffer=False)
        try:
            for number in self.SIGNALS:
                signal.signal(number, _noop)
            self.selector.register(self.listener, selectors.EVENT_READ, "listen")
            self.selector.register(self._wake_r, selectors.EVENT_READ, "wake")
            for slot in range(self.workers):
                self._spawn(slot)
            self._reap()  # a worker that died before the handler was in place
            while self.pids or (not self.stopping and self.replacing):
                for key, _events in self.selector.select(self._timeout(time.monotonic())):
                    if key.data == "listen":
                        self._accept()
                    elif key.data == "wake":
                        self._signals()
                    elif isinstance(key.fileobj, socket.socket):
                        self._readable(key.fileobj)
                self._due(time.monotonic())
        finally:
            signal.set_wakeup_fd(old_wakeup)
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            self._stop()
            for channel in self.channels:
                if channel is not None:
                    channel.close()
            self.selector.close()
            self._wake_r.close()
            self._wake_w.close()

    def _signals(self) -> None:
        try:
            got = self._wake_r.recv(512)
        except (BlockingIOError, InterruptedError):
            return
        if signal.SIGINT in got or signal.SIGTERM in got:
            self._stop()
        self._reap()


def describe(status: int) -> str:
    """A wait status in words."""
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit code {os.waitstatus_to_exitcode(status)}"


class HandedServer(uvicorn.Server):
    """uvicorn listening on nothing: it serves the sockets the router hands it on ``channel``,
    each with the protocol uvicorn builds for a socket it accepts (so the header deadline,
    ``limit_concurrency`` and keep-alive apply). The channel closing stops it."""

    def __init__(self, config: uvicorn.Config, channel: socket.socket) -> None:
        super().__init__(config)
        self.channel = channel
        self._starting: set[asyncio.Task[Any]] = set()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[])
        if self.should_exit:
            return
        config = self.config

        def factory() -> asyncio.Protocol:
            made: asyncio.Protocol = config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=self.server_state, app_state=self.lifespan.state
            )
            return made

        loop = asyncio.get_running_loop()
        self.channel.setblocking(False)
        loop.add_reader(self.channel.fileno(), self._take, loop, factory)

    def _take(
        self, loop: asyncio.AbstractEventLoop, factory: Callable[[], asyncio.Protocol]
    ) -> None:
        for _ in range(256):
            try:
                message, fds, _flags, _address = socket.recv_fds(self.channel, 16, 4)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                message, fds = b"", []
            if not message and not fds:  # the parent is gone: stop
                loop.remove_reader(self.channel.fileno())
                self.should_exit = True
                return
            for fd in fds:
                self._open(loop, factory, socket.socket(fileno=fd))

    def _open(
        self,
        loop: asyncio.AbstractEventLoop,
        factory: Callable[[], asyncio.Protocol],
        sock: socket.socket,
    ) -> None:
        if self.should_exit:
            sock.close()
            return
        sock.setblocking(False)
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        task = loop.create_task(loop.connect_accepted_socket(factory, sock))
        self._starting.add(task)
        task.add_done_callback(lambda done: self._started(done, sock))

    def _started(self, task: asyncio.Task[Any], sock: socket.socket) -> None:
        self._starting.discard(task)
        if task.cancelled() or task.exception() is not None:
            sock.close()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(self.channel.fileno())
        self.channel.close()
        await super().shutdown(sockets=sockets)
