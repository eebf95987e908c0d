"""Every test reads English words unless it asks for another language (whatever the locale).

SQLAlchemy closes a discarded aiosqlite connection "gracefully" in a task that waits for the
connection's own thread. In a test process, where every test's server has an event loop of its
own, a connection left from an earlier test can be finalized in a later test's loop, and that
task then never ends: the later test hangs in its TestClient's shutdown. The tests close such
connections at once instead (what SQLAlchemy does when no loop runs).

A test client's websocket waits for a frame at most a minute: a frame that never comes fails
the test at once instead of hanging the run.
"""

from __future__ import annotations

import os
from typing import Any

import anyio
import pytest
from sqlalchemy.dialects.sqlite import aiosqlite as _sa_aiosqlite
from starlette import testclient as _testclient

os.environ["CARDROOM_LANG"] = "en"


async def _close_at_once(self: Any) -> None:
    self._terminate_force_close()


_sa_aiosqlite.AsyncAdapt_aiosqlite_connection._terminate_graceful_close = _close_at_once  # type: ignore[method-assign]


async def _receive_with_deadline(session: Any) -> Any:
    with anyio.fail_after(60):
        return await session._send_rx.receive()


def _receive(self: Any) -> Any:
    return self.portal.call(_receive_with_deadline, self)


_testclient.WebSocketTestSession.receive = _receive  # type: ignore[method-assign]


# Files that start server processes, run the static checkers or play many games: minutes each.
_SLOW_FILES = frozenset(
    {
        "test_benchmark_servers.py",
        "test_static_checks.py",
        "test_kill.py",
        "test_realtime_presence_kill.py",
        "test_serve.py",
        "test_router_process.py",
        "test_robust_cli.py",
        "test_terminal_table.py",
        "test_optional_extra.py",
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test ``browser``, ``pg`` or ``slow`` from where it lives and what it uses."""
    for item in items:
        parts = item.path.parts
        fixtures = getattr(item, "fixturenames", ())
        if "e2e" in parts:
            item.add_marker(pytest.mark.browser)
        if "pg_url" in fixtures or "pg_cluster" in fixtures:
            item.add_marker(pytest.mark.pg)
        if "scale" in parts or item.path.name in _SLOW_FILES:
            item.add_marker(pytest.mark.slow)
