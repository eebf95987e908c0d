"""A newcomer in the lobby, on a desktop and on a 390x844 touch phone, in each language: reads
the rules pages, never meets an option key, never scrolls sideways, and creates a table in one
step that seats them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Error, Page, ViewportSize, expect

from cardroom.games.nain_jaune.rules import PRESET_NAMES
from cardroom.i18n import LANGS, translator
from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.test_i18n import axe_violations
from tests.i18n.test_option_words import CODE

LOCALES = {"en": "en-GB", "fr": "fr-FR", "cy": "cy-GB"}
TITLES = {
    "nain-jaune": {
        "en": "How to play Nain Jaune",
        "fr": "Comment jouer au Nain Jaune",
        "cy": "Sut i chwarae Nain Jaune",
    },
    "spit": {"en": "How to play Spit", "fr": "Comment jouer au Spit", "cy": "Sut i chwarae Tafod"},
    "speed": {
        "en": "How to play Speed",
        "fr": "Comment jouer au Speed",
        "cy": "Sut i chwarae Cyflymder",
    },
}


def _no_key_and_no_sideways_scroll(page: Page, where: str) -> None:
    text = page.evaluate("document.body.innerText")
    # the lobby's every-option panel and the select menus are read too (closed or not)
    text += " " + " ".join(page.locator("option").all_text_contents())
    found = CODE.search(text)
    assert found is None, f"{where} shows {found.group(0)!r}"
    wide = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, f"{where} scrolls sideways by {wide} px"


@pytest.mark.parametrize(("size", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_a_newcomer_reads_the_rules_and_sits_down_in_one_step(
    server: str, browser: Browser, shots: Path, size: str, viewport: ViewportSize
) -> None:
    phone = size == "phone"
    for lang in LANGS:
        ctx = browser.new_context(
            viewport=viewport, locale=LOCALES[lang], has_touch=phone, is_mobile=phone
        )
        page = ctx.new_page()
        errors: list[str] = []

        def on_error(exc: Error, errors: list[str] = errors) -> None:
            errors.append(str(exc))

        page.on("pageerror", on_error)
        page.goto(server + "/")
        expect(page.locator("#f-preset option").first).to_have_text(
            translator(lang)._(PRESET_NAMES["classic"])
        )
        page.click("#f-options-box summary")
        _no_key_and_no_sideways_scroll(page, f"the lobby ({lang}, {size})")
        # the presets' names fit their control
        fits = page.evaluate(
            "(() => { const s = document.getElementById('f-preset');"
            " return s.scrollWidth <= s.clientWidth + 1 && s.getBoundingClientRect().right"
            " <= document.documentElement.clientWidth; })()"
        )
        assert fits, f"the rules' select overflows ({lang}, {size})"
        # seat 2 is a bot, and the length of the game has an estimate in minutes
        assert page.locator("#f-seats li").nth(1).locator(".seat-kind").input_value() == "bot"
        # 3 players until someone is broke: 5.51 rounds of 116.5 actions at 0.8 s + 10 s = 9.5
        expect(page.locator("#f-estimate")).to_contain_text(re.compile(r"\b(9|10)\b"))
        page.screenshot(path=str(shots / f"rules-lobby-{lang}-{size}.png"), full_page=True)
        for game, titles in TITLES.items():
            link = page.locator(f'a[data-rules="{game}"]')
            assert link.get_attribute("target") == "_blank"
            rules = ctx.new_page()
            rules.goto(server + str(link.get_attribute("href")))
            expect(rules.locator("h1")).to_have_text(titles[lang])
            assert rules.evaluate("document.documentElement.lang") == lang
            _no_key_and_no_sideways_scroll(rules, f"the {game} rules ({lang}, {size})")
            broken = rules.evaluate(
                "[...document.images].filter(i => !i.complete || i.naturalWidth === 0).length"
            )
            assert broken == 0
            rules.screenshot(path=str(shots / f"rules-{game}-{lang}-{size}.png"), full_page=True)
            rules.close()
        assert errors == []
        ctx.close()
    # one step: the form takes the creator to their seat at a table of bots, already dealt
    ctx = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
    page = ctx.new_page()
    page.goto(server + "/")
    page.fill("#f-name", "Nia")
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    _no_key_and_no_sideways_scroll(page, f"the table ({size})")
    expect(page.locator(".topbar a.rules-link")).to_have_attribute("href", "/rules/nain-jaune")
    # back in the lobby, the table is listed once: in "My tables", not again in "Open tables"
    table_id = page.url.rsplit("/", 1)[-1]
    page.goto(server + "/")
    expect(page.locator("#mine li")).to_have_count(1)
    expect(page.locator("#mine")).to_contain_text(table_id)
    assert table_id not in page.locator("#open").inner_text()
    ctx.close()


def test_the_welsh_rules_page_passes_axe(server: str, browser: Browser) -> None:
    # bypass_csp: only so that the test can inject axe-core
    ctx = browser.new_context(viewport=PHONE, bypass_csp=True, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.goto(server + "/rules/nain-jaune?lang=cy")
    found = axe_violations(page)
    ctx.close()
    assert found == []
