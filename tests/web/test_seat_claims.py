"""Seats act for the player who claimed them: a copied or re-issued seat token alone does not
leave, ask for a rematch or read a hand; nobody re-issues a seat mid-game to read its hand."""

from __future__ import annotations

import time
from typing import Any

from anyio.from_thread import BlockingPortal
from fastapi.testclient import TestClient

from tests.web.conftest import app_of, browser, service_of
from tests.web.test_players import ORIGIN, create, first_state, name


def _seated(client: TestClient, bob: TestClient) -> tuple[str, str, str]:
    """Ann (``client``) makes a two-person table and Bob opens his invitation: (table, Bob's
    link, Bob's seat token)."""
    name(client, "Ann")
    made = create(
        client, players=2, end="rounds:1", seats=[{"kind": "person"}, {"kind": "person"}]
    )
    table, link = made["table"], made["invites"][0]["url"]
    name(bob, "Bob")
    assert bob.get(link, follow_redirects=False).status_code == 303
    return table, link, link.split(".", 1)[1]


def _start(client: TestClient, table: str) -> None:
    service = service_of(app_of(client))
    _portal(client).call(service.join, table, 1, "Bob")
    assert service.table(table).status == "playing"


def _finish(client: TestClient, table: str) -> None:
    """Both persons leave: the bots play the table to its end."""
    service = service_of(app_of(client))
    _portal(client).call(service.leave, table, 0)
    _portal(client).call(service.leave, table, 1)
    end = time.monotonic() + 60
    while service.table(table).status != "over":
        assert time.monotonic() < end
        time.sleep(0.02)


def test_a_copied_seat_token_does_not_make_the_player_leave(client: TestClient) -> None:
    with browser(client) as bob, browser(client) as eve:
        table, _link, token = _seated(client, bob)
        _start(client, table)
        for cookies in ({}, {"cr_player": "not-a-key"}):  # a stranger, with a player or none
            if not cookies:
                name(eve, "Eve")
            eve.cookies.set(f"cr_seat_{table}", token)
            refused = eve.post(f"/t/{table}/leave", json={}, headers=ORIGIN)
            assert refused.status_code == 403, refused.text
            assert "left" not in _kinds(client, table)
        # Bob's own browser may leave: the claim is his
        assert bob.post(f"/t/{table}/leave", json={}, headers=ORIGIN).status_code == 200
        assert "left" in _kinds(client, table)


def test_a_copied_seat_token_does_not_take_the_rematch_seat(client: TestClient) -> None:
    with browser(client) as bob, browser(client) as eve:
        table, _link, token = _seated(client, bob)
        _start(client, table)
        _finish(client, table)
        name(eve, "Eve")
        eve.cookies.set(f"cr_seat_{table}", token)
        refused = eve.post(f"/t/{table}/rematch", json={}, headers=ORIGIN)
        assert refused.status_code == 403, refused.text
        asked = bob.post(f"/t/{table}/rematch", json={}, headers=ORIGIN)
        assert asked.status_code == 200 and asked.json()["table"]


def test_a_reissued_link_ends_every_use_of_the_old_token(client: TestClient) -> None:
    with browser(client) as bob:
        table, _link, token = _seated(client, bob)
        _start(client, table)
        # Bob is away past the limit (a bot plays for him): the creator may re-issue his seat
        service = service_of(app_of(client))
        live = service.turns._live[table]
        _portal(client).call(service.turns._commit, live, "takeover", {"seat": 1, "level": "easy"})
        fresh = client.post(f"/api/tables/{table}/seats/1/link", headers=ORIGIN)
        assert fresh.status_code == 200, fresh.text
        # the old token no longer acts for the seat: neither leave nor the socket
        left = bob.post(f"/t/{table}/leave", json={}, headers=ORIGIN)
        assert left.status_code == 403 and "left" not in _kinds(client, table)
        with bob.websocket_connect(f"/ws/{table}?token={token}") as ws:
            assert first_state(ws)["type"] == "error"


def test_the_creator_cannot_reissue_a_seat_in_play_to_read_its_hand(client: TestClient) -> None:
    with browser(client) as bob:
        table, _link, _token = _seated(client, bob)
        _start(client, table)
        refused = client.post(f"/api/tables/{table}/seats/1/link", headers=ORIGIN)
        assert refused.status_code == 409, refused.text
        assert "in play" in refused.json()["message"]
        fr = client.post(
            f"/api/tables/{table}/seats/1/link", headers={**ORIGIN, "accept-language": "fr"}
        )
        assert fr.status_code == 409 and fr.json()["message"] != refused.json()["message"]
        with bob.websocket_connect(f"/ws/{table}") as ws:  # Bob still holds his seat
            assert first_state(ws)["you"] == 1
        # leaving it to the bots shows nobody the hand: that stays the creator's to do
        assert client.post(f"/api/tables/{table}/seats/1/bot", headers=ORIGIN).status_code == 200


def test_nobody_holds_a_second_seat_by_a_reissued_link_mid_game(client: TestClient) -> None:
    with browser(client) as bob:
        table, _link, _token = _seated(client, bob)
        _start(client, table)
        service = service_of(app_of(client))
        live = service.turns._live[table]
        _portal(client).call(service.turns._commit, live, "takeover", {"seat": 1, "level": "easy"})
        fresh = client.post(f"/api/tables/{table}/seats/1/link", headers=ORIGIN).json()["url"]
        # the creator opens it himself: refused, he would read seat 1's hand beside his own
        opened = client.get(fresh, follow_redirects=False)
        assert opened.status_code == 409, opened.text
        with client.websocket_connect(f"/ws/{table}") as ws:
            assert first_state(ws)["you"] == 0
        # Bob, coming back, takes the new link and his seat again
        assert bob.get(fresh, follow_redirects=False).status_code == 303
        with bob.websocket_connect(f"/ws/{table}") as ws:
            assert first_state(ws)["you"] == 1


def _portal(client: TestClient) -> BlockingPortal:
    portal = client.portal
    assert portal is not None
    return portal


def _kinds(client: TestClient, table: str) -> list[Any]:
    service = service_of(app_of(client))
    entries = _portal(client).call(service.store.entries, table)
    return [e.kind for e in entries]


def test_a_speed_seat_in_play_is_not_reissued(client: TestClient) -> None:
    name(client, "Ann")
    made = create(
        client, game="speed", players=2, options={"countdown": "0"},
        seats=[{"kind": "person"}, {"kind": "person"}],
    )  # fmt: skip
    table, link = made["table"], made["invites"][0]["url"]
    with browser(client) as bob:
        name(bob, "Bob")
        assert bob.get(link, follow_redirects=False).status_code == 303
        service = service_of(app_of(client))
        _portal(client).call(service.realtime.join, table, 1, "Bob")
        assert service.realtime.status(table) == "playing"
        refused = client.post(f"/api/tables/{table}/seats/1/link", headers=ORIGIN)
        assert refused.status_code == 409, refused.text
        # once a bot has Bob's seat (he was away past the limit), a new link may be made
        service.realtime._get(table).table.taken.add(1)
        assert client.post(f"/api/tables/{table}/seats/1/link", headers=ORIGIN).status_code == 200
