"""Play now and the bots people bring (docs/bots-api.md): the owner's choice of what the bot
accepts is stored, shown and checked; a bot listening on its event stream that accepts Play now
(a rated game) is matched with a person who waited, and its stream says ``match`` then
``start``; a bot that does not accept it, or the person's own bot, is never matched."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from cardroom.store.bots import BotStore
from cardroom.web.play_now import PlayNow
from tests.web.conftest import serving, settings_for
from tests.web.test_bot_api import make_bot
from tests.web.test_players import ORIGIN, name


def test_what_a_bot_accepts_is_stored_shown_and_checked(client: TestClient) -> None:
    name(client, "Ann")
    bot_id, _token = make_bot(client)
    (shown,) = client.get("/api/me/bots").json()["bots"]
    assert shown["accepts"] == {
        "invitations": True, "play_now": True, "rated": False, "friendly": True, "games": [],
    }  # fmt: skip
    chosen = {"invitations": False, "play_now": True, "rated": True, "friendly": False,
              "games": ["speed"]}  # fmt: skip
    saved = client.post(f"/api/me/bots/{bot_id}/accepts", json=chosen, headers=ORIGIN)
    assert saved.status_code == 200 and saved.json() == {"accepts": chosen}
    assert client.get("/api/me/bots").json()["bots"][0]["accepts"] == chosen
    bad = client.post(
        f"/api/me/bots/{bot_id}/accepts?lang=fr", json={**chosen, "games": ["chess"]},
        headers=ORIGIN,
    )  # fmt: skip
    assert bad.status_code == 400 and bad.json()["id"] == "bot.unknown-game"
    assert bad.json()["message"] == "aucun jeu ne s’appelle chess ici"
    assert client.get("/api/me/bots").json()["bots"][0]["accepts"] == chosen  # unchanged
    # and honoured: a bot that takes no invitations is not invited
    table = client.post(
        "/api/tables",
        json={"name": "Ann", "game": "speed", "players": 2,
              "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()["table"]  # fmt: skip
    refused = client.post(
        f"/api/tables/{table}/seats/1/invite", json={"bot": "Mistral"}, headers=ORIGIN
    )
    assert refused.status_code == 409 and refused.json()["id"] == "bot.refuses"


async def _person(base: str, who: str) -> httpx.AsyncClient:
    person = httpx.AsyncClient(base_url=base, timeout=30)
    named = await person.post("/api/me", json={"name": who}, headers={"origin": base})
    assert named.status_code == 200, named.text
    return person


async def _bot(owner: httpx.AsyncClient, base: str, bot: str, **accepts: Any) -> str:
    origin = {"origin": base}
    made = await owner.post("/api/me/bots", json={"name": bot}, headers=origin)
    bot_id = made.json()["id"]
    if accepts:
        await owner.post(f"/api/me/bots/{bot_id}/accepts", json=accepts, headers=origin)
    token = await owner.post(f"/api/me/bots/{bot_id}/tokens", json={}, headers=origin)
    return str(token.json()["token"])


async def test_play_now_matches_a_listening_bot_that_accepts_it(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        base = f"http://{address}"
        play: PlayNow = app.state.play
        ann, bob, cai = [await _person(base, w) for w in ("Ann", "Bob", "Cai")]
        # Ann's bots: one that takes only invitations, one that plays Play now (rated)
        shy = await _bot(ann, base, "Shy", play_now=False, rated=True)
        keen = await _bot(ann, base, "Mistral", play_now=True, rated=True, games=["speed"])
        events: list[dict[str, Any]] = []
        async with (
            httpx.AsyncClient(base_url=base, timeout=60) as shy_http,
            httpx.AsyncClient(base_url=base, timeout=60) as keen_http,
            shy_http.stream(
                "GET", "/api/bot/events", headers={"authorization": f"Bearer {shy}"}
            ) as _shy_stream,
            keen_http.stream(
                "GET", "/api/bot/events", headers={"authorization": f"Bearer {keen}"}
            ) as stream,
        ):
            lines = stream.aiter_lines()
            await asyncio.sleep(1.0)  # (both streams have marked their bots listening)
            # Ann herself is never matched with her own bot: the server's bot plays her
            own = await _seated(ann, base, play)
            assert (await _holders(app, own))[1] is None
            # Bob, who waited, gets the bot that plays Play now; its stream says so
            table = await _seated(bob, base, play)
            assert (await _holders(app, table))[1] == "Mistral"
            while len(events) < 2:
                line = await asyncio.wait_for(anext(lines), 20)
                if line.strip():
                    events.append(json.loads(line))
            # Cai, who asked for a bot at once, gets the server's bot (a bot people brought
            # fills a seat only after a wait)
            now = await _seated(cai, base, play, bot_now=True)
            assert (await _holders(app, now))[1] is None
        for person in (ann, bob, cai):
            await person.aclose()
    assert [e["type"] for e in events] == ["match", "start"]
    match, start = events
    assert match["table"] == table and match["seat"] == 1 and match["rated"] is True
    assert match["game"] == "speed" and match["ws"] == f"/ws/{table}" and start["table"] == table


async def _seated(
    person: httpx.AsyncClient, base: str, play: PlayNow, bot_now: bool = False
) -> str:
    """Press Play now for Speed (waiting 5 s, or a bot at once) and be seated: the matcher is
    run as if the wait were over."""
    body = {"game": "speed", "wait": 5, "bot_now": bot_now}
    pressed = await person.post("/api/play", json=body, headers={"origin": base})
    assert pressed.status_code == 200, pressed.text
    if pressed.json()["waiting"]["table"]:  # seated at once (told once)
        return str(pressed.json()["waiting"]["table"])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        await play.match_all(time.time() + 10)
        waiting = (await person.get("/api/play")).json()["waiting"]
        if waiting and waiting["table"]:
            return str(waiting["table"])
        await asyncio.sleep(0.2)
    raise AssertionError("not seated")


async def _holders(app: Any, table: str) -> dict[int, str | None]:
    """Seat -> the name of the bot people brought holding it (None: none)."""
    service = app.state.service
    seats = service.frame_for(table, None)["seats"]
    held = await BotStore(app.state.store).seats_at_tables([table])
    return {s["seat"]: held.get(table, {}).get(s["seat"]) for s in seats}
