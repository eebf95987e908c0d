"""The doors of the web server, checked before any route: the ``Host`` a request names (an
allowed-hosts list against DNS rebinding, for HTTP and websockets alike) and cross-site
requests (a state-changing request must come from a page of this server and carry JSON).

A refused request gets a short JSON answer in the request's language and reaches no route.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from cardroom.i18n import translator
from cardroom.i18n.words import N_

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
ANY_IP = "<ip>"
"""In an allowed-hosts list: any address written as digits (DNS cannot rebind those)."""
CLOSE_FORBIDDEN = 4403


def host_name(header: str) -> str:
    """The name of a ``Host`` header without its port, lower case (``[::1]:80`` -> ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    name, sep, port = header.rpartition(":")
    return name if sep and port.isdigit() and ":" not in name else header


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_allowed(header: str | None, allowed: Iterable[str]) -> bool:
    """Whether a request naming ``Host: header`` is for this server (``*.x``: x's subdomains)."""
    if not header:
        return False
    name = host_name(header)
    for entry in allowed:
        entry = entry.lower()
        if entry == name or (entry == ANY_IP and _is_ip(name)):
            return True
        if entry.startswith("*.") and (name.endswith(entry[1:]) or name == entry[2:]):
            return True
    return False


def cross_site(conn: HTTPConnection) -> bool:
    """A browser's request from a page of another origin (scripts send no ``Origin``)."""
    if conn.headers.get("sec-fetch-site") == "cross-site":
        return True
    origin = conn.headers.get("origin")
    if origin is None:
        return False
    return urlsplit(origin).netloc.lower() != conn.headers.get("host", "").lower()


def _has_body(conn: HTTPConnection) -> bool:
    length = conn.headers.get("content-length")
    if length is not None:
        return length.strip() != "0"
    return "transfer-encoding" in conn.headers


def _is_json(conn: HTTPConnection) -> bool:
    media = conn.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def _lang(conn: HTTPConnection) -> str:
    from cardroom.web.routes.common import connection_lang

    return connection_lang(conn)


class Guard:
    """ASGI middleware: the allowed hosts (None: no check) and cross-site requests."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] | None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        refusal = self.refusal(conn, scope)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, code, message = refusal
        kind = "http"
        if scope["type"] == "websocket":
            if "websocket.http.response" not in scope.get("extensions", {}):
                # closed before the handshake: the browser sees 403
                await send({"type": "websocket.close", "code": CLOSE_FORBIDDEN})
                return
            kind = "websocket.http"  # the same answer as a request's, headers and words
            status = HTTPStatus.FORBIDDEN
        text = translator(_lang(conn))._(message)
        body = json.dumps({"error": code, "message": text}).encode()
        await send(
            {
                "type": f"{kind}.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": f"{kind}.response.body", "body": body})

    def refusal(self, conn: HTTPConnection, scope: Scope) -> tuple[int, str, str] | None:
        """(status, code, English message) if the request is refused, else None."""
        if self.allowed_hosts is not None and not host_allowed(
            conn.headers.get("host"), self.allowed_hosts
        ):
            return (
                HTTPStatus.BAD_REQUEST,
                "bad-host",
                N_("this server does not answer to that name: open it by its usual address"),
            )
        method: Any = scope.get("method")
        if scope["type"] == "http" and method in STATE_CHANGING:
            if cross_site(conn):
                return (
                    HTTPStatus.FORBIDDEN,
                    "forbidden",
                    N_("this request did not come from a page of this server"),
                )
            if _has_body(conn) and not _is_json(conn):
                return (
                    HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                    "bad-request",
                    N_("send the request as JSON (Content-Type: application/json)"),
                )
        return None
