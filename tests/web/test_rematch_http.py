"""POST /t/{id}/rematch and /t/{id}/leave (same-origin JSON only; a GET changes nothing), and an
earlier round's log sent on request."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import cast

from fastapi.testclient import TestClient

from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.tables import SeatSpec, TableConfig
from cardroom.web import Settings, create_app
from tests.web.conftest import Player, app_of, service_of, serving, settings_for


def _finished_table(client: TestClient) -> str:
    """Ann against two bots, one round; Ann leaves at once so the bots finish it."""
    created = client.post(
        "/api/tables",
        json={"name": "Ann", "players": 3, "end": "rounds:1", "takeover_after": 0,
              "seats": [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]},
    )  # fmt: skip
    assert created.status_code == 201, created.text
    table: str = created.json()["table"]
    assert client.get(f"/t/{table}/rematch").status_code == 405  # a GET changes nothing
    early = client.post(f"/t/{table}/rematch", json={})
    assert early.status_code == 403
    assert client.post(f"/t/{table}/leave", content=b"{}").status_code == 415  # not JSON
    foreign = client.post(f"/t/{table}/leave", json={}, headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403
    left = client.post(f"/t/{table}/leave", json={})
    assert left.status_code == 200 and left.json() == {"ok": True}
    service = service_of(app_of(client))
    end = time.monotonic() + 60
    while service.table(table).status != "over":
        assert time.monotonic() < end
        time.sleep(0.02)
    return table


def test_play_again_gives_a_fresh_seat_at_a_new_table(client: TestClient) -> None:
    table = _finished_table(client)
    old_cookie = client.cookies.get(f"cr_seat_{table}")
    assert old_cookie is None  # leaving took the seat's cookie away
    # ... so this browser can no longer ask: it is not a player any more
    assert client.post(f"/t/{table}/rematch", json={}).status_code == 403


def test_rematch_sets_the_new_seat_cookie(tmp_path: Path) -> None:
    with TestClient(create_app(settings_for(tmp_path, min_takeover_after=0))) as client:
        _rematch_sets_the_new_seat_cookie(client)


def _rematch_sets_the_new_seat_cookie(client: TestClient) -> None:
    created = client.post(
        "/api/tables",
        json={"name": "Ann", "players": 2, "end": "rounds:1", "takeover_after": 1,
              "seats": [{"kind": "person"}, {"kind": "bot"}]},
    )  # fmt: skip
    table = created.json()["table"]
    token = client.cookies.get(f"cr_seat_{table}")
    service = service_of(app_of(client))
    end = time.monotonic() + 60
    while service.table(table).status != "over":  # Ann is away: a bot plays for her
        assert time.monotonic() < end
        time.sleep(0.05)
    response = client.post(f"/t/{table}/rematch", json={})
    assert response.status_code == 200, response.text
    body = response.json()
    new = body["table"]
    assert body == {"table": new, "url": f"/t/{new}", "seat": 0}
    fresh = client.cookies.get(f"cr_seat_{new}")
    assert fresh and fresh != token
    assert client.post(f"/t/{table}/rematch", json={}).json()["table"] == new  # the same one


async def test_an_earlier_round_is_sent_on_request(settings: Settings) -> None:
    async with serving(settings) as (app, address):
        service = service_of(app)
        config = TableConfig(
            rules=Rules.from_options("classic", {"end": "rounds:2"}),
            seats=(SeatSpec("person", name="Ann"), *[SeatSpec("bot", "easy")] * 2),
            seed=11, level="easy", bot_delay=0, takeover_after=0, next_round_after=0,
        )  # fmt: skip
        created = await service.create(config)
        tid = created.table_id
        await service.leave(tid, 0)  # the bots play both rounds
        for _ in range(3000):
            if service.table(tid).status == "over":
                break
            await asyncio.sleep(0.01)
        table = cast(NainJauneTable, service.table(tid))
        assert table.status == "over" and len(table.round_starts) == 2
        watcher = await Player(address, tid, None, {"Accept-Language": "fr"}).connect()
        try:
            await watcher.wait_for(lambda f: f["type"] == "state")
            await watcher.send({"type": "history", "round": 0, "id": "r0"})
            frame = await watcher.wait_for(lambda f: f["type"] == "history")
            events = frame["events"]
            # round 0 whole, from its deal to its settlement, and nothing of round 1
            assert events == [
                {**ev, "text": events[i]["text"]}
                for i, ev in enumerate(table.events[table.round_starts[0] : table.round_starts[1]])
            ]
            assert events[0]["kind"] == "round" and events[0]["text"].startswith("Manche 1")
            assert [e["kind"] for e in events].count("round-over") == 1
            assert frame["ref"] == "r0" and frame["round"] == 0
            await watcher.send({"type": "history", "round": 5, "id": "r5"})
            error = await watcher.wait_for(lambda f: f["type"] == "error")
            assert error["code"] == "not-found" and error["ref"] == "r5"
        finally:
            await watcher.close()
