"""What the browser tests do on the pages: create a table, take a seat, play a move."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page


@dataclass(frozen=True)
class NewTable:
    """The table the lobby created: the creator's page, the invitations, the spectators' link."""

    url: str
    invites: list[str]
    watch: str


def create_table(
    page: Page,
    base: str,
    *,
    name: str,
    seats: list[tuple[str, str | None]],
    end: tuple[str, int | None] = ("rounds", 1),
    title: str = "",
    options: dict[str, str] | None = None,
    shots: Path | None = None,
    hints: bool = False,
    rated: bool = False,
) -> NewTable:
    """Fill the lobby's form (seats after the creator's: ("person"|"bot", level)) and submit."""
    page.goto(base + "/")
    page.fill("#f-name", name)
    if title:
        page.fill("#f-title", title)
    page.select_option("#f-players", str(len(seats) + 1))
    for i, (kind, level) in enumerate(seats, start=1):
        row = page.locator("#f-seats li").nth(i)
        row.locator(".seat-kind").select_option(kind)
        if level:
            row.locator(".seat-level").select_option(level)
    page.select_option("#f-end-kind", end[0])
    if end[1] is not None:
        page.fill("#f-end-n", str(end[1]))
    if options:
        page.click("#f-options-box summary")
        for key, value in options.items():
            page.check(f"#opt-{key}-{value}")
    if hints:
        page.check("#f-hints")
    if rated:
        page.check("#f-rated")
    if shots is not None:
        page.screenshot(path=str(shots / "lobby-desktop.png"), full_page=True)
    page.click("#create-button")
    # one step: the lobby takes the creator straight to their seat; the invitation links wait
    # in localStorage for the table page
    page.wait_for_url("**/t/*")
    url = page.url
    table_id = url.rstrip("/").rsplit("/", 1)[-1]
    key = f"cardroom.invites.{table_id}"
    saved = page.evaluate(f"JSON.parse(localStorage.getItem('{key}') || '[]')")
    invites = [base + inv["url"] for inv in sorted(saved, key=lambda inv: inv["seat"])]
    watch = f"{url}/watch"
    return NewTable(url=url, invites=invites, watch=watch)


def take_seat(page: Page, invite: str, name: str) -> None:
    """Open an invitation link and join under ``name``."""
    page.goto(invite)
    page.wait_for_selector("#join-name")
    page.fill("#join-name", name)
    page.click(".join-form button[type=submit]")
    page.locator("#join-name").wait_for(state="detached")


def hand(page: Page) -> list[str]:
    """The codes of the cards in the page's hand."""
    return [
        str(b.get_attribute("data-card"))
        for b in page.locator("#hand button.card").element_handles()
    ]


def seq(page: Page) -> int:
    """The seq of the last state the page drew."""
    return int(page.evaluate("Number(document.body.dataset.seq || -1)"))


def status(page: Page) -> str:
    """The table status the page shows."""
    return str(page.evaluate("document.body.dataset.status || ''"))


def click_move(page: Page, touch: bool = False) -> str | None:
    """Click (or tap) a highlighted card, or the "without X" button when that is the move;
    None if there is no move."""
    try:
        legal = page.locator("#hand button.card.legal")
        if legal.count():
            code = legal.first.get_attribute("data-card", timeout=1000)
            if touch:
                legal.first.tap(timeout=1000)
            else:
                legal.first.click(timeout=1000)
            return code
        button = page.locator("#pass-button")
        if button.count():
            if touch:
                button.tap(timeout=1000)
            else:
                button.click(timeout=1000)
            return "pass"
    except PlaywrightError:
        return None  # the view changed under the click: look again
    return None


def drag(page: Page, source: str, target: str, timeout: float = 500) -> None:
    """Drag ``source`` onto ``target`` with the mouse: press on it, move, release on the target.

    Not ``page.drag_and_drop``: when its timeout ends it between Chromium starting the drag and
    Playwright taking note of it, nothing ever ends that drag, and the page gets no key and no
    click again, only drag events (CI twice; /tmp reproductions: 1 of 24 and 11 of 40 interrupted
    drags). The mouse's own steps have no timeout, so a drag begun here is always ended; only
    finding the two places may time out, before the button is pressed."""
    start = page.locator(source).bounding_box(timeout=timeout)
    end = page.locator(target).bounding_box(timeout=timeout)
    if start is None or end is None:
        raise PlaywrightError(f"{source if start is None else target} is not shown")
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    try:
        page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=4)
    finally:
        page.mouse.up()


def press_button(page: Page, selector: str, done: Callable[[], bool], seconds: float = 5.0) -> bool:
    """Click the button ``selector`` (scrolled into view) until ``done()``; if the click never
    reached the page, press Enter on the focused button instead. True if the mouse did it.

    A click the page never received was seen twice in CI (no pointer or mouse event reached
    it although Playwright reported the click done). One cause is known and avoided by
    ``drag``: a ``drag_and_drop`` interrupted earlier leaves a drag under way that swallows
    clicks and keys. Should another cause remain, the keyboard, which a person may use as well,
    takes over, and the output says so."""

    def waited() -> bool:
        try:
            wait_on_page(page, done, seconds, selector)
        except AssertionError:
            return False
        return True

    page.locator(selector).scroll_into_view_if_needed()
    page.click(selector)
    if waited():
        return True
    print(f"the click on {selector} never reached the page: pressing Enter on it")
    page.focus(selector)
    page.keyboard.press("Enter")
    assert waited(), f"neither a click nor Enter on {selector} did it"
    return False


def wait_on_page(
    page: Page, condition: Callable[[], bool], timeout: float = 30.0, what: str = "condition"
) -> None:
    """``wait_until`` for a condition on what Playwright reports (frames, requests): those
    events reach the test only while Playwright runs, so wait in Playwright between polls."""

    def pumped() -> bool:
        page.wait_for_timeout(50)
        return condition()

    wait_until(pumped, timeout, what)


def wait_until(condition: object, timeout: float = 30.0, what: str = "condition") -> None:
    """Poll ``condition()`` until it is true."""
    assert callable(condition)
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
