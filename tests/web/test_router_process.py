"""``web/router.py``'s parent loop in a process of its own, with workers that answer each handed
connection with their slot and pid: routing by table, round-robin, the bound on silent
connections, a dead worker's share going to the next slot, SIGTERM stopping all."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.tables.slots import slot_of

SRC = str(Path(__file__).parents[2] / "src")
SCRIPT = textwrap.dedent(
    """
    import os, socket, sys
    from cardroom.web.router import Router

    def work(slot, channel):
        while True:
            msg, fds, _, _ = socket.recv_fds(channel, 16, 4)
            if not msg and not fds:
                return
            for fd in fds:
                conn = socket.socket(fileno=fd)
                conn.settimeout(2)
                try:
                    conn.sendall(f"{slot} {os.getpid()}".encode())
                    conn.shutdown(socket.SHUT_WR)
                    conn.recv(4096)  # what the client sent (not read by the parent)
                except OSError:
                    pass
                conn.close()

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    Router(listener, 3, work, wait=30.0, max_waiting=2, replace_after=30.0).run()
    """
)


@pytest.fixture
def router() -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT],
        env={**os.environ, "PYTHONPATH": SRC},
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stdout is not None
    port = int(proc.stdout.readline())
    yield proc, port
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


def ask(port: int, head: bytes) -> tuple[int, int]:
    """The (slot, pid) of the worker a connection sending ``head`` is handed to."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(head)
        answer = b""
        while chunk := conn.recv(100):
            answer += chunk
    slot, pid = answer.split()
    return int(slot), int(pid)


def test_routing_bounds_dead_workers_and_stopping(
    router: tuple[subprocess.Popen[bytes], int],
) -> None:
    proc, port = router
    ids = ["Ab3xy9Qz", "Zq81xPPa", "kkL0yy7B", "m2m2m2m2", "Q9rTxx0w", "hhh0hhh1"]
    pids: dict[int, int] = {}
    for table_id in ids:  # a table's connections: always its slot, whatever the path
        for path in (f"/ws/{table_id}", f"/t/{table_id}/watch", f"/j/{table_id}.tok"):
            slot, pid = ask(port, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert slot == slot_of(table_id, 3)
            assert pids.setdefault(slot, pid) == pid
    turns = [ask(port, b"GET / HTTP/1.1\r\n\r\n")[0] for _ in range(3)]
    assert sorted(turns) == [0, 1, 2]  # round-robin
    assert ask(port, b"GET /t/Ab3")[0] in (0, 1, 2)  # an incomplete line too

    # at most two wait silently: the third arrival hands the oldest over at once
    silent = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(3)]
    assert silent[0].recv(100).split()[0] in (b"0", b"1", b"2")
    for conn in silent[1:]:
        conn.settimeout(1.0)
        with pytest.raises(TimeoutError):  # still waiting for their first bytes (30 s)
            conn.recv(100)
    for conn in silent:
        conn.close()

    # a dead worker (not replaced for 30 s here): its tables go to the next slot
    table_id = ids[0]
    dead = slot_of(table_id, 3)
    os.kill(pids[dead], signal.SIGKILL)
    for _ in range(100):
        gone = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(proc.pid)], capture_output=True, text=True
        ).stdout.split()
        if str(pids[dead]) not in gone:
            break
        time.sleep(0.05)
    slot, pid = ask(port, f"GET /ws/{table_id} HTTP/1.1\r\n\r\n".encode())
    assert slot == (dead + 1) % 3 and pid == pids[slot]

    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(20) == 0
    for pid in pids.values():
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
