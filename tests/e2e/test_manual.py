"""announce=manual: the claim button and its deadline; the next-round countdown and "n"."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, WebSocket, expect

from cardroom.games.nain_jaune.rules import Rules
from cardroom.tables import SeatSpec, TableConfig
from tests.e2e.conftest import DESKTOP, RunningServer
from tests.e2e.helpers import hand, status, wait_on_page, wait_until

BOARD = ("10D", "JC", "QS", "KH", "7D")
SEED = 1  # a fixed seed makes the whole game the same every run (bots are seeded too)


def _move(page: Page) -> None:
    """Play a board card when one is legal (to get a box to claim), else the first legal card."""
    legal = [
        str(c)
        for c in page.locator("#hand button.card.legal").evaluate_all(
            "bs => bs.map(b => b.dataset.card)"
        )
    ]
    if legal:
        code = next((c for c in legal if c in BOARD), legal[0])
        page.locator(f"#hand button.card.legal[data-card='{code}']").click(timeout=2000)
    elif page.locator("#pass-button").count():
        page.locator("#pass-button").click(timeout=2000)


def test_manual_claim_and_next_round(running: RunningServer, browser: Browser, shots: Path) -> None:
    service = running.app.state.service
    config = TableConfig(
        rules=Rules(announce="manual"),
        seats=(SeatSpec("person", name="Ann"), SeatSpec("bot", "easy")),
        seed=SEED,
        title="Manual",
        bot_delay=0.02,
        takeover_after=0,
    )
    created = running.call(service.create(config))
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.add_cookies(
        [
            {
                "name": f"cr_seat_{created.table_id}",
                "value": created.creator_token,
                "url": running.base,
            }
        ]
    )
    page = ctx.new_page()
    frames: list[str | bytes] = []

    def on_socket(ws: WebSocket) -> None:
        def on_frame(payload: str | bytes) -> None:
            frames.append(payload)

        ws.on("framereceived", on_frame)  # (a def: playwright marks its handlers)

    page.on("websocket", on_socket)
    page.goto(f"{running.base}/t/{created.table_id}")
    wait_until(lambda: status(page) == "playing" and len(hand(page)) == 22, what="the deal")

    claimed = False
    end = time.monotonic() + 120
    while page.locator("#result table.settlement").count() == 0:
        assert time.monotonic() < end, "the round did not end in 2 minutes"
        claim = page.locator("#claim-button")
        if not claimed and claim.count():
            card = re.search(r"Claim the (.+) \(c\)", claim.inner_text())
            assert card is not None
            assert page.locator("#actions .deadline").inner_text() == "Claim before your next card."
            page.screenshot(path=str(shots / "table-claim-desktop.png"), full_page=True)
            page.keyboard.press("c")
            expect(claim).to_have_count(0)
            expect(page.locator("#log")).to_contain_text("who takes")
            claimed = True
        elif (
            page.locator("#hand button.card.legal").count() or page.locator("#pass-button").count()
        ):
            if claim.count():
                claim.click()  # later boxes: claim them too, so none is forgotten
            else:
                _move(page)
        time.sleep(0.03)
    assert claimed, f"seed {SEED}: Ann never had a box to claim"

    # between rounds: the countdown to the next round, and "n" asks for it
    expect(page.locator("#ready-button")).to_be_enabled()
    expect(page.locator("#status-line")).to_contain_text(re.compile(r"Next round in \d+ s"))
    page.screenshot(path=str(shots / "table-round-over-desktop.png"), full_page=True)
    # a frame that changes nothing the result shows (Ann opens her seat in a second tab: the
    # others are told she is present) keeps the very same button: one replaced between press
    # and release would lose the click
    page.evaluate("document.getElementById('ready-again').dataset.kept = 'yes'")
    seen = len(frames)
    second = ctx.new_page()
    second.goto(f"{running.base}/t/{created.table_id}")
    wait_on_page(page, lambda: len(frames) > seen, what="a frame")
    assert page.locator('#ready-again[data-kept="yes"]').count() == 1
    second.close()
    page.keyboard.press("n")
    wait_until(lambda: status(page) == "playing", what="the second round")
    expect(page.locator("#seats .seat[data-seat='0'] .seat-tags")).to_contain_text("you")
    ctx.close()
