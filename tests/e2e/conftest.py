"""Browser tests: the real server (uvicorn in a thread, a tmp SQLite file) and Debian's chromium.

Without /usr/bin/chromium every browser test is skipped, with the command that installs it.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, ViewportSize, sync_playwright

from cardroom.web.app import create_app
from cardroom.web.settings import Settings

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
    "install it with `sudo apt-get install chromium`"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real cardroom server on 127.0.0.1, stopped after the module."""
    db = tmp_path_factory.mktemp("e2e") / "cardroom.db"
    port = _free_port()
    settings = Settings(
        host="127.0.0.1", port=port, db_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.02
    )
    config = uvicorn.Config(
        create_app(settings), host="127.0.0.1", port=port, log_level="warning", lifespan="on"
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the cardroom server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


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
