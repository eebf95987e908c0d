"""Floods of one client no longer stall the others (issue 30, items 7 and 8).

Each test is one attack, scaled down by a setting; the flood comes from 127.0.0.1 and the
bystander from 127.0.0.2 (the whole of 127.0.0.0/8 is loopback), so the server tells them
apart by address as it would two hosts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path

from fastapi.testclient import TestClient

from cardroom.web import create_app
from tests.web.conftest import serving, settings_for

BYSTANDER = "127.0.0.2"


async def _get(address: str, path: str, source: str = BYSTANDER) -> bytes:
    """The head of the answer to ``GET path``, asked from ``source``."""
    host, port = address.split(":")
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=(source, 0))
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        return await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    finally:
        writer.close()


async def test_idle_sockets_of_one_address_do_not_shut_out_another(tmp_path: Path) -> None:
    settings = settings_for(
        tmp_path, max_connections=60, idle_connections_per_address=10, header_timeout=30.0
    )
    async with serving(settings) as (_app, address):
        host, port = address.split(":")
        flood = [await asyncio.open_connection(host, int(port)) for _ in range(100)]
        await asyncio.sleep(0.3)  # every one accepted by the server, none sent a byte
        head = await _get(address, "/healthz")
        # the oldest of the flood were closed by the server, before any header
        reads = [asyncio.wait_for(r.read(), 5) for r, _w in flood[:90]]
        closed = await asyncio.gather(*reads, return_exceptions=True)
        for _r, w in flood:
            w.close()
    assert head.startswith(b"HTTP/1.1 200"), head
    assert closed == [b""] * 90


# -- the security headers on every answer -------------------------------------------------------


def _secured(headers: Mapping[str, str]) -> bool:
    return (
        headers.get("x-content-type-options") == "nosniff"
        and headers.get("x-frame-options") == "DENY"
        and headers.get("referrer-policy") == "no-referrer"
        and "frame-ancestors 'none'" in headers.get("content-security-policy", "")
    )


def test_refusals_carry_the_security_headers(tmp_path: Path) -> None:
    hosts = ("localhost", "127.0.0.1")
    with TestClient(
        create_app(settings_for(tmp_path, allowed_hosts=hosts)), base_url="http://localhost"
    ) as client:
        page = client.get("/")
        host = client.get("/healthz", headers={"Host": "evil.example"})
        cross = client.post(
            "/api/tables", json={"name": "Ann"}, headers={"Sec-Fetch-Site": "cross-site"}
        )
        missing = client.get("/no/such/page")
    assert page.status_code == 200 and _secured(page.headers)
    assert host.status_code == 400 and _secured(host.headers)
    assert cross.status_code == 403 and _secured(cross.headers)
    assert missing.status_code == 404 and _secured(missing.headers)
    with TestClient(create_app(settings_for(tmp_path, connections_per_address=0))) as client:
        busy = client.get("/healthz")
    assert busy.status_code == 429 and _secured(busy.headers)


async def test_a_refused_websocket_carries_the_security_headers(tmp_path: Path) -> None:
    hosts = ("localhost", "127.0.0.1")
    async with serving(settings_for(tmp_path, allowed_hosts=hosts)) as (_app, address):
        host, port = address.split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(
            b"GET /ws/abc HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        writer.close()
    status, *lines = head.decode().split("\r\n")
    fields = dict(line.lower().split(": ", 1) for line in lines if ": " in line)
    assert status.startswith("HTTP/1.1 403")
    assert fields.get("x-frame-options") == "deny" and fields.get("x-content-type-options")
    assert "frame-ancestors 'none'" in fields.get("content-security-policy", "")
