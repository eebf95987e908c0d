"""A move link in the browser: the page names who this browser would become and who it is,
nothing changes until the button is pressed, then the browser is that player; the player page
lists the browsers holding a key. Screenshots at phone and desktop width, English and French."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from tests.e2e.conftest import DESKTOP, RunningServer
from tests.e2e.test_people import newcomer, shoot


def test_a_move_link_asks_before_the_browser_becomes_another_player(
    browser: Browser, running: RunningServer, shots: Path
) -> None:
    mallory, m_errors = newcomer(browser, running.base, "en-GB", "Mallory")
    for locale, victim_name, lang in (("fr-FR", "Véronique", "fr"), ("en-GB", "Victoria", "en")):
        mallory.goto(f"{running.base}/me")
        mallory.click("#move")
        mallory.wait_for_selector("#move-out:not([hidden])")
        link = mallory.locator("#move-url").input_value()
        victim, v_errors = newcomer(browser, running.base, locale, victim_name)
        victim.goto(link)
        victim.wait_for_selector("#move-confirm")
        assert victim.locator("#move-to").inner_text() == "Mallory"
        assert victim.locator("#move-now").inner_text() == victim_name
        assert victim.locator("#move-now-line").is_visible()
        shoot(victim, shots, f"move-confirm-{lang}")
        # refusing keeps the player
        victim.click("#move-cancel")
        victim.wait_for_url(f"{running.base}/me")
        victim.wait_for_selector("#keys li")
        assert victim.locator("#me-name").input_value() == victim_name
        if lang == "en":
            victim.goto(link)
            victim.click("#move-confirm")
            victim.wait_for_url(f"{running.base}/me")
            victim.wait_for_selector("#keys li")
            assert victim.locator("#me-name").input_value() == "Mallory"
            assert victim.locator("#keys li").count() == 2  # Mallory's first browser and this
            shoot(victim, shots, "keys-en")
            victim.goto(link)  # used: refused in words
            assert "already used" in victim.locator("body").inner_text()
        assert not v_errors, v_errors
        victim.set_viewport_size(DESKTOP)
        victim.context.close()
    assert not m_errors, m_errors
    mallory.context.close()
