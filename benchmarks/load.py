"""Load: Nain Jaune and Speed tables over real websockets, SQLite (1 process) v PostgreSQL (1, 2).

Each table has 4 seats: 2 people, simulated by scripted websocket clients in this process,
and 2 bots on the server. People think ``--think`` seconds before they act, bots wait
``--bot-delay``; nobody stops (a game lasts 100 rounds). For each set-up (``--modes``:
``sqlite``, ``pg1``, ``pg2`` = PostgreSQL with ``cardroom serve --workers 2``) and each number
of tables in ``--tables`` (e.g. 500,1000), a fresh server on a fresh database gets that many
tables, which play ``--settle`` seconds and are then measured for ``--seconds``:

* ``held``: tables that went on during the window (at least one new state);
* ``actions/s``: table changes (person and bot actions, deals) reaching the clients per second;
* ``act->all p50/p99/max``: from a person sending ``act`` until both people at that table have
  the state with that action (real websockets, JSON both ways, the log written first);
* CPU: seconds of CPU per second of the servers, PostgreSQL and this client process, and the
  servers' CPU milliseconds per action (``ms/action``);
* ``client lag p99``: how late a 10 ms sleep wakes in this client process (its own backlog or
  waiting for a core: a latency is measured by these clients, so a high figure here means the
  clients, not the server, made part of it);
* ``CPU wait %``: the share of the window in which some task on the machine waited for a core
  (``/proc/pressure/cpu``), and ``load avg``: the 1-minute load average at the end (other work
  on a shared machine shows in both).

The first line also gives a ``host reference``: the CPU milliseconds of a fixed pure-Python
workload (:func:`host_reference`), which does not depend on cardroom's code. The same tree's
CPU per action has varied about twofold between days on this kind of shared machine; set runs
of different days side by side with it, or better, run the older tree as the peer.

The peer: the same steps against a server running another tree's code (``--peer-ref REF``, a
git revision whose ``src`` is unpacked with ``git archive``, by default ``main``; or
``--peer-src DIR``; ``--peer-ref none`` leaves it out), one after the other with this tree's
(their order alternates from step to step), with the same clients. A last table puts the two
side by side (the peer column).

With ``--realtime M`` (default 0), M real-time tables (``--realtime-game``, Speed by default)
play beside them during every step, each between two scripted people over real websockets
(they react ``--rt-think`` seconds after each new state: a random legal card, else turn up,
spit, slap, choose or call; one action in flight each); a finished game is followed at once by
a new table for the same pair. Their own row (``speed xM``) gives:

* ``held``: real-time tables that moved; ``actions/s``: entries (accepted actions, countdowns,
  starts) reaching the clients per second;
* ``act->all``: from a person sending ``act`` until both people have a state at or after the
  seq the server gave that action (known from the ``ref`` on the sender's frame); refused
  actions are not timed (they change nothing and are told to the sender alone).

With ``pg2`` the parent process routes each connection to one worker by the table its path
names (``web/router.py``), and a worker makes tables whose ids are routed to it: a table's
people (Nain Jaune and real-time alike) are on the process holding its lease, and the
tables are spread over the two by the POSTs that made them (round-robin per connection).

Only 127.0.0.1 (``--port P``: the servers listen on P, P+1, ..., PostgreSQL on P+50, ...;
free ports by default). Bounded: every step is ``--settle`` + ``--seconds`` long once its
tables are made, and the whole run is cut after ``--budget`` seconds (the rows not run say
so). Progress goes to stderr.

    PYTHONPATH=src:. python benchmarks/load.py [--tables 500,1000] [--seconds 20]
        [--modes sqlite,pg1,pg2] [--peer-ref main | --peer-src DIR] [--realtime 20]

Figures and analysis: docs/deploy.md, "What it holds".
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.pgcluster import PgCluster, why_not
from tests.scale.clients import KEPT_ALIVE, ServerProcess, create_realtime_table, create_table


class _Seat(msgspec.Struct):
    joined: bool = False


class _Round(msgspec.Struct):
    legal: list[Any] | None = None
    k: int = 0


class _Frame(msgspec.Struct):
    """The fields of a frame a person reads; the others are skipped without being built
    (a third of the time of decoding the whole frame into dicts)."""

    type: str
    seq: int = 0
    status: str = ""
    code: str = ""
    seats: list[_Seat] = []
    ready: list[int] = []
    round: _Round | None = None


_decode = msgspec.json.Decoder(_Frame).decode


@dataclass
class Stats:
    """What the clients saw in one measured window."""

    latencies: list[float] = field(default_factory=list)
    changes: int = 0
    moved: set[str] = field(default_factory=set)
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False


@dataclass
class Table:
    table_id: str
    tokens: dict[int, str]
    seq: int = 0
    over: bool = False
    """The game has ended (its people stop)."""
    pending: dict[int, tuple[float, set[int]]] = field(default_factory=dict)
    """Expected seq -> (time the act was sent, seats that have seen it)."""


class Person:
    """One person's websocket: acts after ``think`` seconds, readies, records latencies."""

    def __init__(self, address: str, table: Table, seat: int, think: float, stats: Stats) -> None:
        self.url = f"ws://{address}/ws/{table.table_id}?token={table.tokens[seat]}"
        self.table = table
        self.seat = seat
        self.think = think
        self.stats = stats
        self.stop = False

    async def run(self) -> None:
        while not self.stop and not self.table.over:
            try:
                async with websockets.connect(self.url, max_size=2**22, open_timeout=20) as ws:
                    await self._session(ws)
            except (TimeoutError, OSError, websockets.WebSocketException):
                await asyncio.sleep(0.5)
            except Exception as exc:  # counted (the errors column), never a silent stop
                key = f"client {type(exc).__name__}"
                self.stats.errors[key] = self.stats.errors.get(key, 0) + 1
                await asyncio.sleep(0.5)

    async def _session(self, ws: Any) -> None:
        acted: set[int] = set()
        act_task: asyncio.Task[None] | None = None
        async for text in ws:
            if self.stop:
                return
            frame = _decode(text)
            if frame.type == "error":
                self.stats.errors[frame.code] = self.stats.errors.get(frame.code, 0) + 1
                continue
            if frame.type != "state":
                continue
            seq = frame.seq
            self._seen(seq)
            status = frame.status
            if status == "over":
                self.table.over = True
                return
            rnd = frame.round
            if status == "waiting" and not frame.seats[self.seat].joined:
                if seq not in acted:
                    acted.add(seq)
                    await ws.send('{"type": "join", "name": "Bob"}')
            elif status == "playing" and rnd is not None and rnd.legal and seq not in acted:
                acted.add(seq)
                if act_task is not None:
                    act_task.cancel()
                act_task = asyncio.create_task(self._act(ws, rnd.legal[0], seq))
            elif status == "round-over" and self.seat not in frame.ready:
                once = -1 - (rnd.k if rnd is not None else 0)
                if once not in acted:
                    acted.update((seq, once))
                    await ws.send('{"type": "ready"}')

    async def _act(self, ws: Any, action: str, seq: int) -> None:
        await asyncio.sleep(self.think)
        if self.table.seq != seq:
            return
        self.table.pending[seq + 1] = (time.perf_counter(), set())
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))

    def _seen(self, seq: int) -> None:
        table = self.table
        if seq > table.seq:
            if self.stats.measuring:
                self.stats.changes += seq - table.seq
                self.stats.moved.add(table.table_id)
            table.seq = seq
        now = time.perf_counter()
        for expected in [s for s in table.pending if s <= seq]:
            sent, seats = table.pending[expected]
            seats.add(self.seat)
            if len(seats) == 2:
                del table.pending[expected]
                if self.stats.measuring:
                    self.stats.latencies.append(now - sent)


