"""The web's analyses: a bounded queue, a worker process of their own, and a store of results.

A finished Nain Jaune game is analysed once and the result kept as a JSON file named after its
table in a folder (``<data folder>/analyses``: beside a SQLite database, else the user's data
folder). The work runs in its own process pool (one worker by default, started on the first
request, at a lower scheduling priority), so an analysis never takes the server's own CPU time
from a table; at most ``max_pending`` analyses wait or run at once, and a request past that is
refused (:class:`QueueFull`) until one finishes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardroom.analysis.nain_jaune import DEFAULT_WORLDS, AnalysisError

STORE_VERSION = 1
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


def run_analysis(data: Any, worlds: int) -> dict[str, Any]:
    """Analyse a record (in the worker process); an :class:`AnalysisError` becomes
    ``{"error": code}``."""
    from cardroom.analysis.nain_jaune import analyse

    try:
        return analyse(data, worlds=worlds, hindsight=True).to_json()
    except AnalysisError as exc:
        return {"error": exc.code}


class AnalysisQueue:
    """Analyses of finished tables: computed once in a worker pool, then read from ``folder``."""

    def __init__(
        self,
        folder: Path,
        workers: int = 1,
        max_pending: int = MAX_PENDING,
        worlds: int = DEFAULT_WORLDS,
    ) -> None:
        self.folder = folder
        self.workers = workers
        self.max_pending = max_pending
        self.worlds = worlds
        self._pool: ProcessPoolExecutor | None = None
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._order: list[str] = []
        self._failed: dict[str, str] = {}

    def _path(self, table_id: str) -> Path:
        return self.folder / f"{table_id}.json"

    def stored(self, table_id: str) -> dict[str, Any] | None:
        """The stored analysis of a table, or None (an unreadable file counts as none)."""
        try:
            data = json.loads(self._path(table_id).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("version") != STORE_VERSION:
            return None
        analysis = data.get("analysis")
        return analysis if isinstance(analysis, dict) else None

    def status(self, table_id: str) -> Status:
        """Where the analysis of ``table_id`` stands (nothing is started)."""
        done = self.stored(table_id)
        if done is not None:
            return Status("done", analysis=done)
        if table_id in self._tasks:
            ahead = self._order.index(table_id)
            return Status("running" if ahead < self.workers else "queued", ahead=ahead)
        if table_id in self._failed:
            return Status("failed", error=self._failed[table_id])
        return Status("absent")

    def start(self, table_id: str, record: Any) -> Status:
        """Queue the analysis of a finished table's ``record`` unless it is stored or under way;
        raise :class:`QueueFull` when ``max_pending`` are already waiting or running."""
        now = self.status(table_id)
        if now.state in ("done", "queued", "running"):
            return now
        if len(self._tasks) >= self.max_pending:
            raise QueueFull(f"{len(self._tasks)} analyses are already waiting")
        self._failed.pop(table_id, None)
        self._order.append(table_id)
        self._tasks[table_id] = asyncio.get_running_loop().create_task(
            self._run(table_id, record)
        )
        return self.status(table_id)

    async def _run(self, table_id: str, record: Any) -> None:
        try:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority,
                )
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self._pool, run_analysis, record, self.worlds)
            if "error" in result:
                self._failed[table_id] = str(result["error"])
            else:
                await asyncio.to_thread(self._save, table_id, result)
        except Exception as exc:  # a broken pool, a full disk: say so, keep serving
            self._failed[table_id] = f"failed: {type(exc).__name__}"
        finally:
            self._tasks.pop(table_id, None)
            self._order.remove(table_id)

    def _save(self, table_id: str, analysis: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"version": STORE_VERSION, "table": table_id, "analysis": analysis})
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self._path(table_id))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    async def close(self) -> None:
        """Stop: cancel what waits, and shut the worker pool down."""
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
