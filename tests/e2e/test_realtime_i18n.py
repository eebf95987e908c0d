"""Spit and Speed in French and Welsh in the browser: the page's own words, the log lines and the
refusals from the server, the lobby's errors; axe-core finds nothing on the tables (the card
buttons' accessible names include their visible key). Screenshots at desktop and phone width go
to the test's tmp folder and to /tmp/shots-i18nweb/ for a person to look at."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, Route, expect

from cardroom.cards import Card
from cardroom.games.realtime_engine import adjacent
from cardroom.i18n import translator
from cardroom.i18n.messages import message_words
from cardroom.i18n.words import card_name
from cardroom.tables import SeatSpec
from cardroom.tables.realtime import RealtimeConfig
from tests.e2e.conftest import DESKTOP, PHONE, RunningServer
from tests.e2e.helpers import wait_until
from tests.e2e.test_i18n import axe_violations

LOOK = Path("/tmp/shots-i18nweb")
ENGLISH = re.compile(
    r"\b(Waiting|Call|Play|Countdown|opponent|you\)|cards in hand|draw pile|spit pile|Middle pile"
    r"|Flip|Rematch|plays|calls|refused)\b"
)


def _table(running: RunningServer, game: str, seed: int) -> tuple[str, str]:
    """A table of Ann (the browser) and Bob, who never comes: the countdown starts the game."""
    config = RealtimeConfig(
        game=game,
        options={"countdown": "4"},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob")),
        seed=seed,
    )
    created = running.call(running.app.state.service.create_realtime(config, ""))
    return created.table_id, f"{running.base}/j/{created.table_id}.{created.creator_token}"


def _shoot(page: Page, shots: Path, name: str) -> None:
    """Desktop and phone-width screenshots of the page as it is now."""
    LOOK.mkdir(exist_ok=True)
    for size, tag in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        path = shots / f"{name}-{tag}.png"
        page.screenshot(path=str(path), full_page=True)
        shutil.copy(path, LOOK / path.name)
    page.set_viewport_size(DESKTOP)


def _visible_english(page: Page) -> list[str]:
    """Lines of the play area and the log still in English (names and card symbols aside)."""
    text = page.locator("main").inner_text()
    return [line for line in text.splitlines() if ENGLISH.search(line)]


def _misfit(page: Page) -> tuple[str, str] | None:
    """One of my cards that does not fit middle pile 1, and that pile's top card."""
    top = str(page.get_attribute('#middle [data-pile="0"]', "data-top") or "")
    cards = page.locator("#me button[data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)")
    for card in cards:
        if top and not adjacent(Card.parse(card), Card.parse(top)):
            return str(card), top
    return None


def _refusal(page: Page) -> tuple[str, str, str]:
    """Play a card that does not fit; the refusal shown, the card and the top it was aimed at."""
    misfit = _misfit(page)
    assert misfit is not None, "the deal gives Ann a card that does not fit pile 1"
    card, top = misfit
    page.click(f'#me button[data-card="{card}"]')
    page.click('#middle [data-pile="0"]')
    wait_until(lambda: page.locator("#error").inner_text() != "", what="the refusal")
    return page.locator("#error").inner_text(), card, top


