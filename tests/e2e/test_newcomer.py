"""A newcomer's evening at Nain Jaune, at 1280x800 and on a 390x844 touch phone, in English and
French: create a table against bots from the lobby, play a whole short game (2 rounds), read
the settlement, press Play again (landing in one's seat at the new table), then leave it.

Checked all along: no option key or value on screen, no sideways scroll, and on the phone the
cumulative layout shift over a whole round (Layout Instability API) stays below 0.1.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.helpers import click_move, create_table, seq, status, wait_until

# every option key and value of the rules (docs/games/nain-jaune.md): none may reach a player
OPTION_WORDS = re.compile(
    r"\b(when_blocked|next-rank|free-restart|points-ace-low|points-ace-high|card-count|"
    r"forgotten_announcement|chips-stay|double-box|grand_opera|one-turn|no-one-else-played|"
    r"may_stop|last-standing|starting_chips|board_cards|anticlockwise)\b"
)
# every layout shift of the page, whatever caused it, from the first paint
SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__shifts.push({t: e.startTime, v: e.value,
    input: e.hadRecentInput, seq: Number(document.body.dataset.seq || -1),
    what: (e.sources || []).map((s) => s.node
      ? (s.node.id || String(s.node.className || s.node.nodeName)) + " "
        + JSON.stringify([s.previousRect.y, s.currentRect.y, s.currentRect.height])
      : "?")});
}).observe({type: "layout-shift", buffered: true});
"""
WORDS = {
    "en": {"stake": "Stake", "total": "Total", "again": "Play again", "over": "The game is over",
           "bot2": "Bot 2", "round1": "Round 1: "},
    "fr": {"stake": "Mise", "total": "Total", "again": "Rejouer", "over": "La partie est finie",
           "bot2": "Robot 2", "round1": "Manche 1 : "},
    "cy": {"stake": "Bet", "total": "Cyfanswm", "again": "Chwarae eto",
           "over": "Mae’r gêm drosodd", "bot2": "Bot 2", "round1": "Rownd 1: "},
}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "cy": "cy-GB"}


def _clean(page: Page, where: str) -> None:
    text = page.locator("body").inner_text()
    found = OPTION_WORDS.search(text)
    assert found is None, f"{where}: an option key on screen: {found.group(0)!r}"
    root = "document.documentElement"
    wide = page.evaluate(f"{root}.scrollWidth - {root}.clientWidth")
    assert wide <= 0, f"{where}: the page scrolls sideways by {wide} px"


def _play_round(page: Page, touch: bool, limit: float = 90.0) -> None:
    """Play this seat's moves until the round (or the game) is over."""
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


def _shot(page: Page, path: Path) -> None:
    """A full-page screenshot once every card picture has loaded."""
    loaded = "[...document.images].every((i) => i.complete)"
    wait_until(lambda: page.evaluate(loaded), what="the card pictures")
    page.screenshot(path=str(path), full_page=True)


def _round_shift(page: Page, since: float) -> float:
    shifts: list[dict[str, float]] = page.evaluate("window.__shifts")
    return sum(s["v"] for s in shifts if s["t"] >= since)


