"""Every page a newcomer meets, on a 390 px phone and a 1280 px desktop, in English, French and
Welsh: no page scrolls sideways, every number is written the language's way, a bot has one name
(seats, settlement and log alike) and one rating (lobby and leaderboard), and the replay's
settlement has the table's columns. Screenshots of each page at both widths."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from cardroom.tables import SeatSpec
from cardroom.tables.realtime import RealtimeConfig
from tests.e2e.conftest import DESKTOP, PHONE, RunningServer
from tests.e2e.helpers import click_move, create_table, status, wait_until

LOCALES = {"en": "en-GB", "fr": "fr-FR", "cy": "cy-GB"}
# "0.0 → 3.4" is English; French writes "0,0 → 3,4" (Welsh writes numbers as English does)
ENGLISH_DECIMAL = re.compile(r"\d\.\d")
FRENCH_DECIMAL = re.compile(r"\d,\d")
WORDS = {
    "en": {"bot2": "Bot 2", "stake": "Stake", "taken": "Boxes taken"},
    "fr": {"bot2": "Robot 2", "stake": "Mise", "taken": "Cases ramassées"},
    "cy": {"bot2": "Bot 2", "stake": "Bet", "taken": "Blychau a gymerwyd"},
}


def check_width(page: Page, shots: Path, name: str, problems: list[str]) -> None:
    """The page at 390 px never scrolls sideways (the layout viewport stays 390 px wide); then
    its screenshots at both widths."""
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    wide, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    culprits = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
             .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
             .slice(0, 5).map((e) => e.tagName + '#' + e.id + '.' + e.className)"""
    )
    if not (inner == PHONE["width"] and wide <= inner):
        problems.append(f"{name}: {wide} px wide at {inner} px ({culprits})")
    # the top bar's links keep its padding on the right (a long French link once touched the edge)
    edge = page.evaluate(
        """() => [...document.querySelectorAll('.topbar a, .topbar select')]
             .filter((e) => e.getBoundingClientRect().right > innerWidth - 4)
             .map((e) => e.textContent.trim())"""
    )
    if edge:
        problems.append(f"{name}: the top bar's {edge} reach the screen's right edge")
    page.screenshot(path=str(shots / f"layout-{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(150)
    page.screenshot(path=str(shots / f"layout-{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)


def check_numbers(text: str, lang: str, where: str, problems: list[str]) -> None:
    wrong = (ENGLISH_DECIMAL if lang == "fr" else FRENCH_DECIMAL).search(text)
    if wrong:
        problems.append(f"{where}: {wrong.group()!r} is not how {lang} writes a number")


def expect(ok: bool, what: str, problems: list[str]) -> None:
    """Note a defect and go on, so that one run lists them all."""
    if not ok:
        problems.append(what)


@pytest.mark.parametrize("lang", ["en", "fr", "cy"])
def test_every_page_fits_a_phone_and_speaks_one_language(
    browser: Browser, running: RunningServer, shots: Path, lang: str
) -> None:
    base = running.base
    context = browser.new_context(viewport=PHONE, locale=LOCALES[lang], has_touch=True)
    context.add_cookies([{"name": "cr_lang", "value": lang, "url": base}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    words = WORDS[lang]
    problems: list[str] = []

    # Play now, with its leaderboard, after choosing a name
    page.goto(f"{base}/play")
    page.wait_for_selector("#who-box:not([hidden])")
    page.fill("#who-name", "Ann")
    page.click("#who-form button[type=submit]")
    page.wait_for_selector("#who-box", state="hidden")
    page.wait_for_selector("#board li")
    page.select_option("#board-game", "nain-jaune")
    bots = page.locator("#board li", has=page.locator("em"))
    # the hard bot, second of the bots (expert first): 1500 + 48 x (23.66 - 25) = 1436
    wait_until(lambda: "436" in bots.nth(1).inner_text(), 10, "the Nain Jaune leaderboard")
    board = page.locator("#board li").all_inner_texts()
    check_width(page, shots, f"play-{lang}", problems)
    check_numbers(" ".join(board), lang, "leaderboard", problems)
    hard = bots.nth(1).inner_text()
    rating = hard.rsplit(" ", 1)[1]
    expect(rating == "1436", f"leaderboard: {hard}", problems)  # whole, ungrouped everywhere

    for game in ("nain-jaune", "spit", "speed"):
        page.goto(f"{base}/rules/{game}")
        check_width(page, shots, f"rules-{game}-{lang}", problems)

    # the lobby: the same rating beside the level as on the leaderboard
    page.goto(f"{base}/")
    page.wait_for_selector("#f-seats li .seat-level option[value=hard]", state="attached")
    hard_option = page.locator("#f-seats li .seat-level option[value=hard]").first.inner_text()
    expect(hard_option.endswith(f"({rating})"), f"lobby: {hard_option}, board: {hard}", problems)
    page.click("#f-options-box summary")
    check_width(page, shots, f"lobby-{lang}", problems)
    check_numbers(page.locator("main").inner_text(), lang, "lobby", problems)

    # a rated Nain Jaune table against two bots, played to its end on the phone
    table = create_table(
        page, base, name="Ann", seats=[("bot", "medium"), ("bot", "medium")], rated=True
    )
    page.wait_for_selector("#hand button.card")
    check_width(page, shots, f"table-{lang}", problems)
    # the lobby's "My tables" names the bots as the table does
    page.goto(f"{base}/")
    wait_until(lambda: "Ann" in page.locator("#mine").inner_text(), 10, "my tables")
    mine = page.locator("#mine").inner_text()
    expect(words["bot2"] in mine, f"my tables: {mine}", problems)
    page.goto(table.url)
    page.wait_for_selector("#hand button.card")
    end = time.monotonic() + 120
    while status(page) != "over":
        assert time.monotonic() < end, "the game did not end"
        click_move(page, touch=True)
        time.sleep(0.05)
    page.wait_for_selector("#game-over")
    check_width(page, shots, f"table-over-{lang}", problems)
    # one name per bot: the seats', the settlement's and the log's
    seats = page.locator(".seat .seat-name, .seat-name").all_inner_texts()
    expect(words["bot2"] in " ".join(seats), f"seats: {seats}", problems)
    rows = page.locator("table.settlement tbody th").all_inner_texts()
    expect(words["bot2"] in rows and "Ann" in rows, f"settlement: {rows}", problems)
    log = page.locator("#log").inner_text()
    expect(words["bot2"] in log, f"log: {log[:300]}", problems)
    if lang == "fr":
        english = re.search(r"\bBot [0-9]", page.locator("body").inner_text())
        expect(english is None, f"table: {english and english.group()!r} in French", problems)

    # its replay: the table's settlement columns, not one "won or lost" figure
    table_id = table.url.rsplit("/", 1)[1]
    page.goto(f"{base}/replay/{table_id}")
    page.wait_for_selector("#viewer:not([hidden])")
    page.click("#r-last")
    page.wait_for_selector("#r-settlement table.settlement")
    heads = page.locator("#r-settlement table.settlement thead th").all_inner_texts()
    expect(words["stake"] in heads and words["taken"] in heads, f"replay: {heads}", problems)
    replay_rows = page.locator("#r-settlement table.settlement tbody th").all_inner_texts()
    expect(sorted(replay_rows) == sorted(rows), f"replay: {replay_rows}, table: {rows}", problems)
    check_width(page, shots, f"replay-{lang}", problems)

    # my games, with the rating change of the rated game (the server counts it in 2 s)
    deadline = time.monotonic() + 20
    while True:
        page.goto(f"{base}/me")
        page.wait_for_selector("#games tbody tr")
        row = page.locator("#games tbody tr").first.inner_text()
        if "→" in row or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert "→" in row, row
    found = re.search(r"(\S+) → (\S+)", row)
    assert found is not None, row
    before, after = found.groups()
    expect(before.isdigit() and after.isdigit(), f"my games: {row}", problems)  # 1500 → 1663
    expect(words["bot2"] in row, f"my games: {row}", problems)  # the bots as the table named them
    check_numbers(page.locator("main").inner_text(), lang, "me", problems)
    check_width(page, shots, f"me-{lang}", problems)

    # a Speed table against a bot (the race)
    service = running.app.state.service
    config = RealtimeConfig(
        game="speed",
        options={"countdown": "0"},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("bot", "medium")),
        seed=3,
    )
    created = running.call(service.create_realtime(config, "Race"))
    page.goto(f"{base}/j/{created.table_id}.{created.creator_token}")
    page.wait_for_selector("#call-button")
    wait_until(lambda: page.locator("#me button[data-card]").count() > 0, what="a Speed hand")
    check_width(page, shots, f"race-{lang}", problems)
    assert not problems, "\n".join(problems)
    assert not errors, errors
    context.close()
