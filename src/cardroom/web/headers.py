"""The security headers of every HTTP answer, as a plain ASGI middleware.

It replaces an ``@app.middleware("http")`` function: Starlette runs such a function
(``BaseHTTPMiddleware``) with anyio task groups around every request, and when a client went
away mid-request (a response cut short, a body never finished) the cancelled tasks of those
groups were left in reference cycles (task -> its ``CancelledError`` -> traceback -> anyio's
``task_done`` frame -> task). The server's :class:`~cardroom.web.gcpause.GcKeeper` freezes
such objects and never runs a full collection, so every one stayed for the server's life
(``benchmarks/soak.py``'s final census: tasks, task groups and cancel scopes of cancelled
handlers). This middleware adds the headers to ``http.response.start`` and makes no task.

A request whose client went away while its body was read (Starlette's ``ClientDisconnect``)
has nobody to answer: it ends here, its tracebacks cleared, instead of reaching the server's
error middleware as a 500 with its frames in a cycle.
"""

from __future__ import annotations

import re
import traceback

from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'{sockets}; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
HSTS = {"Strict-Transport-Security": "max-age=31536000"}
HOST = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def content_security_policy(host: str | None) -> str:
    """Only this origin; its websockets named too (older browsers' 'self' omits ws:)."""
    sockets = f" ws://{host} wss://{host}" if host and HOST.fullmatch(host) else ""
    return CSP.format(sockets=sockets)


def forget_tracebacks(exc: BaseException) -> None:
    """Drop the frames ``exc`` (and the exceptions it was raised from or during) keep, so that
    no cycle through a frame that holds the exception outlives it."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        one = todo.pop()
        if one is None or id(one) in seen:
            continue
        seen.add(id(one))
        if one.__traceback__ is not None:
            traceback.clear_frames(one.__traceback__)
            one.__traceback__ = None
        todo += [one.__cause__, one.__context__]


class SecurityHeaders:
    """ASGI middleware: the security headers (and HSTS when ``hsts``) on every HTTP answer
    that does not set them itself, a websocket refused with an HTTP answer included."""

    def __init__(self, app: ASGIApp, hsts: bool = False) -> None:
        self.app = app
        self.fixed = {**SECURITY_HEADERS, **(HSTS if hsts else {})}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host")

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                raw = list(message.get("headers", ()))
                present = {name.lower() for name, _ in raw}
                wanted = {"Content-Security-Policy": content_security_policy(host), **self.fixed}
                raw += [
                    (name.lower().encode("latin-1"), value.encode("latin-1"))
                    for name, value in wanted.items()
                    if name.lower().encode("latin-1") not in present
                ]
                message = {**message, "headers": raw}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except ClientDisconnect as exc:
            forget_tracebacks(exc)  # the client is gone: nobody to answer
