"""A bot connected through the client (``cardroom.botclient``, its event stream and its token)
plays a whole Nain Jaune game against a person in a browser, who invites it from the table's
page and reads its answer there; every card the bot's frames name is one its seat could see,
worked out from the log alone (as tests/web/test_leaks.py does for people)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError

from cardroom.botclient import load_play
from cardroom.botclient.client import TableOutcome
from cardroom.botclient.events import follow_events
from tests.e2e.conftest import RunningServer
from tests.e2e.helpers import click_move, status, wait_until
from tests.e2e.test_people import newcomer
from tests.web.test_leaks import Visibility, cards_named


def test_a_bot_through_the_client_plays_a_whole_game_against_a_person_in_a_browser(
    browser: Browser, running: RunningServer
) -> None:
    base = running.base
    page, errors = newcomer(browser, base, "en-GB", "Ann")
    origin = {"origin": base}
    made = page.request.post(f"{base}/api/me/bots", data={"name": "Mistral"}, headers=origin)
    assert made.status == 201, made.text()
    bot_id = made.json()["id"]
    token = page.request.post(
        f"{base}/api/me/bots/{bot_id}/tokens", data={}, headers=origin
    ).json()["token"]
    created = page.request.post(
        f"{base}/api/tables",
        data={"name": "Ann", "players": 2, "options": {"end": "rounds:1"},
              "seats": [{"kind": "person"}, {"kind": "person"}]},
    )  # fmt: skip
    assert created.status == 201, created.text()
    table = created.json()["table"]

    # the bot's program: the ready-made client, in a thread of its own (its own event loop)
    frames: list[dict[str, Any]] = []
    outcomes: list[TableOutcome | BaseException] = []

    def program() -> None:
        outcomes.extend(
            asyncio.run(
                follow_events(
                    base, token, load_play("easy"),
                    headers={"authorization": f"Bearer {token}"}, name="Mistral",
                    stop_after=1, on_frame=lambda _table, frame: frames.append(frame),
                )
            )
        )  # fmt: skip

    client = threading.Thread(target=program, daemon=True)
    client.start()

    # Ann invites it from her table's page and reads its answer there
    page.goto(f"{base}/t/{table}")
    page.locator("#bot-invite:not([hidden]) #bot-invite-form").wait_for()
    page.fill("#bot-invite-name", "Mistral")
    page.click("#bot-invite-form button[type=submit]")
    answer = page.locator("#bot-invite-answers li[data-state=accepted]")
    answer.wait_for(timeout=30_000)
    assert answer.inner_text() == "Mistral accepted: it takes seat 2"
    wait_until(lambda: status(page) != "waiting" or page.locator("#start-button").count() > 0)
    if status(page) == "waiting":  # (the table starts once its people sat; else she starts it)
        wait_until(lambda: page.locator("#seats li.program").count() == 1, what="the bot seated")
        if status(page) == "waiting":
            page.click("#start-button")
    assert page.locator("#seats li.program[data-seat='1']").count() == 1
    # she plays her cards until the game is over; the bot plays its own
    end = time.monotonic() + 240
    while status(page) != "over" and time.monotonic() < end:
        try:
            if status(page) == "playing":
                click_move(page)
        except PlaywrightError:
            pass  # the view changed under the click: look again
        time.sleep(0.1)
    assert status(page) == "over"
    client.join(timeout=60)
    assert not client.is_alive()
    (outcome,) = outcomes
    assert isinstance(outcome, TableOutcome) and outcome.over and outcome.table == table
    # the bot's frames named only cards its seat could see
    entries = running.call(running.app.state.service.store.entries(table))
    seen = Visibility(entries, 2)
    states = [f for f in frames if f.get("type") == "state"]
    assert len(states) > 10 and all(f["you"] == 1 for f in states)
    for frame in states:
        leaked = cards_named(frame) - seen.allowed(1, frame["seq"])
        assert not leaked, (frame["seq"], sorted(leaked))
    assert states[-1]["seats"][1]["name"] == "Mistral" and not states[-1]["seats"][1]["bot_playing"]
    assert not errors, errors
    page.context.close()
