"""The web's analyses: a bounded queue, a worker process of their own, and the stored results.

A finished turn-based game is analysed by its game's analysis (the registry's ``analysis``
piece) once and the result kept in the store's ``analyses``
table (:class:`cardroom.store.analyses.AnalysisStore`, migration ``0002``). The work runs in its
own process pool (one worker by default, started on the first request, at a lower scheduling
priority), so an analysis never takes the server's own CPU time from a table; at most
``max_pending`` analyses wait or run at once, and a request past that is refused
(:class:`QueueFull`) until one finishes. An analysis under way or failed is said in the store
too (:meth:`AnalysisStore.claim`), so every process sharing the database tells the same state
and only one analyses a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from cardroom.analysis import AnalysisError
from cardroom.games import registry
from cardroom.store.analyses import AnalysisStore

STORE_VERSION = 3
"""Bumped when an analysis means something new (2: would-be marks re-valued; 3: learned
rollouts, re-valued against search at every seat, marked by the interval's low end), so that
stored ones are made again."""
MAX_PENDING = 8
"""Analyses waiting or running at once, over every table."""


class QueueFull(RuntimeError):
    """Too many analyses are waiting: ask again later."""


@dataclass(frozen=True, slots=True)
class Status:
    """Where an analysis stands: ``absent``, ``queued`` (``ahead`` before it), ``running``,
    ``done`` (with ``analysis``) or ``failed`` (with ``error``, an :class:`AnalysisError` code)."""

    state: str
    ahead: int = 0
    analysis: dict[str, Any] | None = None
    error: str | None = None


def _lower_priority() -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def run_analysis(data: Any, worlds: int | None, game: str) -> dict[str, Any]:
    """Analyse a record of ``game`` (its registry's ``analysis`` piece) over ``worlds`` (None:
    the analysis's own default), in the worker process; an :class:`AnalysisError` becomes
    ``{"error": code}``."""
    module = registry.game(game).load("analysis")
    try:
        result: dict[str, Any] = module.analyse(
            data, worlds=module.DEFAULT_WORLDS if worlds is None else worlds, hindsight=True
        ).to_json()
        return result
    except AnalysisError as exc:
        return {"error": exc.code}


class AnalysisQueue:
    """Analyses of finished tables: computed once in a worker pool, then read from the store."""

    def __init__(
        self,
        store: AnalysisStore,
        workers: int = 1,
        max_pending: int = MAX_PENDING,
        worlds: int | None = None,
    ) -> None:
        self.store = store
        self.workers = workers
        self.max_pending = max_pending
        self.worlds = worlds
        """The worlds of every analysis (None: each game's analysis's own default)."""
        self._pool: ProcessPoolExecutor | None = None
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._order: list[str] = []
        self._failed: dict[str, str] = {}

    async def status(self, table_id: str) -> Status:
        """Where the analysis of ``table_id`` stands (nothing is started)."""
        if table_id in self._tasks:
            ahead = self._order.index(table_id)
            return Status("running" if ahead < self.workers else "queued", ahead=ahead)
        state, data = await self.store.state(table_id, STORE_VERSION)
        if state == "done":
            return Status("done", analysis=data)
        if table_id in self._failed:
            return Status("failed", error=self._failed[table_id])
        if state == "running":  # in another process
            return Status("running")
        if state == "failed" and data is not None:
            return Status("failed", error=str(data.get("error", "failed")))
        return Status("absent")

    async def start(self, table_id: str, record: Any, game: str) -> Status:
        """Queue the analysis of a finished table's ``record`` of ``game`` (its registry name)
        unless it is stored or under way; raise :class:`QueueFull` when ``max_pending`` are
        already waiting or running."""
        now = await self.status(table_id)
        if now.state in ("done", "queued", "running"):
            return now
        if len(self._tasks) >= self.max_pending:
            raise QueueFull(f"{len(self._tasks)} analyses are already waiting")
        if not await self.store.claim(table_id, STORE_VERSION):  # another process has it
            return await self.status(table_id)
        self._failed.pop(table_id, None)
        self._order.append(table_id)
        self._tasks[table_id] = asyncio.get_running_loop().create_task(
            self._run(table_id, record, game)
        )
        return await self.status(table_id)

    async def _run(self, table_id: str, record: Any, game: str) -> None:
        try:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority,
                )
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(
                self._pool, run_analysis, record, self.worlds, game
            )
            if "error" in result:
                self._failed[table_id] = str(result["error"])
                await self.store.fail(table_id, self._failed[table_id])
            else:
                await self.store.put(table_id, STORE_VERSION, result)
        except Exception as exc:  # a broken pool, a database down: say so, keep serving
            self._failed[table_id] = f"failed: {type(exc).__name__}"
            with contextlib.suppress(Exception):
                await self.store.fail(table_id, self._failed[table_id])
        finally:
            self._tasks.pop(table_id, None)
            self._order.remove(table_id)

    async def close(self) -> None:
        """Stop: cancel what waits (its claims in the store are dropped: another process or a
        restarted one may analyse those games), and shut the worker pool down."""
        stopped = list(self._tasks)
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table_id in stopped:
            with contextlib.suppress(Exception):
                await self.store.release(table_id)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
