"""How uvicorn runs the app: the event loop, the HTTP and websocket protocols, message sizes,
the connection cap and a request-header timeout.

Everything that starts a server (``cardroom serve``, the tests' servers, the benchmarks) builds
its configuration with :func:`uvicorn_config`, so the choices below are made in one place:

* the event loop: uvloop (libuv) where it is installed (Linux and macOS), else asyncio's own;
  ``cardroom serve`` runs the server on ``config.get_loop_factory()``'s loop;
* HTTP: httptools (the llhttp parser, in C) rather than h11 (pure Python);
* websockets: the ``websockets`` package's sans-I/O protocol (see ``Settings.ws_impl``).

uvicorn times out idle keep-alive connections but not a request whose headers never end (a
client can hold a connection open for ever by sending one byte at a time, or nothing at all).
Both HTTP protocols get a deadline: a connection whose request headers are not complete
``header_timeout`` seconds after the connection opened, or after the first bytes of a next
request on a kept-alive connection arrived, is closed (an idle kept-alive connection is
uvicorn's, closed after 5 s).

A deadline alone lets one address hold every connection of the process for its length (8,400
sockets sending nothing filled uvicorn's ``limit_concurrency`` and every other client got 503
for 10 s). So the connections of one address that have no request running (opened and not
yet sent whole headers, or kept alive between two requests) are capped too: past
``idle_per_address`` of them (:class:`WaitingRoom`), the oldest is closed, before any of its
headers are read. A request running, or a websocket, is not counted here (the app's
:class:`~cardroom.web.connections.PerAddress` bounds those).
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from cardroom.web.headers import HSTS, SECURITY_HEADERS, content_security_policy
from cardroom.web.settings import Settings

WS_MAX_SIZE = 64 * 1024


class WaitingRoom:
    """The connections of each address with no request running, oldest first; past ``most``
    for one address the oldest is closed (one server's, shared by its connections)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.waiting: dict[str, dict[_HeaderDeadline, None]] = {}
        self.shed = 0
        """Connections closed for being past the cap (for the benchmarks and the tests)."""

    def enter(self, conn: _HeaderDeadline) -> None:
        """``conn`` waits for a request's headers (or is kept alive idle)."""
        waiting = self.waiting.setdefault(conn.peer, {})
        waiting.pop(conn, None)
        waiting[conn] = None
        while len(waiting) > self.most:
            oldest = next(iter(waiting))
            del waiting[oldest]
            self.shed += 1
            oldest.transport.close()

    def leave(self, conn: _HeaderDeadline) -> None:
        """``conn`` runs a request, became a websocket or is closed."""
        waiting = self.waiting.get(conn.peer)
        if waiting is not None and waiting.pop(conn, 0) is None and not waiting:
            del self.waiting[conn.peer]


class _HeaderDeadline(asyncio.Protocol):
    """A timer closing the connection when it fires: armed when the connection opens, disarmed
    when it is lost; in between, the protocol arms and disarms it around each request."""

    header_timeout = 10.0
    room: WaitingRoom | None = None
    refusal_headers: tuple[tuple[bytes, bytes], ...] = ()
    """The security headers of uvicorn's own answers, made without the app (a malformed
    request's 400, the 503 past ``limit_concurrency``)."""
    peer = ""
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    _header_timer: asyncio.TimerHandle | None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self.peer = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        self._header_timer = None
        self._arm()
        self._wait()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._running()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            self._wait()  # kept alive, idle until its next request

    def _wait(self) -> None:
        if self.room is not None:
            self.room.enter(self)

    def _running(self) -> None:
        if self.room is not None:
            self.room.leave(self)

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _expired(self) -> None:
        self._header_timer = None
        if self._waiting_for_headers() and not self.transport.is_closing():
            self.transport.close()

    def _waiting_for_headers(self) -> bool:
        raise NotImplementedError

    server_state: Any
    limit_concurrency: int | None
    connections: set[Any]
    tasks: set[Any]

    def _full(self) -> bool:
        """uvicorn's own test: this request is answered 503 without reaching the app."""
        most = self.limit_concurrency
        return most is not None and (len(self.connections) >= most or len(self.tasks) >= most)

    def _with_refusal_headers(self) -> Any:
        """A copy of the server's state whose default headers carry :attr:`refusal_headers`
        (uvicorn adds its default headers to the answers it makes itself)."""
        state = copy.copy(self.server_state)
        state.default_headers = [*self.server_state.default_headers, *self.refusal_headers]
        return state


class HeaderTimeoutProtocol(_HeaderDeadline, H11Protocol):
    """uvicorn's h11 protocol, plus a deadline for each request's headers."""

    def _waiting_for_headers(self) -> bool:
        return self.conn.their_state is h11.IDLE

    def handle_events(self) -> None:
        if not self._full():
            super().handle_events()
            return
        state, self.server_state = self.server_state, self._with_refusal_headers()
        try:
            super().handle_events()
        finally:
            self.server_state = state

    def send_400_response(self, msg: str) -> None:
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"connection", b"close"),
            *self.refusal_headers,
        ]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=msg.encode("ascii")),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()  # the headers are in: the request runs
            self._running()
        elif not self.transport.is_closing():
            self._arm()  # a next request begun on a kept-alive connection: in time too


