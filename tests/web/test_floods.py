"""Floods of one client no longer stall the others (issue 30, items 7 and 8).

Each test is one attack, scaled down by a setting; the flood comes from 127.0.0.1 and the
bystander from 127.0.0.2 (the whole of 127.0.0.0/8 is loopback), so the server tells them
apart by address as it would two hosts.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

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
