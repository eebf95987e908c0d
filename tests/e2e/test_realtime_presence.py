"""Two friends at a Speed table in the browser: one closes the page, the other sees the game
paused with a counting pause and what happens at the limit; the first comes back through the
same link, the pause ends and the game goes on. Screenshots of the pause at both widths in the
three languages."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page

from cardroom.games.realtime_engine import adjacent
from cardroom.tables import SeatSpec
from cardroom.tables.realtime import RealtimeConfig
from tests.e2e.conftest import DESKTOP, PHONE, RunningServer
from tests.e2e.helpers import take_seat, wait_until

LIMIT = 40


def pause_text(page: Page) -> str:
    box = page.locator("#pause")
    return box.inner_text() if box.is_visible() else ""


def open_seat(
    browser: Browser, url: str, locale: str = "en-GB", ready: str = "#call-button"
) -> Page:
    page = browser.new_context(viewport=DESKTOP, locale=locale).new_page()
    page.goto(url)
    page.wait_for_selector(ready)
    return page


def notes(page: Page) -> list[str]:
    """The table talk's presence lines, in order."""
    return [t.strip() for t in page.locator("#log .ev-note").all_inner_texts()]


def shoot(page: Page, shots: Path, name: str) -> None:
    for size, tag in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        page.screenshot(path=str(shots / f"{name}-{tag}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], (name, tag, width)  # never scrolls sideways
    page.set_viewport_size(DESKTOP)


def test_a_friend_leaves_the_other_sees_the_pause_and_the_game_goes_on_when_back(
    browser: Browser, running: RunningServer, shots: Path
) -> None:
    config = RealtimeConfig(
        game="speed",
        options={"countdown": "0"},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob")),
        seed=4,
        away_limit=LIMIT,
    )
    service = running.app.state.service
    created = running.call(service.create_realtime(config, "Ann and Bob"))
    table_id = created.table_id
    link = f"{running.base}/j/{table_id}.{{}}"
    ann = open_seat(browser, link.format(created.creator_token))
    bob = open_seat(browser, link.format(created.invites[1]))
    for page in (ann, bob):
        page.keyboard.press(" ")  # both call for the flip: the game starts
    wait_until(lambda: ann.locator('#middle [data-pile="1"]').get_attribute("data-top") != "",
               what="the middle cards")  # fmt: skip
    assert "connected" in ann.locator("#them .rt-presence").inner_text()

    bob_context = bob.context
    bob.close()  # Bob's page is gone (his browser keeps his seat's cookie)
    wait_until(lambda: "Bob is reconnecting" in pause_text(ann), what="the pause")
    first = pause_text(ann)
    assert re.search(r"if Bob is not back in (\d+) s, Bob loses the game", first), first
    ann.wait_for_timeout(2200)
    later = pause_text(ann)
    counted = [int(x) for x in re.findall(r"reconnecting… (\d+) s", first + later)]
    left = [int(x) for x in re.findall(r"back in (\d+) s", first + later)]
    assert counted[1] >= counted[0] + 2 and left[1] <= left[0] - 2, (first, later)
    assert "reconnecting" in ann.locator("#them .rt-presence").inner_text()
    card = ann.locator("#me button[data-card]").first
    seq = ann.evaluate("document.body.dataset.seq")
    card.click()
    ann.click('#middle [data-pile="0"]')
    wait_until(lambda: "paused" in ann.locator("#error").inner_text(), what="the refusal")
    assert ann.evaluate("document.body.dataset.seq") == seq  # nothing was sent
    shoot(ann, shots, "rt-paused-en")
    # the table talk says it too, in each reader's words (issue 34, item 15)
    assert notes(ann) == ["Bob is reconnecting: the game is paused."]
    said = {"fr": "Bob se reconnecte : la partie est en pause.",
            "cy": None}  # fmt: skip
    for locale, tag in (("fr-FR", "fr"), ("cy-GB", "cy")):
        look = open_seat(browser, f"{running.base}/t/{table_id}/watch", locale, "#middle button")
        wait_until(lambda page=look: pause_text(page) != "", what="the pause, watching")
        assert "Bob" in pause_text(look) and "reconnecting" not in pause_text(look)
        read = notes(look)
        assert len(read) == 1 and "Bob" in read[0] and "reconnecting" not in read[0], read
        if said[tag]:
            assert read == [said[tag]], read
        shoot(look, shots, f"rt-paused-{tag}")
        look.context.close()

    bob = bob_context.new_page()  # back: the table's address again
    bob.goto(f"{running.base}/t/{table_id}")
    bob.wait_for_selector("#call-button")
    wait_until(lambda: pause_text(ann) == "" and pause_text(bob) == "", what="the end of the pause")
    assert "connected" in ann.locator("#them .rt-presence").inner_text()
    wait_until(lambda: len(notes(ann)) == 2, what="the line saying Bob is back")
    assert notes(ann) == ["Bob is reconnecting: the game is paused.", "Bob is back."]
    kinds = [e.kind for e in running.call(service.store.entries(table_id))]
    assert kinds.count("away") == 1 and kinds.count("back") == 1 and "over" not in kinds
    # the game goes on: Ann plays a card that fits
    tops = [ann.locator(f'#middle [data-pile="{p}"]').get_attribute("data-top") for p in (0, 1)]
    table = service.realtime._live[table_id].table
    view = table.engine.view(0)
    fits = [
        (c.code, p) for c in view.hand for p in (0, 1)
        if view.centre[p] is not None and adjacent(c, view.centre[p])
    ]  # fmt: skip
    if fits:
        code, pile = fits[0]
        ann.click(f'#me button[data-card="{code}"]')
        ann.click(f'#middle [data-pile="{pile}"]')
        wait_until(lambda: ann.locator(f'#middle [data-pile="{pile}"]').get_attribute("data-top")
                   == code, what="Ann's card on the pile")  # fmt: skip
        assert tops[pile] != code
    for page in (ann, bob):
        page.context.close()


def test_a_speed_match_to_10_points_shows_the_scores_between_games(
    browser: Browser, running: RunningServer, shots: Path
) -> None:
    # Ann's bot is quicker: she wins games outright (at most 10 points each: Bob's draw pile)
    config = RealtimeConfig(
        game="speed", options={"countdown": "0.2", "target": "10"}, seed=8,
        seats=(SeatSpec("bot", "reaction:min=0.01,max=0.03", "Ann"),
               SeatSpec("bot", "reaction:min=0.15,max=0.3", "Bob")),
    )  # fmt: skip
    service = running.app.state.service
    table_id = running.call(service.create_realtime(config, "Match")).table_id
    page = open_seat(browser, f"{running.base}/t/{table_id}/watch", ready="#middle button")
    wait_until(lambda: page.locator("#next-game").is_visible(), 60, "the scores between games")
    scores = page.locator("#match-scores").inner_text()
    assert re.fullmatch(r"Match to 10 points: Ann \d+, Bob \d+", scores), scores
    assert "Game 2 starts in" in page.locator("#next-game").inner_text()
    assert "is over: the next one is dealt" in page.locator("#status-line").inner_text()
    shoot(page, shots, "rt-match-between-en")
    page.set_viewport_size(PHONE)  # on a phone too the scores show under the cards
    assert page.locator("#next-game").is_visible() and page.locator("#match-scores").is_visible()
    page.set_viewport_size(DESKTOP)
    wait_until(lambda: page.evaluate("document.body.dataset.status") == "over", 120, "the end")
    final = page.locator("#result").inner_text()
    assert "wins the match." in final, final
    records = running.call(service.record(table_id))
    assert isinstance(records, list) and len(records) >= 2
    page.context.close()


def test_a_friend_invited_before_the_start_closes_the_page_forfeits_and_the_rematch_seats_both(
    browser: Browser, running: RunningServer, shots: Path
) -> None:
    """The invite flow of issue 34 (items 9, 11, 13): Bob joins by the link before the game
    starts, plays, closes the page: the game pauses, the limit comes, Ann wins by forfeit and
    the record says so; then each asks for the rematch once and both are seated there."""
    config = RealtimeConfig(
        game="speed", options={"countdown": "0"}, seed=4, away_limit=4,
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
    )  # fmt: skip
    service = running.app.state.service
    created = running.call(service.create_realtime(config, "Ann and a friend"))
    table_id = created.table_id
    link = f"{running.base}/j/{table_id}.{{}}"
    ann = open_seat(browser, link.format(created.creator_token), ready="#status-line")
    bob = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    take_seat(bob, link.format(created.invites[1]), "Bob")  # the game starts: 2 of 2
    bob.wait_for_selector("#call-button")
    for page in (ann, bob):
        page.keyboard.press(" ")
    wait_until(lambda: ann.locator('#middle [data-pile="1"]').get_attribute("data-top") != "",
               what="the middle cards")  # fmt: skip
    bob_context = bob.context
    bob.close()
    wait_until(lambda: "Bob is reconnecting" in pause_text(ann), what="the pause")
    kinds = [e.kind for e in running.call(service.store.entries(table_id))]
    assert kinds[-1] == "away"
    wait_until(lambda: ann.evaluate("document.body.dataset.status") == "over", 20, "the forfeit")
    status = ann.locator("#status-line").inner_text()
    assert "Ann wins: Bob was away too long." in status, status
    assert notes(ann) == ["Bob is reconnecting: the game is paused.",
                          "Ann wins: Bob was away too long."]  # fmt: skip
    record = running.call(service.record(table_id))
    assert isinstance(record, dict) and record["ended"] == {"reason": "forfeit", "seat": 1}

    # after the game no seat is counted away (issue 34, item 15): Bob back shows connected
    assert "reconnecting" not in ann.locator("#them").inner_text()
    bob = bob_context.new_page()  # Bob comes back to the old table
    bob.goto(f"{running.base}/t/{table_id}")
    wait_until(lambda: "connected" in ann.locator("#them").inner_text(), what="Bob back")
    ann.wait_for_timeout(1200)
    assert "reconnecting" not in ann.locator("#them").inner_text()
    ann.click("#rematch")
    ann.wait_for_url(re.compile(r".*/t/(?!" + table_id + r")[^/]+$"))
    wait_until(lambda: bob.locator("#rematch").inner_text() == "Join the rematch",
               what="the rematch button")  # fmt: skip
    bob.click("#rematch")
    bob.wait_for_url(ann.url)
    bob.wait_for_selector("#call-button")  # seated at once: no name to type, no second click
    assert bob.locator("#join-name").count() == 0
    wait_until(lambda: ann.evaluate("document.body.dataset.status") == "playing",
               what="the rematch under way")  # fmt: skip
    shoot(bob, shots, "rt-rematch-seated-en")
    for page in (ann, bob):
        page.context.close()


def test_a_phone_names_no_key(browser: Browser, running: RunningServer, shots: Path) -> None:
    """Issue 34, item 15: a phone has no keyboard: "Call “Spit!” to start." and a "“Spit!”"
    button, not "(Space)" (a desktop keeps its keys: the other tests press them)."""
    config = RealtimeConfig(
        game="spit", options={"countdown": "30"}, seed=4,
        seats=(SeatSpec("person", name="Ann"), SeatSpec("bot", "easy")),
    )  # fmt: skip
    service = running.app.state.service
    created = running.call(service.create_realtime(config, "Ann on her phone"))
    link = f"{running.base}/j/{created.table_id}.{created.creator_token}"
    phone = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True, is_mobile=True)
    page = phone.new_page()
    page.goto(link)
    page.wait_for_selector("#call-button")
    wait_until(lambda: page.locator("#status-line").inner_text() != "", what="the status")
    assert page.locator("#status-line").inner_text() == "Call “Spit!” to start."
    assert page.locator("#call-button").inner_text() == "“Spit!”"
    page.screenshot(path="/tmp/evening/rt-phone-keys.png")
    phone.close()


# each reader's words: Bob away, a bot taking his seat, Bob back; the label over his cards
TAKEN_TALK = {
    "en-GB": ("Bob is reconnecting: the game is paused.",
              "Bob was away too long: a bot plays for them.", "Bob is back.", "Bot (for Bob)"),
    "fr-FR": ("Bob se reconnecte : la partie est en pause.",
              "Bob s’est absenté trop longtemps : un robot joue à sa place.",
              "Bob est de retour.", "Robot (pour Bob)"),
    "cy-GB": ("Mae Bob yn ailgysylltu: mae’r gêm wedi’i hoedi.",
              "Bu Bob i ffwrdd yn rhy hir: bot sy’n chwarae drostynt.", "Mae Bob yn ôl.",
              "Bot (ar ran Bob)"),
}  # fmt: skip


def test_table_talk_says_away_takeover_and_back_between_two_people(
    browser: Browser, running: RunningServer, shots: Path
) -> None:
    """Issue 34, item 15: at a Speed table where a bot takes the seat of a person away too
    long, Ann (English) and watchers (French, Welsh) read in their words that Bob is away, that
    a bot plays for him (and see "Bot (for Bob)" over his cards), then that he is back."""
    config = RealtimeConfig(
        game="speed", options={"countdown": "0"}, seed=4, away_limit=3, away_then="bot",
        level="easy", seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob")),
    )  # fmt: skip
    service = running.app.state.service
    created = running.call(service.create_realtime(config, "Ann and Bob"))
    table_id = created.table_id
    link = f"{running.base}/j/{table_id}.{{}}"
    ann = open_seat(browser, link.format(created.creator_token))
    bob = open_seat(browser, link.format(created.invites[1]))
    for page in (ann, bob):
        page.keyboard.press(" ")
    wait_until(lambda: ann.locator('#middle [data-pile="1"]').get_attribute("data-top") != "",
               what="the middle cards")  # fmt: skip
    readers = {"en-GB": ann}
    for locale in ("fr-FR", "cy-GB"):
        readers[locale] = open_seat(
            browser, f"{running.base}/t/{table_id}/watch", locale, "#middle button"
        )
    bob_context = bob.context
    bob.close()
    for locale, page in readers.items():
        away, taken, _back, label = TAKEN_TALK[locale]
        wait_until(lambda p=page, w=taken: w in notes(p), 30, f"{locale}: the takeover")
        assert notes(page) == [away, taken], (locale, notes(page))
        # the pause ended because a bot took the seat: the banner does not say all are back
        said = page.locator("#announce").text_content() or ""
        assert "Everybody is back" not in said and "revenu" not in said and "pawb" not in said
        heads = page.locator("#them .rt-name, #me .rt-name, .rt-name").all_inner_texts()
        assert any(label in h for h in heads), (locale, heads)
    for page, tag in ((readers["fr-FR"], "fr"), (readers["cy-GB"], "cy")):
        shoot(page, shots, f"rt-talk-taken-{tag}")
    bob = bob_context.new_page()
    bob.goto(link.format(created.invites[1]))
    for locale, page in readers.items():
        away, taken, back, label = TAKEN_TALK[locale]
        wait_until(lambda p=page, w=back: w in notes(p), what=f"{locale}: Bob back")
        assert notes(page) == [away, taken, back], (locale, notes(page))
    heads = ann.locator(".rt-name").all_inner_texts()
    assert not any("Bot (for Bob)" in h for h in heads), heads
    kinds = [e.kind for e in running.call(service.store.entries(table_id))]
    assert tuple(k for k in kinds if k in ("away", "takeover"))[:2] == ("away", "takeover")
    for page in readers.values():
        page.context.close()
    bob_context.close()
