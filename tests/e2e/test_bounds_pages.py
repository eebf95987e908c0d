"""The pages around the bounds (issues 19 and 22): a long replay comes a page of rounds at a time,
the table pages fetch earlier lines on request, and an uploaded record can be analysed; in
English, French and Welsh, at phone and desktop width (screenshots in ``tests/e2e/screenshots``).
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

import cardroom.tables.realtime_frames as realtime_frames
from cardroom.games.nain_jaune.rules import Rules
from cardroom.tables import SeatSpec, TableConfig, TableError
from cardroom.tables.realtime import RealtimeConfig
from tests.e2e.conftest import DESKTOP, PHONE, RunningServer
from tests.e2e.test_replay import EXAMPLE
from tests.web.test_bounds import long_record

LOCALES = {"en": "en-GB", "fr": "fr-FR", "cy": "cy-GB"}
POSITION = {
    "en": "Round {r} of {n}",
    "fr": "Manche {r} sur {n}",
    "cy": "Rownd {r} o {n}",
}


def wait_until(check: Callable[[], bool], what: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.05)


def position(page: Page) -> str:
    return page.locator("#r-pos").inner_text()


def shown(page: Page) -> None:
    """Wait until the viewer shows the upload (or fail with the words the page says)."""
    page.wait_for_function(
        "() => !document.getElementById('viewer').hidden"
        " || document.getElementById('replay-error').textContent !== ''"
    )
    assert page.locator("#replay-error").inner_text() == ""


@pytest.mark.parametrize("lang", ["en", "fr", "cy"])
def test_a_long_upload_is_replayed_a_page_of_rounds_at_a_time(
    server: str, browser: Browser, shots: Path, tmp_path: Path, lang: str
) -> None:
    record = tmp_path / "long.json"
    record.write_text(json.dumps(long_record(45)), encoding="utf-8")
    ctx = browser.new_context(viewport=DESKTOP, locale=LOCALES[lang])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    pages_asked: list[str] = []
    page.on(
        "request",
        lambda r: pages_asked.append(r.url.split("page=")[1]) if "/api/replay?" in r.url else None,
    )
    page.goto(server + "/replay")
    page.set_input_files("#upload-file", str(record))
    shown(page)
    assert position(page).startswith(POSITION[lang].format(r=1, n=45))
    assert pages_asked == ["0"]  # the first 20 rounds only
    for _ in range(19):
        page.click("#r-next-round")
    assert position(page).startswith(POSITION[lang].format(r=20, n=45))
    page.click("#r-next-round")  # round 21: the second page is asked for and shown
    wait_until(
        lambda: position(page).startswith(POSITION[lang].format(r=21, n=45)), "round 21"
    )
    page.keyboard.press("End")  # the last page, without the ones between
    wait_until(lambda: position(page).startswith(POSITION[lang].format(r=45, n=45)), "the end")
    assert page.locator("#r-settlement").is_visible()
    assert pages_asked == ["0", "1", "2"]
    page.keyboard.press("ArrowLeft")  # within the page kept: nothing asked
    page.keyboard.press("Home")
    assert position(page).startswith(POSITION[lang].format(r=1, n=45))
    assert pages_asked == ["0", "1", "2"]
    page.screenshot(path=str(shots / f"replay-pages-{lang}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / f"replay-pages-{lang}-phone.png"), full_page=True)
    assert errors == []
    ctx.close()


def test_a_file_chosen_before_the_pages_words_arrive_is_still_replayed(
    server: str, browser: Browser, tmp_path: Path
) -> None:
    # on a slow line the French catalog comes after the newcomer has already chosen a file
    record = tmp_path / "short.json"
    record.write_text(json.dumps(long_record(2)), encoding="utf-8")
    ctx = browser.new_context(viewport=DESKTOP, locale=LOCALES["fr"])
    page = ctx.new_page()
    held: list[object] = []
    page.route("**/static/i18n/fr.json", lambda route: held.append(route))
    page.goto(server + "/replay", wait_until="domcontentloaded")
    for _ in range(200):  # (the route's handler runs while Playwright is called)
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked for its catalog"
    page.set_input_files("#upload-file", str(record))
    held[0].continue_()  # type: ignore[attr-defined]
    shown(page)
    assert position(page).startswith(POSITION["fr"].format(r=1, n=2))
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "cy"])
def test_an_uploaded_record_is_analysed_from_the_replay_viewer(
    server: str, browser: Browser, shots: Path, lang: str
) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale=LOCALES[lang])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/replay")
    assert page.locator("#upload-analyse").is_hidden()
    page.set_input_files("#upload-file", str(EXAMPLE))
    shown(page)
    button = page.locator("#upload-analyse")
    expect(button).to_be_visible()
    page.screenshot(path=str(shots / f"replay-analyse-button-{lang}-desktop.png"), full_page=True)
    button.click()
    page.wait_for_url(re.compile(r"/analysis/u-[0-9a-f]{40}$"))
    page.wait_for_selector("#a-result:not([hidden])", timeout=120_000)
    rows = page.locator("#a-summary tbody tr")
    assert rows.count() == 8  # the example's eight players
    assert rows.nth(2).locator("th").inner_text() == "Cid"
    assert page.locator("#a-replay").get_attribute("href") == "/replay"
    title = page.locator("#a-title").inner_text()
    assert title == {"en": "Analysis of a record file", "cy": "Dadansoddiad ffeil cofnod"}[lang]
    page.screenshot(path=str(shots / f"analysis-upload-{lang}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / f"analysis-upload-{lang}-phone.png"), full_page=True)
    assert errors == []
    ctx.close()


EARLIER = {"en": "Earlier lines", "fr": "Lignes précédentes", "cy": "Llinellau cynharach"}


@pytest.fixture(scope="module")
def long_table(running: RunningServer) -> str:
    """A finished table of 64 rounds (Ann never came: a bot took her seat at once)."""
    service = running.app.state.service
    rules = Rules.from_options("classic", {"end": "rounds:64"})
    config = TableConfig(
        rules=rules, seats=(SeatSpec("person", name="Ann"), SeatSpec("bot", "easy")), seed=3,
        takeover_after=0.01, bot_delay=0.0, next_round_after=0.0,
    )  # fmt: skip
    table: str = running.call(service.create(config)).table_id

    def over() -> bool:
        try:
            running.call(service.record(table))
        except TableError:
            return False
        return True

    wait_until(over, "64 rounds", 120)
    return table


@pytest.mark.parametrize("lang", ["en", "fr", "cy"])
def test_a_nain_jaune_table_shows_earlier_rounds_on_request(
    browser: Browser, running: RunningServer, long_table: str, shots: Path, lang: str
) -> None:
    table = long_table
    ctx = browser.new_context(viewport=DESKTOP, locale=LOCALES[lang])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{running.base}/t/{table}/watch")
    folds = page.locator("#log .round-fold")
    wait_until(lambda: folds.count() >= 60, "the folded rounds")
    first = int(folds.first.get_attribute("data-round") or "0")
    assert first > 0
    earlier = page.locator("#log-earlier")
    expect(earlier).to_be_visible()
    assert earlier.inner_text() == EARLIER[lang]
    earlier.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"table-earlier-button-{lang}-desktop.png"))
    shown = folds.count()
    earlier.click()
    assert folds.count() == shown + first  # every round before, down to the first
    assert folds.first.get_attribute("data-round") == "0"
    expect(earlier).to_be_hidden()
    folds.first.locator("summary").click()  # the first round's lines, from the server
    wait_until(lambda: folds.first.locator(".log-round li").count() > 0, "round 1's lines")
    page.screenshot(path=str(shots / f"table-earlier-{lang}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / f"table-earlier-{lang}-phone.png"), full_page=True)
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "fr", "cy"])
def test_a_speed_table_fetches_earlier_lines_on_request(
    browser: Browser,
    running: RunningServer,
    shots: Path,
    lang: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    service = running.app.state.service
    config = RealtimeConfig(
        game="speed",
        options={"countdown": "0"},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob")),
        seed=11,
    )
    created = running.call(service.create_realtime(config, "Ann v Bob"))
    table = created.table_id
    for seat in (0, 1, 0, 1, 0, 1):  # the flip, then calls refused (and logged)
        with contextlib.suppress(TableError):
            running.call(service.act_realtime(table, seat, {"type": "call"}))
    whole = running.call(service.earlier_log(table, 1, 10**6))["log"]
    assert len(whole) > 3
    monkeypatch.setattr(realtime_frames, "FULL_FRAME_LOG", 2)  # a full frame: the last 2
    ctx = browser.new_context(viewport=DESKTOP, locale=LOCALES[lang])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{running.base}/j/{table}.{created.invites[1]}")
    lines = page.locator("#log li")
    wait_until(lambda: lines.count() == 2, "the last two lines")
    earlier = page.locator("#log-earlier")
    expect(earlier).to_be_visible()
    assert earlier.inner_text() == EARLIER[lang]
    last = lines.last.inner_text()
    page.set_viewport_size(PHONE)
    earlier.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"speed-earlier-button-{lang}-phone.png"))
    page.set_viewport_size(DESKTOP)
    clicks = 0
    while earlier.is_visible():
        count = lines.count()
        earlier.click()

        def more(than: int = count) -> bool:
            return lines.count() > than

        wait_until(more, "earlier lines")
        clicks += 1
    assert lines.count() == len(whole) and clicks == (len(whole) - 2 + 1) // 2
    assert lines.last.inner_text() == last  # put above, the newest stays the last
    page.screenshot(path=str(shots / f"speed-earlier-{lang}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / f"speed-earlier-{lang}-phone.png"), full_page=True)
    assert errors == []
    ctx.close()
