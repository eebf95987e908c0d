"""Hints at a web table: the expert's suggestion for the seat's own move, to that seat only."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from fastapi import FastAPI
from fastapi.testclient import TestClient

from cardroom.games.nain_jaune.bots.hint import describe
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.table import parse_action
from cardroom.tables import SeatSpec
from tests.web.conftest import Player, service_of, serving, settings_for
from tests.web.test_ws import config, start_two


def is_hint(frame: dict[str, Any]) -> bool:
    return bool(frame["type"] == "hint")


def not_state(frame: dict[str, Any]) -> bool:
    return bool(frame["type"] != "state")


def two_people(hints: bool, seed: int) -> TableConfig:
    seats = [SeatSpec("person", name="Ann"), SeatSpec("person")]
    return replace(config(seats, seed), hints=hints)


async def ask(player: Player, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` and return the first frame that is not a state frame after it."""
    mark = len(player.frames)
    await player.send(message)
    return await player.wait_for(not_state, mark)


async def test_hints_off_are_refused(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        created = await service_of(app).create(two_people(False, 11))
        ann, bob, watcher = await start_two(address, created)
        state = ann.state
        assert state is not None and state["hints"] is False
        mover = ann if state["round"]["to_act"] == 0 else bob
        reply = await ask(mover, {"type": "hint", "seq": state["seq"], "id": 1})
        assert reply["type"] == "error" and reply["code"] == "forbidden"
        assert reply["message"] == "hints are off at this table" and reply["ref"] == 1
        for p in (ann, bob, watcher):
            await p.close()


async def test_a_hint_goes_to_the_seat_to_act_only_and_names_one_of_its_moves(
    tmp_path: Path,
) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        created = await service.create(two_people(True, 12))
        table = created.table_id
        ann, bob, watcher = await start_two(address, created)
        players = (ann, bob, watcher)
        state = ann.state
        assert state is not None and state["hints"] is True
        seq = state["seq"]
        to_act = state["round"]["to_act"]
        mover, other = (ann, bob) if to_act == 0 else (bob, ann)
        before = len(await app.state.store.entries(table))
        reply = await ask(mover, {"type": "hint", "seq": seq, "id": "h1"})
        assert reply["type"] == "hint", reply
        assert reply["seq"] == seq and reply["ref"] == "h1"
        mine = mover.state
        assert mine is not None and mine["seq"] == seq
        hand, legal = mine["round"]["hand"], mine["round"]["legal"]
        assert len(legal) > 1  # the expert had a choice to make, not a single legal move
        assert reply["action"] in legal
        assert reply["action"] in ("pass", "claim") or reply["action"] in hand
        need = mine["round"]["need"]
        assert reply["text"].startswith(describe(parse_action(reply["action"]), need=need))
        # the others are refused: not their turn, a spectator, a stale seq
        refused = await ask(other, {"type": "hint", "seq": seq})
        assert refused["type"] == "error" and refused["code"] == "not-your-turn"
        refused = await ask(watcher, {"type": "hint", "seq": seq})
        assert refused["type"] == "error" and refused["code"] == "forbidden"
        assert "watching" in refused["message"]
        refused = await ask(mover, {"type": "hint", "seq": seq - 1})
        assert refused["type"] == "error" and refused["code"] == "stale"
        # a ping's pong comes after anything already sent to a connection
        for p in players:
            pong = await ask(p, {"type": "ping"})
            assert pong["type"] == "pong"
        assert [f for f in mover.frames if is_hint(f)] == [reply]
        assert not any(is_hint(f) for p in (other, watcher) for f in p.frames)
        # a hint changes nothing: no entry, no new state
        assert len(await app.state.store.entries(table)) == before
        assert service.table(table).seq == seq
        for p in players:
            await p.close()


def test_the_lobby_creates_a_table_with_hints_and_old_logs_read_as_off(
    client: TestClient,
) -> None:
    response = client.post("/api/tables", json={"name": "Ann", "players": 2, "hints": True})
    assert response.status_code == 201, response.text
    service = service_of(cast(FastAPI, client.app))
    table = service.table(response.json()["table"])
    assert table.cfg.hints is True
    assert table.cfg.to_json()["hints"] is True
    friends = [{"kind": "person"}, {"kind": "person"}]
    plain = client.post("/api/tables", json={"name": "Ann", "players": 2, "seats": friends})
    assert service.table(plain.json()["table"]).cfg.hints is False
    assert service.table(plain.json()["table"]).cfg.learning is False
    # a table with bots only is a learning table by default (hints on), unless asked otherwise
    bots = service.table(client.post("/api/tables", json={"name": "Ann"}).json()["table"])
    assert bots.cfg.learning is True and bots.cfg.hints is True
    off = client.post("/api/tables", json={"name": "Ann", "learning": False}).json()["table"]
    assert service.table(off).cfg.learning is False and service.table(off).cfg.hints is False
    old = table.cfg.to_json()
    del old["hints"]
    del old["learning"]
    assert TableConfig.from_json(old).hints is False
    assert TableConfig.from_json(old).learning is False
    assert TableConfig.from_json(table.cfg.to_json()) == table.cfg
    spit = client.post("/api/tables", json={"name": "Ann", "game": "spit", "hints": True})
    assert spit.status_code == 400
    assert "Nain Jaune tables only" in spit.json()["message"]
