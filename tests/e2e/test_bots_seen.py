"""A person sees that an opponent is a program before sitting down, in a browser at a phone's
and a desktop's width, in English, French and Welsh: the lobby's list names the bot's seat
"(a program)", a Nain Jaune table's page marks its seat and says so above the join form, and a
Speed table's watch page names it so."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from playwright.sync_api import Browser, ViewportSize
from websockets.sync.client import connect

from tests.e2e.conftest import DESKTOP, PHONE, RunningServer
from tests.e2e.test_people import newcomer

WORDS = {  # the bot's name (one bot per language: 8 tables at most each), then the words
    "en-GB": (
        "Mistral", "(a program)", "is a program a player brought, not a person",
        "a program a player brought",
    ),
    "fr-FR": (
        "Tramontane", "(un programme)", "est un programme amené par un joueur, pas une personne",
        "un programme amené par un joueur",
    ),
    "cy": ("Gwynt", "(rhaglen)", "nid person", "rhaglen a ddaeth gan chwaraewr"),
}  # fmt: skip


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@contextmanager
def sitting(base: str, table: str, token: str) -> Iterator[None]:
    """The bot's websocket, joined and pinging like a page, for the time of the block."""
    url = base.replace("http://", "ws://") + f"/ws/{table}"
    stop = threading.Event()
    with connect(url, additional_headers=_bearer(token)) as ws:
        ws.send('{"type": "join", "name": "x"}')

        def beat() -> None:
            while not stop.wait(1.0):
                ws.send('{"type": "ping"}')

        def drain() -> None:
            try:
                for _frame in ws:
                    pass
            except Exception:  # the block ended: the socket closes under the reader
                return

        threads = [threading.Thread(target=f, daemon=True) for f in (beat, drain)]
        for t in threads:
            t.start()
        try:
            yield
        finally:
            stop.set()


