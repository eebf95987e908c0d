"""``cardroom serve --workers 2`` on PostgreSQL: the parent routes each table's connections to
one worker, the one holding the table's lease (``web/router.py``).

Which process holds a connection is read from Linux ``/proc`` (the worker owning the server
side of the client's TCP connection), and which holds a lease from PostgreSQL (the advisory
lock of a table, its backend's client port, the worker owning that socket): nothing in the
server tells it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import time
from pathlib import Path

import pytest

from cardroom.tables.slots import slot_of
from tests.scale.clients import ServerProcess, socket_inodes
from tests.scale.test_realtime_faults import make
from tests.scale.test_realtime_workers import lease_holders

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc")


def owners(server_port: int, client_ports: list[int], pids: list[int]) -> dict[int, int]:
    """Client port -> the pid holding the server's side of that connection."""
    sides: dict[str, int] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local = int(fields[1].rsplit(":", 1)[1], 16)
            remote = int(fields[2].rsplit(":", 1)[1], 16)
            if local == server_port and remote in client_ports:
                sides[fields[9]] = remote
    held = {pid: socket_inodes(pid) for pid in pids}
    return {port: pid for inode, port in sides.items() for pid, ins in held.items() if inode in ins}


def request(port: int, path: str) -> socket.socket:
    """A kept-alive connection that has had ``path``'s answer (its status line is checked)."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
    conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    answer = conn.recv(65536)
    assert answer.startswith(b"HTTP/1.1 "), answer[:100]
    return conn


def closed_within(conn: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed ``conn`` (None: still open after ``seconds``)."""
    start = time.monotonic()
    conn.settimeout(seconds)
    try:
        while conn.recv(4096):
            pass
    except TimeoutError:
        return None
    except OSError:
        pass
    return time.monotonic() - start


async def test_a_tables_connections_and_lease_are_in_one_worker(pg_url: str) -> None:
    server = ServerProcess(pg_url, workers=2)
    conns: list[socket.socket] = []
    try:
        server.start()
        workers = server.children()
        assert len(workers) == 2
        tables = []
        for _ in range(8):  # a connection each: round-robin, so both workers make some
            tables += await make(server.address, 1)
        ids = [t.table_id for t in tables]
        assert {slot_of(i, 2) for i in ids} == {0, 1}
        # each table: two page views and two websocket upgrades still sending their headers
        by_port: dict[int, str] = {}
        for table_id in ids:
            for path in (f"/t/{table_id}", f"/t/{table_id}/watch"):
                conn = request(server.port, path)
                conns.append(conn)
                by_port[conn.getsockname()[1]] = table_id
            for _ in range(2):
                conn = socket.create_connection(("127.0.0.1", server.port), timeout=10)
                conn.sendall(f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode())
                conns.append(conn)
                by_port[conn.getsockname()[1]] = table_id
        for _ in range(100):  # the upgrades are handed over as soon as their line is in
            where = owners(server.port, list(by_port), workers)
            if len(where) == len(by_port):
                break
            await asyncio.sleep(0.05)
        assert len(where) == len(by_port)
        tables_in: dict[str, set[int]] = {}
        for port, pid in where.items():
            tables_in.setdefault(by_port[port], set()).add(pid)
        assert all(len(pids) == 1 for pids in tables_in.values()), tables_in
        assert {next(iter(p)) for p in tables_in.values()} == set(workers)
        holders = await lease_holders(pg_url, ids, workers)
        assert holders == {t: next(iter(pids)) for t, pids in tables_in.items()}
        # one slot per worker: every table of a slot is in the same one
        by_slot = {slot_of(t, 2): next(iter(p)) for t, p in tables_in.items()}
        assert len(by_slot) == 2 and len(set(by_slot.values())) == 2
    finally:
        for conn in conns:
            conn.close()
        server.stop()


def test_half_sent_and_silent_connections_are_answered_by_the_header_timeout(
    pg_url: str,
) -> None:
    server = ServerProcess(pg_url, workers=2)
    try:
        server.start()
        half = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        half.sendall(b"GET /t/abc")  # not a whole request line: handed over round-robin
        silent = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        # the header timeout (10 s) of the worker that got each: the silent one after the
        # router's 2 s wait; both within 20 s
        assert (took := closed_within(half, 20)) is not None and took > 5
        assert closed_within(silent, 20) is not None
        half.close()
        silent.close()
        assert request(server.port, "/healthz").recv(1) is not None  # still serving
    finally:
        server.stop()


def test_sigint_to_the_parent_stops_every_worker(pg_url: str) -> None:
    server = ServerProcess(pg_url, workers=2)
    try:
        server.start()
        workers = server.children()
        assert len(workers) == 2 and server.proc is not None
        os.kill(server.proc.pid, signal.SIGINT)  # to the parent alone
        assert server.proc.wait(30) == 0
        for pid in workers:
            assert not Path(f"/proc/{pid}").exists() or "Z" in Path(
                f"/proc/{pid}/stat"
            ).read_text().split()[2]
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", server.port), timeout=2)
    finally:
        server.stop()
