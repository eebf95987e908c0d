"""The Nain Jaune table's announcement banner never covers the status line, on a phone and a
desktop: every time it shows, its box and the status line's box do not overlap."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.e2e.conftest import DESKTOP, PHONE
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
