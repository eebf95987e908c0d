"""A table with hints on: the button on your turn, the suggestion by the hand, gone after a move."""

from __future__ import annotations

import re
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


def test_a_french_hint_writes_cards_and_numbers_as_the_page_does(
    server: str, browser: Browser
) -> None:
    """« jouer D♠ » beside a hand of D♠ (not « Q♠ »), and « +16,6 » (not « +16.6 »)."""
    page = browser.new_context(viewport=DESKTOP, locale="fr-FR").new_page()
    table = create_table(page, server, name="Ann", seats=[("bot", "easy")], hints=True)
    page.goto(table.url)
    expect(page.locator("#hint-button")).to_have_text("Conseil (i)", timeout=30_000)
    page.keyboard.press("i")
    line = page.locator("#hint-line")
    expect(line).to_contain_text("Conseil : ", timeout=30_000)
    text = line.text_content() or ""
    assert re.search(r"\d\.\d", text) is None, text  # a decimal comma
    assert re.search(r"\b[JQK][♣♦♥♠]", text) is None, text  # V, D, R as on the cards
    card = page.locator(".hinted").get_attribute("data-card")
    if card is not None:
        rank = {"J": "V", "Q": "D", "K": "R", "T": "10"}.get(card[:-1], card[:-1])
        assert f"jouer {rank}{'♣♦♥♠'['CDHS'.index(card[-1])]}" in text, (card, text)
    page.context.close()
