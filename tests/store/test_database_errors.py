"""Every error of the database or the way to it is told as StoreUnavailable, nothing else."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from cardroom.store import StoreUnavailable
from cardroom.store.events import _guard, _PgWriter


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.InternalClientError(
            "cannot switch to state 13; another operation is in progress"
        ),
        asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed"),
        asyncpg.QueryCanceledError("canceling statement due to statement timeout"),
        TimeoutError(),
        PoolTimeout("QueuePool limit of size 10 overflow 10 reached"),
        ConnectionResetError("reset by peer"),
    ],
    ids=lambda e: type(e).__name__,
)
async def test_a_database_error_is_told_unavailable(error: Exception) -> None:
    with pytest.raises(StoreUnavailable, match="the database is not answering"):
        async with _guard():
            raise error


@pytest.mark.parametrize("error", [ValueError("a bug"), KeyError("seat")], ids=repr)
async def test_a_bug_is_not_hidden_as_unavailable(error: Exception) -> None:
    with pytest.raises(type(error)):
        async with _guard():
            raise error


async def test_a_refused_entry_stays_a_refusal() -> None:
    with pytest.raises(IntegrityError):
        async with _guard():
            raise IntegrityError("INSERT", {}, Exception("duplicate key"))


class _Conn:
    def __init__(self) -> None:
        self.terminated = False

    def is_closed(self) -> bool:
        return self.terminated

    def terminate(self) -> None:
        self.terminated = True


async def test_the_appends_connection_that_timed_out_is_dropped_and_told_unavailable() -> None:
    writer = _PgWriter("postgresql://nobody@127.0.0.1:1/none")
    conn = _Conn()
    writer.idle.append(conn)

    async def busy(*_args: Any) -> None:
        raise asyncpg.InternalClientError(
            "cannot switch to state 13; another operation is in progress"
        )

    with pytest.raises(StoreUnavailable, match="another operation is in progress"):
        async with writer.connection() as raw:
            assert raw is conn
            await busy()
    assert conn.terminated and not writer.idle  # never used again
    conn2 = _Conn()
    writer.idle.append(conn2)
    with pytest.raises(StoreUnavailable):
        async with writer.connection():
            await asyncio.wait_for(asyncio.sleep(1), 0.001)
    assert conn2.terminated
