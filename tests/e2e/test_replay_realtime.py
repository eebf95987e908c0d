"""The replay viewer steps through Spit and Speed games: a finished web table by its address,
a terminal record by upload; both players' cards face up, a time line in real seconds, the
refusals shown."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page

from cardroom.tables import SeatSpec
from cardroom.tables.realtime import RealtimeConfig
from tests.e2e.conftest import DESKTOP, PHONE, RunningServer
from tests.e2e.helpers import wait_until
from tests.web.test_replay_realtime import record

FAST = "reaction:min=0.004,max=0.012"
CODE = re.compile(r"(?<![\w])(10|[2-9AJQK])[CDHS](?![\w])")


def finished_spit(running: RunningServer) -> str:
    service = running.app.state.service
    config = RealtimeConfig(
        game="spit", options={"countdown": "0.1"}, seed=12,
        seats=(SeatSpec("bot", FAST, "Ann"), SeatSpec("bot", FAST, "Bob")),
    )  # fmt: skip
    table_id: str = running.call(service.create_realtime(config, "Bots")).table_id
    deadline = time.monotonic() + 120
    while service.realtime.status(table_id) != "over":
        assert time.monotonic() < deadline, "the bots never finished"
        time.sleep(0.2)
    return table_id


def position(page: Page) -> str:
    return page.locator("#r-pos").inner_text()


def test_a_finished_spit_table_steps_with_a_time_line(
    browser: Browser, running: RunningServer, shots: Path
) -> None:
    table_id = finished_spit(running)
    page = browser.new_context(viewport=DESKTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{running.base}/replay/{table_id}")
    page.wait_for_selector("#viewer:not([hidden])")
    assert position(page).startswith("Game 1 of 1 · step 1 of ")
    steps = int(position(page).split(" of ")[2].split(" ")[0])
    entries = running.call(running.app.state.service.store.entries(table_id))
    logged = [e for e in entries if e.kind in ("action", "timeout")]
    assert steps == len(logged) + 1
    assert "The cards are dealt." in page.locator("#r-text").inner_text()
    # both layouts face up: every stock card is a face, none a back
    assert page.locator("#r-players .rt-replay-stock .card").count() == 30
    assert page.locator("#r-players .back").count() == 0
    assert page.locator("#r-timeline .r-tick").count() == steps - 1
    page.keyboard.press("ArrowRight")
    assert position(page).startswith("Game 1 of 1 · step 2 of ")
    rec = running.call(running.app.state.service.record(table_id))
    refused = [i for i, a in enumerate(rec["actions"]) if not a["accepted"]]
    assert refused and page.locator("#r-timeline .r-tick.refused").count() == len(refused)
    page.locator("#r-slider").fill(str(refused[0] + 1))
    wait_until(lambda: page.locator("#r-text .ev-refused").count() == 2, what="the refusal")
    said = page.locator("#r-text").inner_text()
    assert "refused" in said and not CODE.search(said)  # the action and reason in words
    # a click at the end of the time line goes to the last steps
    box = page.locator("#r-timeline").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] - 1, box["y"] + box["height"] / 2)
    assert int(position(page).split("step ")[1].split(" ")[0]) >= steps - 3
    page.keyboard.press("End")
    wait_until(lambda: "wins" in page.locator("#r-settlement").inner_text(), what="the winner")
    page.keyboard.press("Home")
    for size, tag in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(150)
        page.screenshot(path=str(shots / f"replay-spit-{tag}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert errors == []
    page.context.close()


def test_a_terminal_speed_record_uploads_and_steps(
    browser: Browser, running: RunningServer, tmp_path: Path, shots: Path
) -> None:
    data = record("speed", 5)
    path = tmp_path / "speed.json"
    path.write_text(json.dumps(data))
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{running.base}/replay")
    page.set_input_files("#upload-file", str(path))
    page.wait_for_selector("#viewer:not([hidden])")
    assert position(page).endswith(f"of {data['actions'][-1]['t'] - data['start']:.1f} s")
    assert page.locator("#r-players li").nth(0).locator(".card").count() == 5  # Ann's hand
    assert page.locator("#r-players li").nth(1).locator(".card").count() == 5  # and Bob's
    # the two side piles are face-down stacks, drawn as card backs, not as empty slots
    sides = page.locator("#r-sequence .rt-replay-pile")
    assert sides.count() == 4
    for i in (0, 3):
        assert sides.nth(i).locator(".card.back").count() == 1, sides.nth(i).inner_html()
        assert sides.nth(i).locator(".rt-empty").count() == 0
    page.screenshot(path=str(shots / "replay-speed-1280.png"))
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "replay-speed-390.png"))
    page.set_viewport_size(DESKTOP)
    page.keyboard.press("End")
    wait_until(lambda: "point" in page.locator("#r-settlement").inner_text(), what="the points")
    page.context.close()


def test_a_speed_match_shows_the_match_scores_and_its_winner(
    browser: Browser, running: RunningServer, tmp_path: Path, shots: Path
) -> None:
    from tests.web.test_replay_realtime import speed_match_record

    data = speed_match_record()
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data))
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{running.base}/replay")
    page.set_input_files("#upload-file", str(path))
    page.wait_for_selector("#viewer:not([hidden])")
    page.locator("#r-play").click()  # the play-back steps on in a Speed game too
    wait_until(lambda: " · step 3 of " in position(page), what="two steps played")
    page.locator("#r-play").click()
    assert page.locator("#r-play").get_attribute("aria-pressed") == "false"
    page.keyboard.press("End")  # the end of the record: the match's winner
    wait_until(lambda: page.locator("#r-settlement .match-winner").count() == 1, what="winner")
    said = page.locator("#r-settlement").inner_text()
    assert "wins the match" in said and "Match scores: Ann " in said
    for size, tag in ((DESKTOP, "1280"), (PHONE, "390")):
        page.set_viewport_size(size)
        page.screenshot(path=str(shots / f"replay-speed-match-{tag}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    for key in ("Home", "ArrowDown", "ArrowLeft"):  # the end of game 1: the match goes on
        page.keyboard.press(key)
    wait_until(lambda: "Match scores" in page.locator("#r-settlement").inner_text(), what="scores")
    assert page.locator("#r-settlement .match-winner").count() == 0
    page.context.close()
