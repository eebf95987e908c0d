"""A person who closes the page is shown away with the takeover countdown; back, he is not."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

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


def _talk(page: Page) -> list[str]:
    """The table talk's lines of the round being played, in order (folds left out)."""
    return [
        t.strip()
        for t in page.locator("#log > li.ev").all_inner_texts()
    ]


def _after(lines: list[str], *wanted: str) -> bool:
    """Whether ``wanted`` come in this order among ``lines`` (others may come between)."""
    it = iter(lines)
    return all(any(line == w for line in it) for w in wanted)


# what each reader's table talk says: Bob away, a bot taking his seat, Bob back; his seat's label
TALK = {
    "en-GB": ("Bob is away", "Bob is away: a bot plays for them", "Bob is back", "Bot (for Bob)"),
    "fr-FR": ("Bob n’est plus là", "Bob n’est plus là : un robot joue à sa place",
              "Bob est de retour", "Robot (pour Bob)"),
    "cy-GB": ("mae Bob i ffwrdd", "mae Bob i ffwrdd: bot sy’n chwarae drostynt", "mae Bob yn ôl",
              "Bot (ar ran Bob)"),
}  # fmt: skip


def test_table_talk_says_away_takeover_and_back_in_each_readers_words(
    running: RunningServer, browser: Browser, shots: Path
) -> None:
    """Issue 34, item 15: Bob closes the page; Ann (and watchers in French and Welsh) read that
    he is away, then that a bot plays for him (his seat labelled "Bot (for Bob)", the bot's
    moves too), then that he is back, each line in the reader's language, in order."""
    service = running.app.state.service
    config = TableConfig(
        rules=Rules(),
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob")),
        seed=5,
        title="Talk",
        bot_delay=0.05,
        takeover_after=3,
    )
    created = running.call(service.create(config))
    table_id = created.table_id
    pages: dict[str, Page] = {}
    for who, token, locale in (("ann", created.creator_token, "en-GB"),
                               ("bob", created.invites[1], "en-GB")):  # fmt: skip
        ctx = browser.new_context(viewport=DESKTOP, locale=locale)
        ctx.add_cookies([{"name": f"cr_seat_{table_id}", "value": token, "url": running.base}])
        page = ctx.new_page()
        page.goto(f"{running.base}/t/{table_id}")
        wait_until(lambda p=page: status(p) == "playing" and len(hand(p)) == 22, what="deal")
        pages[who] = page
    readers = {"en-GB": pages["ann"]}
    for locale in ("fr-FR", "cy-GB"):
        look = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
        look.goto(f"{running.base}/t/{table_id}/watch")
        wait_until(lambda p=look: status(p) == "playing", what="the watcher's table")
        readers[locale] = look
    bob_name = pages["ann"].locator("#seats .seat[data-seat='1'] .seat-name")
    for page in readers.values():
        assert not page.locator("#log .ev-note").count()  # nobody away yet

    pages["bob"].context.close()
    for locale, page in readers.items():
        away = TALK[locale][0]
        wait_until(lambda p=page, w=away: w in _talk(p), what=f"{locale}: Bob away")
    # the bot takes Bob's seat after 3 s: the log says so, and his seat is the bot's
    for locale, page in readers.items():
        away, taken, _back, label = TALK[locale]
        wait_until(lambda p=page, w=taken: w in _talk(p), 30, f"{locale}: the takeover")
        assert _after(_talk(page), away, taken), _talk(page)
        wait_until(
            lambda p=page, w=label: p.locator("#seats .seat[data-seat='1'] .seat-name")
            .inner_text() == w,
            what=f"{locale}: the bot's label",
        )
    expect(bob_name).to_have_text("Bot (for Bob)")
    for page, locale in ((readers["fr-FR"], "fr"), (readers["cy-GB"], "cy")):
        for size, tag in ((DESKTOP, "desktop"), (PHONE, "phone")):
            page.set_viewport_size(size)
            page.locator("#log").scroll_into_view_if_needed()
            page.screenshot(path=str(shots / f"nj-talk-taken-{locale}-{tag}.png"), full_page=True)
        page.set_viewport_size(DESKTOP)

    ctx = browser.new_context(viewport=PHONE)
    ctx.add_cookies(
        [{"name": f"cr_seat_{table_id}", "value": created.invites[1], "url": running.base}]
    )
    back = ctx.new_page()
    back.goto(f"{running.base}/t/{table_id}")
    wait_until(lambda: len(hand(back)) > 0, what="Bob's page")
    for locale, page in readers.items():
        away, taken, again, _label = TALK[locale]
        wait_until(lambda p=page, w=again: w in _talk(p), what=f"{locale}: Bob back")
        assert _after(_talk(page), away, taken, again), _talk(page)
        # said once each: the page's own "away" line is not said again once the bot took over
        assert _talk(page).count(away) == 1 and _talk(page).count(again) == 1, _talk(page)
    expect(bob_name).to_have_text("Bob")
    for page in readers.values():
        page.context.close()
    ctx.close()
