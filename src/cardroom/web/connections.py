"""Requests in progress and websockets open at once, per client address (in one process).

:class:`PerAddress` wraps the app: each HTTP request counts while it runs, each websocket while
it is open; past ``most`` for one address a request gets a 429 with ``Retry-After`` and a
websocket an ``error`` frame and a close with 1013 (try again later), both in words. The
address is the client's as uvicorn gives it (behind ``--proxy``: the forwarded one).
"""

from __future__ import annotations

import json

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from cardroom.i18n import translator
from cardroom.i18n.messages import message_words

CLOSE_TRY_AGAIN = 1013
RETRY_AFTER = 5
"""Seconds a refused client is told to wait."""
TOO_MANY = "bounds.connections"
"""The id of the words a refused client is told (:mod:`cardroom.i18n.bound_words`)."""


def _lang(conn: HTTPConnection) -> str:
    from cardroom.web.routes.common import connection_lang

    return connection_lang(conn)


class PerAddress:
    """ASGI middleware: at most ``most`` requests and websockets at once per client address."""

    def __init__(self, app: ASGIApp, most: int) -> None:
        self.app = app
        self.most = most
        self.open: dict[str, int] = {}
        """Address -> its requests and websockets now (addresses with none are dropped)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        n = self.open.get(address, 0)
        if n >= self.most:
            await self.refuse(scope, receive, send)
            return
        self.open[address] = n + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open.get(address, 1) - 1
            if left <= 0:
                self.open.pop(address, None)
            else:
                self.open[address] = left

    async def refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The answer past the bound: a 429 or an error frame then 1013, in words."""
        words = message_words(TOO_MANY, {}, translator(_lang(HTTPConnection(scope))))
        if scope["type"] == "websocket":
            message = await receive()
            if message["type"] != "websocket.connect":
                return
            frame = {"type": "error", "code": "rate-limited", "message": words, "ref": None,
                     "id": TOO_MANY}  # fmt: skip
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps(frame)})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})
            return
        body = json.dumps({"error": "rate-limited", "message": words, "id": TOO_MANY}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(RETRY_AFTER).encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
