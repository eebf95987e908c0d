"""The Nain Jaune table's announcement banner never covers the status line, on a phone and a
desktop: every time it shows, its box and the status line's box do not overlap."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from cardroom.tables import SeatSpec
from cardroom.tables.realtime import RealtimeConfig
from tests.e2e.conftest import DESKTOP, PHONE, RunningServer
from tests.e2e.helpers import click_move, create_table, seq, status, wait_until

WATCH = """() => {
  window.__shown = 0; window.__overlap = 0;
  const box = document.getElementById("announce");
  const line = document.getElementById("status-line");
  new MutationObserver(() => {
    if (!box.classList.contains("show")) return;
    requestAnimationFrame(() => {
      const a = box.getBoundingClientRect(), s = line.getBoundingClientRect();
      const over = Math.min(a.bottom, s.bottom) - Math.max(a.top, s.top);
      window.__shown += 1;
      window.__overlap = Math.max(window.__overlap, over);
    });
  }).observe(box, { attributes: true, attributeFilter: ["class"] });
}"""


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_banner_leaves_the_status_line_readable(
    browser: Browser, server: str, shots: Path, size: dict[str, int]
) -> None:
    ctx = browser.new_context(viewport=size, locale="en-GB")  # type: ignore[arg-type]
    page = ctx.new_page()
    try:
        table = create_table(
            page, server, name="Ann", seats=[("bot", "easy"), ("bot", "easy")], end=("rounds", 1)
        )
        page.goto(table.url)
        wait_until(lambda: status(page) == "playing", what="the game to start")
        page.evaluate(WATCH)
        end = time.monotonic() + 60
        while page.evaluate("window.__shown") < 2:
            assert time.monotonic() < end and status(page) == "playing", "no call was announced"
            if page.locator("#hand button.card.legal, #pass-button").count():
                before = seq(page)
                if click_move(page) is not None:
                    wait_until(lambda b=before: seq(page) != b, what="the move to land")
            page.wait_for_timeout(30)
        if page.evaluate("document.getElementById('announce').classList.contains('show')"):
            page.screenshot(path=str(shots / f"announce-{size['width']}.png"))
        assert page.locator("#status-line").inner_text().strip()
        assert page.evaluate("window.__overlap") <= 0, page.evaluate("window.__overlap")
    finally:
        ctx.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_speed_banner_leaves_the_status_line_readable(
    browser: Browser, running: RunningServer, shots: Path, size: dict[str, int]
) -> None:
    """The same on a Spit/Speed page (issue 34, item 15: the banner covered the status line)."""
    config = RealtimeConfig(
        game="speed", options={"countdown": "0"}, seed=4, level="easy",
        seats=(SeatSpec("person", name="Ann"), SeatSpec("bot", level="easy")),
    )  # fmt: skip
    created = running.call(running.app.state.service.create_realtime(config, "Ann"))
    ctx = browser.new_context(viewport=size, locale="en-GB")  # type: ignore[arg-type]
    page = ctx.new_page()
    try:
        page.goto(f"{running.base}/j/{created.table_id}.{created.creator_token}")
        page.wait_for_selector("#call-button")
        page.evaluate(WATCH)
        page.keyboard.press(" ")  # Ann calls for the flip; the bot too: "Play!" is announced
        wait_until(lambda: page.evaluate("window.__shown") >= 1, 30, "a banner")
        page.screenshot(path=str(shots / f"announce-speed-{size['width']}.png"))
        assert page.locator("#status-line").inner_text().strip()
        assert page.evaluate("window.__overlap") <= 0, page.evaluate("window.__overlap")
    finally:
        ctx.close()
