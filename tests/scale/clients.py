"""Real ``cardroom serve`` processes and scripted websocket players (fault tests, load benchmark);
and :func:`two_services`, two table services in this process as two servers would be.

A :class:`SeatClient` plays one person seat over a real websocket: it plays its first legal
action when the newest state says it is its turn, asks for the next round, and when the
connection drops it connects again by itself (to the next server address, as a client behind
a load balancer would be sent to another process). It keeps every state frame it was sent, so a
test can check each one against the final log.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.store import EventStore
from cardroom.tables import TableService
from cardroom.tables.leases import LEASE_INTERVAL
from tests.pgcluster import free_port

ROOT = Path(__file__).parents[2]
KEPT_ALIVE = httpx.Limits(keepalive_expiry=2.0)
"""The benchmarks' HTTP connection pools: an idle connection is dropped after 2 s, before the
server closes it (uvicorn's ``timeout_keep_alive``, 5 s). With httpx's default 5 s a request
could go out on a connection the server was closing at that moment: reset, ``ReadError``, and
nothing in the server's log (``benchmarks/keepalive.py``)."""

PER_ADDRESS_BOUNDS = (
    "--tables-per-minute", "--open-tables", "--sockets-per-address", "--connections-per-address",
)  # fmt: skip


@contextlib.asynccontextmanager
async def two_services(
    pg_url: str, lease_interval: float = LEASE_INTERVAL, *, start: bool = True
) -> AsyncIterator[tuple[EventStore, EventStore, TableService, TableService]]:
    """Two stores and table services on one PostgreSQL database, each with its own lease
    connection as two server processes have: ``(store_a, store_b, a, b)``, started unless
    ``start`` is false (the test starts them); stopped and closed at the end."""
    store_a = await EventStore.open(pg_url)
    store_b = await EventStore.open(pg_url)
    a = TableService(store_a, lease_interval=lease_interval)
    b = TableService(store_b, lease_interval=lease_interval)
    try:
        if start:
            await a.start()
            await b.start()
        yield store_a, store_b, a, b
    finally:
        for closing in (a.stop(), b.stop(), store_a.close(), store_b.close()):
            await closing


@contextlib.contextmanager
def scan_after_each_row(store: EventStore, other: TableService) -> Iterator[None]:
    """Inside: every new table's row ``store`` writes is followed at once by ``other``'s lease
    scan, the moment between the row's commit and its creator's own next step."""
    write_row = store.create_table

    async def then_scan(*args: Any) -> None:
        await write_row(*args)
        await other._scan()

    store.create_table = then_scan  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        store.create_table = write_row  # type: ignore[method-assign]


class ServerProcess:
    """``python -m cardroom serve`` on 127.0.0.1 and a free port, in its own process group."""

    def __init__(self, db: str, *, workers: int = 1, bot_delay: float = 0.0) -> None:
        self.db = db
        self.workers = workers
        self.bot_delay = bot_delay
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = open(os.devnull, "wb")  # noqa: SIM115
        self.entry = ["-m", "cardroom"]
        """What ``python`` runs: a benchmark may put a wrapper script in its place."""
        self.err_path = Path(tempfile.mkstemp(prefix="cardroom-serve-", suffix=".err")[1])
        """The server's stderr (a file, not a pipe: a pipe nobody reads would stop a server
        that logs a lot); removed by :meth:`stop` unless ``keep_err``."""
        self.keep_err = False
        self.src = ROOT / "src"
        """The ``src`` folder the server imports ``cardroom`` from (a benchmark's peer may
        name another tree's)."""

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start and wait until ``/healthz`` answers (at most 60 s)."""
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(self.src), str(ROOT)])}
        command = [
            sys.executable, *self.entry, "serve", "--host", "127.0.0.1",
            "--port", str(self.port), "--db", self.db, "--bot-delay", str(self.bot_delay),
            "--workers", str(self.workers),
        ]  # fmt: skip
        # every client of the load runs from this one address: lift the per-address bounds
        # (those this tree's ``cardroom serve`` has: a benchmark's peer may be another tree)
        serve = self.src / "cardroom" / "cli" / "serve.py"
        known = serve.read_text() if serve.exists() else ""
        for bound in PER_ADDRESS_BOUNDS:
            if not known or bound in known:
                command += [bound, "1000000"]
        with self.err_path.open("ab") as err:
            self.proc = subprocess.Popen(
                command, env=env, stdout=self.log, stderr=err, start_new_session=True
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"cardroom serve ended: {self.errors()[-500:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://{self.address}/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("cardroom serve did not answer within 60 s")

    def errors(self) -> str:
        """What the server wrote to stderr so far."""
        try:
            return self.err_path.read_text(errors="replace").strip()
        except OSError:
            return ""

    def children(self) -> list[int]:
        """The worker processes (``--workers`` above 1)."""
        assert self.proc is not None
        out = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(self.proc.pid)], capture_output=True, text=True
        )
        return [int(x) for x in out.stdout.split()]

    def kill(self) -> None:
        """kill -9 the server process (and with it, its workers' group)."""
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """Ctrl-C-like stop (SIGTERM), kill if it lingers."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        if not self.keep_err:
            self.err_path.unlink(missing_ok=True)


@dataclass
class TableInvites:
    """A table made over HTTP: its id and a token per person seat."""

    table_id: str
    tokens: dict[int, str]


async def create_table(
    http: httpx.AsyncClient, *, persons: int = 2, players: int = 4, rounds: int = 2,
    level: str = "easy", takeover_after: float = 0.0,
) -> TableInvites:  # fmt: skip
    """``POST /api/tables``: seats 0..persons-1 are persons, the others bots of ``level``."""
    seats = [{"kind": "person"} for _ in range(persons)]
    seats += [{"kind": "bot", "level": level} for _ in range(players - persons)]
    body = {
        "name": "Ann", "players": players, "seats": seats, "level": level,
        "end": f"rounds:{rounds}", "takeover_after": takeover_after, "public": False,
    }  # fmt: skip
    response = await http.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    table_id = data["table"]
    tokens = {0: response.cookies[f"cr_seat_{table_id}"]}
    for invite in data["invites"]:
        tokens[invite["seat"]] = invite["url"].rsplit(".", 1)[1]
    return TableInvites(table_id, tokens)


@dataclass
class SeatClient:
    """One scripted person at one seat, reconnecting by itself."""

    addresses: list[str]
    table_id: str
    token: str | None
    name: str = "Bob"
    think: float = 0.0
    """Seconds it waits before it acts."""
    keep_frames: bool = True
    on_state: Callable[[SeatClient, dict[str, Any]], None] | None = None
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    connects: int = 0
    actions: int = 0
    last: dict[str, Any] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    ws: Any = None
    _which: int = 0
    _retries: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def url(self) -> str:
        address = self.addresses[self._which % len(self.addresses)]
        query = f"?token={self.token}" if self.token else ""
        return f"ws://{address}/ws/{self.table_id}{query}"

    async def run(self, *, deadline: float = 120.0) -> None:
        """Play until the game is over (reconnecting whenever the connection drops)."""
        end = time.monotonic() + deadline
        while not self.done.is_set() and time.monotonic() < end:
            try:
                async with websockets.connect(self.url, max_size=2**22, open_timeout=5) as ws:
                    self.ws = ws
                    self.connects += 1
                    await self._session(ws)
            except (TimeoutError, OSError, websockets.WebSocketException):
                pass
            finally:
                self.ws = None
            if not self.done.is_set():
                self._which += 1  # the next server, as a load balancer would do
                await asyncio.sleep(0.2)

    async def _session(self, ws: Any) -> None:
        acted: set[int] = set()
        async for text in ws:
            frame = json.loads(text)
            if frame["type"] == "error":
                self.errors.append(frame)
                if frame["code"] == "unavailable" and self.last is not None:
                    self._retries.add(asyncio.create_task(self._retry(ws, self.last, acted)))
                continue
            if frame["type"] != "state":
                continue
            self.last = frame
            if self.keep_frames:
                self.frames.append(frame)
            if self.on_state is not None:
                self.on_state(self, frame)
            if frame["status"] == "over":
                self.done.set()
                return
            await self._respond(ws, frame, acted)

    async def _retry(self, ws: Any, frame: dict[str, Any], acted: set[int]) -> None:
        await asyncio.sleep(0.5)  # the database is back soon: ask again, unless news came
        if self.last is frame:
            acted.discard(frame["seq"])
            acted.discard(-1 - int((frame.get("round") or {}).get("k", 0)))
            with contextlib.suppress(websockets.ConnectionClosed):
                await self._respond(ws, frame, acted)

    async def _respond(self, ws: Any, frame: dict[str, Any], acted: set[int]) -> None:
        seq = frame["seq"]
        you = frame["you"]
        if seq in acted or you is None:
            return
        legal = (frame.get("round") or {}).get("legal") or []
        if frame["status"] == "waiting" and not frame["seats"][you]["joined"]:
            acted.add(seq)
            await ws.send(json.dumps({"type": "join", "name": self.name}))
        elif frame["status"] == "playing" and legal:
            acted.add(seq)
            if self.think:
                await asyncio.sleep(self.think)
            self.actions += 1
            await ws.send(json.dumps({"type": "act", "action": legal[0], "seq": seq}))
        elif frame["status"] == "round-over" and you not in frame.get("ready", []):
            once = -1 - int((frame.get("round") or {}).get("k", 0))  # one ready per round
            if once in acted:
                return
            acted.update((seq, once))
            await ws.send(json.dumps({"type": "ready"}))


async def check_frames_against_log(store: EventStore, clients: list[SeatClient]) -> int:
    """Every state frame each client was sent agrees with the final log at its seq; the
    number of frames checked. (A frame told but never stored would disagree.)"""
    checked = 0
    logs: dict[str, Any] = {}
    for client in clients:
        if client.table_id not in logs:
            logs[client.table_id] = await store.entries(client.table_id)
        entries = logs[client.table_id]
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        for frame in client.frames:
            table = NainJauneTable.replay(client.table_id, entries[: frame["seq"]])
            expected = table.frame(frame["you"], None, set(), None)
            assert frame["status"] == expected["status"], (frame["seq"], client.table_id)
            assert frame["round"] == expected["round"], (frame["seq"], client.table_id)
            checked += 1
    return checked


# -- Spit and Speed ----------------------------------------------------------------------------


async def create_realtime_table(
    http: httpx.AsyncClient, *, game: str = "speed", bot: str | None = None,
    options: dict[str, str] | None = None,
) -> TableInvites:  # fmt: skip
    """``POST /api/tables`` for a Spit or Speed table: Ann at seat 0, and at seat 1 a person
    (``bot`` None) or a bot of that level or reaction spec."""
    second = {"kind": "person"} if bot is None else {"kind": "bot", "level": bot}
    body = {
        "game": game, "name": "Ann", "players": 2, "seats": [{"kind": "person"}, second],
        "options": options or {}, "public": False,
    }  # fmt: skip
    response = await http.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    table_id = data["table"]
    tokens = {0: response.cookies[f"cr_seat_{table_id}"]}
    for invite in data["invites"]:
        tokens[invite["seat"]] = invite["url"].rsplit(".", 1)[1]
    return TableInvites(table_id, tokens)


@dataclass
class RealtimeClient:
    """One scripted person at a Spit or Speed seat, reconnecting by itself.

    From the newest state it plays a legal card (chosen by its ``random.Random``), else turns
    up, spits, slaps or chooses, and it calls only if ``calls`` (a player who never calls leaves
    every stalemate to the countdown). One action in flight at a time; ``acked`` keeps the
    actions the server answered with a state frame carrying their ``ref`` (accepted and told).
    """

    addresses: list[str]
    table_id: str
    token: str | None
    seed: int = 0
    calls: bool = True
    think: float = 0.0
    name: str = "Bob"
    on_state: Callable[[RealtimeClient, dict[str, Any]], None] | None = None
    keep_frames: bool = True
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    acked: list[dict[str, Any]] = field(default_factory=list)
    sent_at: dict[int, float] = field(default_factory=dict)
    """When (``time.monotonic``) each action was sent, by its ref."""
    connects: int = 0
    actions: int = 0
    last: dict[str, Any] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    _which: int = 0
    _sent: dict[int, dict[str, Any]] = field(default_factory=dict)
    _busy_since: float | None = None
    _next_ref: int = 0

    @property
    def url(self) -> str:
        address = self.addresses[self._which % len(self.addresses)]
        query = f"?token={self.token}" if self.token else ""
        return f"ws://{address}/ws/{self.table_id}{query}"

    async def run(self, *, deadline: float = 120.0) -> None:
        """Play until the game is over (reconnecting whenever the connection drops)."""
        import random

        rng = random.Random(self.seed)
        end = time.monotonic() + deadline
        while not self.done.is_set() and time.monotonic() < end:
            try:
                async with websockets.connect(self.url, max_size=2**22, open_timeout=5) as ws:
                    self.connects += 1
                    self._busy_since = None
                    await self._session(ws, rng)
            except (TimeoutError, OSError, websockets.WebSocketException):
                pass
            if not self.done.is_set():
                self._which += 1  # the next server, as a load balancer would do
                await asyncio.sleep(0.2)

    async def _session(self, ws: Any, rng: Any) -> None:
        while True:
            try:
                text = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:  # nothing new: look at the newest state again
                self._busy_since = None
                if self.last is not None:
                    await self._respond(ws, self.last, rng)
                continue
            frame = json.loads(text)
            ref = frame.get("ref")
            if frame["type"] == "error":
                self.errors.append(frame)
                self._sent.pop(ref, None)
                self._busy_since = None
                continue
            if frame["type"] != "state":
                continue
            if ref is not None and ref in self._sent:
                self.acked.append(self._sent.pop(ref))
                self._busy_since = None
            self.last = frame
            if self.keep_frames:
                self.frames.append(frame)
            if self.on_state is not None:
                self.on_state(self, frame)
            if frame["status"] == "over":
                self.done.set()
                return
            await self._respond(ws, frame, rng)

    async def _respond(self, ws: Any, frame: dict[str, Any], rng: Any) -> None:
        you = frame["you"]
        if you is None or self._busy_since is not None:
            return
        if frame["status"] == "waiting" and frame["seats"][you]["name"] is None:
            self._busy_since = time.monotonic()
            await ws.send(json.dumps({"type": "join", "name": self.name}))
            return
        if frame["status"] != "playing":
            return
        legal = (frame.get("table_view") or {}).get("legal") or []
        choice = None
        for kind in ("play", "turn-up", "spit", "slap", "choose", "call"):
            options = [a for a in legal if a["type"] == kind]
            if kind == "call" and not self.calls:
                break
            if options:
                choice = rng.choice(options)
                break
        if choice is None:
            return
        if self.think:
            await asyncio.sleep(self.think)
        self._next_ref += 1
        self._sent[self._next_ref] = choice
        self._busy_since = self.sent_at[self._next_ref] = time.monotonic()
        self.actions += 1
        await ws.send(json.dumps({"type": "act", "action": choice, "id": self._next_ref}))


async def check_realtime_frames(store: EventStore, clients: list[RealtimeClient]) -> int:
    """Every state frame each client was sent agrees with the final log at its seq (the seat's
    view, status and countdown deadline), and every action acknowledged to a client is in the
    log, accepted; the number of frames checked."""
    from cardroom.tables.realtime import RealtimeTable

    checked = 0
    logs: dict[str, Any] = {}
    for client in clients:
        if client.table_id not in logs:
            logs[client.table_id] = await store.entries(client.table_id)
        entries = logs[client.table_id]
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        table = RealtimeTable(client.table_id)
        done = 0
        for frame in sorted(client.frames, key=lambda f: f["seq"]):
            for entry in entries[done : frame["seq"]]:
                table.apply(entry)
            done = frame["seq"]
            expected = table.frame(frame["you"])
            assert frame["status"] == expected["status"], (frame["seq"], client.table_id)
            assert frame.get("table_view") == expected.get("table_view"), frame["seq"]
            assert frame["deadline"] == expected["deadline"], (frame["seq"], client.table_id)
            checked += 1
        final = RealtimeTable.replay(client.table_id, entries)
        assert final.arbiter is not None
        you = client.frames[0]["you"] if client.frames else None
        accepted = [e.action for e in final.arbiter.log if e.accepted and e.seat == you]
        told = [final.engine.action_to_json(a) for a in accepted]
        for action in client.acked:  # nothing a client was told accepted is missing
            assert action in told, (client.table_id, action)
    return checked


def socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets process ``pid`` holds (Linux ``/proc``)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes
