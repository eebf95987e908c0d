"""The table's words in each connection's language: Accept-Language, events and refusals."""

from __future__ import annotations

from pathlib import Path

from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.rules import Rules
from cardroom.tables import SeatSpec
from tests.web.conftest import AutoPlayer, over, service_of, serving, settings_for


def _config() -> TableConfig:
    seats = (SeatSpec("person", name="Ann"), SeatSpec("bot", "easy"), SeatSpec("bot", "easy"))
    return TableConfig(
        rules=Rules.from_options(None, {"end": "rounds:1"}), seats=seats, seed=11, bot_delay=0.0
    )


async def test_two_pages_read_the_same_table_in_french_and_welsh(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        created = await service_of(app).create(_config())
        table = created.table_id
        fr = AutoPlayer(address, table, created.creator_token)
        fr.url += "&lang=fr"  # the page's switch (the cr_lang cookie) or ?lang=
        fr.first_legal = True
        cy = AutoPlayer(address, table, None)  # a spectator whose browser prefers Welsh
        cy.headers = {"Accept-Language": "cy-GB,cy;q=0.9,en;q=0.5"}
        await fr.connect()
        await cy.connect()
        await fr.wait_for(over)
        await cy.wait_for(over)
        await fr.send({"type": "act", "action": "pass", "seq": 0})  # stale or over: refused
        await fr.close()
        await cy.close()
    fr_texts = [e["text"] for f in fr.frames if f["type"] == "state" for e in f["events"]]
    cy_texts = [e["text"] for f in cy.frames if f["type"] == "state" for e in f["events"]]
    assert "Mises : 15 jetons chacun sur le plateau" in fr_texts
    assert "Betiau: 15 o sglodion yr un ar y bwrdd" in cy_texts
    assert any(" pose " in t for t in fr_texts) and any(" yn chwarae " in t for t in cy_texts)
    assert any(t.startswith("Fin de la partie (1 manche jouée)") for t in fr_texts), fr_texts
    assert any(t.startswith("Diwedd y gêm (chwaraewyd 1 rownd)") for t in cy_texts), cy_texts
    # the same events, in the same order, with the same structured fields
    fr_kinds = [e["kind"] for f in fr.frames if f["type"] == "state" for e in f["events"]]
    cy_kinds = [e["kind"] for f in cy.frames if f["type"] == "state" for e in f["events"]]
    assert fr_kinds[-5:] == cy_kinds[-5:]
    last = [f for f in fr.frames if f["type"] == "state"][-1]
    assert last["game_result"]["reason"] == "1 manche jouée"


def test_replay_frames_speak_the_page_language(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from cardroom.web.app import create_app
    from tests.cli.test_replay_nain_jaune import cascade_record

    with TestClient(create_app(settings_for(tmp_path))) as client:
        frames = {
            "en": client.post("/api/replay", json=cascade_record()).json(),
            "fr": client.post("/api/replay?lang=fr", json=cascade_record()).json(),
            "cy": client.post(
                "/api/replay", json=cascade_record(), headers={"Accept-Language": "cy-GB"}
            ).json(),
        }
    texts = {k: [t for s in v["rounds"][0]["steps"] for t in s["text"]] for k, v in frames.items()}
    assert 'Dee: "Yellow Dwarf who takes" (40 chips)' in texts["en"]
    assert "Dee : « Nain Jaune qui prend » (40 jetons)" in texts["fr"]
    assert "Dee: “Corrach Melyn sy’n cymryd” (40 o sglodion)" in texts["cy"]
    assert texts["fr"][0] == "Mises : 15 jetons chacun sur le plateau"
