"""The bot API (docs/bots-api.md): bots and their tokens, a token that acts only in its bot's
seat, revocation at once, bounds, and the event stream's order on a real server."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.conftest import Player, app_of, browser, serving, settings_for
from tests.web.test_players import ORIGIN, create, first_state, name


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def make_bot(client: TestClient, bot_name: str = "Mistral") -> tuple[str, str]:
    """(bot id, a token of it) made by ``client``'s player."""
    made = client.post("/api/me/bots", json={"name": bot_name}, headers=ORIGIN)
    assert made.status_code == 201, made.text
    bot_id = made.json()["id"]
    token = client.post(f"/api/me/bots/{bot_id}/tokens", json={"label": "lab"}, headers=ORIGIN)
    assert token.status_code == 201, token.text
    return bot_id, token.json()["token"]


def speed_table(client: TestClient, **body: Any) -> dict[str, Any]:
    return create(
        client, game="speed", players=2, options={"countdown": "0"},
        seats=[{"kind": "person"}, {"kind": "person"}], **body,
    )  # fmt: skip


def _db(client: TestClient) -> str:
    return str(app_of(client).state.store.url.split(":///", 1)[1])


def test_a_token_is_shown_once_kept_hashed_and_refused_once_revoked(client: TestClient) -> None:
    name(client, "Ann")
    bot_id, token = make_bot(client)
    assert token.startswith("crb_") and len(token) == 47
    with browser(client) as program:
        account = program.get("/api/bot/account", headers=_bearer(token))
        assert account.status_code == 200, account.text
        got = account.json()
        assert (got["id"], got["name"], got["bot"], got["owner"]) == (
            bot_id,
            "Mistral",
            True,
            "Ann",
        )
        listed = client.get("/api/me/bots")
        assert token not in listed.text  # never shown again
        (bot,) = listed.json()["bots"]
        (kept,) = bot["tokens"]
        with sqlite3.connect(_db(client)) as conn:
            (stored,) = conn.execute("SELECT token_hash FROM bot_tokens").fetchone()
        assert stored == hashlib.sha256(token.encode()).hexdigest() and kept["id"] == stored[:16]
        revoked = client.post(
            f"/api/me/bots/{bot_id}/tokens/revoke", json={"token": kept["id"]}, headers=ORIGIN
        )
        assert revoked.status_code == 200, revoked.text
        refused = program.get("/api/bot/account", headers=_bearer(token))
        assert refused.status_code == 401 and refused.json()["id"] == "bot.bad-token"
        again = client.post(
            f"/api/me/bots/{bot_id}/tokens/revoke", json={"token": kept["id"]}, headers=ORIGIN
        )
        assert again.status_code == 404


def test_a_token_is_no_cookie_and_a_cookie_is_no_token(client: TestClient) -> None:
    name(client, "Ann")
    bot_id, token = make_bot(client)
    with browser(client) as program:
        # the token does not open a person, as a header or as the player cookie
        assert program.get("/api/me", headers=_bearer(token)).json()["player"] is None
        program.cookies.set("cr_player", token)
        assert program.get("/api/me").json()["player"] is None
        # a token never acts for the owner, even beside the owner's cookie
        refused = client.post(
            "/api/me/bots", json={"name": "Other"}, headers={**ORIGIN, **_bearer(token)}
        )
        assert refused.status_code == 403
    # the owner's cookie is no bot
    missing = client.get("/api/bot/account")
    assert missing.status_code == 401 and missing.json()["id"] == "bot.no-token"
    # and the bot's name is nobody else's sign-in name
    assert client.post("/api/me/bots", json={"name": "mistral"}, headers=ORIGIN).status_code == 409
    assert bot_id


