"""Load: Nain Jaune and Speed tables over real websockets, SQLite (1 process) v PostgreSQL (1, 2).

Each table has 4 seats: 2 people, simulated by scripted websocket clients in this process,
and 2 bots on the server. People think ``--think`` seconds before they act, bots wait
``--bot-delay``; nobody stops (a game lasts 100 rounds). For each database/process count the
number of tables is ramped (e.g. 50, 100, 200, 500), each step measured for ``--seconds``:

* ``held``: tables that went on during the step (at least one new state);
* ``actions/s``: table changes (person and bot actions, deals) reaching the clients per second;
* ``act->all p50/p99/max``: from a person sending ``act`` until both people at that table have
  the state with that action (real websockets, JSON both ways, the log written first);
* CPU: seconds of CPU per second of the servers, PostgreSQL and this client process, and the
  servers' CPU milliseconds per action; ``load avg``: the machine's 1-minute load average at
  the end of the step (other work on a shared machine shows there).

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

With ``pg2`` the kernel spreads the connections over the two processes, so most real-time
tables have their two people on different processes (one of them the table's clock).

Only 127.0.0.1; bounded: every step is ``--seconds`` long and the whole run stops after
``--budget`` seconds.

    PYTHONPATH=src:. python benchmarks/load.py [--tables 50,100,200,500] [--seconds 10]
        [--modes sqlite,pg1,pg2] [--realtime 20]

Measured 2026-11-23 on the shared 2-core machine, after group commit, shared frame parts and
the server's GC keeper: 500 tables, about 550 actions/s, p99 42 ms SQLite, 38 ms PostgreSQL
with 1 process, 41 ms with 2 (p50 7 to 10 ms; load average about 2 from other work; at load 3:
42, 56 and 63 ms); server 1.0 to 1.3 ms of CPU per action (both processes: 1.8), clients 0.2
of a core. The knee is between 500 and
700 tables here, set by the cores the other work leaves (at load 4 to 5, 500 tables gave p99
60 to 950 ms; 1000 tables held all ~990 actions/s with p99 0.4 to 0.5 s). Before: p99 1.2 s,
0.9 s and 6 s at 500 tables. Figures and analysis: docs/deploy.md, "What it holds".
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
from tests.scale.clients import ServerProcess, create_realtime_table, create_table

_decode = msgspec.json.Decoder().decode


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

    async def _session(self, ws: Any) -> None:
        acted: set[int] = set()
        act_task: asyncio.Task[None] | None = None
        async for text in ws:
            if self.stop:
                return
            frame = _decode(text)  # msgspec: ~60% of json.loads's time on these frames
            if frame["type"] == "error":
                key = frame["code"]
                self.stats.errors[key] = self.stats.errors.get(key, 0) + 1
                continue
            if frame["type"] != "state":
                continue
            self._seen(frame["seq"])
            if frame["status"] == "over":
                self.table.over = True
                return
            seq = frame["seq"]
            rnd = frame.get("round") or {}
            if frame["status"] == "waiting" and not frame["seats"][self.seat]["joined"]:
                if seq not in acted:
                    acted.add(seq)
                    await ws.send('{"type": "join", "name": "Bob"}')
            elif frame["status"] == "playing" and rnd.get("legal") and seq not in acted:
                acted.add(seq)
                if act_task is not None:
                    act_task.cancel()
                act_task = asyncio.create_task(self._act(ws, rnd["legal"][0], seq))
            elif frame["status"] == "round-over" and self.seat not in frame.get("ready", []):
                once = -1 - int(rnd.get("k", 0))
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


async def run_mode(
    label: str, db: str, workers: int, steps: list[int], args: argparse.Namespace,
    pg: PgCluster | None, deadline: float,
) -> list[str]:  # fmt: skip
    server = ServerProcess(db, workers=workers, bot_delay=args.bot_delay)
    server.start()
    assert server.proc is not None
    stats = Stats()
    rt_stats = RtStats()
    pairs: list[RtPair] = []
    tables: list[Table] = []
    people: list[Person] = []
    tasks: list[asyncio.Task[None]] = []
    rows = []
    pg_pid = [int((pg.data / "postmaster.pid").read_text().split()[0])] if pg else []
    try:
        async with httpx.AsyncClient(base_url=f"http://{server.address}", timeout=60) as http:
            for n in range(args.realtime):
                pair = RtPair(server.address, http, args, rt_stats, seed=n)
                pairs.append(pair)
                tasks.append(asyncio.create_task(pair.run()))
            for target in steps:
                if time.monotonic() > deadline:
                    rows.append(f"| {label} | {target} | (not run: time budget spent) |")
                    break
                while len(tables) < target:
                    batch = min(10, target - len(tables))
                    made = await asyncio.gather(
                        *(create_table(http, rounds=100, level=args.level) for _ in range(batch))
                    )
                    for m in made:
                        table = Table(m.table_id, m.tokens)
                        tables.append(table)
                        for seat in (0, 1):
                            person = Person(server.address, table, seat, args.think, stats)
                            people.append(person)
                            tasks.append(asyncio.create_task(person.run()))
                await asyncio.sleep(args.settle)
                stats.latencies.clear()
                stats.errors.clear()
                stats.moved.clear()
                stats.changes = 0
                rt_stats.reset()
                cpu0 = cpu_seconds([server.proc.pid]), cpu_seconds(pg_pid), time.process_time()
                t0 = time.perf_counter()
                stats.measuring = rt_stats.measuring = True
                await asyncio.sleep(args.seconds)
                stats.measuring = rt_stats.measuring = False
                wall = time.perf_counter() - t0
                cpu1 = cpu_seconds([server.proc.pid]), cpu_seconds(pg_pid), time.process_time()
                lat = [x * 1000 for x in stats.latencies]
                cpu = [(b - a) / wall for a, b in zip(cpu0, cpu1, strict=True)]
                row = (
                    f"| {label} | {target} | {len(stats.moved)} | {stats.changes / wall:.0f} | "
                    f"{len(lat)} | {percentile(lat, 0.5):.1f} | {percentile(lat, 0.99):.1f} | "
                    f"{max(lat) if lat else float('nan'):.1f} | {cpu[0]:.2f} | "
                    f"{cpu[1]:.2f} | {cpu[2]:.2f} | {sum(stats.errors.values())} | "
                    f"{1000 * cpu[0] * wall / max(stats.changes, 1):.2f} | "
                    f"{os.getloadavg()[0]:.1f} |"
                )
                print(row, flush=True)
                rows.append(row)
                if pairs:
                    rt = [x * 1000 for x in rt_stats.latencies]
                    row = (
                        f"| {label} | {args.realtime_game} x{len(pairs)} | {len(rt_stats.moved)} "
                        f"| {rt_stats.changes / wall:.0f} | {len(rt)} | {percentile(rt, 0.5):.1f} "
                        f"| {percentile(rt, 0.99):.1f} | {max(rt) if rt else float('nan'):.1f} "
                        f"| (same) | | | {sum(rt_stats.errors.values())} "
                        f"({', '.join(f'{k} {v}' for k, v in sorted(rt_stats.errors.items()))}; "
                        f"{rt_stats.games} games ended) |"
                    )
                    print(row, flush=True)
                    rows.append(row)
                if lat and statistics.median(lat) > args.give_up_ms:
                    print(f"| {label} | stop: median above {args.give_up_ms} ms |", flush=True)
                    break
    finally:
        for person in people:
            person.stop = True
        for pair in pairs:
            pair.stop = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        server.stop()
    return rows


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
    args = parser.parse_args()
    steps = [int(x) for x in args.tables.split(",")]
    deadline = time.monotonic() + args.budget
    print(
        f"load: tables {steps}, {args.seconds:.0f} s each, think {args.think} s, bot delay "
        f"{args.bot_delay} s, {args.realtime} {args.realtime_game} tables (react "
        f"{args.rt_think} s), {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        "| database | tables | held | actions/s | acts timed | act->all p50 ms | p99 ms | "
        "max ms | server CPU | PG CPU | client CPU | errors | server CPU ms/action | load avg |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for mode in args.modes.split(","):
            if mode == "sqlite":
                await run_mode(
                    "SQLite, 1 process", str(Path(tmp) / "load.db"), 1, steps, args, None, deadline
                )
                continue
            reason = why_not()
            if reason is not None:
                print(f"| {mode} | skipped: {reason} |")
                continue
            workers = int(mode[2:] or 1)
            pg = PgCluster(fsync=True, max_connections=300, options=args.pg_options)
            pg.start()
            try:
                await run_mode(f"PostgreSQL, {workers} process{'es' if workers > 1 else ''}",
                               pg.url, workers, steps, args, pg, deadline)  # fmt: skip
            finally:
                pg.destroy()


if __name__ == "__main__":
    asyncio.run(main())
