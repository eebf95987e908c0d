"""A person sees that an opponent is a program before sitting down: the lobby's table list
marks the seats bots people brought hold (docs/bots-api.md)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import browser
from tests.web.test_bot_api import _bearer, make_bot, speed_table
from tests.web.test_players import ORIGIN, create, name


def test_the_table_list_marks_a_bots_seat_before_anyone_sits(client: TestClient) -> None:
    name(client, "Ann")
    _bot_id, token = make_bot(client)
    speed = speed_table(client, public=True)["table"]
    three = create(
        client, players=3, public=True,
        seats=[{"kind": "person"}, {"kind": "person"}, {"kind": "person"}],
    )["table"]  # fmt: skip
    plain = speed_table(client, public=True)["table"]
    for table in (speed, three):
        invited = client.post(
            f"/api/tables/{table}/seats/1/invite", json={"bot": "Mistral"}, headers=ORIGIN
        )
        assert invited.status_code == 200, invited.text
        with browser(client) as program:
            accepted = program.post(f"/api/bot/tables/{table}/accept", headers=_bearer(token))
            assert accepted.status_code == 200, accepted.text
    with browser(client) as eve:  # somebody who sits nowhere yet
        listed = eve.get("/api/tables").json()["open"]
    rows = {row["id"]: row for row in listed}
    assert [s["program"] for s in rows[speed]["seats"]] == [False, True]
    assert [s["program"] for s in rows[three]["seats"]] == [False, True, False]
    assert [s["program"] for s in rows[plain]["seats"]] == [False, False]
    # and the creator's own list ("mine") marks it too
    mine = {row["id"]: row for row in client.get("/api/tables").json()["mine"]}
    assert [s["program"] for s in mine[speed]["seats"]] == [False, True]
    # named by the bot's name before it sat down (it has not opened its websocket yet)
    assert rows[speed]["seats"][1]["name"] == "Mistral"