def test_an_invited_bot_plays_its_seat_and_no_other(client: TestClient) -> None:
    name(client, "Ann")
    bot_id, token = make_bot(client)
    made = speed_table(client)
    table = made["table"]
    other = speed_table(client)["table"]
    invited = client.post(
        f"/api/tables/{table}/seats/1/invite", json={"bot": "Mistral"}, headers=ORIGIN
    )
    assert invited.status_code == 200, invited.text
    with browser(client) as program:
        # no seat yet: a token connects nowhere, not even as a spectator
        with program.websocket_connect(f"/ws/{table}", headers=_bearer(token)) as ws:
            frame = first_state(ws)
            assert frame["type"] == "error" and frame["id"] == "bot.no-seat"
        accepted = program.post(f"/api/bot/tables/{table}/accept", headers=_bearer(token))
        assert accepted.status_code == 200, accepted.text
        assert accepted.json() == {"table": table, "seat": 1, "ws": f"/ws/{table}"}
        # a person's seat link sent along changes nothing: the token is its bot's seat
        ann_token = client.cookies.get(f"cr_seat_{table}")
        with program.websocket_connect(
            f"/ws/{table}?token={ann_token}", headers=_bearer(token)
        ) as ws:
            frame = first_state(ws)
            assert frame["type"] == "state" and frame["you"] == 1, frame
            ws.send_json({"type": "join", "name": "Eve"})
            ws.send_json({"type": "hint", "seq": 0, "id": "h"})
            while True:
                frame = ws.receive_json()
                if frame["type"] == "error" and frame.get("ref") == "h":
                    assert frame["id"] == "bot.no-hints", frame
                    break
        # a table it was not invited to
        with program.websocket_connect(f"/ws/{other}", headers=_bearer(token)) as ws:
            frame = first_state(ws)
            assert frame["type"] == "error" and frame["id"] == "bot.no-seat"
        refused = program.post(f"/api/bot/tables/{other}/accept", headers=_bearer(token))
        assert refused.status_code == 403 and refused.json()["id"] == "bot.not-invited"
    seats = app_of(client).state.service.frame_for(table, None)["seats"]
    assert seats[1]["name"] == "Mistral"  # it joined under its own name, not "Eve"
    # Ann's page and a spectator's see that the other seat is a program
    for url in (f"/ws/{table}", f"/ws/{table}?watch=1"):
        with client.websocket_connect(url) as ws:
            frame = first_state(ws)
            assert [s.get("program") for s in frame["seats"]] == [False, True], frame["seats"]
    assert bot_id


def test_a_bot_is_not_invited_to_a_seat_a_person_holds(client: TestClient) -> None:
    name(client, "Ann")
    _bot_id, token = make_bot(client)
    made = speed_table(client)
    table, link = made["table"], made["invites"][0]["url"]
    with browser(client) as bob:
        name(bob, "Bob")
        assert bob.get(link, follow_redirects=False).status_code == 303
    refused = client.post(
        f"/api/tables/{table}/seats/1/invite", json={"bot": "Mistral"}, headers=ORIGIN
    )
    assert refused.status_code == 409 and refused.json()["id"] == "bot.seat-held"
    # nor does anyone but the creator invite
    with browser(client) as eve:
        name(eve, "Eve")
        assert (
            eve.post(
                f"/api/tables/{table}/seats/1/invite", json={"bot": "Mistral"}, headers=ORIGIN
            ).status_code
            == 403
        )
    with browser(client) as program:
        assert (
            program.post(f"/api/bot/tables/{table}/accept", headers=_bearer(token)).status_code
            == 403
        )


def _seated_bot(client: TestClient) -> tuple[str, str, str]:
    name(client, "Ann")
    bot_id, token = make_bot(client)
    table = speed_table(client)["table"]
    client.post(f"/api/tables/{table}/seats/1/invite", json={"bot": "Mistral"}, headers=ORIGIN)
    with browser(client) as program:
        assert (
            program.post(f"/api/bot/tables/{table}/accept", headers=_bearer(token)).status_code
            == 200
        )
    return bot_id, token, table


