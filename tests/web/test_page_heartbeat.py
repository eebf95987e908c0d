"""The page's heartbeat (``static/js/common.js`` ``tableSocket``), run in Node with a fake
WebSocket and a fake clock: it pings, and a connection that brings nothing for seconds is
given up (the page says so in words) and opened again."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

COMMON = Path(__file__).parents[2] / "src" / "cardroom" / "web" / "static" / "js" / "common.js"

HARNESS = Path(__file__).with_name("page_heartbeat.mjs")


def test_the_page_pings_and_gives_up_a_silent_connection() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    done = subprocess.run(
        [node, str(HARNESS), COMMON.as_uri()], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["pinged"] >= 1
    assert seen["aliveAfterPong"] == 1  # a pong keeps the connection
    assert seen["said"]  # the page says so in words
    assert seen["firstClosed"] and seen["sockets"] == 2  # given up and opened again
    assert seen["pongsShown"] == 0
