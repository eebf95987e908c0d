"""A person who closes the page is shown away with the takeover countdown; back, he is not."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from cardroom.games.nain_jaune.rules import Rules
from cardroom.tables import SeatSpec, TableConfig
from tests.e2e.conftest import DESKTOP, PHONE, RunningServer
from tests.e2e.helpers import hand, status, wait_until


def test_away_seat_shows_the_takeover_countdown(running: RunningServer, browser: Browser) -> None:
    service = running.app.state.service
    config = TableConfig(
        rules=Rules(),
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob")),
        seed=5,
        title="Presence",
        bot_delay=0.02,
        takeover_after=300,
    )
    created = running.call(service.create(config))
    pages = []
    for token, viewport in ((created.creator_token, DESKTOP), (created.invites[1], PHONE)):
        ctx = browser.new_context(viewport=viewport)
        ctx.add_cookies(
            [{"name": f"cr_seat_{created.table_id}", "value": token, "url": running.base}]
        )
        page = ctx.new_page()
        page.goto(f"{running.base}/t/{created.table_id}")
        wait_until(lambda p=page: status(p) == "playing" and len(hand(p)) == 22, what="deal")
        pages.append(page)
    ann, bob = pages
    bob_seat = ann.locator("#seats .seat[data-seat='1'] .seat-tags")
    expect(bob_seat).not_to_contain_text("away")
    bob_hand = sorted(hand(bob))

    bob.context.close()  # Bob goes away: a bot will play for him after takeover_after seconds
    expect(bob_seat).to_contain_text("away")
    expect(ann.locator("#status-line")).to_contain_text(
        re.compile(r"A bot plays for Bob in (29\d|300) s")
    )

    ctx = browser.new_context(viewport=PHONE)
    ctx.add_cookies(
        [
            {
                "name": f"cr_seat_{created.table_id}",
                "value": created.invites[1],
                "url": running.base,
            }
        ]
    )
    back = ctx.new_page()
    back.goto(f"{running.base}/t/{created.table_id}")
    wait_until(lambda: len(hand(back)) > 0, what="Bob's page")
    assert sorted(hand(back)) == bob_hand
    expect(bob_seat).not_to_contain_text("away")
    expect(ann.locator("#status-line")).not_to_contain_text("A bot plays")
    ctx.close()
    ann.context.close()
