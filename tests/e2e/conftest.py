"""Browser tests: the real server (uvicorn in a thread, a tmp SQLite file) and Debian's chromium.

Without /usr/bin/chromium every browser test is skipped, with the command that installs it.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
import uvicorn
from playwright.sync_api import Browser, ViewportSize, sync_playwright

from cardroom.web.app import create_app
from cardroom.web.server import uvicorn_config
from cardroom.web.settings import Settings

T = TypeVar("T")
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).parent / "screenshots"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}

NO_CHROMIUM = (
    "browser tests need Debian's chromium at /usr/bin/chromium: "
    "install it with `sudo apt-get install chromium` (or `sudo sh scripts/test-setup.sh`)"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class _LoopCapture:
    """The ASGI app, remembering the event loop the server runs it on."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.loop: asyncio.AbstractEventLoop | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        await self.app(scope, receive, send)


@dataclass(frozen=True)
class RunningServer:
    """A started server: its address, its app and the loop it runs on."""

    base: str
    app: Any
    loop: asyncio.AbstractEventLoop

    def call(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine on the server's loop (e.g. ``service.create`` with a fixed seed)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=30)


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A real cardroom server on 127.0.0.1 and a free port, stopped after the module."""
    db = tmp_path_factory.mktemp("e2e") / "cardroom.db"
    port = _free_port()
    settings = Settings(
        host="127.0.0.1", port=port, db_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.02,
        # a module's browsers make many tables from this one address
        tables_per_minute=1000, open_tables_per_client=1000,
    )  # fmt: skip
    app = create_app(settings)
    wrapped = _LoopCapture(app)
    config = uvicorn_config(wrapped, settings, host="127.0.0.1", port=port, lifespan="on")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started or wrapped.loop is None:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the cardroom server did not start")
        time.sleep(0.05)
    yield RunningServer(f"http://127.0.0.1:{port}", app, wrapped.loop)
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def server(running: RunningServer) -> str:
    """The base URL of the module's server."""
    return running.base


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless chromium; each person gets a new context (a fresh profile)."""
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    """Where the screenshots of the run go (gitignored)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