def _start(browser: Browser, locale: str, url: str) -> tuple[Page, list[str]]:
    # bypass_csp: only so that the test can inject axe-core (the pages never run inline code)
    ctx = browser.new_context(viewport=DESKTOP, locale=locale, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#call-button")
    return page, errors


def test_a_french_spit_table(browser: Browser, running: RunningServer, tmp_path: Path) -> None:
    _table_id, url = _table(running, "spit", 5)
    page, errors = _start(browser, "fr-FR", url)
    assert page.evaluate("document.documentElement.lang") == "fr"
    expect(page.locator("#status-line")).to_have_text(
        "Annoncez « Spit ! » pour commencer (Espace)."
    )
    expect(page.locator("#call-button")).to_have_text("« Spit ! » (Espace)")
    expect(page.locator("#me h2")).to_have_text("Ann (vous)")
    expect(page.locator("#them h2")).to_have_text("Bob (adversaire) absent")  # never came
    expect(page.locator("#me .rt-extra")).to_have_text("pile de spit : 11 cartes")
    page.keyboard.press("?")
    expect(page.locator("#help")).to_contain_text("Spit : Espace annonce « Spit ! ».")
    page.keyboard.press("?")
    page.keyboard.press(" ")
    expect(page.locator("#log")).to_contain_text("Ann annonce « Spit ! »")
    # Bob never calls: the countdown turns the spit cards
    wait_until(
        lambda: page.locator("#status-line").inner_text().startswith("Jouez !"), what="the start"
    )
    expect(page.locator("#log")).to_contain_text("compte à rebours fini : Ann crache ")
    found = axe_violations(page)
    words, card, top = _refusal(page)
    fr = translator("fr")
    assert words == message_words("rt.not-next", {"card": card, "top": top}, fr), words
    # a face-up card button: its name is what it shows (the key) with the card's name before it
    button = page.locator(f'#me button[data-card="{card}"]')
    assert button.get_attribute("aria-label") is None
    name = button.evaluate("b => b.textContent")
    assert name.startswith(f"{card_name(card, translator('fr'))}, touche ")
    _shoot(page, tmp_path, "spit-fr")
    assert _visible_english(page) == []
    page.context.close()
    assert errors == []
    assert found == [], json.dumps(found, indent=1)


def test_a_welsh_speed_table(browser: Browser, running: RunningServer, tmp_path: Path) -> None:
    _table_id, url = _table(running, "speed", 7)
    page, errors = _start(browser, "cy-GB", url)
    assert page.evaluate("document.documentElement.lang") == "cy"
    expect(page.locator("#status-line")).to_have_text("Galwch am y troi i ddechrau (Bylchwr).")
    expect(page.locator("#call-button")).to_have_text("Troi (Bylchwr)")
    expect(page.locator("#me h2")).to_have_text("Ann (chi)")
    expect(page.locator("#me .rt-extra")).to_have_text("pentwr codi: 10 o gardiau")
    expect(page.locator("#them .rt-hand-back")).to_have_attribute(
        "aria-label", "5 o gardiau yn y llaw"
    )
    page.keyboard.press(" ")
    expect(page.locator("#log")).to_contain_text("Ann yn galw am droi")
    wait_until(
        lambda: page.locator("#status-line").inner_text().startswith("Chwaraewch!"),
        what="the start",
    )
    expect(page.locator("#log")).to_contain_text(
        "amser ar ben: mae’r cardiau canol yn cael eu troi (cyfrif i lawr): "
    )
    found = axe_violations(page)
    words, card, top = _refusal(page)
    cy = translator("cy")
    assert words == f"nid yw {card_name(card, cy)} yn dilyn {card_name(top, cy)}", words
    _shoot(page, tmp_path, "speed-cy")
    assert _visible_english(page) == []
    page.context.close()
    assert errors == []
    assert found == [], json.dumps(found, indent=1)


def test_the_lobby_tells_a_bad_option_in_french(browser: Browser, server: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = ctx.new_page()
    page.goto(server + "/")
    page.fill("#rt-name", "Amélie")
    page.fill("#rt-countdown", "900")
    page.click("#rt-create")
    error = page.locator("#rt-error")
    expect(error).to_contain_text("Compte à rebours en cas de blocage : ")  # the option in words
    expect(error).to_contain_text(
        "donnez un nombre de secondes de 0 à 600 (0 = seulement quand les deux annoncent)"
    )
    assert "countdown" not in (error.text_content() or "")
    page.fill("#rt-name", "")
    page.click("#rt-create")
    expect(page.locator("#rt-error")).to_have_text("Écrivez votre nom (1 à 24 caractères).")
    ctx.close()


def test_the_race_form_waits_for_its_games_before_it_can_be_sent(
    browser: Browser, server: str
) -> None:
    """A click (or Enter) before the page has its games sent no game: "« Jeu » ne convient
    pas" on a slow line or a busy machine. The button now waits for the games."""
    ctx = browser.new_context(viewport=PHONE, locale="fr-FR")
    page = ctx.new_page()
    held: list[Route] = []
    page.route("**/api/games", lambda route: held.append(route))
    page.goto(server + "/", wait_until="domcontentloaded")
    end = time.monotonic() + 30
    while not held:  # (Playwright hands the route over only while it runs: not in a sleep)
        assert time.monotonic() < end, "the page never asked for its games"
        page.wait_for_timeout(50)
    page.fill("#rt-name", "Amélie")
    expect(page.locator("#rt-create")).to_be_disabled()
    page.press("#rt-name", "Enter")  # sent too early: nothing happens, nothing is said
    expect(page.locator("#rt-error")).to_have_text("")
    held[0].continue_()
    expect(page.locator("#rt-create")).to_be_enabled()
    expect(page.locator("#rt-game option")).not_to_have_count(0)
    page.click("#rt-create")  # against a bot: straight to the seat
    page.wait_for_url(re.compile(r"/t/"))
    ctx.close()
