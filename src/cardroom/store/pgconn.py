"""Every connection to PostgreSQL fails within seconds when the database or the way to it
goes silent (a cable, a switch, a paused VM: packets dropped, no reset).

Without this nothing noticed for ~15 minutes (until TCP gave up retransmitting): a statement
waited, a lease was held by a process that could not act. Each connection (the pool's, the
appends', the lease and chat connections) gets:

* on this side: TCP keepalives (idle ``KEEPALIVE_IDLE`` s, then every ``KEEPALIVE_INTERVAL`` s,
  ``KEEPALIVE_COUNT`` probes) and ``TCP_USER_TIMEOUT`` (data unacknowledged that long closes
  the socket), a connect timeout, and asyncpg's ``command_timeout`` on every statement;
* on the server's side (``server_settings``, sent when connecting): the same keepalives and
  user timeout for the server's socket, so a backend whose client went silent ends and frees
  its advisory locks (a process's table leases) within ``SERVER_GIVES_UP`` s, and a
  ``statement_timeout``.

A process gives up its leases itself sooner than the server frees them (``FENCE_AFTER``, see
``tables/service.py``), so two processes never act as one table's authority.
"""

from __future__ import annotations

import contextlib
import socket
from typing import Any

CONNECT_TIMEOUT = 4.0
"""Seconds to open a connection (TCP, TLS, start-up)."""
COMMAND_TIMEOUT = 4.0
"""Seconds any one statement may take, seen from this side (asyncpg ``command_timeout``)."""
STATEMENT_TIMEOUT_MS = 5000
"""The server cancels a statement running longer (``statement_timeout``)."""
KEEPALIVE_IDLE = 2
KEEPALIVE_INTERVAL = 1
KEEPALIVE_COUNT = 2
USER_TIMEOUT_MS = 4000
"""This side's socket: an idle connection is probed after 2 s and dropped after 2 unanswered
probes (4 s of silence); data unacknowledged for 4 s drops it too."""
SERVER_KEEPALIVE_IDLE = 4
SERVER_KEEPALIVE_INTERVAL = 1
SERVER_KEEPALIVE_COUNT = 2
SERVER_USER_TIMEOUT_MS = 6000
SERVER_GIVES_UP = 6.0
"""The server's socket of each connection: its backend ends 6 s after it last heard from this
process (4 s idle + 2 probes a second apart, or 6 s of unacknowledged notices), freeing the
leases. It must stay above ``FENCE_AFTER`` (the process has stopped acting by then)."""


def server_settings() -> dict[str, str]:
    """The per-connection server settings sent at start-up (PostgreSQL 12 on)."""
    return {
        "tcp_keepalives_idle": str(SERVER_KEEPALIVE_IDLE),
        "tcp_keepalives_interval": str(SERVER_KEEPALIVE_INTERVAL),
        "tcp_keepalives_count": str(SERVER_KEEPALIVE_COUNT),
        "tcp_user_timeout": str(SERVER_USER_TIMEOUT_MS),
        "statement_timeout": str(STATEMENT_TIMEOUT_MS),
    }


def connect_args() -> dict[str, Any]:
    """asyncpg ``connect`` keyword arguments (SQLAlchemy's ``connect_args`` too)."""
    return {
        "timeout": CONNECT_TIMEOUT,
        "command_timeout": COMMAND_TIMEOUT,
        "server_settings": server_settings(),
    }


def tune_socket(conn: Any) -> bool:
    """Keepalives and a user timeout on the socket of an asyncpg connection (a no-op where
    the platform lacks them, or for a Unix socket); True if they were set."""
    transport = getattr(conn, "_transport", None)
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return False
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (
            ("TCP_KEEPIDLE", KEEPALIVE_IDLE),
            ("TCP_KEEPINTVL", KEEPALIVE_INTERVAL),
            ("TCP_KEEPCNT", KEEPALIVE_COUNT),
            ("TCP_USER_TIMEOUT", USER_TIMEOUT_MS),
        ):
            option = getattr(socket, name, None)
            if option is not None:
                sock.setsockopt(socket.IPPROTO_TCP, option, value)
        return True
    return False


async def connect(dsn: str, **settings: str) -> Any:
    """An asyncpg connection with the bounds above (``settings``: more server settings)."""
    import asyncpg

    args = connect_args()
    args["server_settings"] = {**args["server_settings"], **settings}
    conn = await asyncpg.connect(dsn, **args)
    tune_socket(conn)
    return conn