def test_a_revoked_token_is_closed_at_once(client: TestClient) -> None:
    bot_id, token, table = _seated_bot(client)
    (kept,) = client.get("/api/me/bots").json()["bots"][0]["tokens"]
    with (
        browser(client) as program,
        program.websocket_connect(f"/ws/{table}", headers=_bearer(token)) as ws,
    ):
        assert first_state(ws)["you"] == 1
        started = time.monotonic()
        client.post(
            f"/api/me/bots/{bot_id}/tokens/revoke", json={"token": kept["id"]}, headers=ORIGIN
        )
        while True:
            frame = ws.receive_json()
            if frame["type"] == "error":
                break
        assert frame["id"] == "bot.token-revoked"
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        assert closed.value.code == 4401
        assert time.monotonic() - started < 5  # (not a timing test: it is not the 1 s poll)


def test_a_flooding_bot_is_bounded_and_closed(client: TestClient) -> None:
    _bot_id, token, table = _seated_bot(client)
    with (
        browser(client) as program,
        program.websocket_connect(f"/ws/{table}", headers=_bearer(token)) as ws,
    ):
        assert first_state(ws)["you"] == 1
        for n in range(200):
            ws.send_json({"type": "act", "action": {"type": "call"}, "id": n})
        limited = 0
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                frame = ws.receive_json()
                if frame["type"] == "error" and frame["code"] == "rate-limited":
                    limited += 1
        assert closed.value.code == 1008 and limited >= 20


def test_the_event_stream_says_invite_then_start_then_end(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, min_takeover_after=0.5)

    async def run() -> list[dict[str, Any]]:
        async with serving(settings) as (_app, address):
            base = f"http://{address}"
            origin = {"origin": base}
            async with (
                httpx.AsyncClient(base_url=base) as ann,
                httpx.AsyncClient(base_url=base, timeout=60) as program,
            ):
                assert (await ann.post("/api/me", json={"name": "Ann"}, headers=origin)).is_success
                made = await ann.post("/api/me/bots", json={"name": "Mistral"}, headers=origin)
                bot_id = made.json()["id"]
                token = (
                    await ann.post(f"/api/me/bots/{bot_id}/tokens", json={}, headers=origin)
                ).json()["token"]
                table = (
                    await ann.post(
                        "/api/tables",
                        json={
                            "name": "Ann",
                            "game": "speed",
                            "players": 2,
                            "options": {"countdown": "0"},
                            "takeover_after": 1,
                            "seats": [{"kind": "person"}, {"kind": "person"}],
                        },
                    )
                ).json()["table"]
                events: list[dict[str, Any]] = []
                async with program.stream(
                    "GET", "/api/bot/events", headers=_bearer(token)
                ) as stream:
                    assert stream.headers["content-type"].startswith("application/x-ndjson")
                    lines = stream.aiter_lines()
                    invited = await ann.post(
                        f"/api/tables/{table}/seats/1/invite", json={"bot": "*"}, headers=origin
                    )
                    assert invited.status_code == 200, invited.text
                    seat_cookie = ann.cookies.get(f"cr_seat_{table}")
                    person = await Player(
                        address, table, seat_cookie,
                        {"cookie": f"cr_player={ann.cookies.get('cr_player')}"},
                    ).connect()  # fmt: skip
                    bot: Player | None = None
                    async for line in lines:
                        if not line.strip():
                            continue
                        event = json.loads(line)
                        events.append(event)
                        if event["type"] == "invite":
                            accepted = await program.post(
                                f"/api/bot/tables/{table}/accept", headers=_bearer(token)
                            )
                            assert accepted.status_code == 200, accepted.text
                        elif event["type"] == "start":
                            bot = await Player(address, table, None, _bearer(token)).connect()
                            await bot.send({"type": "join", "name": "x"})
                            await bot.wait_for(
                                lambda f: f["type"] == "state" and f["status"] == "playing"
                            )
                            await bot.ws.close()  # a dead bot: away, then it forfeits
                        elif event["type"] == "end":
                            break
                    await person.ws.close()
                    assert bot is not None
                return events

    events = asyncio.run(run())
    assert [e["type"] for e in events] == ["invite", "start", "end"]
    invite, start, end = events
    assert invite["game"] == "speed" and invite["seat"] == 1 and invite["from"] == "Ann"
    assert start["ws"] == f"/ws/{start['table']}" and start["seat"] == 1
    assert end["winner"] == 0  # the bot was away past the limit: it forfeited
