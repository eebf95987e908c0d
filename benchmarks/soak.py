"""Soak: N Nain Jaune tables for a bounded time; resident memory and event-loop pauses per minute.

``--tables`` tables (300) play for ``--minutes`` (20) against ``cardroom serve`` (SQLite, one
process) on 127.0.0.1, each with 2 people (the scripted websocket clients of
``benchmarks/load.py``, ``--think`` s before they act) and 2 bots (``--bot-delay``); a game
lasts ``--rounds`` rounds (5: about 6 minutes, so that games end all through the soak as on
a real server and the finished tables' path is soaked; 100 would outlast a soak) and a
finished table is replaced by a new one. The server runs under ``benchmarks/soak_server.py``,
which measures inside it how late a 10 ms sleep on the event loop wakes (every pause of the
loop, whatever its cause) and how long each garbage collection takes.

The peer, in the same run and on the same machine at the same time: a second server with the
same tables and clients whose keeper runs the old periodic full collection (unfreeze, collect
everything, freeze) every ``--peer-full-every`` seconds (60, so that a shortened soak shows
it; the server did it every 600 s); ``--peer-full-every 0`` leaves the peer out.

Every minute a row per server: tables, games finished (and replaced) so far, the Nain Jaune
tables in the server's memory (finished ones it has not dropped yet included), actions
reaching the clients per second, act->all p99 (from a person's act until both people have the
state; a loaded machine shows there first), the server's resident memory (RSS), the longest
loop pause of the minute and the most CPU the loop's thread spent within one (what the server
itself stalled, whatever the machine's load), its longest garbage collection, its full
collections, the CPU of the keeper's steps (and of the longest step), the frozen objects and
the machine's load average.

At the end: per server, the RSS after the first minute, at most and at the end, how fast it
grew over the first and the second half of the run (MB a minute: levelling off shows as the
second figure near 0), the longest pause; then each server runs one full collection of
everything, frozen objects included, and tells how many objects it freed (cyclic garbage the
freezing kept) and the memory before and after.

Bounded: the tables play ``--minutes``; making them and stopping take at most a minute more
(``--port P``: the servers listen on P and P+1, free ports by default).

    PYTHONPATH=src:. python benchmarks/soak.py [--tables 300] [--minutes 20] [--rounds 5]
        [--peer-full-every 60]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.load import Person, Stats, Table, percentile
from benchmarks.soak_server import rss_mb
from tests.scale.clients import KEPT_ALIVE, ServerProcess, create_table

GC_SUMS = ("keeper_gc_cpu_ms", "auto_gc_cpu_ms", "auto_gcs", "keeper_collected",
           "auto_collected")  # fmt: skip
"""The monitor's garbage-collection sums, per minute (``soak_server.py``)."""


@dataclass
class Soaked:
    """One server of the soak, its tables and what was seen of it."""

    label: str
    full_every: float
    report: Path
    server: ServerProcess | None = None
    stats: Stats = field(default_factory=Stats)
    tables: list[Table] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    people: list[Person] = field(default_factory=list)
    replaced: int = 0
    create_errors: dict[str, int] = field(default_factory=dict)
    """Tables the soak could not make, by error (tried again two seconds later)."""
    rss: list[float] = field(default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)
    """The full collection's line at the end (``soak_server.py``)."""
    longest_lag: float = 0.0
    longest_busy: float = 0.0
    read: int = 0
    """Lines of ``report`` already read."""
    env: dict[str, str] = field(default_factory=dict)
    """The keeper's schedule, when not the server's (``--peer-keeper``)."""
    gc_minutes: list[dict[str, float]] = field(default_factory=list)

    def start(self, bot_delay: float, port: int) -> None:
        os.environ["SOAK_REPORT"] = str(self.report)
        os.environ["SOAK_FULL_EVERY"] = str(self.full_every)
        for name in ("SOAK_KEEPER_GEN", "SOAK_THRESHOLD0"):
            os.environ.pop(name, None)
        os.environ.update(self.env)
        self.server = ServerProcess(self.report.with_suffix(".db").as_posix(), bot_delay=bot_delay)
        self.server.entry = [str(Path(__file__).with_name("soak_server.py"))]
        if port:
            self.server.port = port
        self.server.keep_err = True  # its stderr is told at the end
        self.server.start()

    def seat(self, made: Table, think: float) -> None:
        assert self.server is not None
        self.tables.append(made)
        for seat in (0, 1):
            person = Person(self.server.address, made, seat, think, self.stats)
            self.people.append(person)
            self.tasks.append(asyncio.create_task(person.run()))

    def minute(self) -> dict[str, float]:
        """The server's monitor lines since the last call, folded together."""
        lines = self.report.read_text().splitlines() if self.report.exists() else []
        new = [json.loads(x) for x in lines[self.read :]]
        self.read = len(lines)
        for x in new:
            if x.get("final_full"):
                self.final = x
        new = [x for x in new if not x.get("final_full")]
        return {
            "lag_ms": max((x["lag_ms"] for x in new), default=float("nan")),
            "busy_ms": max((x["busy_ms"] for x in new), default=float("nan")),
            "gc_ms": max((x["gc_ms"] for x in new), default=float("nan")),
            "full": sum(x["full"] for x in new),
            "keeper_ms": sum(x.get("keeper_cpu_ms", 0.0) for x in new),
            "step_ms": max((x.get("keeper_step_ms", 0.0) for x in new), default=float("nan")),
            "frozen": new[-1]["frozen"] if new else 0,
            "live": new[-1].get("live", float("nan")) if new else float("nan"),
            **{k: sum(x.get(k, 0.0) for x in new) for k in GC_SUMS},
        }

    async def full_collection(self) -> None:
        """Ask the server for one full collection of everything (SIGUSR1); wait for its line
        (at most 60 s)."""
        assert self.server is not None and self.server.proc is not None
        os.kill(self.server.proc.pid, signal.SIGUSR1)
        end = time.monotonic() + 60
        while not self.final and time.monotonic() < end:
            await asyncio.sleep(0.5)
            self.minute()

    def stop(self) -> None:
        for person in self.people:
            person.stop = True
        for task in self.tasks:
            task.cancel()
        if self.server is not None:
            self.server.stop()