def _tables(base: str, ann: httpx.Client, bot: str, token: str) -> tuple[str, str, str]:
    """(a Speed table, a Nain Jaune table, the Nain Jaune table's seat-2 link), seat 1 of
    each held by the bot ``bot``."""
    speed = ann.post(
        "/api/tables",
        json={"name": "Ann", "game": "speed", "players": 2, "public": True,
              "options": {"countdown": "0"}, "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()  # fmt: skip
    three = ann.post(
        "/api/tables",
        json={"name": "Ann", "players": 3, "public": True,
              "seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "person"}]},
    ).json()  # fmt: skip
    for made in (speed, three):
        table = made["table"]
        invited = ann.post(
            f"/api/tables/{table}/seats/1/invite", json={"bot": bot},
            headers={"origin": base},
        )  # fmt: skip
        assert invited.status_code == 200, invited.text
        accepted = httpx.post(f"{base}/api/bot/tables/{table}/accept", headers=_bearer(token))
        assert accepted.status_code == 200, accepted.text
    link = next(i["url"] for i in three["invites"] if i["seat"] == 2)
    return speed["table"], three["table"], link


def test_a_bots_seat_is_marked_before_sitting_down(
    browser: Browser, running: RunningServer
) -> None:
    base = running.base
    with httpx.Client(base_url=base) as ann:
        assert ann.post("/api/me", json={"name": "Ann"}, headers={"origin": base}).is_success
        viewport: ViewportSize
        for locale, (bot, *words) in WORDS.items():
            made = ann.post("/api/me/bots", json={"name": bot}, headers={"origin": base})
            bot_id = made.json()["id"]
            token = ann.post(
                f"/api/me/bots/{bot_id}/tokens", json={}, headers={"origin": base}
            ).json()["token"]
            for viewport in (PHONE, DESKTOP):
                speed, three, link = _tables(base, ann, bot, token)
                with sitting(base, speed, token), sitting(base, three, token):
                    _look(browser, base, locale, viewport, (speed, three, link), (bot, *words))


def _look(
    browser: Browser, base: str, locale: str, viewport: ViewportSize,
    tables: tuple[str, str, str], words: tuple[str, ...],
) -> None:  # fmt: skip
    speed, three, link = tables
    bot, mark, note, tag = words
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    errors: list[Any] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # the lobby's list of open tables
    page.goto(base + "/")
    for table in (speed, three):
        row = page.locator(f"#open li:has(a[href='/t/{table}/watch'])")
        row.locator(f".t-who:has-text('{bot} {mark}')").wait_for()
    _fits(page, viewport)
    # a Nain Jaune seat's link: the page before joining
    page.goto(base + link)
    page.wait_for_selector("#join-name")
    page.locator(f".program-note:has-text('{bot}')").wait_for()
    assert note in page.locator(".program-note").inner_text()
    seat = page.locator("#seats li.program")
    assert seat.count() == 1 and tag in seat.inner_text()
    assert page.locator("#seats li.program").get_attribute("data-seat") == "1"
    _fits(page, viewport)
    # a Speed table's watch page (the game began when the bot sat down): its name says it
    page.goto(f"{base}/t/{speed}/watch")
    page.locator(f"#them .rt-name:has-text('{bot} {mark}')").wait_for()
    _fits(page, viewport)
    assert not errors, errors
    page.context.close()


def _fits(page: Any, viewport: ViewportSize) -> None:
    wide, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert wide <= inner == viewport["width"], (wide, inner)


def test_the_bot_api_page_in_a_browser(browser: Browser, running: RunningServer) -> None:
    """The bot API's page, in French on a phone, from My bots' link: its words translated, the
    calls listed, and not one request to another origin."""
    page, _errors = newcomer(browser, running.base, "fr-FR", "Léa")  # (My bots needs a name)
    page.set_viewport_size(PHONE)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    errors: list[Any] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{running.base}/me")
    page.click("#bot-api-link")
    page.wait_for_url("**/bots/api")
    page.locator("#api-title:text-is('L’API des robots')").wait_for()
    assert page.locator("li.api-call").count() >= 10
    assert "avec le jeton du robot" in page.locator("li.api-call").first.inner_text()
    _fits(page, PHONE)
    assert asked and all(u.startswith(running.base) for u in asked), asked
    assert not errors, errors
    page.context.close()


def test_the_inviter_reads_the_bots_decline_on_her_page_in_french(
    browser: Browser, running: RunningServer
) -> None:
    """Léa invites a bot from her table's page (a phone, in French); the bot declines through
    the API; her page says so in French, and the seat can be offered again."""
    base = running.base
    page, errors = newcomer(browser, base, "fr-FR", "Léa")
    page.set_viewport_size(PHONE)
    origin = {"origin": base}
    bot_id = page.request.post(
        f"{base}/api/me/bots", data={"name": "Autan"}, headers=origin
    ).json()["id"]
    token = page.request.post(
        f"{base}/api/me/bots/{bot_id}/tokens", data={}, headers=origin
    ).json()["token"]
    table = page.request.post(
        f"{base}/api/tables",
        data={"name": "Léa", "game": "speed", "players": 2,
              "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()["table"]  # fmt: skip
    page.goto(f"{base}/t/{table}")
    page.locator("#bot-invite:not([hidden]) #bot-invite-form").wait_for()
    assert page.locator("#bot-invite h2").inner_text() == "Inviter un robot"
    page.fill("#bot-invite-name", "Autan")
    page.click("#bot-invite-form button[type=submit]")
    page.locator("#bot-invite-answers li[data-state=waiting]").wait_for()
    declined = httpx.post(f"{base}/api/bot/tables/{table}/decline", headers=_bearer(token))
    assert declined.status_code == 200, declined.text
    told = page.locator("#bot-invite-answers li[data-state=declined]")
    told.wait_for(timeout=10_000)
    assert told.inner_text() == "Autan a refusé l’invitation à la place 2"
    assert page.locator("#bot-invite-form").is_visible()  # the seat is free: invite again
    _fits(page, PHONE)
    assert not errors, errors
    page.context.close()
