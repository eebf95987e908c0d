"""A table with hints on: the button on your turn, the suggestion by the hand, gone after a move."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import DESKTOP
from tests.e2e.helpers import create_table, hand, seq, wait_until


def test_a_hint_shows_the_experts_move_until_the_table_moves_on(
    server: str, browser: Browser, shots: Path
) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    table = create_table(page, server, name="Ann", seats=[("bot", "easy")], hints=True)
    page.goto(table.url)
    button = page.locator("#hint-button")
    expect(button).to_have_text("Hint (i)", timeout=30_000)  # shown on Ann's turn only
    line = page.locator("#hint-line")
    assert line.inner_text() == ""  # its place is kept (the hand does not move), empty
    page.keyboard.press("i")
    expect(line).to_contain_text("Hint: ", timeout=30_000)
    text = line.text_content() or ""
    assert text.startswith("Hint: ")
    hinted = page.locator(".hinted")
    expect(hinted).to_have_count(1)
    card = hinted.get_attribute("data-card")
    legal = page.locator("#hand button.card.legal").evaluate_all(
        "bs => bs.map(b => b.dataset.card)"
    )
    if card is not None:  # a card: one of Ann's playable cards, named in the words
        assert card in hand(page) and card in legal
        assert text.startswith("Hint: play ")
    else:  # "without X" or a claim
        assert hinted.get_attribute("id") in ("pass-button", "claim-button")
    page.screenshot(path=str(shots / "table-hint.png"), full_page=True)
    before = seq(page)
    hinted.click()
    wait_until(lambda: seq(page) > before, what="the move to be played")
    expect(line).to_have_text("")
    assert errors == []
    page.context.close()
