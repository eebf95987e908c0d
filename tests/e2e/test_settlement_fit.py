"""The settlement at the end of a Nain Jaune round fits its box, at 390x844 and 1280x800, in
English, French and Welsh (whose words are long): no column scrolls out of sight.

Checked twice at each size and language: the settlement of a real round against bots, then the
widest settlement there can be (every column paid, three-digit sums, 24-character names) drawn by
the page's own ``settlementTable`` into the same box. Screenshots of both."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.helpers import click_move, create_table, seq, status, wait_until

LOCALES = {"en": "en-GB", "fr": "fr-FR", "cy": "cy-GB"}
STAKE = {"en": "Stake", "fr": "Mise", "cy": "Bet"}

# how far the settlement reaches past its box, and past the window (px)
OVERFLOW = """() => {
  const table = document.querySelector("#result table.settlement");
  const box = table.closest(".table-scroll") || table.parentElement;
  const right = Math.max(...[...table.querySelectorAll("th, td")]
    .filter((c) => c.offsetParent !== null).map((c) => c.getBoundingClientRect().right));
  return {box: box.scrollWidth - box.clientWidth,
          window: right - document.documentElement.clientWidth,
          table: table.getBoundingClientRect().width, columns: table.rows[0].cells.length};
}"""

# the widest settlement: every column paid by every seat (three-digit sums: a big board), names
# of 24 characters without a space (as long as a name may be)
WIDEST = """async () => {
  const { settlementTable } = await import("/static/js/common.js");
  const names = ["Bartholomew-Fitzwilliam", "Llanfairpwllgwyngyllgogo", "Maximilienne-Géraldine"];
  const rows = names.map((n, seat) => ({seat, stake: -15, taken: 345, cards: -128,
    doubled: 240, grand_opera: -144, total: -298, chips: 1480}));
  const res = {winner: 1, rows};
  const box = document.querySelector("#result .table-scroll");
  box.replaceWith(settlementTable(res, (row) => names[row.seat]));
}"""


def _play_round(page: Page, touch: bool, limit: float = 120.0) -> None:
    end = time.monotonic() + limit
    while status(page) not in ("round-over", "over"):
        assert time.monotonic() < end, "the round did not end in time"
        if status(page) == "playing" and page.locator(
            "#hand button.card.legal, #pass-button"
        ).count():
            before = seq(page)
            if click_move(page, touch=touch) is not None:
                wait_until(
                    lambda b=before: seq(page) != b or status(page) != "playing",
                    what="the move to land",
                )
        page.wait_for_timeout(30)


def _fits(page: Page, where: str) -> None:
    over = page.evaluate(OVERFLOW)
    assert over["box"] <= 0, f"{where}: the settlement scrolls {over['box']} px in its box: {over}"
    assert over["window"] <= 0.5, f"{where}: a column ends {over['window']} px past the window"


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "fr", "cy"])
def test_the_settlement_fits_the_window(
    browser: Browser, server: str, shots: Path, lang: str, size: str
) -> None:
    phone = size == "phone"
    ctx = browser.new_context(
        viewport=PHONE if phone else DESKTOP, locale=LOCALES[lang], has_touch=phone,
        is_mobile=phone,
    )  # fmt: skip
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    folder = shots
    try:
        table = create_table(
            page, server, name="Ann", seats=[("bot", "easy"), ("bot", "easy")],
            end=("rounds", 2),
        )  # fmt: skip
        page.goto(table.url)
        wait_until(lambda: status(page) == "playing", what="the game to start")
        _play_round(page, touch=phone)
        assert status(page) == "round-over"
        page.wait_for_selector("#result.ended table.settlement")
        heads = page.locator("#result table.settlement thead th").all_text_contents()
        assert heads[1] == STAKE[lang], heads
        page.wait_for_timeout(400)  # (the sheet is brought into view smoothly)
        page.screenshot(path=str(folder / f"settlement-{lang}-{size}.png"))
        _fits(page, f"{lang} {size}, the round's settlement")
        page.evaluate(WIDEST)
        assert page.locator("#result table.settlement tbody tr").count() == 3
        page.locator("#result table.settlement").scroll_into_view_if_needed()
        page.screenshot(path=str(folder / f"settlement-widest-{lang}-{size}.png"))
        _fits(page, f"{lang} {size}, the widest settlement")
        assert errors == []
    finally:
        ctx.close()