@dataclass
class RtStats:
    """What the real-time tables' clients saw in one measured window."""

    latencies: list[float] = field(default_factory=list)
    changes: int = 0
    moved: set[str] = field(default_factory=set)
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    measuring: bool = False

    def reset(self) -> None:
        self.latencies.clear()
        self.errors.clear()
        self.moved.clear()
        self.changes = 0
        self.games = 0


class RtPair:
    """Two scripted people playing one real-time table after another (a new one when a game
    ends); times each accepted action until both of them have a state that holds it."""

    ORDER = ("play", "turn-up", "spit", "slap", "choose", "call")

    def __init__(
        self, address: str, http: httpx.AsyncClient, args: argparse.Namespace, stats: RtStats,
        seed: int,
    ) -> None:  # fmt: skip
        self.address = address
        self.http = http
        self.game = args.realtime_game
        self.think = args.rt_think
        self.stats = stats
        self.rng = random.Random(seed)
        self.stop = False
        self.table_id = ""
        self.seen: dict[int, list[tuple[int, float]]] = {0: [], 1: []}
        """Per seat: (seq, when it was first seen), seqs increasing."""
        self.pending: list[tuple[int, float]] = []
        """(seq of an accepted action, when it was sent) not yet seen by both."""
        self.last: dict[int, dict[str, Any] | None] = {0: None, 1: None}
        self.joined: set[int] = set()

    async def run(self) -> None:
        while not self.stop:
            try:
                made = await create_realtime_table(
                    self.http, game=self.game, options={"countdown": "1"}
                )
            except (httpx.HTTPError, AssertionError):
                await asyncio.sleep(0.5)
                continue
            self.table_id = made.table_id
            self.seen = {0: [], 1: []}
            self.pending = []
            self.joined = set()
            await asyncio.gather(*(self._seat(made.tokens[g], g) for g in (0, 1)))
            if self.stats.measuring:
                self.stats.games += 1

    async def _seat(self, token: str, seat: int) -> None:
        url = f"ws://{self.address}/ws/{self.table_id}?token={token}"
        sent: dict[int, float] = {}
        self.last[seat] = None
        acting: asyncio.Task[None] | None = None
        try:
            async with websockets.connect(url, max_size=2**22, open_timeout=20) as ws:
                while not self.stop:
                    try:
                        text = await asyncio.wait_for(ws.recv(), 1.0)
                    except TimeoutError:  # our action was lost or refused quietly: look again
                        sent.clear()
                        acting = self._act_soon(ws, seat, sent, acting)
                        continue
                    frame = json.loads(text)
                    if frame["type"] == "error":
                        key = frame["code"]
                        self.stats.errors[key] = self.stats.errors.get(key, 0) + 1
                        sent.pop(frame.get("ref"), None)
                        acting = self._act_soon(ws, seat, sent, acting)
                        continue
                    if frame["type"] != "state":
                        continue
                    self._saw(seat, frame["seq"], time.perf_counter())
                    ref = frame.get("ref")
                    if ref in sent:
                        self.pending.append((frame["seq"], sent.pop(ref)))
                    self._resolve()
                    self.last[seat] = frame
                    if frame["status"] == "over":
                        return
                    acting = self._act_soon(ws, seat, sent, acting)
        except (OSError, websockets.WebSocketException):
            await asyncio.sleep(0.5)
        finally:
            if acting is not None:
                acting.cancel()

    def _act_soon(
        self, ws: Any, seat: int, sent: dict[int, float], acting: asyncio.Task[None] | None
    ) -> asyncio.Task[None] | None:
        """React to the newest state after ``think`` (reading goes on meanwhile), unless an
        action is on its way or already waiting for its answer."""
        if sent or (acting is not None and not acting.done()):
            return acting
        return asyncio.create_task(self._act(ws, seat, sent))

    async def _act(self, ws: Any, seat: int, sent: dict[int, float]) -> None:
        frame = self.last[seat]
        if frame is None:
            return
        if frame["status"] == "waiting" and frame["seats"][seat]["name"] is None:
            if seat in self.joined:
                return
            self.joined.add(seat)
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send('{"type": "join", "name": "Bob"}')
            return
        if frame["status"] != "playing" or not (frame.get("table_view") or {}).get("legal"):
            return
        await asyncio.sleep(self.think)
        frame = self.last[seat]  # the newest state once the reaction time has passed
        assert frame is not None
        legal = (frame.get("table_view") or {}).get("legal") or []
        if frame["status"] != "playing":
            return
        for kind in self.ORDER:
            options = [a for a in legal if a["type"] == kind]
            if options:
                ref = self.rng.randrange(1 << 30)
                sent[ref] = time.perf_counter()
                message = {"type": "act", "action": self.rng.choice(options), "id": ref}
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.send(json.dumps(message))
                return

    def _saw(self, seat: int, seq: int, now: float) -> None:
        seen = self.seen[seat]
        if seen and seen[-1][0] >= seq:
            return
        if seat == 0 and self.stats.measuring:
            self.stats.changes += seq - (seen[-1][0] if seen else 0)
            self.stats.moved.add(self.table_id)
        seen.append((seq, now))

    def _resolve(self) -> None:
        keep = []
        for seq, sent in self.pending:
            times = []
            for seat in (0, 1):
                seen = self.seen[seat]
                i = bisect.bisect_left(seen, (seq, float("-inf")))
                if i == len(seen):
                    break
                times.append(seen[i][1])
            if len(times) < 2:
                keep.append((seq, sent))
            elif self.stats.measuring:
                self.stats.latencies.append(max(times) - sent)
        self.pending = keep


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by these processes and their children."""
    tick = os.sysconf("SC_CLK_TCK")
    wanted = set(pids)
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        pid = int(entry.name)
        stats[pid] = fields
        children.setdefault(int(fields[1]), []).append(pid)
    todo = list(wanted)
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in wanted:
                wanted.add(child)
                todo.append(child)
    return sum((int(stats[p][11]) + int(stats[p][12])) / tick for p in wanted if p in stats)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def cpu_waited() -> float:
    """Seconds so far in which some task of the machine waited for a core (PSI), or nan."""
    try:
        text = Path("/proc/pressure/cpu").read_text()
    except OSError:
        return float("nan")
    some = text.splitlines()[0]
    return int(some.rsplit("total=", 1)[1]) / 1e6


def progress(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


class LoopLag:
    """How late a 10 ms sleep wakes in this (the clients') process, while ``measuring``."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.measuring = False

    async def run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            if self.measuring:
                self.lags.append(time.perf_counter() - start - 0.01)


@dataclass
class Code:
    """A tree whose ``src`` a server runs: this one, or the peer."""

    label: str
    src: Path


@dataclass
class Result:
    setup: str
    tables: int
    code: str
    cells: list[str]
    p99: float = float("nan")
    ms_per_action: float = float("nan")
    load: float = float("nan")
    rt_row: str = ""


class Ports:
    """``--port P``: servers on P, P+1, ... and PostgreSQL on P+50, ... (free ports if 0)."""

    def __init__(self, base: int) -> None:
        self.base = base
        self.servers = 0
        self.pgs = 0

    def server(self) -> int | None:
        if not self.base:
            return None
        self.servers += 1
        return self.base + (self.servers - 1) % 50

    def pg(self) -> int | None:
        if not self.base:
            return None
        self.pgs += 1
        return self.base + 50 + (self.pgs - 1) % 50


async def fresh_database(pg: PgCluster, name: str) -> str:
    """A new database ``name`` in the cluster; its SQLAlchemy URL."""
    import asyncpg

    conn = await asyncpg.connect(host="127.0.0.1", port=pg.port, user="cardroom",
                                 database="postgres")  # fmt: skip
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return pg.url.rsplit("/", 1)[0] + "/" + name


async def run_step(
    setup: str, db: str, workers: int, target: int, code: Code, args: argparse.Namespace,
    pg: PgCluster | None, port: int | None,
) -> Result:  # fmt: skip
    """A fresh server with ``target`` tables: settle, then measure one window."""
    server = ServerProcess(db, workers=workers, bot_delay=args.bot_delay)
    server.src = code.src
    if port is not None:
        server.port = port
    progress(f"{setup}, {target} tables, {code.label}: starting the server on {server.address}")
    server.start()
    assert server.proc is not None
    stats = Stats()
    rt_stats = RtStats()
    lag = LoopLag()
    pairs: list[RtPair] = []
    people: list[Person] = []
    tasks: list[asyncio.Task[None]] = [asyncio.create_task(lag.run())]
    pg_pid = [int((pg.data / "postmaster.pid").read_text().split()[0])] if pg else []
    try:
        async with httpx.AsyncClient(
            base_url=f"http://{server.address}", timeout=60, limits=KEPT_ALIVE
        ) as http:
            for n in range(args.realtime):
                pair = RtPair(server.address, http, args, rt_stats, seed=n)
                pairs.append(pair)
                tasks.append(asyncio.create_task(pair.run()))
            made_at = time.monotonic()
            told = made_at
            tables = 0
            while tables < target:
                batch = min(10, target - tables)
                made = await asyncio.gather(
                    *(create_table(http, rounds=100, level=args.level) for _ in range(batch))
                )
                for m in made:
                    table = Table(m.table_id, m.tokens)
                    for seat in (0, 1):
                        person = Person(server.address, table, seat, args.think, stats)
                        people.append(person)
                        tasks.append(asyncio.create_task(person.run()))
                tables += batch
                if time.monotonic() - told > 5 or tables == target:
                    told = time.monotonic()
                    progress(f"  {tables}/{target} tables made ({told - made_at:.0f} s)")
            await asyncio.sleep(args.settle)
            stats.latencies.clear()
            stats.errors.clear()
            stats.moved.clear()
            stats.changes = 0
            rt_stats.reset()
            waited0 = cpu_waited()
            cpu0 = cpu_seconds([server.proc.pid]), cpu_seconds(pg_pid), time.process_time()
            t0 = time.perf_counter()
            stats.measuring = rt_stats.measuring = lag.measuring = True
            progress(f"  measuring {args.seconds:g} s")
            await asyncio.sleep(args.seconds)
            stats.measuring = rt_stats.measuring = lag.measuring = False
            wall = time.perf_counter() - t0
            cpu1 = cpu_seconds([server.proc.pid]), cpu_seconds(pg_pid), time.process_time()
            waited = (cpu_waited() - waited0) / wall
    finally:
        for person in people:
            person.stop = True
        for pair in pairs:
            pair.stop = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        server.stop()
    lat = [x * 1000 for x in stats.latencies]
    cpu = [(b - a) / wall for a, b in zip(cpu0, cpu1, strict=True)]
    per_action = 1000 * cpu[0] * wall / max(stats.changes, 1)
    load = os.getloadavg()[0]
    p99 = percentile(lat, 0.99)
    cells = [
        setup, str(target), code.label, str(len(stats.moved)), f"{stats.changes / wall:.0f}",
        str(len(lat)), f"{percentile(lat, 0.5):.1f}", f"{p99:.1f}",
        f"{max(lat) if lat else float('nan'):.1f}", f"{cpu[0]:.2f}",
        f"{cpu[1]:.2f}" if pg else "-", f"{cpu[2]:.2f}",
        f"{1000 * percentile(lag.lags, 0.99):.1f}", str(sum(stats.errors.values())),
        f"**{per_action:.2f}**", f"{100 * waited:.0f}", f"{load:.1f}",
    ]  # fmt: skip
    result = Result(setup, target, code.label, cells, p99, per_action, load)
    if pairs:
        rt = [x * 1000 for x in rt_stats.latencies]
        errors = ", ".join(f"{k} {v}" for k, v in sorted(rt_stats.errors.items()))
        result.rt_row = (
            f"| {setup} | {args.realtime_game} x{len(pairs)} | {code.label} "
            f"| {len(rt_stats.moved)} | {rt_stats.changes / wall:.0f} | {len(rt)} "
            f"| {percentile(rt, 0.5):.1f} | {percentile(rt, 0.99):.1f} "
            f"| {max(rt) if rt else float('nan'):.1f} | (same) | | | | "
            f"{sum(rt_stats.errors.values())} ({errors}; {rt_stats.games} games ended) | | | |"
        )
    if lat and statistics.median(lat) > args.give_up_ms:
        result.cells[2] += f" (median above {args.give_up_ms:g} ms: larger steps not run)"
    return result


def peer_code(args: argparse.Namespace, tmp: Path) -> Code | None:
    """The peer's tree: ``--peer-src``, or ``--peer-ref`` unpacked with ``git archive``."""
    root = Path(__file__).resolve().parents[1]
    if args.peer_src is not None:
        return Code(f"peer {args.peer_src}", args.peer_src.resolve())
    if args.peer_ref in ("", "none"):
        return None
    git = ["git", "-C", str(root)]
    rev = subprocess.run([*git, "rev-parse", "--short", args.peer_ref], capture_output=True,
                         text=True, check=True).stdout.strip()  # fmt: skip
    archive = subprocess.run([*git, "archive", rev, "src"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive.stdout, check=True)
    return Code(f"peer {args.peer_ref} ({rev})", tmp / "src")


def this_code() -> Code:
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    return Code(f"this tree ({done.stdout.strip() or '?'})", root / "src")


HEADER = (
    "| set-up | tables | code | held | actions/s | acts timed | act->all p50 ms | p99 ms | "
    "max ms | server CPU | PG CPU | client CPU | client lag p99 ms | errors | "
    "server CPU ms/action | CPU wait % | load avg |"
)


async def run_all(
    args: argparse.Namespace, steps: list[int], tmp: Path, results: list[Result]
) -> None:
    """Every step of every set-up, this tree's and the peer's; ``results`` gets each row."""
    ours = this_code()
    peer = peer_code(args, tmp)
    codes = [ours] if peer is None else [ours, peer]
    ports = Ports(args.port)
    print(HEADER)
    print("|" + "---|" * HEADER.count(" | ") + "---|", flush=True)
    n = 0
    for mode in args.modes.split(","):
        pg: PgCluster | None = None
        if mode == "sqlite":
            setup, workers = "SQLite, 1 process", 1
        else:
            reason = why_not()
            if reason is not None:
                print(f"| {mode} | skipped: {reason} |", flush=True)
                continue
            workers = int(mode[2:] or 1)
            setup = f"PostgreSQL, {workers} process{'es' if workers > 1 else ''}"
            pg = PgCluster(fsync=True, max_connections=300, options=args.pg_options)
            port = ports.pg()
            if port is not None:
                pg.port = port
            pg.start()
        try:
            for target in steps:
                order = codes if n % 2 == 0 else codes[::-1]
                gave_up = False
                for code in order:
                    n += 1
                    if pg is None:
                        db = str(tmp / f"load{n}.db")
                    else:
                        db = await fresh_database(pg, f"load{n}")
                    result = await run_step(setup, db, workers, target, code, args, pg,
                                            ports.server())  # fmt: skip
                    results.append(result)
                    print("| " + " | ".join(result.cells) + " |", flush=True)
                    if result.rt_row:
                        print(result.rt_row, flush=True)
                    gave_up = gave_up or "median above" in result.cells[2]
                if gave_up:
                    break
        finally:
            if pg is not None:
                pg.destroy()


def host_reference() -> float:
    """CPU milliseconds of a fixed pure-Python workload (JSON both ways, small dicts and
    lists, sorting strings), the best of seven: how fast this host runs Python today, to set
    runs of other days beside these (the same code's CPU per action follows it)."""
    data = {
        "seats": [{"seat": g, "name": f"p{g}", "hand": list(range(13))} for g in range(4)],
        "events": [{"kind": "play", "seat": i % 4, "card": i, "text": f"c{i}"} for i in range(40)],
    }
    best = float("inf")
    for _ in range(7):
        start = time.process_time()
        for _ in range(500):
            back = json.loads(json.dumps(data))
            sorted(str(x) for x in back["events"])
        best = min(best, time.process_time() - start)
    return 1000 * best


def side_by_side(results: list[Result], peer: bool) -> None:
    """The peer column: this tree's p99 and CPU per action beside the peer's, per step, and
    how many times this tree's CPU per action the peer's is (the same run's host for both)."""
    steps: dict[tuple[str, int], dict[bool, Result]] = {}
    for r in results:
        steps.setdefault((r.setup, r.tables), {})[r.code.startswith("peer")] = r
    if not peer or not any(len(pair) == 2 for pair in steps.values()):
        return
    print()
    print("| set-up | tables | p99 ms (this tree) | p99 ms (peer) | server CPU ms/action (this "
          "tree) | (peer) | peer / this tree | load avg (this tree / peer) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for (setup, tables), pair in steps.items():
        mine, theirs = pair.get(False), pair.get(True)
        if mine is None or theirs is None:
            continue
        print(
            f"| {setup} | {tables} | {mine.p99:.1f} | {theirs.p99:.1f} | "
            f"{mine.ms_per_action:.2f} | {theirs.ms_per_action:.2f} | "
            f"{theirs.ms_per_action / max(mine.ms_per_action, 1e-9):.2f} | "
            f"{mine.load:.1f} / {theirs.load:.1f} |"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="50,100,200,500")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--settle", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--modes", default="sqlite,pg1,pg2")
    parser.add_argument("--think", type=float, default=1.0, help="a person's thinking time")
    parser.add_argument("--bot-delay", type=float, default=0.8)
    parser.add_argument("--level", default="easy")
    parser.add_argument("--budget", type=float, default=900.0, help="seconds for the whole run")
    parser.add_argument(
        "--pg-options", default="", help='more PostgreSQL options, e.g. "-c synchronous_commit=off"'
    )
    parser.add_argument("--give-up-ms", type=float, default=2000.0)
    parser.add_argument(
        "--realtime", type=int, default=0, help="real-time tables (two scripted people each)"
    )
    parser.add_argument("--realtime-game", default="speed", choices=["speed", "spit"])
    parser.add_argument(
        "--rt-think", type=float, default=0.3, help="a real-time player's reaction time"
    )
    parser.add_argument("--peer-ref", default="main", help="the peer's git revision ('none')")
    parser.add_argument("--peer-src", type=Path, help="the peer's src folder (over --peer-ref)")
    parser.add_argument("--port", type=int, default=0, help="first port (0: free ports)")
    args = parser.parse_args()
    steps = [int(x) for x in args.tables.split(",")]
    print(
        f"load: tables {steps}, {args.seconds:g} s each after {args.settle:g} s, think "
        f"{args.think} s, bot delay {args.bot_delay} s, {args.realtime} {args.realtime_game} "
        f"tables (react {args.rt_think} s), {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f}, budget {args.budget:g} s, host reference "
        f"{host_reference():.0f} ms of CPU (host_reference: less is a faster host)"
    )
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        run = asyncio.create_task(run_all(args, steps, tmp, results))
        try:
            await asyncio.wait_for(asyncio.shield(run), args.budget)
        except TimeoutError:
            run.cancel()  # the servers and PostgreSQL are stopped by the steps' finally
            with contextlib.suppress(asyncio.CancelledError):
                await run
            print(f"| (cut: the budget of {args.budget:g} s was spent; later steps not run) |")
    side_by_side(results, peer=args.peer_src is not None or args.peer_ref not in ("", "none"))


if __name__ == "__main__":
    asyncio.run(main())
