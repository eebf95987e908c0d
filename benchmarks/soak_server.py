"""``cardroom serve`` with a monitor of its event loop (the server of ``benchmarks/soak.py``).

Runs ``python -m cardroom ...`` in this process with the app's ``GcKeeper`` replaced by one
that also measures, and every ``SOAK_EVERY`` seconds (5) appends a JSON line to the file
``SOAK_REPORT``: the longest lateness of a 10 ms sleep on the event loop (``lag_ms``: every
pause, whatever its cause, waiting for a core on a loaded machine included), the most CPU the
loop's thread used within one such sleep (``busy_ms``: the pauses the server makes itself,
whatever the load), the longest garbage collection (``gc_ms``) and full collections
(``full``) since the last line, the CPU the keeper's own steps used (``keeper_cpu_ms``) and
the longest one (``keeper_step_ms``), the
frozen objects, the Nain Jaune tables in the service's memory (``live``), the resident
memory, and the CPU and objects freed of the keeper's collections and of gc's own automatic
ones (``keeper_gc_cpu_ms``, ``auto_gc_cpu_ms``, ``auto_gcs``, ``keeper_collected``,
``auto_collected``). ``SOAK_FULL_EVERY`` (seconds) gives the keeper the old periodic full
collection (the soak's peer); ``SOAK_KEEPER_GEN`` (0) and ``SOAK_THRESHOLD0`` try another
schedule: the keeper's step collects only the youngest generation, gc's own threshold of the
youngest is raised.

On SIGUSR1 (the soak sends it at its end) the monitor runs one full collection of everything,
the frozen objects included, and writes a line with what it found: ``garbage`` (objects the
collection freed: cyclic garbage the freezing had kept), its pause and the memory before and
after, and the kinds of the objects it freed (the most frequent).

    SOAK_REPORT=/tmp/r.jsonl python benchmarks/soak_server.py serve --db ... (as cardroom)
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import signal
import sys
import time
import types
from collections import Counter
from pathlib import Path
from typing import Any

from cardroom.tables import TableService
from cardroom.web import app as web_app
from cardroom.web.gcpause import GcKeeper

SERVICES: list[TableService] = []


class CountedService(TableService):
    """The app's table service, remembered so that the monitor can count its tables."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        SERVICES.append(self)


def live_tables() -> int:
    """Nain Jaune tables in the service's memory (finished ones not yet dropped included)."""
    return sum(len(service.turns.table_ids()) for service in SERVICES)


