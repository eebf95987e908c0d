"""The lobby shows the server's refusal next to the form and changes nothing."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from cardroom.bots import LEVELS
from cardroom.cards import parse_cards
from cardroom.games.nain_jaune.rules import (
    BOARD_SETS,
    CHOICES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
)
from cardroom.games.nain_jaune.words import lobby_model
from tests.e2e.conftest import DESKTOP


def test_lobby_shows_the_servers_error_next_to_the_form(server: str, browser: Browser) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server + "/")
    page.fill("#f-name", "Ann")
    page.fill("#f-chips", "5")
    page.click("#create-button")
    error = page.locator("#create-error")
    expect(error).not_to_be_empty()
    assert "starting_chips" in error.inner_text()
    assert page.url == server + "/"  # still in the lobby: no table was made
    ctx.close()


def test_lobby_offers_every_option_and_sends_the_changed_ones(
    server: str, browser: Browser, shots: Path
) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server + "/")
    page.fill("#f-name", "Cid")
    page.select_option("#f-preset", "count")
    # the count preset's own values are checked, in words
    assert page.is_checked("#opt-payment-card-count")
    assert page.locator("label:has(#opt-payment-card-count)").text_content() == (
        "one chip for each card left in their hand"
    )
    page.click("#f-options-box summary")
    page.check("#opt-announce-manual")
    page.check("#opt-may_stop-true")
    page.check("#opt-board_cards-regional")
    page.screenshot(path=str(shots / "lobby-options-desktop.png"), full_page=True)
    with page.expect_response(
        lambda r: "/api/tables" in r.url and r.request.method == "POST"
    ) as info:
        page.click("#create-button")
    assert info.value.status == 201
    page.wait_for_selector("#board .box")
    boxes = [c.get_attribute("aria-label") for c in page.locator("#board .card").all()]
    assert boxes == [
        "10 of diamonds",
        "jack of clubs",
        "queen of hearts",
        "king of spades",
        "7 of diamonds",
    ]
    ctx.close()


def test_lobby_options_are_the_rules_options(server: str, browser: Browser) -> None:
    """options.js (what the lobby offers) IS the server's model: the options, values and
    presets of rules.py with the words of i18n/options.py, and the bot levels of cardroom.bots."""
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server + "/")
    js = page.evaluate(
        "import('/static/js/options.js').then(m => ({choices: m.CHOICES, presets: m.PRESETS,"
        " levels: m.LEVELS, boards: m.BOARD_SETS, min: m.PLAYERS_MIN, max: m.PLAYERS_MAX,"
        " words: m.PRESET_WORDS, sources: m.SOURCES}))"
    )
    ctx.close()
    model = lobby_model()
    assert js["choices"] == model["choices"]
    assert (js["words"], js["sources"]) == (model["preset_words"], model["sources"])
    choices = {name: [v[0] for v in spec["values"]] for name, spec in js["choices"].items()}
    assert choices.pop("board_cards") == list(BOARD_SETS)
    assert choices.pop("may_stop") == ["false", "true"]
    assert choices == {name: list(values) for name, values in CHOICES.items()}
    assert {k: tuple(parse_cards(" ".join(v))) for k, v in js["boards"].items()} == BOARD_SETS
    board_names = {cards: name for name, cards in BOARD_SETS.items()}
    expected = {}
    for name, rules in PRESETS.items():
        data = rules.to_json()
        data["board_cards"] = board_names[rules.board_cards]
        expected[name] = data
    assert js["presets"] == expected
    assert set(js["levels"]) == set(LEVELS)
    assert (js["min"], js["max"]) == (MIN_PLAYERS, MAX_PLAYERS)


def test_every_bot_level_shows_whole_in_its_box(server: str, browser: Browser) -> None:
    """Issue 34, item 6: "medium (11.4)" was cut in the seat's level box at 1280 px."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB").new_page()
    page.goto(server)
    page.wait_for_selector("#f-seats .seat-level")
    measure = """() => [...document.querySelectorAll("#f-seats .seat-level")].flatMap((s) => {
        const cs = getComputedStyle(s);
        const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        return [...s.options].map((o) => {
            const span = document.createElement("span");
            span.style.font = cs.font;
            span.style.position = "absolute";
            span.style.whiteSpace = "pre";
            span.textContent = o.text;
            document.body.append(span);
            const w = span.getBoundingClientRect().width;
            span.remove();
            return [o.text, Math.round(w), Math.round(room - 18)];  // (18 px: the arrow)
        });
    })"""
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        rows = page.evaluate(measure)
        assert rows and all(w <= room for _, w, room in rows), (width, rows)
        page.screenshot(path=f"/tmp/evening/lobby-{width}.png")
    page.context.close()