class HttpToolsHeaderTimeoutProtocol(_HeaderDeadline, HttpToolsProtocol):
    """uvicorn's httptools protocol, plus a deadline for each request's headers: armed when the
    connection opens and when a next request's first bytes arrive (httptools'
    ``on_message_begin``), disarmed when its headers are complete (``on_headers_complete``,
    also called for a websocket upgrade before the connection changes protocol)."""

    _headers_pending = True  # from the connection's opening to its first request's headers

    def _waiting_for_headers(self) -> bool:
        return self._headers_pending

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._headers_pending = True
        self._arm()

    def on_headers_complete(self) -> None:
        self._headers_pending = False
        self._disarm()
        self._running()
        if not self._full():
            super().on_headers_complete()
            return
        state, self.server_state = self.server_state, self._with_refusal_headers()
        try:
            super().on_headers_complete()
        finally:
            self.server_state = state

    def send_400_response(self, msg: str) -> None:
        state, self.server_state = self.server_state, self._with_refusal_headers()
        try:
            super().send_400_response(msg)
        finally:
            self.server_state = state

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # the connection is the websocket protocol's now; httptools' parser holds this
        # protocol's methods, a cycle that a frozen server (web/gcpause.py) would keep for life
        self.parser = None  # type: ignore[assignment]


HTTP_PROTOCOLS: dict[str, type[_HeaderDeadline]] = {
    "httptools": HttpToolsHeaderTimeoutProtocol,
    "h11": HeaderTimeoutProtocol,
}


def protocol_with_timeout(
    seconds: float,
    http: str = "httptools",
    idle_per_address: int | None = None,
    hsts: bool = False,
) -> type[asyncio.Protocol]:
    """The HTTP protocol ``http`` (``httptools`` or ``h11``) with its header deadline set to
    ``seconds`` and, unless None, at most ``idle_per_address`` connections of one address
    without a request running (a :class:`WaitingRoom` of its own); uvicorn's own answers
    carry the security headers (HSTS too when ``hsts``)."""
    base = HTTP_PROTOCOLS[http]
    room = WaitingRoom(idle_per_address) if idle_per_address is not None else None
    wanted = {
        "Content-Security-Policy": content_security_policy(None),
        **SECURITY_HEADERS,
        **(HSTS if hsts else {}),
    }
    refusal = tuple((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in wanted.items())
    made: type[asyncio.Protocol] = type(
        base.__name__,
        (base,),
        {"header_timeout": seconds, "room": room, "refusal_headers": refusal},
    )
    return made


def uvicorn_config(app: Any, settings: Settings, **changes: Any) -> uvicorn.Config:
    """The uvicorn configuration ``cardroom serve`` (and the tests' servers) run ``app`` with."""
    options: dict[str, Any] = {
        "log_level": "warning",
        "ws": settings.ws_impl,
        "ws_max_size": WS_MAX_SIZE,
        "ws_per_message_deflate": settings.ws_compression,
        "proxy_headers": False,
        "server_header": False,
        "http": protocol_with_timeout(
            settings.header_timeout,
            settings.http_impl,
            settings.idle_connections_per_address,
            settings.secure_cookies,
        ),
        "loop": settings.event_loop,
        "limit_concurrency": settings.max_connections,
        "timeout_keep_alive": settings.keep_alive,
    }
    options.update(changes)
    return uvicorn.Config(app, **options)
