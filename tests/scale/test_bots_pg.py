"""The bots' tables on PostgreSQL: migration 0007 makes them, and a bot, its token, an
invitation and a seat taken for it work there as on SQLite; a revoked token is refused; "any
bot" and a decline across two server processes."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx

from cardroom.store import EventStore
from cardroom.store.bots import BotStore
from cardroom.store.migrate import head
from cardroom.store.players import PlayerStore
from tests.scale.clients import ServerProcess


async def test_bots_and_tokens_on_postgresql(pg_store: EventStore) -> None:
    assert head() == "0007"
    players = PlayerStore(pg_store)
    bots = BotStore(pg_store)
    ann, _ = await players.create("Ann", 1.0)
    bot = await bots.create(ann.id, "Mistral", time.time())
    public, token = await bots.new_token(bot.id, "lab", time.time())
    found = await bots.by_token(token)
    assert found is not None and found.name == "Mistral" and found.owner_id == ann.id
    invite = await bots.invite("t1", 1, bot.id, ann.id, time.time())
    assert await bots.answer("t1", 1, bot.id, "accepted", time.time())
    assert not await bots.answer("t1", 1, bot.id, "accepted", time.time())  # once
    assert invite.state == "waiting"
    assert await bots.claim_seat("t1", 1, bot.id, time.time()) == bot.id
    assert await players.seat_of_player("t1", bot.id) == 1
    assert await bots.seats_at("t1") == frozenset({1})
    assert await bots.revoke(public) and await bots.by_token(token) is None


async def test_any_bot_is_found_and_its_decline_told_across_two_serve_processes(
    pg_url: str,
) -> None:
    """The bot listens on one ``cardroom serve`` process, Ann invites "any bot that plays
    Speed" on another (the bots listening are kept in the database, not in a process): the
    bot is found, hears the invitation on its own process, declines there, and Ann reads the
    decline on hers, in French; invited again, it accepts and she reads that too."""
    servers = [ServerProcess(pg_url), ServerProcess(pg_url)]
    try:
        for server in servers:
            server.start()
        a, b = (f"http://{s.address}" for s in servers)
        async with (
            httpx.AsyncClient(base_url=b, timeout=30) as ann,
            httpx.AsyncClient(base_url=a, timeout=30) as program,
        ):
            origin = {"origin": b}
            assert (await ann.post("/api/me", json={"name": "Ann"}, headers=origin)).is_success
            made = await ann.post("/api/me/bots", json={"name": "Mistral"}, headers=origin)
            bot_id = made.json()["id"]
            await ann.post(
                f"/api/me/bots/{bot_id}/accepts", json={"games": ["speed"]}, headers=origin
            )
            token = (
                await ann.post(f"/api/me/bots/{bot_id}/tokens", json={}, headers=origin)
            ).json()["token"]
            bearer = {"authorization": f"Bearer {token}"}
            body = {"name": "Ann", "game": "speed", "players": 2,
                    "seats": [{"kind": "person"}, {"kind": "person"}]}  # fmt: skip
            table = (await ann.post("/api/tables", json=body)).json()["table"]
            nobody = await ann.post(
                f"/api/tables/{table}/seats/1/invite", json={"bot": "*"}, headers=origin
            )
            assert nobody.status_code == 409 and nobody.json()["id"] == "bot.none-free"
            async with program.stream("GET", "/api/bot/events", headers=bearer) as stream:
                lines = stream.aiter_lines()
                invited = None
                deadline = time.monotonic() + 20
                while invited is None and time.monotonic() < deadline:
                    await asyncio.sleep(0.5)  # (its stream marks it listening within a second)
                    answer = await ann.post(
                        f"/api/tables/{table}/seats/1/invite", json={"bot": "*"}, headers=origin
                    )
                    if answer.status_code == 200:
                        invited = answer.json()
                assert invited is not None and invited["bot"] == "Mistral"
                event = await _next_event(lines)
                assert (event["type"], event["table"], event["game"]) == ("invite", table, "speed")
                declined = await program.post(f"/api/bot/tables/{table}/decline", headers=bearer)
                assert declined.status_code == 200
                told = (
                    await ann.get(f"/api/tables/{table}/invites", headers={"accept-language": "fr"})
                ).json()["invites"]
                assert [(i["state"], i["text"]) for i in told] == [
                    ("declined", "Mistral a refusé l’invitation à la place 2")
                ]
                again = await ann.post(
                    f"/api/tables/{table}/seats/1/invite", json={"bot": "*"}, headers=origin
                )
                assert again.status_code == 200, again.text
                event = await _next_event(lines)
                assert (event["type"], event["table"]) == ("invite", table), event
                accepted = await program.post(f"/api/bot/tables/{table}/accept", headers=bearer)
                assert accepted.status_code == 200, accepted.text
                told = (await ann.get(f"/api/tables/{table}/invites?lang=en")).json()
                assert told["invites"][0]["text"] == "Mistral accepted: it takes seat 2"
    finally:
        for server in servers:
            server.stop()


async def _next_event(lines: Any) -> dict[str, Any]:
    """The next event of a bot's stream (keep-alive lines skipped)."""
    while True:
        line = await asyncio.wait_for(anext(lines), 20)
        if line.strip():
            event: dict[str, Any] = json.loads(line)
            return event
