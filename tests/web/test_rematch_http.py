"""POST /t/{id}/rematch and /t/{id}/leave: same-origin JSON only; a GET changes nothing."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from tests.web.conftest import service_of


def _finished_table(client: TestClient) -> str:
    """Ann against two bots, one round; Ann leaves at once so the bots finish it."""
    created = client.post(
        "/api/tables",
        json={"name": "Ann", "players": 3, "end": "rounds:1", "takeover_after": 0,
              "seats": [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]},
    )  # fmt: skip
    assert created.status_code == 201, created.text
    table = created.json()["table"]
    assert client.get(f"/t/{table}/rematch").status_code == 405  # a GET changes nothing
    early = client.post(f"/t/{table}/rematch", json={})
    assert early.status_code == 403
    assert client.post(f"/t/{table}/leave", content=b"{}").status_code == 403  # not JSON
    foreign = client.post(f"/t/{table}/leave", json={}, headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403
    left = client.post(f"/t/{table}/leave", json={})
    assert left.status_code == 200 and left.json() == {"ok": True}
    service = service_of(client.app)  # type: ignore[arg-type]
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


def test_rematch_sets_the_new_seat_cookie(client: TestClient) -> None:
    created = client.post(
        "/api/tables",
        json={"name": "Ann", "players": 2, "end": "rounds:1", "takeover_after": 1,
              "seats": [{"kind": "person"}, {"kind": "bot"}]},
    )  # fmt: skip
    table = created.json()["table"]
    token = client.cookies.get(f"cr_seat_{table}")
    service = service_of(client.app)  # type: ignore[arg-type]
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