def rss_mb(pid: int | str = "self") -> float:
    """Resident memory of a process in MB (``VmRSS``), 0 when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class MeasuredKeeper(GcKeeper):
    """The server's keeper, plus the loop-lag and GC-pause monitor."""

    def __init__(self, **settings: Any) -> None:
        # whatever the app gives the keeper it replaces (step interval, automatic collections)
        full = float(os.environ.get("SOAK_FULL_EVERY", "0"))
        super().__init__(full_every=full or None, **settings)
        self.generation = int(os.environ.get("SOAK_KEEPER_GEN", "1"))
        """The generation the keeper's step collects (1, the server's; 0 to try the cheaper)."""
        threshold0 = int(os.environ.get("SOAK_THRESHOLD0", "0"))
        if threshold0:  # gc's own collection of the youngest, every that many allocations
            gc.set_threshold(threshold0, *gc.get_threshold()[1:])
        self.in_step = False
        self.gc_cpu = {"keeper": 0.0, "auto": 0.0}
        self.collected = {"keeper": 0, "auto": 0}
        self.autos = 0
        self._gc_cpu_start = 0.0
        self.report = Path(os.environ["SOAK_REPORT"])
        self.every = float(os.environ.get("SOAK_EVERY", "5"))
        self.lag = 0.0
        self.busy = 0.0
        self.gc_longest = 0.0
        self.full = 0
        self.keeper_cpu = 0.0
        self.keeper_longest = 0.0
        self._gc_start = 0.0
        self.full_asked = False

    def step(self) -> str:
        cpu = time.thread_time()
        self.in_step = True
        try:
            if self.generation != 1 and self.last_full is not None and self.full_every is None:
                gc.collect(self.generation)
                gc.freeze()
                return "freeze"
            return super().step()
        finally:
            spent = time.thread_time() - cpu
            self.keeper_cpu += spent
            self.keeper_longest = max(self.keeper_longest, spent)
            self.in_step = False

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
            self._gc_cpu_start = time.thread_time()
            return
        self.gc_longest = max(self.gc_longest, time.perf_counter() - self._gc_start)
        who = "keeper" if self.in_step else "auto"
        self.gc_cpu[who] += time.thread_time() - self._gc_cpu_start
        self.collected[who] += info["collected"]
        self.autos += who == "auto"
        if info["generation"] == 2:
            self.full += 1

    async def run(self) -> None:
        gc.callbacks.append(self._on_gc)
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGUSR1, lambda: setattr(self, "full_asked", True))
        monitor = asyncio.get_running_loop().create_task(self._monitor())
        try:
            await super().run()
        finally:
            monitor.cancel()
            gc.callbacks.remove(self._on_gc)

    async def _monitor(self) -> None:
        written = time.perf_counter()
        while True:
            start, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(0.01)
            now = time.perf_counter()
            self.lag = max(self.lag, now - start - 0.01)
            self.busy = max(self.busy, time.thread_time() - cpu)
            if self.full_asked:
                self.full_asked = False
                self._full_report()
            if now - written >= self.every:
                line = {
                    "t": time.time(), "lag_ms": 1000 * self.lag, "busy_ms": 1000 * self.busy,
                    "gc_ms": 1000 * self.gc_longest, "full": self.full,
                    "keeper_cpu_ms": 1000 * self.keeper_cpu,
                    "keeper_step_ms": 1000 * self.keeper_longest,
                    "frozen": gc.get_freeze_count(), "rss_mb": rss_mb(),
                    "live": live_tables(),
                    "keeper_gc_cpu_ms": 1000 * self.gc_cpu["keeper"],
                    "auto_gc_cpu_ms": 1000 * self.gc_cpu["auto"], "auto_gcs": self.autos,
                    "keeper_collected": self.collected["keeper"],
                    "auto_collected": self.collected["auto"],
                }  # fmt: skip
                with self.report.open("a") as out:
                    out.write(json.dumps(line) + "\n")
                self.lag = self.busy = self.gc_longest = 0.0
                self.full = 0
                self.keeper_cpu = self.keeper_longest = 0.0
                self.gc_cpu = {"keeper": 0.0, "auto": 0.0}
                self.collected = {"keeper": 0, "auto": 0}
                self.autos = 0
                written = now

    def _full_report(self) -> None:
        """One full collection of everything (frozen objects included), then freeze again."""
        before = rss_mb()
        frozen = gc.get_freeze_count()
        start, cpu = time.perf_counter(), time.thread_time()
        gc.unfreeze()
        gc.set_debug(gc.DEBUG_SAVEALL)  # keep what it finds, to tell its kinds
        try:
            garbage = gc.collect()
            kinds = Counter(type(x).__qualname__ for x in gc.garbage).most_common(12)
            where = Counter(_where(x) for x in gc.garbage).most_common(12)
            gc.garbage.clear()
        finally:
            gc.set_debug(0)
        gc.collect()
        gc.freeze()
        line = {
            "t": time.time(), "final_full": True, "garbage": garbage, "frozen_before": frozen,
            "pause_ms": 1000 * (time.perf_counter() - start),
            "cpu_ms": 1000 * (time.thread_time() - cpu), "rss_before_mb": before,
            "rss_after_mb": rss_mb(), "live": live_tables(), "kinds": kinds, "where": where,
        }  # fmt: skip
        with self.report.open("a") as out:
            out.write(json.dumps(line) + "\n")


def _where(obj: object) -> str:
    """Where a piece of cyclic garbage comes from: a task's coroutine, a frame's or a
    traceback's function (file:line), an exception's kind (and the function it was raised in);
    else its type."""
    if isinstance(obj, asyncio.Task):
        coro = obj.get_coro()
        code = getattr(coro, "cr_code", None)
        return f"Task {getattr(code, 'co_qualname', type(coro).__qualname__)}"
    if isinstance(obj, types.FrameType):
        return f"frame {obj.f_code.co_qualname} {Path(obj.f_code.co_filename).name}:{obj.f_lineno}"
    if isinstance(obj, types.TracebackType):
        while obj.tb_next is not None:
            obj = obj.tb_next
        code = obj.tb_frame.f_code
        return f"traceback to {code.co_qualname} {Path(code.co_filename).name}:{obj.tb_lineno}"
    if isinstance(obj, BaseException):
        tb = obj.__traceback__
        first = tb.tb_frame.f_code.co_qualname if tb is not None else "-"
        return f"{type(obj).__qualname__} through {first}"
    return type(obj).__qualname__


if __name__ == "__main__":
    vars(web_app).update(GcKeeper=MeasuredKeeper, TableService=CountedService)
    from cardroom.cli.main import main

    sys.argv = ["cardroom", *sys.argv[1:]]
    main()
