"""The table service most tests here play against: one process, a fresh SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardroom.store import EventStore
from cardroom.tables import TableService


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    """A started :class:`TableService` on its own store (stopped and closed after the test)."""
    store = await EventStore.open(str(tmp_path / "tables.db"))
    svc = TableService(store)
    await svc.start()
    yield svc
    await svc.stop()
    await store.close()
