"""The replay viewer's Analyse button opens the analysis of a finished game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import DESKTOP, PHONE, RunningServer

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "games" / "nain-jaune-example.json"


def test_the_analyse_button_shows_every_players_figures_and_a_chart(
    running: RunningServer, browser: Browser, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the service answers the example game (8 players, one round) as table "ex1", finished
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    service = running.app.state.service

    async def game_of(table_id: str) -> str:
        return "nain-jaune"

    async def record_of(table_id: str) -> object:
        return record

    monkeypatch.setattr(service, "game_of", game_of)
    monkeypatch.setattr(service, "record", record_of)
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(running.base + "/replay/ex1")
    page.wait_for_selector("#viewer:not([hidden])")
    page.click("#analyse-link")
    page.wait_for_url("**/analysis/ex1")
    expect(page.locator("#a-result")).to_be_visible(timeout=120_000)
    rows = page.locator("#a-summary tbody tr")
    assert rows.count() == 8
    # Bob led 2♣ and ran to 4♣: his first lead is a decision of his; Cid ran out (no choice)
    names = [r.locator("th").inner_text() for r in rows.all()]
    assert names[:3] == ["Ann", "Bob", "Cid"]
    assert page.locator("#a-chart svg polyline").count() >= 1
    page.check("#a-all")
    assert page.locator("#a-decisions tbody tr").count() >= 1
    page.screenshot(path=str(shots / "analysis-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "analysis-phone.png"), full_page=True)
    assert errors == []
    ctx.close()
