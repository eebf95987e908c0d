"""The pages in French and Welsh: the browser's language, the switch, the spoken calls, and
what axe-core (vendored in tests/e2e/vendor, injected by the test) finds on each page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.helpers import click_move, create_table, seq, status, wait_until

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
# Record what the page would say instead of speaking (headless chromium has no voices).
SPEECH_STUB = """
window.__spoken = [];
if (window.speechSynthesis) {
  window.speechSynthesis.speak = (u) => window.__spoken.push([u.lang, u.text]);
}
"""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (WCAG 2.x A and AA rules)."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async () => {
        const r = await axe.run(document, {runOnly: {type: 'tag',
          values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}});
        return r.violations.map(v => ({id: v.id, impact: v.impact,
          nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
        }"""
    )
    return list(result)


def _play_until(page: Page, done: Any, limit: float = 60.0) -> None:
    import time

    end = time.monotonic() + limit
    while not done():
        assert time.monotonic() < end, "the game did not get there in time"
        if (
            status(page) == "playing"
            and page.locator("#hand button.card.legal, #pass-button").count()
        ):
            before = seq(page)
            if click_move(page) is not None:
                wait_until(lambda b=before: seq(page) != b or done(), what="the move to land")
        page.wait_for_timeout(50)


def test_a_french_table_speaks_french_and_passes_axe(
    browser: Browser, server: str, shots: Path
) -> None:
    # bypass_csp: only so that the test can inject axe-core (the pages never run inline code)
    ctx = browser.new_context(viewport=DESKTOP, locale="fr-FR", bypass_csp=True)
    ctx.add_init_script(SPEECH_STUB)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    assert page.evaluate("document.documentElement.lang") == "fr"
    expect(page.locator("#create-title")).to_have_text("Nouvelle table de Nain Jaune")
    lobby = axe_violations(page)
    create_table(page, server, name="Amélie", seats=[("bot", "easy")] * 3)  # lands seated
    page.wait_for_selector("#hand button.card")
    expect(page.locator(".log-box h2")).to_have_text("Annonces de la table")
    expect(page.locator("#log")).to_contain_text("Mises : 15 jetons chacun sur le plateau")
    first = page.locator("#hand button.card").first
    label = str(first.get_attribute("aria-label"))
    assert any(w in label for w in (" de trèfle", " de carreau", " de cœur", " de pique")), label
    # the spoken calls: off by default, then on
    assert not page.locator("#speech-toggle").is_checked()
    page.locator("#speech-toggle").check()
    _play_until(
        page,
        lambda: (
            any("sans" in t or "qui prend" in t for _l, t in page.evaluate("window.__spoken"))
            or status(page) != "playing"
        ),
    )
    spoken = page.evaluate("window.__spoken")
    assert spoken and all(lang == "fr-FR" for lang, _t in spoken), spoken
    assert any("« sans " in t or "qui prend" in t for _l, t in spoken), spoken
    # every announcement also goes to the live regions
    assert page.locator("#announce[aria-live]").count() == 1
    page.screenshot(path=str(shots / "table-fr.png"), full_page=True)
    table_fr = axe_violations(page)
    # the switch: Welsh, kept in a cookie for every page
    page.select_option("#lang-switch", "cy")
    page.wait_for_load_state("load")
    page.wait_for_selector("#hand button.card, #result:not([hidden])")
    assert page.evaluate("document.documentElement.lang") == "cy"
    expect(page.locator(".log-box h2")).to_have_text("Cyhoeddiadau’r bwrdd")
    expect(page.locator("#log")).to_contain_text("Betiau: 15 o sglodion yr un ar y bwrdd")
    page.screenshot(path=str(shots / "table-cy.png"), full_page=True)
    table_cy = axe_violations(page)
    page.goto(server + "/replay")
    expect(page.locator("#replay-title")).to_have_text("Ailchwarae")
    replay = axe_violations(page)
    ctx.close()
    assert errors == []
    found = {"lobby": lobby, "table fr": table_fr, "table cy": table_cy, "replay": replay}
    assert all(v == [] for v in found.values()), json.dumps(found, indent=1)


def test_a_welsh_browser_gets_welsh_pages(browser: Browser, server: str, shots: Path) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="cy-GB")
    page = ctx.new_page()
    page.goto(server + "/")
    expect(page.locator("html")).to_have_attribute("lang", "cy")
    expect(page.locator("#create-title")).to_have_text("Bwrdd Nain Jaune newydd")
    page.screenshot(path=str(shots / "lobby-cy.png"), full_page=True)
    ctx.close()


def test_the_page_keeps_the_servers_language_and_speaks_it(browser: Browser, server: str) -> None:
    # the request asks for Welsh while the browser's own languages say English: the server's
    # <html lang> is the page's language, never rewritten by the script (it once set 'en')
    ctx = browser.new_context(viewport=DESKTOP, locale="cy-GB")
    ctx.add_init_script(
        "Object.defineProperty(navigator, 'languages', {get: () => ['en-US']});"
        "Object.defineProperty(navigator, 'language', {get: () => 'en-US'});"
    )
    page = ctx.new_page()
    page.goto(server + "/")
    expect(page.locator("#create-title")).to_have_text("Bwrdd Nain Jaune newydd")
    assert page.evaluate("document.documentElement.lang") == "cy"
    ctx.close()


def test_a_welsh_spit_table_passes_axe(browser: Browser, server: str, shots: Path) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="cy-GB", bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    expect(page.locator("#rt-create-title")).to_have_text(
        "Ras newydd i ddau"
    )
    expect(page.locator('#rt-game option[value="spit"]')).to_have_text("Tafod")
    page.fill("#rt-name", "Ffion")
    page.click("#rt-create")  # against a bot: straight to the seat
    page.wait_for_selector("#call-button")
    assert page.evaluate("document.documentElement.lang") == "cy"
    expect(page.locator(".log-box h2")).to_have_text("Cyhoeddiadau’r bwrdd")
    page.screenshot(path=str(shots / "spit-cy.png"), full_page=True)
    found = axe_violations(page)
    ctx.close()
    assert errors == []
    assert found == [], json.dumps(found, indent=1)


def test_lang_in_the_address_is_kept_across_pages(
    browser: Browser, server: str, shots: Path
) -> None:
    """``?lang=cy`` wins over the browser's French, stays in every link of this site, and the
    next page (reached by a link) speaks Welsh too; the language switch keeps it in the address."""
    ctx = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = ctx.new_page()
    page.goto(server + "/?lang=cy")
    expect(page.locator("html")).to_have_attribute("lang", "cy")
    replay = page.locator("nav a[href^='/replay']")
    expect(replay).to_have_attribute("href", "/replay?lang=cy")
    expect(page.locator("a.brand")).to_have_attribute("href", "/?lang=cy")
    page.screenshot(path=str(shots / "lobby-lang-cy-390.png"), full_page=True)
    replay.click()
    page.wait_for_url("**/replay?lang=cy")
    expect(page.locator("html")).to_have_attribute("lang", "cy")
    expect(page.locator("nav a").first).to_have_attribute("href", "/?lang=cy")
    page.select_option("#lang-switch", "fr")
    page.wait_for_url("**/replay?lang=fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    ctx.close()
