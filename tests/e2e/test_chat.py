"""The table chat in the browser: markup arrives as literal text (no element is made, no script
runs), players and the watch page see the same lines, spectators cannot write, errors are shown
in words, and the panel fits the Spit/Speed page (collapsed at phone width)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Dialog, Page, expect

from cardroom.tables import SeatSpec
from cardroom.tables.realtime import RealtimeConfig
from tests.e2e.conftest import DESKTOP, PHONE, RunningServer
from tests.e2e.helpers import create_table, take_seat

MARKUP = "<img src=x onerror=alert(1)>"
SHOTS = Path("/tmp/shots-chat")


def chat_texts(page: Page) -> list[str]:
    return [str(t) for t in page.locator("#chat-lines .chat-text").all_text_contents()]


def say(page: Page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def watch_for_trouble(page: Page, errors: list[str]) -> None:
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))

    def on_dialog(d: Dialog) -> None:
        errors.append(f"dialog: {d.message}")
        d.dismiss()

    page.on("dialog", on_dialog)


def test_markup_in_chat_is_shown_as_text_to_players_and_spectators(
    server: str, browser: Browser, shots: Path
) -> None:
    SHOTS.mkdir(exist_ok=True)
    errors: list[str] = []
    ann = browser.new_context(viewport=DESKTOP).new_page()
    bob = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    eve = browser.new_context(viewport=DESKTOP).new_page()
    for page in (ann, bob, eve):
        watch_for_trouble(page, errors)
    table = create_table(ann, server, name="Ann", seats=[("person", None), ("bot", "easy")])
    ann.goto(table.url)
    take_seat(bob, table.invites[0], "Bryn")
    eve.goto(table.watch)
    expect(ann.locator("#chat-input")).to_be_enabled(timeout=30_000)
    expect(ann.locator("#chat-input")).to_have_accessible_name("Message to the table")
    assert ann.locator("#chat-lines").get_attribute("aria-live") == "polite"
    expect(eve.locator("#chat-input")).to_be_disabled(timeout=30_000)  # spectators only read

    say(ann, MARKUP)
    for page in (ann, bob, eve):
        expect(page.locator("#chat-lines .chat-text")).to_have_count(1, timeout=30_000)
        assert chat_texts(page) == [MARKUP]  # the very characters, as text
        assert page.locator("#chat-lines img, #chat-lines script").count() == 0  # no element
        assert page.locator("#chat-lines .chat-name").first.text_content() == "Ann:"
    say(bob, "Bore da! Ça va ? 🃏")
    say(ann, "  \x07 Très bien, diolch  ")
    for page in (ann, bob, eve):
        expect(page.locator("#chat-lines .chat-text")).to_have_count(3, timeout=30_000)
        assert chat_texts(page) == [MARKUP, "Bore da! Ça va ? 🃏", "Très bien, diolch"]
    assert ann.locator("#chat-lines .chat-line.mine").count() == 2  # Ann's own lines are marked

    # a line too long is refused in words by the page before it is sent; the input keeps it
    say(bob, "x" * 301)
    expect(bob.locator("#chat-error")).to_have_text("A message has at most 300 characters.")
    assert bob.input_value("#chat-input") == "x" * 301

    # a reload gets the lines back (stored, and sent to a new connection)
    eve.reload()
    expect(eve.locator("#chat-lines .chat-text")).to_have_count(3, timeout=30_000)
    assert chat_texts(eve)[0] == MARKUP and eve.locator("#chat-lines img").count() == 0

    ann.screenshot(path=str(SHOTS / "table-chat-desktop.png"), full_page=True)
    right = bob.evaluate("document.getElementById('chat').getBoundingClientRect().right")
    assert right <= PHONE["width"]  # the panel fits the phone's width
    page_width = bob.evaluate("document.documentElement.scrollWidth")
    assert page_width <= PHONE["width"]  # and nothing else makes the page scroll sideways
    bob.fill("#chat-input", "")
    bob.screenshot(path=str(SHOTS / "table-chat-phone.png"), full_page=True)
    bob.locator("#chat").scroll_into_view_if_needed()
    bob.screenshot(path=str(SHOTS / "table-chat-phone-panel.png"))
    ann.screenshot(path=str(shots / "table-chat-desktop.png"), full_page=True)
    assert errors == []
    for page in (ann, bob, eve):
        page.context.close()


def test_the_spit_page_has_the_chat_collapsed_behind_a_button_at_phone_width(
    running: RunningServer, browser: Browser
) -> None:
    SHOTS.mkdir(exist_ok=True)
    service = running.app.state.service
    seats = (SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob"))
    created = running.call(
        service.create_realtime(RealtimeConfig(game="spit", options={}, seats=seats, seed=8))
    )
    tid = created.table_id
    tokens = [created.creator_token, *created.invites.values()]
    errors: list[str] = []
    ann = browser.new_context(viewport=DESKTOP).new_page()
    bob = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    for page, token in ((ann, tokens[0]), (bob, tokens[1])):
        watch_for_trouble(page, errors)
        page.goto(f"{running.base}/j/{tid}.{token}")
    expect(ann.locator("#chat-input")).to_be_enabled(timeout=30_000)
    toggle = bob.locator("#chat-toggle")
    expect(toggle).to_have_attribute("aria-expanded", "false")  # phone: the piles come first
    assert bob.locator("#chat-body").is_hidden()
    say(ann, MARKUP)
    expect(toggle).to_contain_text("(1)", timeout=30_000)  # an unread line is counted
    bob.screenshot(path=str(SHOTS / "spit-chat-phone-collapsed.png"), full_page=True)
    toggle.click()
    expect(bob.locator("#chat-lines .chat-text")).to_have_text([MARKUP])
    assert bob.locator("#chat-lines img").count() == 0
    expect(toggle).to_have_attribute("aria-expanded", "true")
    say(bob, "Barod? 🂡")
    bob.press("#chat-input", "Escape")  # Esc leaves the chat: the keys play again
    assert bob.evaluate("document.activeElement.id") != "chat-input"
    expect(ann.locator("#chat-lines .chat-text")).to_have_text([MARKUP, "Barod? 🂡"])
    ann.screenshot(path=str(SHOTS / "spit-chat-desktop.png"), full_page=True)
    bob.screenshot(path=str(SHOTS / "spit-chat-phone-open.png"), full_page=True)
    assert errors == []
    ann.context.close()
    bob.context.close()
