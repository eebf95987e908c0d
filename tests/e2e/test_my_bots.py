"""My bots on /me in a browser: make a bot, a token shown once, what it accepts (saved at
once), revoke the token; in English and French (« robot »)."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser

from tests.e2e.conftest import RunningServer
from tests.e2e.test_people import newcomer


def test_a_person_makes_a_bot_and_a_token_on_the_player_page(
    browser: Browser, running: RunningServer
) -> None:
    for locale, who, bot, title in (
        ("en-GB", "Nia", "Mistral", "My bots"),
        ("fr-FR", "Léa", "Tramontane", "Mes robots"),
    ):
        page, errors = newcomer(browser, running.base, locale, who)
        page.goto(f"{running.base}/me")
        page.wait_for_selector("#bots-box:not([hidden])")
        page.wait_for_selector(f"#bots-title:text-is('{title}')")  # once the words are in
        page.fill("#bot-name", bot)
        page.click("#bot-form button[type=submit]")
        page.wait_for_selector(f"#bots li[data-bot] strong:text-is('{bot}')")
        page.click("#bots li[data-bot] button.small:not(.danger)")
        page.wait_for_selector("#bots .token-shown:has-text('crb_')")
        shown = page.locator("#bots .token-shown").inner_text()
        token = shown[shown.index("crb_") :].split()[0]
        account = httpx.get(
            f"{running.base}/api/bot/account", headers={"authorization": f"Bearer {token}"}
        )
        assert account.status_code == 200 and account.json()["name"] == bot
        # what it accepts: shown ticked as stored, and a change is saved at once
        accepts = page.locator("#bots [data-accepts-of]")
        assert accepts.locator("input[data-accepts=play_now]").is_checked()
        assert not accepts.locator("input[data-accepts=rated]").is_checked()
        accepts.locator("input[data-accepts=rated]").check()
        accepts.locator("[role=status]:not(:empty)").wait_for()
        stored = page.request.get(f"{running.base}/api/me/bots").json()["bots"][0]["accepts"]
        assert stored["rated"] is True and stored["play_now"] is True
        page.click("#bots li[data-bot] ul button.danger")
        page.wait_for_selector("#bots li[data-bot] ul li", state="detached")
        account = httpx.get(
            f"{running.base}/api/bot/account", headers={"authorization": f"Bearer {token}"}
        )
        assert account.status_code == 401
        assert not errors, errors
        page.context.close()
