"""Spit and Speed in the browser: two people race for the same pile (exactly one gets it, the
other is told why in words), a game against a bot played with the mouse and keys to its result
and a rematch, and every frame the browsers received checked for cards they could not see."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from playwright.sync_api import Browser, Page, Request
from playwright.sync_api import Error as PlaywrightError

from cardroom.games.realtime_engine import adjacent
from cardroom.games.speed import CallFlip, SpeedGame, SpeedRules
from cardroom.tables import SeatSpec
from cardroom.tables.realtime import RealtimeConfig
from tests.e2e.conftest import DESKTOP, PHONE, RunningServer
from tests.e2e.helpers import drag, press_button, wait_on_page, wait_until
from tests.web.test_realtime_web import named, seen_by_seq

CODE = re.compile(r"(?<![\w])(10|[2-9AJQK])[CDHS](?![\w])")
OPTIONS = {"countdown": "0"}


def race_seed() -> tuple[int, int, str, str]:
    """A Speed deal where, once the middle cards are turned, Ann and Bob each hold a card for
    middle pile 1 and the two are not next to each other: (seed, pile, Ann's, Bob's)."""
    for seed in range(1, 500):
        game = SpeedGame.new(SpeedRules.from_options(OPTIONS), seed)
        game.apply(0, CallFlip())
        game.apply(1, CallFlip())
        top = game.view(0).centre[0]
        assert top is not None
        for a in game.view(0).hand:
            for b in game.view(1).hand:
                if adjacent(a, top) and adjacent(b, top) and not adjacent(a, b) and a != b:
                    return seed, 0, a.code, b.code
    raise AssertionError("no deal found")


def record_frames(page: Page, frames: list[dict[str, Any]]) -> None:
    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)


def seat_link(running: RunningServer, table_id: str, token: str) -> str:
    return f"{running.base}/j/{table_id}.{token}"


def top(page: Page, pile: int) -> str:
    return str(page.get_attribute(f'#middle [data-pile="{pile}"]', "data-top") or "")


def my_cards(page: Page) -> list[str]:
    return [
        str(c) for c in page.locator("#me button[data-card]").evaluate_all(
            "bs => bs.map(b => b.dataset.card)")
    ]  # fmt: skip


def phase(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.status || ''"))


def check_frames(running: RunningServer, table_id: str, seat: int, frames: list[Any]) -> int:
    entries = running.call(running.app.state.service.store.entries(table_id))
    allowed = seen_by_seq(entries, seat)
    count = 0
    for frame in frames:
        if frame.get("type") != "state":
            continue
        leaked = named(frame) - allowed[frame["seq"]]
        assert not leaked, (seat, frame["seq"], sorted(c.code for c in leaked))
        count += 1
    return count


def test_two_people_race_for_the_same_pile(browser: Browser, running: RunningServer) -> None:
    seed, pile, ann_card, bob_card = race_seed()
    config = RealtimeConfig(
        game="speed",
        options=OPTIONS,
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob")),
        seed=seed,
    )
    service = running.app.state.service
    created = running.call(service.create_realtime(config, "Race"))
    table_id = created.table_id
    pages: list[Page] = []
    frames: list[list[dict[str, Any]]] = [[], []]
    for seat, token in enumerate((created.creator_token, created.invites[1])):
        page = browser.new_context().new_page()
        record_frames(page, frames[seat])
        page.goto(seat_link(running, table_id, token))
        page.wait_for_selector("#call-button")
        pages.append(page)
    ann, bob = pages
    for page in pages:
        page.keyboard.press(" ")  # both call for the flip: the middle cards turn
    wait_until(lambda: all(top(p, 1) != "" for p in pages), what="the middle cards")
    seen = top(ann, pile)
    assert seen == top(bob, pile) != ""
    ann.click(f'#me button[data-card="{ann_card}"]')
    bob.click(f'#me button[data-card="{bob_card}"]')
    # both hands reach the pile at the same moment (one shared clock, one planned instant)
    at = time.time() * 1000 + 400
    script = (
        "([at, pile]) => setTimeout(() => document.querySelector("
        '`#middle [data-pile="${pile}"]`).click(), at - Date.now())'
    )
    for page in pages:
        page.evaluate(script, [at, pile])
    wait_until(lambda: top(ann, pile) != seen and top(bob, pile) != seen, what="the pile")
    winner_card = top(ann, pile)
    assert winner_card == top(bob, pile) and winner_card in (ann_card, bob_card)
    loser = bob if winner_card == ann_card else ann
    lost_card = bob_card if winner_card == ann_card else ann_card
    wait_until(lambda: loser.locator("#error").inner_text() != "", what="the refusal")
    words = loser.locator("#error").inner_text()
    # the loser aimed at the old top: the page sends it as `seen`, so the words say the race
    # was lost, never that the card does not fit the winner's card
    assert words.startswith("too late: "), words
    assert not CODE.search(words), words
    assert lost_card in my_cards(loser)
    assert winner_card not in my_cards(ann if loser is bob else bob)
    for seat in (0, 1):
        assert check_frames(running, table_id, seat, frames[seat]) >= 3
    for page in pages:
        page.context.close()


def _misfit_words(text: str) -> bool:
    """A card refused on a pile it does not follow (or that changed under it), in words."""
    return "is not next to" in text or text.startswith("too late")


def test_a_game_against_a_bot_to_the_result_and_a_rematch(
    browser: Browser, running: RunningServer
) -> None:
    config = RealtimeConfig(
        game="speed",
        options={"countdown": "0.5"},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("bot", "reaction:min=0.15,max=0.3")),
        seed=21,
    )
    service = running.app.state.service
    created = running.call(service.create_realtime(config, "Ann v bot"))
    table_id = created.table_id
    page = browser.new_context().new_page()
    frames: list[dict[str, Any]] = []
    record_frames(page, frames)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(seat_link(running, table_id, created.creator_token))
    page.wait_for_selector("#call-button")
    page.keyboard.press("?")
    assert "Keys" in page.locator("#help").inner_text()
    page.keyboard.press(" ")
    wait_until(lambda: top(page, 0) != "", what="the middle cards")
    refusal = ""  # the words of a refused move: the first misfit is aimed at pile 1 once
    dragged = False
    end = time.monotonic() + 90
    while phase(page) != "over" and time.monotonic() < end:
        cards = my_cards(page)
        tops = [top(page, 0), top(page, 1)]
        fit = [(c, p) for c in cards for p in (0, 1) if tops[p] and _next(c, tops[p])]
        misfit = next((c for c in cards if tops[0] and not _next(c, tops[0])), None)
        try:
            if not refusal and misfit is not None:
                # (the box may hold, or get meanwhile, another refusal: a flip the bot's move
                # made wrong; only the misfit's own words are waited for)
                page.click(f'#me button[data-card="{misfit}"]', timeout=500)
                page.click('#middle [data-pile="0"]', timeout=500)
                wait_until(
                    lambda: _misfit_words(page.locator("#error").inner_text()),
                    5,
                    "refusal",
                )
                refusal = page.locator("#error").inner_text()
            elif fit and not dragged:  # once by dragging the card (again if the bot was first)
                card, pile = fit[0]
                drag(page, f'#me button[data-card="{card}"]', f'#middle [data-pile="{pile}"]')
                wait_until(lambda c=card: c not in my_cards(page), 1.5, "the dragged card played")
                dragged = True
            elif fit:
                card, pile = fit[0]
                page.keyboard.press(str(cards.index(card) + 1))
                page.keyboard.press("jk"[pile])
            else:
                page.keyboard.press(" ")
        except (PlaywrightError, AssertionError):  # the view changed under the move: look again
            pass
        time.sleep(0.15)
    assert phase(page) == "over"
    assert dragged, "no card could be played by dragging it"
    assert _misfit_words(refusal), refusal
    assert not CODE.search(refusal), refusal
    # the keys still reach the page (a drag left under way would swallow them, and the click)
    shown = page.locator("#help").is_visible()
    page.keyboard.press("?")
    wait_until(lambda: page.locator("#help").is_visible() != shown, 5, "? to toggle the help")
    result = page.locator("#result")
    result.wait_for(state="visible")
    assert "wins" in result.inner_text() and result.locator("table.settlement tr").count() == 3
    assert check_frames(running, table_id, 0, frames) > 10
    assert result.locator(f'a[href="/analysis/{table_id}"]').count() == 1
    viewport = page.viewport_size
    page.set_viewport_size(PHONE)  # on a phone too the result shows, under the cards
    assert page.locator("#rematch").is_visible() and result.locator("h2").is_visible()
    page.set_viewport_size(viewport or DESKTOP)
    # a frame that changes nothing the result shows (here the seats' presence sent anew) keeps
    # the very same Rematch button: one replaced between press and release loses the click
    page.evaluate("document.getElementById('rematch').dataset.kept = 'yes'")
    seen = len(frames)
    running.loop.call_soon_threadsafe(service.realtime.presence_changed, table_id)

    wait_on_page(page, lambda: any(f.get("type") == "state" for f in frames[seen:]), 10, "a state")
    assert page.locator('#rematch[data-kept="yes"]').count() == 1
    asked: list[Request] = []
    page.on("request", lambda r: asked.append(r) if r.url.endswith("/rematch") else None)
    press_button(page, "#rematch", lambda: bool(asked))  # a POST (the first to ask makes it)
    answer = asked[0].response()  # (waits for it)
    assert answer is not None and answer.status == 200, answer and (answer.status, answer.text())
    page.wait_for_url(lambda url: bool(re.search(r"/t/[^/]+$", url)) and table_id not in url)
    page.wait_for_selector("#call-button")
    assert page.locator("#me h2").inner_text().startswith("Ann")
    assert not errors, errors
    page.context.close()


def _next(a: str, b: str) -> bool:
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    d = abs(order.index(a[:-1]) - order.index(b[:-1]))
    return d in (1, 12)


def test_the_lobby_creates_a_speed_table_against_a_bot(browser: Browser, server: str) -> None:
    page = browser.new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    page.select_option("#rt-game", "speed")
    assert page.locator('.rt-opts[data-game="spit"]').is_hidden()
    page.fill("#rt-name", "Cleo")
    page.select_option("#rt-level", "expert")
    page.select_option("#rt-side", "5")
    # what happens to a person away: the service's defaults, a bot against a bot, else forfeit
    assert page.locator("#rt-away").input_value() == "60"
    assert page.locator("#rt-away-then").input_value() == "bot"
    page.select_option("#rt-opponent", "person")
    assert page.locator("#rt-away-then").input_value() == "forfeit"
    page.select_option("#rt-opponent", "bot")
    page.fill("#rt-away", "25")
    with page.expect_request(lambda r: "/api/tables" in r.url and r.method == "POST") as made:
        page.click("#rt-create")  # a bot: nobody to invite, so straight to the seat in one step
    sent = made.value.post_data_json
    assert sent is not None
    assert (sent["takeover_after"], sent["when_away"]) == (25, "bot")
    page.wait_for_selector("#call-button")
    assert page.evaluate("document.body.dataset.game") == "speed"
    assert page.locator("#me h2").inner_text() == "Cleo (you)"
    assert "Expert bot" in page.locator("#them h2").inner_text()
    # side piles of 5: 20 cards each, 5 in hand and 15 to draw
    assert page.locator("#me .rt-extra").inner_text() == "draw pile: 15 cards"
    # the top bar's rules are this game's, in the page's ?lang= when it has one
    assert page.locator(".rules-link").get_attribute("href") == "/rules/speed"
    page.goto(page.url + ("&" if "?" in page.url else "?") + "lang=cy")
    page.wait_for_selector("#call-button")
    assert page.locator(".rules-link").get_attribute("href") == "/rules/speed?lang=cy"
    assert not errors, errors
    page.context.close()


def race_seeds(count: int) -> list[tuple[int, int, str, str]]:
    """Deals like :func:`race_seed`'s, ``count`` of them."""
    found = []
    for seed in range(1, 5000):
        game = SpeedGame.new(SpeedRules.from_options(OPTIONS), seed)
        game.apply(0, CallFlip())
        game.apply(1, CallFlip())
        pairs = [
            (pile, a.code, b.code) for pile in (0, 1) for a in game.view(0).hand
            for b in game.view(1).hand
            if (top := game.view(0).centre[pile]) is not None and adjacent(a, top)
            and adjacent(b, top) and not adjacent(a, b) and a != b
        ]  # fmt: skip
        if pairs:
            found.append((seed, *pairs[0]))
            if len(found) == count:
                return found
    raise AssertionError("not enough deals")