async def keep_tables(soak: Soaked, args: argparse.Namespace, http: httpx.AsyncClient) -> None:
    """Make the tables (10 at a time), then replace each finished one."""
    while True:
        done = [t for t in soak.tables if t.over]
        for t in done:
            soak.tables.remove(t)
            soak.replaced += 1
        soak.people = [p for p in soak.people if not p.table.over]
        missing = args.tables - len(soak.tables)
        if missing > 0:
            made = await asyncio.gather(
                *(
                    create_table(http, rounds=args.rounds, level="easy")
                    for _ in range(min(10, missing))
                ),
                return_exceptions=True,
            )
            for m in made:
                if isinstance(m, BaseException):  # counted and tried again, never a silent stop
                    key = f"create: {type(m).__name__} {str(m)[:80]}"
                    soak.create_errors[key] = soak.create_errors.get(key, 0) + 1
                else:
                    soak.seat(Table(m.table_id, m.tokens), args.think)
            if len(made) > sum(isinstance(m, BaseException) for m in made):
                continue
        await asyncio.sleep(2)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0, help="a person's thinking time")
    parser.add_argument("--bot-delay", type=float, default=0.8)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of a game")
    parser.add_argument(
        "--peer-keeper", default="",
        help="GEN[,THRESHOLD0]: the peer is the freezing keeper with another schedule (its step "
        "collects generation GEN; gc's own threshold of the youngest THRESHOLD0) instead of "
        "the periodic full collection",
    )
    parser.add_argument(
        "--peer-full-every", type=float, default=60.0,
        help="the peer's periodic full collection, seconds (0: no peer)",
    )  # fmt: skip
    parser.add_argument("--port", type=int, default=0, help="first port (0: free ports)")
    args = parser.parse_args()
    print(
        f"soak: {args.tables} tables a server for {args.minutes:g} min, think {args.think} s, bot "
        f"delay {args.bot_delay} s, {args.rounds} rounds a game, {os.cpu_count()} cores, load "
        f"average {os.getloadavg()[0]:.1f}"
    )
    print(
        "| server | minute | tables | games ended | tables in memory | actions/s | act->all p99 ms "
        "| RSS MB | longest loop pause ms | its CPU ms | longest GC ms | full GCs "
        "| keeper CPU ms (longest step) | frozen objects | errors | load avg |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        soaks = [Soaked("freeze only (now)", 0.0, Path(tmp) / "now.jsonl")]
        if args.peer_keeper:
            gen, _, threshold = args.peer_keeper.partition(",")
            label = f"keeper collect({gen}), gc threshold {threshold or 'default'}"
            env = {"SOAK_KEEPER_GEN": gen, "SOAK_THRESHOLD0": threshold or "0"}
            soaks.append(Soaked(label, 0.0, Path(tmp) / "peer.jsonl", env=env))
        elif args.peer_full_every > 0:
            label = f"full GC every {args.peer_full_every:g} s (before)"
            soaks.append(Soaked(label, args.peer_full_every, Path(tmp) / "peer.jsonl"))
        makers: list[asyncio.Task[None]] = []
        clients = [httpx.AsyncClient(timeout=60, limits=KEPT_ALIVE) for _ in soaks]
        try:
            for n, (soak, http) in enumerate(zip(soaks, clients, strict=True)):
                soak.start(args.bot_delay, args.port + n if args.port else 0)
                assert soak.server is not None
                http.base_url = httpx.URL(f"http://{soak.server.address}")
                makers.append(asyncio.create_task(keep_tables(soak, args, http)))
            end = time.monotonic() + 60 * args.minutes
            minute = 0
            while time.monotonic() < end:
                for soak in soaks:
                    soak.stats.latencies.clear()
                    soak.stats.changes = 0
                    soak.stats.measuring = True
                t0 = time.perf_counter()
                await asyncio.sleep(min(60.0, end - time.monotonic()))
                wall = time.perf_counter() - t0
                minute += 1
                for soak in soaks:
                    assert soak.server is not None and soak.server.proc is not None
                    seen = soak.minute()
                    rss = rss_mb(soak.server.proc.pid)
                    soak.rss.append(rss)
                    soak.longest_lag = max(soak.longest_lag, seen["lag_ms"])
                    soak.longest_busy = max(soak.longest_busy, seen["busy_ms"])
                    soak.gc_minutes.append({k: seen[k] for k in GC_SUMS})
                    lat = [1000 * x for x in soak.stats.latencies]
                    print(
                        f"| {soak.label} | {minute} | {len(soak.tables)} | {soak.replaced} | "
                        f"{seen['live']:.0f} | "
                        f"{soak.stats.changes / wall:.0f} | {percentile(lat, 0.99):.0f} | "
                        f"{rss:.0f} | {seen['lag_ms']:.0f} | {seen['busy_ms']:.0f} | "
                        f"{seen['gc_ms']:.0f} | {seen['full']:.0f} | {seen['keeper_ms']:.0f} "
                        f"({seen['step_ms']:.1f}) | "
                        f"{seen['frozen']:.0f} | {errors(soak)} | {os.getloadavg()[0]:.1f} |",
                        flush=True,
                    )
            for task in makers:
                task.cancel()
            for soak in soaks:
                await soak.full_collection()
        finally:
            for task in makers:
                task.cancel()
            for soak in soaks:
                soak.stop()
            with contextlib.suppress(Exception):
                await asyncio.gather(*makers, *(t for s in soaks for t in s.tasks),
                                     return_exceptions=True)  # fmt: skip
            for http in clients:
                await http.aclose()
    print()
    for soak in soaks:
        if soak.rss:
            half = len(soak.rss) // 2
            first, second = growth(soak.rss[: half + 1]), growth(soak.rss[half:])
            trend = (
                f"growing {first:+.2f} MB a minute over minutes 1-{half + 1}, "
                f"{second:+.2f} over {half + 1}-{len(soak.rss)}"
                if len(soak.rss) > 1
                else "no trend from one minute"
            )
            print(
                f"{soak.label}: RSS {soak.rss[0]:.0f} MB after minute 1, {max(soak.rss):.0f} MB "
                f"at most, {soak.rss[-1]:.0f} MB at the end ({trend}); "
                f"longest loop pause {soak.longest_lag:.0f} ms (of it CPU at most "
                f"{soak.longest_busy:.0f} ms); {soak.replaced} finished tables replaced"
            )
        if soak.gc_minutes:
            n = len(soak.gc_minutes)
            mean = {k: sum(m[k] for m in soak.gc_minutes) / n for k in GC_SUMS}
            print(
                f"  garbage collection a minute (mean of {n}): the keeper's collections "
                f"{mean['keeper_gc_cpu_ms']:.0f} ms CPU, {mean['keeper_collected']:.0f} objects "
                f"freed; gc's own {mean['auto_gcs']:.0f} collections "
                f"{mean['auto_gc_cpu_ms']:.0f} ms CPU, {mean['auto_collected']:.0f} objects freed"
            )
        if soak.create_errors or soak.stats.errors:
            print(f"  errors: {errors(soak)}")
        if soak.server is not None:
            told = soak.server.errors().splitlines()
            soak.server.err_path.unlink(missing_ok=True)
            if told:
                print(f"  the server's stderr, {len(told)} lines, the last ones:")
                for line in told[-6:]:
                    print(f"    {line[:200]}")
        if soak.final:
            f = soak.final
            print(
                f"  then one full collection of everything: {f['garbage']:.0f} objects freed "
                f"(of {f['frozen_before']:.0f} frozen), {f['pause_ms']:.0f} ms ({f['cpu_ms']:.0f} "
                f"ms CPU), RSS {f['rss_before_mb']:.0f} -> {f['rss_after_mb']:.0f} MB, "
                f"{f['live']:.0f} tables in memory"
            )
            kinds = ", ".join(f"{k} {n}" for k, n in f.get("kinds", []))
            print(f"  the kinds of the objects freed: {kinds}")
            where = "; ".join(f"{k} {n}" for k, n in f.get("where", []))
            print(f"  where they come from: {where}")


def errors(soak: Soaked) -> str:
    """Errors so far: the clients' (error frames, client exceptions) and the tables the soak
    could not make."""
    told = {**soak.stats.errors, **soak.create_errors}
    return ", ".join(f"{k} {v}" for k, v in sorted(told.items())) or "0"


def growth(values: list[float]) -> float:
    """Least-squares slope of ``values`` (one a minute), per minute; nan below 2 values."""
    n = len(values)
    if n < 2:
        return float("nan")
    mx, my = (n - 1) / 2, sum(values) / n
    num = sum((i - mx) * (v - my) for i, v in enumerate(values))
    return num / sum((i - mx) ** 2 for i in range(n))


if __name__ == "__main__":
    asyncio.run(main())
