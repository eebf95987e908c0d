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

HARNESS = """
let now = 0;
const timers = [];
Date.now = () => now;
globalThis.setTimeout = (fn, ms) => { timers.push({ at: now + ms, fn, every: 0 }); return timers.length; };
globalThis.setInterval = (fn, ms) => { timers.push({ at: now + ms, fn, every: ms }); return timers.length; };
globalThis.clearInterval = (id) => { if (id && timers[id - 1]) timers[id - 1].fn = null; };
globalThis.clearTimeout = globalThis.clearInterval;
globalThis.location = { search: "", protocol: "http:", host: "example" };
const texts = [];
const conn = { set textContent(v) { texts.push(v); }, dataset: {} };
globalThis.document = {
  cookie: "", documentElement: { lang: "en" }, getElementById: () => conn,
  addEventListener: () => {}, querySelector: () => null, querySelectorAll: () => [],
};
globalThis.navigator = { languages: ["en"], language: "en" };
const sockets = [];
class FakeSocket {
  static OPEN = 1;
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; this.on = {}; sockets.push(this); }
  addEventListener(kind, fn) { (this.on[kind] ||= []).push(fn); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.closed = true; }
  fire(kind, ev = {}) { for (const fn of this.on[kind] || []) fn(ev); }
}
globalThis.WebSocket = FakeSocket;
function advance(ms) {
  const end = now + ms;
  for (;;) {
    const due = timers.filter((t) => t.fn && t.at <= end).sort((a, b) => a.at - b.at)[0];
    if (!due) break;
    now = due.at;
    const fn = due.fn;
    if (due.every) due.at += due.every; else due.fn = null;
    fn();
  }
  now = end;
}
const { tableSocket } = await import(process.argv[2]);
const frames = [];
const socket = tableSocket("T1", false, { onFrame: (f) => frames.push(f) });
socket.connect();
const first = sockets[0];
first.readyState = 1;
first.fire("open");
advance(2100);
const pinged = first.sent.filter((m) => m.type === "ping").length;
first.fire("message", { data: JSON.stringify({ type: "pong", ref: "hb1" }) });
advance(3000);
const aliveAfterPong = sockets.length;
advance(7000);  // nothing more from the server
const said = texts.includes("no word from the server for a few seconds: reconnecting…");
advance(3000);  // the reconnect's delay
console.log(JSON.stringify({ pinged, aliveAfterPong, said, sockets: sockets.length,
  firstClosed: Boolean(first.closed), pongsShown: frames.filter((f) => f.type === "pong").length }));
"""


def test_the_page_pings_and_gives_up_a_silent_connection(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    harness = tmp_path / "harness.mjs"
    harness.write_text(HARNESS)
    done = subprocess.run(
        [node, str(harness), COMMON.as_uri()], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["pinged"] >= 1
    assert seen["aliveAfterPong"] == 1  # a pong keeps the connection
    assert seen["said"]  # the page says so in words
    assert seen["firstClosed"] and seen["sockets"] == 2  # given up and opened again
    assert seen["pongsShown"] == 0
