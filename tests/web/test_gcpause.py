"""GcKeeper: survivors frozen every step, one full collection at the start and none after."""

from __future__ import annotations

import asyncio
import gc
import re
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cardroom.i18n import translator, words
from cardroom.i18n.words import forget_memo, localize_frame
from cardroom.web.gcpause import GcKeeper, break_transport_cycles


class Node:
    def __init__(self) -> None:
        self.me: Node | None = self  # a cycle: only the cyclic collector frees it


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


def test_before_step_runs_at_each_step_before_its_collection(collections: list[int]) -> None:
    keeper = GcKeeper(clock=lambda: 0.0, before_step=(lambda: collections.append(-1),))
    keeper.start()
    assert collections == [2]  # the start is no step
    keeper.step()
    keeper.step()
    assert collections == [2, -1, 1, -1, 1]


def test_the_words_memo_is_emptied_by_forget_memo_and_what_it_held_is_freed() -> None:
    class Event(dict[str, Any]):
        """A dict that can be weakly referenced."""

    event = Event(kind="passed", seat=1)
    frame = {"type": "state", "seats": [], "events": [event]}
    told = localize_frame(frame, translator("en"))["events"][0]
    assert "text" in told and told is not event
    assert any(kept is event for kept, _ in words._MEMO.values())  # kept for the next frame
    ref = weakref.ref(event)
    del event, frame, told
    assert ref() is not None  # the memo holds it
    forget_memo()
    assert words._MEMO == {}
    assert ref() is None  # freed by reference counting: no collection walks it


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


REQUESTS = {
    "a static file, read to its end on a kept-alive connection": (
        b"GET /static/js/table.js HTTP/1.1\r\nHost: {host}\r\n\r\n",
        True,
    ),
    "a table request whose body never comes, dropped by its client": (
        b"POST /api/tables HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        b'Content-Length: 40\r\n\r\n{"name": ',
        False,
    ),
}


async def cyclic_garbage_of_requests(
    tmp_path: Path, request: bytes, read: bool, status: bytes = b"200"
) -> list[str]:
    """Five ``request``s to a real server, each on a connection of its own: the answer read to
    the end when ``read`` (its head only for a ``101`` upgrade), else the connection dropped by
    the client mid-request. The kinds of the objects only the cycle collector would free
    afterwards (a frozen server keeps them)."""
    from tests.web.conftest import serving, settings_for

    async with serving(settings_for(tmp_path)) as (_app, host):
        gc.collect()
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            for _ in range(5):
                reader, writer = await asyncio.open_connection(*host.split(":"))
                writer.write(request.replace(b"{host}", host.encode()))
                await writer.drain()
                if read and status == b"101":
                    head = await reader.readuntil(b"\r\n\r\n")
                    assert head.startswith(b"HTTP/1.1 101 "), head
                    await asyncio.sleep(0.1)
                    writer.close()
                elif read:
                    head = await reader.readuntil(b"\r\n\r\n")
                    assert head.startswith(b"HTTP/1.1 200 "), head
                    length = re.search(rb"(?i)content-length: *([0-9]+)", head)
                    assert length is not None, head
                    await reader.readexactly(int(length[1]))
                    await asyncio.sleep(0.1)  # kept alive: the next request could come
                    writer.close()
                else:
                    await asyncio.sleep(0.05)
                    writer.transport.abort()
                await asyncio.sleep(0.2)  # the server sees the connection lost, the request ends
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            kinds = sorted({type(x).__qualname__ for x in gc.garbage})
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            if was_enabled:
                gc.enable()
    return kinds


@pytest.mark.parametrize("case", sorted(REQUESTS))
async def test_an_http_request_leaves_no_cycle(
    tmp_path: Path, case: str
) -> None:
    """The soak's final census found the tasks, task groups and cancel scopes of cancelled
    request handlers (with their tracebacks): Starlette's ``@app.middleware("http")`` ran every
    request in anyio task groups, whose cancelled tasks were cycles for every file answer and
    every request its client left. The security headers are now a plain ASGI middleware, and a
    client gone mid-body ends the request with its tracebacks cleared: nothing is left."""
    request, read = REQUESTS[case]
    kinds = await cyclic_garbage_of_requests(tmp_path, request, read)
    assert not {"Task", "TaskGroup", "CancelScope", "frame", "traceback"} & set(kinds), kinds


async def test_a_websocket_upgrade_leaves_no_cycle(tmp_path: Path) -> None:
    """The 20-minute soak's final census found, per upgraded connection, the HTTP protocol
    and its httptools parser (which holds the protocol's methods) left as a cycle after the
    connection became a websocket: frozen by the keeper, kept for the server's life. The
    protocol now lets go of its parser when it hands the connection over."""
    request = (
        b"GET /ws/nosuchtable HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\nOrigin: http://{host}\r\n\r\n"
    )
    kinds = await cyclic_garbage_of_requests(tmp_path, request, True, status=b"101")
    assert not {"HttpToolsHeaderTimeoutProtocol", "HttpRequestParser"} & set(kinds), kinds


def test_a_keeper_without_automatic_collections_is_the_only_collector() -> None:
    was_enabled = gc.isenabled()
    gc.enable()
    try:
        keeper = GcKeeper(clock=lambda: 0.0, automatic=False)
        keeper.start()
        assert not gc.isenabled()  # gc's own collections off: only the keeper's steps
        young = Node()
        young_ref = weakref.ref(young)
        del young
        for _ in range(10_000):  # far past gc's own threshold (700): nothing collects it
            Node().me = None
        assert young_ref() is not None
        assert keeper.step() == "freeze"
        assert young_ref() is None  # the keeper's step did
        keeper.close()
        assert gc.isenabled()
        keeper.close()  # twice is harmless
        assert gc.isenabled()
        on = GcKeeper(clock=lambda: 0.0)  # the default leaves gc's own collections on
        on.start()
        assert gc.isenabled()
        on.close()
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        if not was_enabled:
            gc.disable()


def test_the_app_keeper_takes_its_step_interval_and_mode_from_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Settings.gc_step_every`` and ``gc_automatic`` reach the keeper the app runs."""
    from fastapi.testclient import TestClient

    from cardroom.web import app as app_module
    from cardroom.web.app import create_app
    from tests.web.conftest import settings_for

    made: list[GcKeeper] = []

    class Recorded(GcKeeper):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(app_module, "GcKeeper", Recorded)
    was_enabled = gc.isenabled()
    try:
        with TestClient(create_app(settings_for(tmp_path))):
            assert [(k.freeze_every, k.automatic) for k in made] == [(0.25, False)]
            assert made[0].before_step == (forget_memo,)  # the words memo, before each step
            assert not gc.isenabled()  # by default the keeper is the only collector
        assert gc.isenabled() == was_enabled  # and gives gc its own collections back
        made.clear()
        settings = settings_for(tmp_path / "other", gc_step_every=1.0, gc_automatic=True)
        with TestClient(create_app(settings)):
            assert [(k.freeze_every, k.automatic) for k in made] == [(1.0, True)]
            assert gc.isenabled()
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()
