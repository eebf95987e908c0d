"""Play now on one PostgreSQL shared by two servers (two stores and table services, as two
processes): 20 people pressing Play now for Speed at once are seated once each, never twice."""

from __future__ import annotations

import pytest

from cardroom.store import EventStore
from tests.web.test_play_now import twenty_at_once

pytest.importorskip("asyncpg", reason="asyncpg is not installed")


async def test_twenty_people_pressing_at_once_across_two_servers_are_seated_once(
    pg_url: str,
) -> None:
    await twenty_at_once([await EventStore.open(pg_url) for _ in range(2)])
