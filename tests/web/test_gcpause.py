"""GcKeeper: survivors frozen every step, one full collection at the start and none after."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cardroom.web.gcpause import GcKeeper, break_transport_cycles


class Node:
    def __init__(self) -> None:
        self.me: Node = self  # a cycle: only the cyclic collector frees it


class Leaf:
    """No cycle: its reference count frees it."""


@pytest.fixture
def collections(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The generation of every ``gc.collect`` call (2 for a full one); gc's own thresholds
    are switched off so that only the keeper collects."""
    calls: list[int] = []
    real = gc.collect

    def spy(generation: int = 2) -> int:
        calls.append(generation)
        return real(generation)

    monkeypatch.setattr(gc, "collect", spy)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield calls
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def test_one_full_collection_at_the_start_and_never_again(collections: list[int]) -> None:
    now = [0.0]
    keeper = GcKeeper(freeze_every=1, clock=lambda: now[0])
    keeper.start()
    assert collections == [2]
    for t in (1.0, 600.0, 3600.0, 86_400.0 * 30):
        now[0] = t
        assert keeper.step() == "freeze"
    assert collections == [2, 1, 1, 1, 1]  # only the young generations after the start


def test_a_first_step_without_start_is_the_full_collection(collections: list[int]) -> None:
    keeper = GcKeeper(clock=lambda: 5.0)
    assert keeper.step() == "full"
    assert keeper.step() == "freeze"
    assert collections == [2, 1]


def test_full_every_brings_back_the_periodic_full_collection(collections: list[int]) -> None:
    now = [0.0]
    keeper = GcKeeper(freeze_every=10, full_every=600, clock=lambda: now[0])
    assert keeper.step() == "full"
    now[0] = 599.0
    assert keeper.step() == "freeze"
    now[0] = 600.0
    assert keeper.step() == "full"
    now[0] = 1199.0
    assert keeper.step() == "freeze"
    assert collections == [2, 1, 2, 1]


def test_frozen_objects_are_left_to_reference_counting(collections: list[int]) -> None:
    keeper = GcKeeper(clock=lambda: 0.0)
    keeper.start()
    cycle, plain = Node(), [Leaf()]
    cycle_ref, plain_ref = weakref.ref(cycle), weakref.ref(plain[0])
    assert keeper.step() == "freeze"  # both survive (referenced) and are frozen
    assert gc.get_freeze_count() > 0
    young = Node()
    young_ref = weakref.ref(young)
    del young  # a cycle made and dropped after that freeze: the next step's collection frees it
    assert young_ref() is not None
    assert keeper.step() == "freeze"
    assert young_ref() is None
    del cycle
    plain.clear()
    assert plain_ref() is None  # frozen, but freed by its reference count at once
    keeper.step()
    gc.collect(2)  # frozen: not even a full collection sees the dropped cycle
    assert cycle_ref() is not None
    gc.unfreeze()
    gc.collect()
    assert cycle_ref() is None


def closed_connection_freed_by_reference_counts(
    loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None,
) -> bool:
    """One TCP connection to a server on a new loop (``loop_factory``'s, else asyncio's),
    closed by the client: is the server's transport gone afterwards with the cycle collector
    off (reference counting alone)?"""
    transports: list[weakref.ref[Any]] = []

    class Server(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            transports.append(weakref.ref(transport))  # no strong reference kept

    async def connect_and_close() -> None:
        server = await asyncio.get_running_loop().create_server(Server, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"hello")
        await writer.drain()
        while not transports:
            await asyncio.sleep(0.01)
        writer.close()
        await writer.wait_closed()
        for _ in range(100):  # the server sees the end of the stream and loses the connection
            transport = transports[0]()
            if transport is None or transport.is_closing():
                break
            del transport
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # connection_lost runs from the loop's next turns
        server.close()
        await server.wait_closed()

    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(connect_and_close())
        return transports[0]() is None
    finally:
        gc.collect()
        if was_enabled:
            gc.enable()


def test_a_closed_connection_is_freed_without_a_full_collection() -> None:
    """The keeper freezes every connection's objects and never runs a full collection again,
    so a cycle among them would stay for the server's life. asyncio's socket transport refers
    to itself (a bound method of its own): after :func:`break_transport_cycles` a lost
    connection's transport is freed by reference counting alone."""
    assert break_transport_cycles()
    assert break_transport_cycles()  # idempotent
    assert closed_connection_freed_by_reference_counts()


def test_the_keeper_start_breaks_the_transport_cycle() -> None:
    GcKeeper(clock=lambda: 0.0).start()
    assert closed_connection_freed_by_reference_counts()
    gc.unfreeze()


def test_a_closed_connection_on_uvloop_is_freed_without_a_full_collection() -> None:
    """``cardroom serve`` runs on uvloop where it is installed (``web/server.py``): its
    transports hold no cycle of their own, so nothing needs breaking there."""
    uvloop = pytest.importorskip("uvloop")
    assert closed_connection_freed_by_reference_counts(uvloop.new_event_loop)
