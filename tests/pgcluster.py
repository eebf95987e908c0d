"""A throwaway PostgreSQL cluster on 127.0.0.1 for tests and benchmarks (initdb + pg_ctl).

Root cannot run postgres, so as root the commands run as the ``postgres`` user (``runuser``).
:func:`why_not` says why a cluster cannot be had here (the tests then skip with that reason).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_owner() -> list[str]:
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    return [runuser, "-u", "postgres", "--"] if runuser else []


def why_not() -> str | None:
    """None if a cluster can be started here, else the reason it cannot."""
    if _bindir() is None:
        return "PostgreSQL is not installed (run `sudo sh scripts/test-setup.sh`)"
    if os.geteuid() == 0:
        if not shutil.which("runuser"):
            return "running as root without runuser: cannot start postgres as another user"
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the server"
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        return "asyncpg is not installed"
    return None


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PgCluster:
    """A cluster in a temporary folder; :meth:`start`, :meth:`stop`, :meth:`restart`."""

    def __init__(
        self, *, fsync: bool = False, max_connections: int = 200, options: str = ""
    ) -> None:
        bindir = _bindir()
        assert bindir is not None, why_not()
        self.bindir = bindir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="cardroom-pg-"))
        self.data = self.root / "data"
        self.fsync = fsync
        self.max_connections = max_connections
        self.options = options
        """More ``-c name=value`` server options."""
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "cardroom", "-E", "UTF8")

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of database ``cardroom`` (``postgresql+asyncpg://``)."""
        return f"postgresql+asyncpg://cardroom@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        command = [*_as_owner(), str(self.bindir / tool), *args]
        done = subprocess.run(command, capture_output=True, text=True, cwd="/", check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed: {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> None:
        """Start the server (returns once it accepts connections)."""
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} "
            f"-c max_connections={self.max_connections} -c fsync={'on' if self.fsync else 'off'} "
            f"{self.options}"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )

    def running(self) -> bool:
        """True while the server's pid file is there."""
        return (self.data / "postmaster.pid").exists()

    def start_if_stopped(self) -> None:
        """Start the server unless it runs (a test that stopped it may have failed)."""
        if not self.running():
            self.start()

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: disconnect clients, ``immediate``: like a crash)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        """Stop then start again on the same port."""
        self.stop()
        self.start()

    def destroy(self) -> None:
        """Stop (if running) and remove the folder."""
        with contextlib.suppress(RuntimeError):
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)
