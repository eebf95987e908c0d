"""Floods of one client no longer stall the others (issue 30, items 7 and 8).

Each test is one attack, scaled down by a setting; the flood comes from 127.0.0.1 and the
bystander from 127.0.0.2 (the whole of 127.0.0.0/8 is loopback), so the server tells them
apart by address as it would two hosts.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import threading
import time
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

import cardroom.store.players as players_store
import cardroom.web.routes.my_games as my_games_route
from cardroom.store import EventStore, PlayerStore
from cardroom.store.players import CHALLENGES_PER_PLAYER, passkey_challenges_t
from cardroom.web import create_app
from tests.web.conftest import serving, settings_for

BYSTANDER = "127.0.0.2"


async def _get(address: str, path: str, source: str = BYSTANDER) -> bytes:
    """The head of the answer to ``GET path``, asked from ``source``."""
    host, port = address.split(":")
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=(source, 0))
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        return await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    finally:
        writer.close()


@pytest.mark.parametrize("http", ["httptools", "h11"])
async def test_idle_sockets_of_one_address_do_not_shut_out_another(
    tmp_path: Path, http: str
) -> None:
    settings = settings_for(
        tmp_path,
        max_connections=60,
        idle_connections_per_address=10,
        header_timeout=30.0,
        http_impl=http,
    )
    async with serving(settings) as (_app, address):
        host, port = address.split(":")
        flood = [await asyncio.open_connection(host, int(port)) for _ in range(100)]
        await asyncio.sleep(0.3)  # every one accepted by the server, none sent a byte
        head = await _get(address, "/healthz")
        # the oldest of the flood were closed by the server, before any header
        reads = [asyncio.wait_for(r.read(), 5) for r, _w in flood[:90]]
        closed = await asyncio.gather(*reads, return_exceptions=True)
        for _r, w in flood:
            w.close()
    assert head.startswith(b"HTTP/1.1 200"), head
    assert closed == [b""] * 90


# -- the security headers on every answer


def _secured(headers: Mapping[str, str]) -> bool:
    return (
        headers.get("x-content-type-options") == "nosniff"
        and headers.get("x-frame-options") == "DENY"
        and headers.get("referrer-policy") == "no-referrer"
        and "frame-ancestors 'none'" in headers.get("content-security-policy", "")
    )


def test_refusals_carry_the_security_headers(tmp_path: Path) -> None:
    hosts = ("localhost", "127.0.0.1")
    with TestClient(
        create_app(settings_for(tmp_path, allowed_hosts=hosts)), base_url="http://localhost"
    ) as client:
        page = client.get("/")
        host = client.get("/healthz", headers={"Host": "evil.example"})
        cross = client.post(
            "/api/tables", json={"name": "Ann"}, headers={"Sec-Fetch-Site": "cross-site"}
        )
        missing = client.get("/no/such/page")
    assert page.status_code == 200 and _secured(page.headers)
    assert host.status_code == 400 and _secured(host.headers)
    assert cross.status_code == 403 and _secured(cross.headers)
    assert missing.status_code == 404 and _secured(missing.headers)
    with TestClient(create_app(settings_for(tmp_path, connections_per_address=0))) as client:
        busy = client.get("/healthz")
    assert busy.status_code == 429 and _secured(busy.headers)


async def test_a_refused_websocket_carries_the_security_headers(tmp_path: Path) -> None:
    hosts = ("localhost", "127.0.0.1")
    async with serving(settings_for(tmp_path, allowed_hosts=hosts)) as (_app, address):
        host, port = address.split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(
            b"GET /ws/abc HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        writer.close()
    status, *lines = head.decode().split("\r\n")
    fields = dict(line.lower().split(": ", 1) for line in lines if ": " in line)
    assert status.startswith("HTTP/1.1 403")
    assert fields.get("x-frame-options") == "deny" and fields.get("x-content-type-options")
    assert "frame-ancestors 'none'" in fields.get("content-security-policy", "")


# -- passkey challenges

ORIGIN = {"origin": "http://testserver"}


def _challenges(client: TestClient) -> list[str | None]:
    async def read() -> list[str | None]:
        async with client.app.state.store.engine.connect() as conn:  # type: ignore[attr-defined]
            rows = await conn.execute(sa.select(passkey_challenges_t.c.player_id))
            return [row.player_id for row in rows]

    return client.portal.call(read)  # type: ignore[union-attr]


def test_passkey_challenges_are_bounded_per_player_and_address(tmp_path: Path) -> None:
    with TestClient(create_app(settings_for(tmp_path, passkey_tries_per_minute=8))) as client:
        assert client.post("/api/me", json={"name": "Ann"}, headers=ORIGIN).status_code == 200
        answers = [
            client.post("/api/passkey/register-options", json={"confirm": True}, headers=ORIGIN)
            for _ in range(20)
        ]
        kept = _challenges(client)
    assert [r.status_code for r in answers] == [200] * 8 + [429] * 12
    assert 1 <= int(answers[-1].headers["retry-after"]) <= 60
    assert answers[-1].json()["message"] == (
        "too many passkey attempts from here: wait a minute and try again"
    )
    assert len(kept) == CHALLENGES_PER_PLAYER  # the newest: older ones are deleted


async def test_expired_challenges_are_deleted(tmp_path: Path) -> None:
    store = await EventStore.open(settings_for(tmp_path).db_url)
    players = PlayerStore(store)
    try:
        for n in range(5):
            await players.add_challenge(f"old{n}", None, 100.0 + n, now=90.0)
        await players.add_challenge("new", None, 300.0, now=200.0)
        assert not await players.take_challenge("old4", None, 99.0)  # deleted, though not due
        assert await players.take_challenge("new", None, 250.0)
        async with store.engine.connect() as conn:
            left = (await conn.execute(sa.select(passkey_challenges_t))).all()
    finally:
        await store.close()
    assert left == []


# -- password hashes


class SlowHasher:
    """Stands for argon2: each hash or check holds a thread for a while; their starts are kept.
    Ann's hashes hold theirs until Bob's check has started (30 s at most), so how fast a loaded
    machine delivers the requests cannot change which starts first."""

    started: ClassVar[list[str]] = []
    guard = threading.Lock()
    bob_checked = threading.Event()

    def _start(self, what: str) -> None:
        with self.guard:
            self.started.append(what)
        if what == "check bob's secret":
            self.bob_checked.set()
        elif what.startswith("hash ann's"):
            self.bob_checked.wait(30)
        time.sleep(0.3)

    def hash(self, password: str) -> str:
        self._start(f"hash {password}")
        return f"fake:{password}"

    def verify(self, digest: str, password: str) -> bool:
        self._start(f"check {password}")
        return digest == f"fake:{password}"


async def test_one_players_password_flood_delays_anothers_sign_in_by_one_hash_at_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(players_store, "_hasher", SlowHasher)
    async with serving(settings_for(tmp_path)) as (_app, address):
        url = f"http://{address}"
        async with (
            httpx.AsyncClient(base_url=url, headers={"origin": url}) as ann,
            httpx.AsyncClient(base_url=url, headers={"origin": url}) as bob,
        ):
            for client, who in ((ann, "Ann"), (bob, "Bob")):
                assert (await client.post("/api/me", json={"name": who})).status_code == 200
            put = await bob.post("/api/me/password", json={"password": "bob's secret"})
            assert put.status_code == 200
            SlowHasher.started.clear()
            SlowHasher.bob_checked.clear()
            flood = [
                asyncio.create_task(
                    ann.post("/api/me/password", json={"password": f"ann's secret {n}"})
                )
                for n in range(6)
            ]
            end = time.monotonic() + 60
            # Ann's first hash runs, one request waits its turn, the four others were refused:
            # all six reached the server
            while not (SlowHasher.started and sum(t.done() for t in flood) == 4):
                assert time.monotonic() < end, "Ann's requests were not all answered"
                await asyncio.sleep(0.01)
            async with httpx.AsyncClient(base_url=url, headers={"origin": url}) as fresh:
                signed = await fresh.post(
                    "/api/signin", json={"name": "Bob", "password": "bob's secret"}
                )
            answers = await asyncio.gather(*flood)
    assert signed.status_code == 200
    assert SlowHasher.started.index("check bob's secret") <= 1  # after one of Ann's at most
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200, 200, 429, 429, 429, 429]
    busy = next(a for a in answers if a.status_code == 429)
    assert busy.json()["message"] == (
        "your last password is still being checked: wait a moment and try again"
    )
    assert int(busy.headers["retry-after"]) >= 1


# -- the export


def test_an_export_makes_each_finished_tables_part_once_and_is_bounded_per_hour(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[str] = []
    games = [
        {"table": f"t{n}", "game": "nain-jaune", "status": "over", "people": ["Ann", "Bot"]}
        for n in range(4)
    ] + [{"table": "t9", "game": "speed", "status": "playing", "people": ["Ann", "Bob"]}]

    async def mine(_request: Any, _player: Any) -> list[dict[str, Any]]:
        return games

    async def record(_request: Any, game: str, table_id: str) -> object:
        made.append(table_id)
        return {"game": game, "table": table_id, "names": ["Ann", "Bot"]}

    monkeypatch.setattr(my_games_route, "my_games", mine)
    monkeypatch.setattr(my_games_route, "_record", record)
    with TestClient(create_app(settings_for(tmp_path, exports_per_hour=3))) as client:
        assert client.post("/api/me", json={"name": "Ann"}, headers=ORIGIN).status_code == 200
        exports = [client.get("/api/me/export") for _ in range(4)]
    assert made == ["t0", "t1", "t2", "t3"]  # the later exports made none again
    for answer in exports[:3]:
        archive = zipfile.ZipFile(io.BytesIO(answer.content))
        assert archive.namelist() == [f"nain-jaune-t{n}.json" for n in range(4)]
        assert json.loads(archive.read("nain-jaune-t2.json"))["table"] == "t2"
    past = exports[3]
    assert past.status_code == 429 and 3000 < int(past.headers["retry-after"]) <= 3600
    assert past.json()["message"] == (
        "you have exported your records 3 times in the last hour: wait a while"
    )


# -- Play now tables and the open-tables bound ------------------------------------------------


def test_play_now_tables_count_in_the_open_tables_bound(tmp_path: Path) -> None:
    # bots slow to play: the tables stay open while the test runs
    settings = dataclasses.replace(
        settings_for(tmp_path, open_tables_per_client=2), bot_delay=30.0
    )
    with TestClient(create_app(settings)) as client:
        assert client.post("/api/me", json={"name": "Ann"}, headers=ORIGIN).status_code == 200
        pressed = []
        for _ in range(3):
            pressed.append(
                client.post("/api/play", json={"game": "nain-jaune", "wait": 5}, headers=ORIGIN)
            )
            # the wait is over: the table starts with a bot in the other seat
            play = client.app.state.play  # type: ignore[attr-defined]
            client.portal.call(play.match_all, time.time() + 60)  # type: ignore[union-attr]
        lobby = client.post("/api/tables", json={"name": "Ann"}, headers=ORIGIN)
        open_tables = client.get("/api/tables").json()["mine"]
    assert [p.status_code for p in pressed] == [200, 200, 429]
    assert pressed[2].json()["message"] == (
        "you have 2 tables not over yet: finish one before making another"
    )
    assert lobby.status_code == 429 and len(open_tables) == 2