RACES = 50


def test_the_loser_of_a_close_race_always_reads_too_late(
    browser: Browser, running: RunningServer
) -> None:
    """Ann's play reaches the server, then Bob's click 10 to 40 ms later (by then his page may
    already show Ann's card): Bob is told "too late" every time."""
    service = running.app.state.service
    page = browser.new_context().new_page()
    said: list[str] = []
    for n, (seed, pile, ann_card, bob_card) in enumerate(race_seeds(RACES)):
        config = RealtimeConfig(
            game="speed", options=OPTIONS, seed=seed,
            seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob")),
        )  # fmt: skip
        created = running.call(service.create_realtime(config, "Races"))
        table_id = created.table_id
        for seat in (0, 1):
            running.call(service.act_realtime(table_id, seat, {"type": "call"}))
        page.goto(seat_link(running, table_id, created.invites[1]))
        page.click(f'#me button[data-card="{bob_card}"]')
        seen = top(page, pile)
        delay = 10 + (n * 7) % 31  # 10 … 40 ms after Ann's play is in
        play = {"type": "play", "card": ann_card, "pile": pile, "seen": seen}
        running.call(service.act_realtime(table_id, 0, play))
        page.evaluate(
            "([delay, pile]) => setTimeout(() => document.querySelector("
            '`#middle [data-pile="${pile}"]`).click(), delay)',
            [delay, pile],
        )
        wait_until(lambda: page.locator("#error").inner_text() != "", what="Bob's refusal")
        said.append(page.locator("#error").inner_text())
    assert all(words.startswith("too late: ") for words in said), said
    page.context.close()
