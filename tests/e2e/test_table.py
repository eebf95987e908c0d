"""Two friends, a bot and a spectator play a whole game of one round in the browser."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.helpers import click_move, create_table, hand, seq, status, take_seat, wait_until

KEYS = {"10": "t", "A": "a", "J": "j", "Q": "q", "K": "k"}


def _track_errors(page: Page, errors: list[str], origin: str) -> None:
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    page.on(
        "request",
        lambda req: (
            None
            if req.url.startswith((origin + "/", origin.replace("http", "ws", 1) + "/"))
            else errors.append(f"a request left the origin: {req.url}")
        ),
    )
    page.on(
        "console",
        lambda msg: errors.append(f"{page.url}: {msg.text}") if msg.type == "error" else None,
    )


def _settled(page: Page) -> bool:
    return page.locator("#result table.settlement").count() == 1


def _keyboard_move(page: Page, arrows: bool = False) -> str | None:
    """Play the first highlighted card with its rank key (and Enter) or by moving to it with
    the arrow keys and Enter; or say "without X" with "p"."""
    legal = [
        str(c)
        for c in page.locator("#hand button.card.legal").evaluate_all(
            "bs => bs.map(b => b.dataset.card)"
        )
    ]
    before = seq(page)
    if legal and arrows:
        cards = hand(page)
        code = legal[0]
        for _ in range(cards.index(code) + 1):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.card") == code
        page.keyboard.press("Enter")
        wait_until(lambda: code not in hand(page), what=f"{code} to leave the hand")
        # the focus stays in the hand for the next move
        assert page.evaluate("Boolean(document.activeElement.closest('#hand'))")
        return code
    if legal:
        code = legal[0]
        rank = code[:-1]
        page.keyboard.press(KEYS.get(rank, rank))
        if sum(1 for c in legal if c[:-1] == rank) > 1:
            # two cards of that rank could go: the first key press picks one, Enter plays it
            # (a second press would pick the next one)
            code = page.evaluate("document.activeElement.dataset.card")
            assert code in legal and code[:-1] == rank
            page.keyboard.press("Enter")
        wait_until(lambda: code not in hand(page), what=f"{code} to leave the hand")
        return code
    if page.locator("#pass-button").count():
        page.keyboard.press("p")
        wait_until(lambda: seq(page) > before, what="the pass to be taken")
        return "pass"
    return None


def _your_turn(page: Page) -> bool:
    return bool(
        page.locator("#hand button.card.legal").count() or page.locator("#pass-button").count()
    )


def test_friends_and_a_bot_play_a_round_with_a_spectator(
    server: str, browser: Browser, shots: Path
) -> None:
    errors: list[str] = []
    ann_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    eve_ctx = browser.new_context(viewport=DESKTOP)
    ann, bob, eve = ann_ctx.new_page(), bob_ctx.new_page(), eve_ctx.new_page()
    for page in (ann, bob, eve):
        _track_errors(page, errors, server)

    lobby_phone = bob_ctx.new_page()
    lobby_phone.goto(server + "/")
    lobby_phone.wait_for_selector("#f-seats li")
    lobby_phone.screenshot(path=str(shots / "lobby-phone.png"), full_page=True)
    lobby_phone.close()

    table = create_table(
        ann,
        server,
        name="Ann",
        title="E2E table",
        seats=[("person", None), ("bot", "easy")],
        end=("rounds", 1),
        shots=shots,
    )
    assert len(table.invites) == 1 and "/j/" in table.invites[0]
    ann.screenshot(path=str(shots / "lobby-created-desktop.png"), full_page=True)
    ann.goto(server + "/")  # the lobby took Ann to her seat; back in it, her table is hers
    expect(ann.locator("#mine")).to_contain_text("E2E table")
    bob.goto(server + "/")  # Bob's lobby lists the public table, and no table of his
    expect(bob.locator("#open")).to_contain_text("E2E table")
    expect(bob.locator("#mine")).to_contain_text("None yet.")

    ann.goto(table.url)
    ann.wait_for_selector("#start-button")  # the creator may start before everybody came
    assert status(ann) == "waiting"
    # the creator's page keeps the invitation links while the table waits
    assert ann.locator("#actions .invites input.link-text").first.input_value() == table.invites[0]
    # and the watch link (issue 34, item 6), which opens no seat
    assert ann.locator("#watch-link").input_value() == table.watch
    ann.screenshot(path=str(shots / "table-waiting-desktop.png"), full_page=True)
    ann.screenshot(path="/tmp/evening/table-waiting-desktop.png", full_page=True)
    eve.goto(table.watch)
    take_seat(bob, table.invites[0], "Bob")

    # everybody is seated: the table starts by itself and deals 15 cards each to 3 players
    for page in (ann, bob, eve):
        wait_until(lambda p=page: status(p) == "playing", what="the table to start")
    wait_until(lambda: len(hand(ann)) == 15 and len(hand(bob)) == 15, what="the deal")
    assert not set(hand(ann)) & set(hand(bob))
    assert ann.locator(".seat.you .seat-name").inner_text() == "Ann"
    assert bob.locator(".seat.you .seat-name").inner_text() == "Bob"
    names = eve.locator("#seats .seat-name").all_inner_texts()
    assert names == ["Ann", "Bob", "Bot 3"]

    # the spectator sees the public view only: no hand, no seat of his own, no moves
    assert eve.locator("#hand button").count() == 0
    assert eve.locator(".hand-box").is_hidden()
    assert eve.locator(".seat.you").count() == 0
    assert "watching" in eve.locator("#table-title").inner_text()
    # the watch link shows the public view even in Ann's browser, which holds her seat cookie
    ann_watch = ann_ctx.new_page()
    ann_watch.goto(table.watch)
    wait_until(lambda: status(ann_watch) == "playing", what="Ann's watch page")
    assert ann_watch.locator("#hand button").count() == 0
    assert ann_watch.locator(".seat.you").count() == 0
    ann_watch.close()

    keyboard_moves = 0
    refreshed = False
    bob_moves = 0
    shot_mid = False
    end = time.monotonic() + 120
    while not (_settled(ann) and _settled(bob)):
        assert time.monotonic() < end, "the round did not end in 2 minutes"
        if status(ann) == "playing" and _your_turn(ann):
            if keyboard_moves < 3:
                if _keyboard_move(ann, arrows=keyboard_moves == 0):
                    keyboard_moves += 1
            else:
                click_move(ann)
        if status(bob) == "playing" and _your_turn(bob):
            if bob_moves == 2 and not refreshed:
                # Bob reloads the page in the middle of the round: same seat, same hand
                before = sorted(hand(bob))
                bob.reload()
                wait_until(
                    lambda: status(bob) == "playing" and len(hand(bob)) > 0,
                    what="Bob's page to come back",
                )
                assert sorted(hand(bob)) == before
                assert bob.locator(".seat.you .seat-name").inner_text() == "Bob"
                for page in (ann, bob):
                    expect(
                        page.locator("#seats .seat[data-seat='1'] .seat-tags")
                    ).not_to_contain_text("away")
                    expect(page.locator("#status-line")).not_to_contain_text("A bot plays")
                refreshed = True
            elif click_move(bob, touch=True):
                bob_moves += 1
        if not shot_mid and keyboard_moves >= 2 and status(ann) == "playing":
            ann.screenshot(path=str(shots / "table-desktop.png"), full_page=True)
            bob.screenshot(path=str(shots / "table-phone.png"), full_page=True)
            eve.screenshot(path=str(shots / "table-spectator-desktop.png"), full_page=True)
            shot_mid = True
        time.sleep(0.03)

    assert keyboard_moves >= 1 and refreshed
    # the settlement: one row per player, the winner has no card left, chips add up
    for page in (ann, bob, eve):
        wait_until(lambda p=page: _settled(p), what="the settlement on every page")
        rows = page.locator("#result table.settlement tbody tr")
        assert rows.count() == 3
    cells = [
        [x.replace("·", "0") for x in row.locator("td").all_inner_texts()]
        for row in ann.locator("#result tbody tr").all()
    ]  # stake, boxes taken, cards, doubled boxes, Grand Opéra, total, chips
    assert all(sum(int(x) for x in c[:-2]) == int(c[-2]) for c in cells)
    assert all(int(c[-1]) - int(c[-2]) == 60 for c in cells)  # one round from 60 chips
    assert (
        sum(int(c[-1]) for c in cells)
        + sum(int(x.split()[0]) for x in ann.locator("#board .chips").all_inner_texts())
        == 3 * 60
    )
    # one round was the whole game: it is over, with the record and the replay offered
    wait_until(lambda: status(ann) == "over", what="the game to end")
    ann.wait_for_selector("text=The game is over")
    record_link = ann.locator("a[href$='/record']")
    assert record_link.count() == 1 and record_link.get_attribute("download")
    ann.screenshot(path=str(shots / "table-over-desktop.png"), full_page=True)
    bob.screenshot(path=str(shots / "table-over-phone.png"), full_page=True)

    # the replay of the finished game, every hand face up, step by step
    ann.click("text=Watch the replay")
    ann.wait_for_selector("#viewer:not([hidden])")
    pos = ann.locator("#r-pos").inner_text()
    assert pos.startswith("Round 1 of 1 · step 1 of ")
    assert [len(h) for h in _replay_hands(ann)] == [15, 15, 15]
    ann.keyboard.press("ArrowRight")
    wait_until(lambda: "step 2 of" in ann.locator("#r-pos").inner_text(), what="step 2")
    assert sum(len(h) for h in _replay_hands(ann)) == 44
    ann.keyboard.press("End")
    ann.wait_for_selector("#r-settlement table.settlement")
    assert ann.locator("#r-settlement tbody tr").count() == 3
    ann.screenshot(path=str(shots / "replay-game-desktop.png"), full_page=True)
    bob.goto(ann.url)
    bob.wait_for_selector("#viewer:not([hidden])")
    bob.screenshot(path=str(shots / "replay-game-phone.png"), full_page=True)

    assert errors == []
    for ctx in (ann_ctx, bob_ctx, eve_ctx):
        ctx.close()


def _replay_hands(page: Page) -> list[list[str]]:
    return [
        [str(x) for x in li.locator(".card").evaluate_all("cs => cs.map(c => c.ariaLabel)")]
        for li in page.locator("#r-players li").all()
    ]


def test_a_player_who_left_and_comes_back_is_told_they_left_and_watch(
    browser: Browser, server: str
) -> None:
    """Issue 34, item 1: Bob, invited, leaves the table, then opens its address again: the
    page shows the game as a watcher's and says why, never "Your turn." nor a button the
    server refuses."""
    ann_ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    bob_ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    try:
        table = create_table(
            ann, server, name="Ann", seats=[("person", None), ("bot", "easy")], end=("rounds", 3)
        )
        ann.goto(table.url)
        take_seat(bob, table.invites[0], "Bob")
        wait_until(lambda: status(bob) == "playing", what="the game to start")
        bob.locator("#leave-button").click()
        bob.wait_for_selector("#leave-confirm:not([hidden])")
        bob.locator("#leave-yes").click()
        bob.wait_for_url(lambda url: url.rstrip("/") == server)
        bob.goto(table.url)
        bob.wait_for_selector("#seats .seat")
        line = bob.locator("#status-line")
        wait_until(lambda: line.inner_text().startswith("You left this table"), what="the words")
        for _ in range(10):  # as the others play on, it never becomes "your turn"
            assert "Your turn" not in line.inner_text()
            assert "A bot plays for Bob" not in line.inner_text()
            assert bob.locator("#hand button.card, #pass-button:visible").count() == 0
            bob.wait_for_timeout(200)
        assert bob.locator("#table-title").inner_text().endswith("(watching)")
        assert "you (left)" in bob.locator("#seats .seat[data-seat='1']").inner_text()
        bob.screenshot(path="/tmp/evening/left-watching-desktop.png", full_page=True)
        bob.set_viewport_size(PHONE)
        bob.screenshot(path="/tmp/evening/left-watching-phone.png", full_page=True)
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_a_learning_table_explains_a_refused_card_with_the_rank_wanted(
    browser: Browser, server: str
) -> None:
    """Issue 34, item 3: on a learning table, a dimmed card clicked in one's turn says which
    rank is wanted, after which card, and what the player can do instead."""
    ctx = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = ctx.new_page()
    try:
        table = create_table(  # bots only: a learning table by default
            page, server, name="Lea", seats=[("bot", "easy"), ("bot", "easy")], end=("rounds", 3)
        )
        page.goto(table.url)
        wait_until(lambda: status(page) == "playing", what="the game to start")
        said = ""
        end = time.monotonic() + 90
        while not said:
            assert time.monotonic() < end, "no turn with a card that does not fit"
            mine = page.locator("#hand.my-turn").count() > 0
            dimmed = page.locator("#hand button.card:not(.legal)")
            need = page.locator("#need").inner_text()
            if mine and dimmed.count() and "any" not in need:
                code = dimmed.first.get_attribute("data-card")
                dimmed.first.click(force=True)  # (aria-disabled: a mouse still clicks it)
                said = page.locator("#error").inner_text()
                assert code is not None
                break
            if mine:
                click_move(page)
            page.wait_for_timeout(150)
        assert said.startswith("The ") and "cannot be played now." in said, said
        rank = need.removeprefix("Next card: ")
        assert f"The rank wanted next is {rank}" in said, (said, need)
        assert "You can play: " in said or "You hold none: press “Without " in said, said
        assert "[object" not in said, said
        assert " of " in said.split("You ")[-1] or "none" in said, said  # cards in words
        page.screenshot(path="/tmp/evening/learning-refusal-desktop.png")
        # issue 34, item 5: the newest card of the sequence and its outline show whole
        for size in (DESKTOP, PHONE):
            page.set_viewport_size(size)
            page.wait_for_timeout(200)
            if page.locator("#sequence .card.last").count() == 0:
                continue
            room = page.evaluate(
                """() => {
                const box = document.getElementById("sequence").getBoundingClientRect();
                const c = document.querySelector("#sequence .card.last").getBoundingClientRect();
                return [box.right - c.right, c.left - box.left, c.top - box.top,
                        box.bottom - c.bottom];
            }"""
            )
            assert min(room) >= 3, (size, room)  # the 3px outline inside the clipped box
            page.screenshot(path=f"/tmp/evening/sequence-{size['width']}.png")
    finally:
        ctx.close()
