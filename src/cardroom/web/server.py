"""How uvicorn runs the app: message sizes, the connection cap and a request-header timeout.

uvicorn times out idle keep-alive connections but not a request whose headers never end (a
client can hold a connection open for ever by sending one byte at a time, or nothing at all).
:class:`HeaderTimeoutProtocol` closes a connection whose request headers are not complete
``header_timeout`` seconds after the connection opened or the first bytes of a next request on
a kept-alive connection arrived (an idle kept-alive connection is uvicorn's, closed after 5 s).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from cardroom.web.settings import Settings

WS_MAX_SIZE = 64 * 1024


class HeaderTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol, plus a deadline for each request's headers."""

    header_timeout = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _expired(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()  # the headers are in: the request runs
        elif not self.transport.is_closing():
            self._arm()  # a next request begun on a kept-alive connection: in time too

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def protocol_with_timeout(seconds: float) -> type[HeaderTimeoutProtocol]:
    """:class:`HeaderTimeoutProtocol` with its deadline set to ``seconds``."""
    return type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout": seconds})


def uvicorn_config(app: Any, settings: Settings, **changes: Any) -> uvicorn.Config:
    """The uvicorn configuration ``cardroom serve`` (and the tests' servers) run ``app`` with."""
    options: dict[str, Any] = {
        "log_level": "warning",
        "ws_max_size": WS_MAX_SIZE,
        "ws_per_message_deflate": settings.ws_compression,
        "proxy_headers": False,
        "server_header": False,
        "http": protocol_with_timeout(settings.header_timeout),
        "limit_concurrency": settings.max_connections,
        "timeout_keep_alive": 5,
    }
    options.update(changes)
    return uvicorn.Config(app, **options)