@pytest.mark.parametrize(
    ("lang", "size"),
    [("en", "desktop"), ("fr", "phone"), ("cy", "phone")],
)
def test_a_newcomer_plays_a_short_game_then_again_then_leaves(
    browser: Browser, server: str, shots: Path, lang: str, size: str
) -> None:
    phone = size == "phone"
    ctx = browser.new_context(
        viewport=PHONE if phone else DESKTOP,
        locale=LOCALES[lang],
        has_touch=phone,
        is_mobile=phone,
    )
    ctx.add_init_script(SHIFTS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    words = WORDS[lang]
    name = f"{lang}-{size}"
    try:
        table = create_table(
            page, server, name="Ann", seats=[("bot", "easy"), ("bot", "easy")],
            end=("rounds", 2),
        )  # fmt: skip
        page.goto(table.url)
        wait_until(lambda: status(page) == "playing", what="the game to start")
        _clean(page, "the first round")
        if phone:  # no keyboard hints on a touch phone
            keys = "getComputedStyle(document.getElementById('help-button')).display"
            assert page.evaluate(keys) == "none"
            assert "(p)" not in page.locator("#actions").inner_text()
        _shot(page, shots / f"newcomer-playing-{name}.png")
        page.wait_for_timeout(100)  # (a full-page screenshot resizes the page: not measured)
        start = page.evaluate("performance.now()")
        _play_round(page, touch=phone)
        page.wait_for_timeout(500)  # the round's end is in the measure
        cls = _round_shift(page, start)
        print(f"{name}: cumulative layout shift over round 1: {cls:.4f}")
        _shot(page, shots / f"newcomer-settlement-{name}.png")
        if phone:
            assert cls < 0.1, f"cumulative layout shift over a round: {cls:.3f} " + str(
                [s for s in page.evaluate("window.__shifts") if s["t"] >= start]
            )
        # the settlement in columns: stake, ..., total; each row adds up
        heads = page.locator("#result table.settlement thead th").all_text_contents()
        assert heads[1] == words["stake"] and words["total"] in heads
        for row in page.locator("#result table.settlement tbody tr").all():
            cells = [c.replace("·", "0") for c in row.locator("td").all_text_contents()]
            numbers = [int(c.replace("+", "")) for c in cells]  # ..., total, chips
            assert sum(numbers[:-2]) == numbers[-2], f"a settlement row does not add up: {cells}"
        assert numbers[0] == -15  # every player stakes 15 chips a round (1 to 5 on the boxes)
        _clean(page, "the settlement")
        # the name cardroom gives a bot is in the page's words, on its seat and in the settlement
        # as in the log
        assert page.locator("#seats .seat[data-seat='1'] .seat-name").inner_text() == words["bot2"]
        row = page.locator("#result table.settlement tbody tr").nth(1).locator("th, td").first
        assert row.inner_text() == words["bot2"]
        # round 2, then the end screen
        wait_until(lambda: status(page) == "playing", timeout=60, what="the second round")
        # round 1 folded under its title line, which is not repeated inside (issue 34, item 6)
        fold = page.locator("#log .round-fold").first
        title = fold.locator("summary").text_content() or ""
        assert title.startswith(words["round1"]), title
        assert fold.locator(".log-round li").first.text_content() != title
        _play_round(page, touch=phone)
        wait_until(lambda: status(page) == "over", what="the end of the game")
        page.wait_for_selector("#game-over")
        assert page.locator("#game-over").inner_text() == words["over"]
        assert page.locator(".standings li").count() == 3
        assert page.locator("svg.chips-chart polyline").count() == 3
        assert page.locator("a[href$='/record']").count() == 1
        page.locator("#game-over").scroll_into_view_if_needed()
        _shot(page, shots / f"newcomer-game-over-{name}.png")
        _clean(page, "the end screen")
        # the whole game's log stays: after a reload round 1 is one folded line, opened on demand
        page.reload()
        wait_until(lambda: status(page) == "over", what="the page again")
        folds = page.locator("#log .round-fold")
        assert folds.count() == 1 and folds.locator(".log-round li").count() == 0
        folds.locator("summary").click()
        wait_until(lambda: folds.locator(".log-round li").count() > 10, what="round 1's lines")
        _clean(page, "the log")
        # Play again: a new table, the same seats; Ann lands in her seat at once
        old_url = page.url
        button = page.locator("#play-again")
        assert button.inner_text() == words["again"]
        button.tap() if phone else button.click()
        page.wait_for_url(lambda url: url != old_url and "/watch" not in url)
        wait_until(lambda: status(page) == "playing", what="the new game")
        assert page.locator(".seat.you .seat-name").inner_text() == "Ann"
        assert page.locator("#hand button.card").count() == 15
        _clean(page, "the new table")
        # Leave, with a confirmation: a bot takes the seat and Ann is back in the lobby
        leave = page.locator("#leave-button")
        leave.tap() if phone else leave.click()
        page.wait_for_selector("#leave-confirm:not([hidden])")
        _shot(page, shots / f"newcomer-leave-{name}.png")
        page.locator("#leave-yes").click()
        page.wait_for_url(lambda url: url.rstrip("/") == server)
        assert not errors, errors
    finally:
        ctx.close()


def test_after_a_reconnect_the_error_clears_and_no_old_call_is_announced(
    browser: Browser, server: str
) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = ctx.new_page()
    sockets: dict[str, Any] = {"block": False, "open": []}

    def route(ws: Any) -> None:  # the page's websocket, through a switch the test holds
        if sockets["block"]:
            ws.close()
            return
        ws.connect_to_server()
        sockets["open"].append(ws)

    page.route_web_socket(re.compile(r".*/ws/.*"), route)
    try:
        table = create_table(
            page, server, name="Ann", seats=[("bot", "easy"), ("bot", "easy")], end=("rounds", 1)
        )
        page.goto(table.url)
        wait_until(lambda: status(page) == "playing", what="the game to start")
        # play until a call was announced (the banner and the assertive live region)
        end = time.monotonic() + 60
        while not page.locator("#announce").inner_text().strip():
            assert time.monotonic() < end and status(page) == "playing", "no call was announced"
            if page.locator("#hand button.card.legal, #pass-button").count():
                before = seq(page)
                if click_move(page) is not None:
                    wait_until(lambda b=before: seq(page) != b, what="the move to land")
            page.wait_for_timeout(30)
        wait_until(
            lambda: page.locator("#hand button.card.legal, #pass-button").count() > 0,
            what="Ann's turn",
        )
        shown = "document.getElementById('announce').classList.contains('show')"
        wait_until(lambda: not page.evaluate(shown), what="the banner to fold")
        said = page.locator("#announce").inner_text()
        page.evaluate(
            """() => { window.__announced = 0;
            new MutationObserver((m) => { window.__announced += m.length; }).observe(
              document.getElementById("announce"),
              {childList: true, characterData: true, subtree: true}); }"""
        )
        # the connection drops and cannot come back for a while: a move says "Not connected"
        sockets["block"] = True
        for ws in sockets["open"]:
            ws.close()
        wait_until(lambda: page.locator("#conn").get_attribute("data-kind") != "ok", what="drop")
        click_move(page)
        assert "Not connected" in page.locator("#error").inner_text()
        # it comes back: the error goes, and the last call is not said again
        sockets["block"] = False
        wait_until(
            lambda: page.locator("#conn").get_attribute("data-kind") == "ok", timeout=60,
            what="the reconnect",
        )  # fmt: skip
        wait_until(lambda: page.locator("#error").inner_text() == "", what="the error to clear")
        assert page.evaluate("window.__announced") == 0
        assert page.locator("#announce").inner_text() == said
        assert not page.evaluate(shown)
    finally:
        ctx.close()
