"""The replay viewer's Analyse button opens the analysis of a finished game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from cardroom.games.registry import new_engine
from cardroom.sim.realtime import new_table, run_table
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
    # at 390 px the mark and the chips against the best are on screen, not scrolled away
    chips = page.locator("#a-decisions thead th").nth(3)
    assert chips.inner_text() == "Chips against the best"
    box = chips.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    # the decision's number is the replay's step, and its link opens that moment
    link = page.locator("#a-decisions tbody tr th a").first
    step = link.inner_text()
    href = link.get_attribute("href")
    assert href == f"/replay/ex1#round=1&step={step}"
    page.goto(running.base + href)
    expect(page.locator("#r-pos")).to_contain_text(f"step {step} of")
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("game", ["speed", "spit"])
def test_a_real_time_game_shows_reaction_times(
    running: RunningServer,
    browser: Browser,
    shots: Path,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
) -> None:
    table = new_table(new_engine(game, {}, 3), ["easy", "expert"],
                      [random.Random(1), random.Random(2)], ["Eve", "Xan"])
    assert run_table(table)
    record = table.arbiter.record()
    service = running.app.state.service

    async def game_of(table_id: str) -> str:
        return game

    async def realtime_record(table_id: str) -> object:
        return record

    monkeypatch.setattr(service, "game_of", game_of)
    monkeypatch.setattr(service, "record", realtime_record)
    ctx = browser.new_context(viewport=PHONE)
    ctx.add_cookies([{"name": "cr_lang", "value": "fr", "url": running.base}])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(running.base + "/analysis/sp1")
    expect(page.locator("#a-realtime")).to_be_visible(timeout=30_000)
    rows = page.locator("#a-summary tbody tr")
    assert [r.locator("th").inner_text() for r in rows.all()] == ["Eve", "Xan"]
    heads = page.locator("#a-summary thead").inner_text()
    assert "Réaction médiane" in heads
    # the slap race's columns at a game that has one (its page model says so), not at Speed
    assert ("Frappes gagnées" in heads) == (game == "spit")
    assert page.locator("#a-histogram svg rect").count() == 32  # 16 bars for each player
    page.screenshot(path=str(shots / f"analysis-{game}-phone-fr.png"), full_page=True)
    assert errors == []
    ctx.close()
