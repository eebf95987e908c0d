"""People in the browser: a newcomer names themself, presses Play now for Speed and is paired
with a second browser (in French), they play, and each finds the game in "My games" with its
record and the rating change; screenshots of the new pages at both widths in both languages."""

from __future__ import annotations

import contextlib
import random
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from cardroom.tables import TableError
from tests.e2e.conftest import DESKTOP, PHONE, RunningServer


def newcomer(browser: Browser, server: str, locale: str, name: str) -> tuple[Page, list[str]]:
    page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/play")
    page.wait_for_selector("#who-box:not([hidden])")
    page.fill("#who-name", name)
    page.click("#who-form button[type=submit]")
    page.wait_for_selector("#who-box", state="hidden")
    return page, errors


def finish_speed(running: RunningServer, table_id: str) -> None:
    """Both people's moves, chosen at random among the legal ones, until the game is over."""
    service = running.app.state.service
    rng = random.Random(5)
    end = time.monotonic() + 120
    while time.monotonic() < end:
        frame: dict[str, Any] = service.frame_for(table_id, 0)
        if frame["status"] == "over":
            return
        for seat in (0, 1):
            legal = service.frame_for(table_id, seat)["table_view"].get("legal") or []
            plays = [a for a in legal if a["type"] == "play"] or legal
            if not plays:
                continue
            with contextlib.suppress(TableError):  # the table moved on: look again
                running.call(service.act_realtime(table_id, seat, rng.choice(plays)))
        time.sleep(0.01)
    raise AssertionError("the Speed game did not end")


def until(condition: Any, what: str, seconds: float = 15) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.1)


def shoot(page: Page, shots: Path, name: str) -> None:
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(path=str(shots / f"people-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def test_a_newcomer_plays_now_and_finds_the_game_and_rating(
    browser: Browser, running: RunningServer, shots: Path
) -> None:
    ann, ann_errors = newcomer(browser, running.base, "en-GB", "Ann")
    shoot(ann, shots, "play-en")
    ann.click("button[data-game=speed]")
    ann.wait_for_selector("#waiting:not([hidden])")
    assert "Waiting for other players for Speed" in ann.locator("#waiting-text").inner_text()
    bob, bob_errors = newcomer(browser, running.base, "fr-FR", "Bob")
    assert "Jouer au Speed maintenant" in bob.locator("button[data-game=speed]").inner_text()
    shoot(bob, shots, "play-fr")
    bob.click("button[data-game=speed]")
    for page in (ann, bob):
        page.wait_for_url(re.compile(r"/t/[^/]+$"), timeout=20_000)
        page.wait_for_selector("#call-button")
    table_id = ann.url.rsplit("/", 1)[1]
    assert bob.url.endswith(table_id)
    for page in (ann, bob):  # each turns the middle cards from their own browser
        page.keyboard.press(" ")
    finish_speed(running, table_id)
    ann.locator("#result").wait_for(state="visible", timeout=20_000)
    # My games: the game, its record and the rating change (the server counts it in 2 s)
    for page, words in (
        (ann, ("My games", "Speed", "rating")),
        (bob, ("Mes parties", "Speed", "classement")),
    ):
        deadline = time.monotonic() + 20
        while True:
            page.goto(f"{running.base}/me")
            page.wait_for_selector("#games tbody tr")
            row = page.locator("#games tbody tr").first.inner_text()
            if "→" in row or time.monotonic() > deadline:
                break
            time.sleep(1)
        text = page.locator("main").inner_text()
        for word in words:
            assert word in text, (word, text)
        assert "Ann" in row and "Bob" in row and "→" in row, row
        assert page.locator(f'#games a[href="/replay/{table_id}"]').count() == 1
        # and the record to download (issue 34, item 6)
        assert page.locator(f'#games a[href="/t/{table_id}/record"][download]').count() == 1
    shoot(ann, shots, "me-en")
    shoot(bob, shots, "me-fr")
    for page, lang in ((ann, "en"), (bob, "fr")):
        page.goto(f"{running.base}/")
        page.wait_for_selector("#f-rated")
        # the name, asked once (filled by the page's script once its words are in)
        expect(page.locator("#f-name")).to_have_value(re.compile("^(Ann|Bob)$"))
        shoot(page, shots, f"lobby-{lang}")
    # a Speed game's replay steps through it, as a Nain Jaune game's does
    ann.goto(f"{running.base}/me")
    ann.click(f'#games a[href="/replay/{table_id}"]')
    ann.wait_for_selector("#viewer:not([hidden])")
    assert ann.locator("#r-players .back").count() == 0  # both hands face up
    bob.goto(f"{running.base}/me")
    bob.click("#move")
    bob.wait_for_selector("#move-out:not([hidden])")
    assert bob.locator("#move-url").input_value().startswith(f"{running.base}/m/")
    shoot(bob, shots, "move-fr")
    assert not ann_errors and not bob_errors, ann_errors + bob_errors
    for page in (ann, bob):
        page.context.close()


def test_a_passkey_signs_a_player_in_again_after_cookies_are_cleared(
    browser: Browser, running: RunningServer
) -> None:
    base = running.base.replace("127.0.0.1", "localhost")  # no passkeys on a bare IP address
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    page.goto(f"{base}/me")
    page.fill("#me-name", "Cleo")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#password-box:not([hidden])")
    me = page.evaluate("fetch('/api/me').then(r => r.json())")["player"]
    page.click("#passkey-add")
    out = page.locator("#passkey-out")
    until(lambda: out.inner_text() != "", "the passkey made")
    assert "Passkey added" in out.inner_text(), out.inner_text()
    context.clear_cookies()
    page.goto(f"{base}/me")
    assert page.evaluate("fetch('/api/me').then(r => r.json())")["player"] is None
    page.click("#passkey-signin")
    until(lambda: page.locator("#me-name").input_value() == "Cleo", "signed in")
    assert page.evaluate("fetch('/api/me').then(r => r.json())")["player"]["id"] == me["id"]
    context.close()


def test_play_now_alone_for_spit_says_who_is_waiting_and_offers_a_bot(
    browser: Browser, running: RunningServer, shots: Path
) -> None:
    """Alone for Spit the page says nobody else is waiting and when a bot of the person's level
    comes; its button seats them against that bot at once (issue 34, item 2)."""
    page, errors = newcomer(browser, running.base, "en-GB", "Solo")
    page.click('.play-button[data-game="spit"]')
    page.wait_for_selector("#waiting:not([hidden])")
    until(lambda: page.locator("#waiting-bot").inner_text() != "", "the bot's time")
    count = page.locator("#waiting-count").inner_text()
    assert count == "Nobody else is waiting for Spit right now."
    said = page.locator("#waiting-bot").inner_text()
    assert re.fullmatch(r"If nobody comes, you play the medium bot in about (\d+) seconds\.", said)
    left = int(re.findall(r"\d+", said)[0])
    assert 25 <= left <= 30, said  # the 30 s the page states, counting down
    assert page.locator("#bot-now").inner_text() == "Play the medium bot now"
    shoot(page, shots, "play-now-alone-en")
    page.click("#bot-now")
    page.wait_for_url("**/t/*")
    table_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    frame = running.app.state.service.frame_for(table_id, None)
    assert [s["kind"] for s in frame["seats"]] == ["person", "bot"]
    assert frame["seats"][1]["bot"] == "medium"
    assert errors == []
    page.context.close()
