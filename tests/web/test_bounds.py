"""The work one client may cause is bounded, and the doors around it hold (issue 19, items 1-6).

Each test is one attack from the issue, scaled down where a setting makes the bound small:
past a bound the answer is clear (a 4xx with words and Retry-After, or an error frame) and
nothing else changes. Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

import cardroom.games.nain_jaune.web as nain_jaune_face
import cardroom.web.routes.replay as replay_route
from cardroom.bots import make_bot
from cardroom.games.nain_jaune.engine import Game
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import play_game
from cardroom.games.nain_jaune.web.replay import rounds_page
from cardroom.tables import SeatSpec, TableConfig
from cardroom.web import create_app
from cardroom.web.guard import host_allowed
from cardroom.web.replay_frames import replay_frames
from cardroom.web.settings import default_hosts
from tests.web.conftest import AutoPlayer, Player, over, service_of, serving, settings_for
from tests.web.test_hints import two_people
from tests.web.test_replay_frames import sweep_record
from tests.web.test_ws import start_two

JSON_TYPE = {"Content-Type": "application/json"}


def long_record(rounds: int) -> list[dict[str, Any]]:
    """A whole game of ``rounds`` rounds between four random bots (a valid record)."""
    rules = Rules.from_options(None, {"end": f"rounds:{rounds}", "starting_chips": 100_000})
    game = Game(rules, ["Ann", "Bob", "Cy", "Di"], [100_000] * 4)
    game = play_game(game, [make_bot("random")] * 4, seed=1, max_rounds=rounds)
    assert len(game.records) == rounds
    return list(game.records)


def app_client(tmp_path: Path, **changes: Any) -> TestClient:
    return TestClient(create_app(settings_for(tmp_path, **changes)))


# -- 1. the replay ----------------------------------------------------------------------------


def test_a_record_of_too_many_rounds_is_refused_before_it_is_replayed(tmp_path: Path) -> None:
    record = long_record(230)  # the 2,260 rounds, scaled down past a bound of 200
    body = json.dumps(record, separators=(",", ":")).encode()
    with app_client(tmp_path, max_replay_rounds=200) as client:
        start = time.process_time()
        answer = client.post("/api/replay?lang=fr", content=body, headers=JSON_TYPE)
        spent = time.process_time() - start
        assert answer.status_code == 422, answer.text[:200]
        assert answer.json() == {
            "error": "too-large",
            "message": "cet enregistrement a 230 manches : on ne peut revoir ici que des parties "
            "d’au plus 200 manches",
            "id": "bounds.replay-rounds",
        }
        assert len(answer.content) < 300 and spent < 1.0  # nothing was replayed
        # the same game cut to the bound replays
        fine = client.post("/api/replay", json=record[:3])
        assert fine.status_code == 200 and len(fine.json()["rounds"]) == 3


def test_the_steps_of_a_replay_are_bounded_and_carry_no_played_list(tmp_path: Path) -> None:
    with app_client(tmp_path, max_replay_steps=20) as client:
        refused = client.post("/api/replay", json=[sweep_record()])  # 23 steps
        assert refused.status_code == 422
        assert refused.json()["message"] == (
            "this record is too long to replay here: at most 20 steps"
        )
    with app_client(tmp_path, max_replay_steps=23) as client:
        frames = client.post("/api/replay", json=[sweep_record()]).json()
    steps = frames["rounds"][0]["steps"]
    assert len(steps) == 23 and all("played" not in step for step in steps)


def test_a_name_holding_half_a_surrogate_pair_gets_a_clear_4xx(tmp_path: Path) -> None:
    record = {**sweep_record(), "players": ["\ud800", "Bob"]}
    body = json.dumps(record).encode()  # the name is sent as the escape \ud800
    assert b"\\ud800" in body
    with app_client(tmp_path) as client:
        answer = client.post("/api/replay", content=body, headers=JSON_TYPE)
    assert answer.status_code == 422
    assert answer.json()["message"] == "this record holds text that is not valid Unicode"


async def test_a_finished_tables_frames_are_computed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    computed: list[str] = []
    real = rounds_page

    def counting(rounds: Any, first: int, count: int, lang: str = "en", *bounds: Any) -> Any:
        computed.append(lang)
        return real(rounds, first, count, lang, *bounds)

    monkeypatch.setattr(nain_jaune_face, "page", counting)  # the game's web face's pages
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        seats = (SeatSpec("person", name="Ann"), SeatSpec("bot", "easy"))
        rules = Rules.from_options(None, {"end": "rounds:1"})
        created = await service.create(
            TableConfig(rules=rules, seats=seats, seed=5, takeover_after=0.0, bot_delay=0.0)
        )
        table = created.table_id
        ann = await AutoPlayer(address, table, created.creator_token).connect()
        await ann.wait_for(over)
        await ann.close()
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            answers = await asyncio.gather(
                *(http.get(f"/api/replay/{table}") for _ in range(4)),
                http.get(f"/api/replay/{table}?lang=cy"),
            )
            again = await http.get(f"/api/replay/{table}?page=0")
    assert [a.status_code for a in answers] == [200] * 5
    assert len({a.content for a in answers[:4]} | {again.content}) == 1
    assert again.json()["rounds"][0]["finished"] is True
    assert sorted(computed) == ["cy", "en"]  # once per language, not once per request


def test_a_long_record_is_served_a_page_of_rounds_at_a_time_and_checked_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = long_record(45)
    checks: list[int] = []
    real = replay_route.check_record

    def counting(data: Any, most: int) -> Any:
        checks.append(len(data))
        return real(data, most)

    monkeypatch.setattr(replay_route, "check_record", counting)
    body = json.dumps(record, separators=(",", ":")).encode()
    with app_client(tmp_path, replay_page_rounds=20) as client:
        pages = [
            client.post(f"/api/replay?page={n}", content=body, headers=JSON_TYPE)
            for n in (0, 1, 2)
        ]
        again = client.post("/api/replay?page=1", content=body, headers=JSON_TYPE)
        past = client.post("/api/replay?page=3&lang=fr", content=body, headers=JSON_TYPE)
    assert [p.status_code for p in pages] == [200, 200, 200]
    first, second, last = (p.json() for p in pages)
    assert (first["total"], first["pages"], first["page_rounds"]) == (45, 3, 20)
    assert [len(p["rounds"]) for p in (first, second, last)] == [20, 20, 5]
    assert [p["first"] for p in (first, second, last)] == [0, 20, 40]
    numbers = [r["number"] for p in (first, second, last) for r in p["rounds"]]
    assert numbers == list(range(1, 46))
    # each page is the whole replay's rounds, cut: the last round ends with the game's chips
    full = replay_frames(record)
    assert last["rounds"][-1] == full["rounds"][44]
    assert second["rounds"][0] == full["rounds"][20]
    assert again.content == pages[1].content
    assert checks == [45]  # checked by the engine once, for every page
    assert past.status_code == 404
    assert past.json()["message"] == (
        "cette partie à revoir n’a pas cette page : rouvrez-la depuis le début"
    )


def test_an_upload_past_its_size_is_refused_in_words(tmp_path: Path) -> None:
    with app_client(tmp_path, max_replay_bytes=1024 * 1024) as client:
        big = b"[" + b" " * (1024 * 1024) + b"]"
        answer = client.post(
            "/api/replay", content=big, headers={**JSON_TYPE, "Accept-Language": "cy"}
        )
    assert answer.status_code == 413
    assert answer.json() == {
        "error": "too-large",
        "message": "gall ffeil cofnod fod yn 1 MB ar y mwyaf: mae hon yn fwy",
        "id": "bounds.record-file-mb",
    }


# -- 3. tables: how many, how fast, how long ---------------------------------------------------


def test_a_burst_of_sixty_tables_makes_ten_and_then_says_when_to_come_back(
    tmp_path: Path,
) -> None:
    with app_client(tmp_path) as client:
        answers = [
            client.post("/api/tables", json={"name": "Ann", "players": 2, "public": False})
            for _ in range(60)
        ]
        codes = [a.status_code for a in answers]
        assert codes == [201] * 10 + [429] * 50
        late = answers[-1]
        assert 1 <= int(late.headers["retry-after"]) <= 60
        assert late.json()["message"] == (
            "you have made 10 tables in the last minute: wait a moment"
        )
        assert "set-cookie" not in late.headers
        mine = client.get("/api/tables").json()["mine"]
        assert len(mine) == 10


def test_open_tables_per_client_are_bounded(tmp_path: Path) -> None:
    with app_client(tmp_path, tables_per_minute=100, open_tables_per_client=3) as client:
        codes = [
            client.post("/api/tables", json={"name": "Ann", "players": 2}).status_code
            for _ in range(4)
        ]
        answer = client.post("/api/tables", json={"name": "Ann", "players": 2}, headers={
            "Accept-Language": "cy"})  # fmt: skip
    assert codes == [201, 201, 201, 429]
    assert answer.status_code == 429 and answer.headers["retry-after"] == "60"
    assert answer.json()["message"] == (
        "mae gennych 3 bwrdd heb orffen eto: gorffennwch un cyn creu un arall"
    )


def test_a_table_playing_for_ever_is_refused(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        forever = {"name": "Ann", "players": 4, "takeover_after": 0.01,
                   "end": "rounds:1000000000"}  # fmt: skip
        quick = client.post("/api/tables", json=forever)
        assert quick.status_code == 422
        assert quick.json()["message"] == (
            "a bot may take an absent player's seat after 5 seconds at the soonest"
        )
        endless = client.post("/api/tables", json={**forever, "takeover_after": 60})
        assert endless.status_code == 422
        assert endless.json()["message"] == "a table plays at most 1000 rounds: choose fewer"
        as_option = client.post(
            "/api/tables",
            json={"name": "Ann", "options": {"end": "rounds:1001"}},
            headers={"Accept-Language": "fr"},
        )
        assert as_option.json()["message"] == (
            "une table joue au plus 1000 manches : choisissez-en moins"
        )
        assert client.get("/api/tables").json() == {"open": [], "mine": []}
        never = client.post(
            "/api/tables", json={**forever, "takeover_after": 0, "end": "rounds:1000"}
        )
        assert never.status_code == 201, never.text  # 0: a bot never takes over


# -- 6. cross-site requests, hosts, titles ----------------------------------------------------


def test_cross_site_and_non_json_posts_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        form = client.post(
            "/api/tables",
            content=b"name=Ann&players=2",
            headers={
                "Origin": "http://evil.example",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        assert form.status_code == 403
        assert form.json()["message"] == "this request did not come from a page of this server"
        fetched = client.post(
            "/api/tables", json={"name": "Ann"}, headers={"Sec-Fetch-Site": "cross-site"}
        )
        assert fetched.status_code == 403
        plain = json.dumps({"name": "Ann", "players": 2}).encode()
        text = client.post("/api/tables", content=plain, headers={"Content-Type": "text/plain"})
        assert text.status_code == 415
        assert text.json()["message"] == (
            "send the request as JSON (Content-Type: application/json)"
        )
        record = json.dumps(sweep_record()).encode()
        upload = client.post("/api/replay", content=record, headers={"Content-Type": "text/plain"})
        assert upload.status_code == 415
        assert client.get("/api/tables").json() == {"open": [], "mine": []}
        same = client.post(
            "/api/tables", json={"name": "Ann", "players": 2},
            headers={"Origin": "http://testserver"},
        )  # fmt: skip
        assert same.status_code == 201


def test_only_allowed_host_names_are_served(tmp_path: Path) -> None:
    hosts = (*default_hosts("127.0.0.1"), "cards.example.org")
    with TestClient(
        create_app(settings_for(tmp_path, allowed_hosts=hosts)), base_url="http://localhost"
    ) as client:
        assert client.get("/").status_code == 200
        assert client.get("/", headers={"Host": "cards.example.org"}).status_code == 200
        rebound = client.get("/api/tables", headers={"Host": "evil.example:8000"})
        assert rebound.status_code == 400 and rebound.json()["error"] == "bad-host"
        posted = client.post(
            "/api/tables", json={"name": "Ann"}, headers={"Host": "evil.example"}
        )
        assert posted.status_code == 400
        # a websocket gets the same answer over HTTP (403, words, the security headers)
        with (
            pytest.raises(WebSocketDenialResponse) as denied,
            client.websocket_connect("/ws/abc", headers={"Host": "evil.example"}),
        ):
            pass
        assert denied.value.status_code == 403 and denied.value.json()["error"] == "bad-host"
        assert denied.value.headers["x-frame-options"] == "DENY"
        assert client.get("/api/tables").json() == {"open": [], "mine": []}


def test_default_hosts() -> None:
    local = default_hosts("127.0.0.1")
    assert host_allowed("127.0.0.1:8000", local) and host_allowed("localhost", local)
    assert host_allowed("[::1]:8000", local)
    assert not host_allowed("192.168.1.5:8000", local)
    assert not host_allowed("evil.example", local) and not host_allowed(None, local)
    everyone = default_hosts("0.0.0.0")
    assert host_allowed("192.168.1.5:8000", everyone) and host_allowed("[fe80::1]", everyone)
    assert not host_allowed("evil.example:8000", everyone)
    assert host_allowed("a.example.org", ["*.example.org"])
    assert not host_allowed("evilexample.org", ["*.example.org"])


def test_secure_cookies_and_hsts(tmp_path: Path) -> None:
    with app_client(tmp_path, secure_cookies=True) as client:
        made = client.post("/api/tables", json={"name": "Ann", "players": 2})
    assert "secure" in made.headers["set-cookie"].lower()
    assert made.headers["strict-transport-security"] == "max-age=31536000"
    with app_client(tmp_path) as client:
        plain = client.post("/api/tables", json={"name": "Ann", "players": 2})
    assert "secure" not in plain.headers["set-cookie"].lower()
    assert "strict-transport-security" not in plain.headers


def test_titles_are_cleaned_of_invisible_and_reordering_characters(tmp_path: Path) -> None:
    title = "\u202eFriday\u200b\x00 night\u2066 \ufeffgame\u2069"
    with app_client(tmp_path) as client:
        made = client.post("/api/tables", json={"name": "Ann\u202e\x00", "title": title})
        assert made.status_code == 201
        (row,) = client.get("/api/tables").json()["open"]
    assert row["title"] == "Friday night game"


async def test_a_spit_action_at_a_nain_jaune_table_says_so(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        created = await service_of(app).create(
            TableConfig(
                rules=Rules(), seats=(SeatSpec("person", name="Ann"), SeatSpec("person")), seed=2
            )
        )
        ann = await Player(address, created.table_id, created.creator_token).connect()
        await ann.wait_for(lambda f: f["type"] == "state", timeout=10)
        await ann.send({"type": "act", "action": {"type": "call"}, "id": 3})
        error = await ann.wait_for(lambda f: f["type"] == "error", timeout=10)
        await ann.close()
    assert error["code"] == "bad-request" and error["ref"] == 3
    assert error["message"] == (
        "this table is played in turns: send an action as text with the seq you saw"
    )


# -- 6. the server's connections --------------------------------------------------------------


@pytest.mark.parametrize("http", ["httptools", "h11"])
async def test_a_half_sent_request_is_cut_off(tmp_path: Path, http: str) -> None:
    settings = settings_for(tmp_path, header_timeout=0.3, http_impl=http)
    async with serving(settings) as (_app, address):
        host, port = address.split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        await writer.drain()
        start = time.monotonic()
        assert await asyncio.wait_for(reader.read(), 5) == b""  # closed by the server
        assert time.monotonic() - start < 3
        writer.close()
        # a whole request is answered, and its connection kept alive for the next one
        reader, writer = await asyncio.open_connection(host, int(port))
        for _ in range(2):
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            assert head.startswith(b"HTTP/1.1 200")
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            await reader.readexactly(length)
            await asyncio.sleep(0.5)  # longer than the header timeout: idle is not half-sent
        writer.write(b"GET /healthz HTTP/1.1\r\n")  # a next request, begun and left
        assert await asyncio.wait_for(reader.read(), 5) == b""
        writer.close()


@pytest.mark.parametrize("http", ["httptools", "h11"])
async def test_a_websocket_outlives_the_header_deadline(tmp_path: Path, http: str) -> None:
    settings = settings_for(tmp_path, header_timeout=0.3, http_impl=http)
    async with serving(settings) as (app, address):
        created = await service_of(app).create(
            TableConfig(
                rules=Rules(), seats=(SeatSpec("person", name="Ann"), SeatSpec("person")), seed=2
            )
        )
        ann = await Player(address, created.table_id, created.creator_token).connect()
        await ann.wait_for(lambda f: f["type"] == "state", timeout=10)
        await asyncio.sleep(1.0)  # past the deadline: the upgraded connection is not cut off
        await ann.send({"type": "act", "action": {"type": "call"}, "id": 3})
        error = await ann.wait_for(lambda f: f["type"] == "error", timeout=10)
        await ann.close()
    assert error["code"] == "bad-request" and error["ref"] == 3


async def test_websockets_per_address_are_bounded(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path, sockets_per_address=3)) as (app, address):
        created = await service_of(app).create(
            TableConfig(
                rules=Rules(), seats=(SeatSpec("person", name="Ann"), SeatSpec("person")), seed=1
            )
        )
        table = created.table_id
        kept = [await Player(address, table, None).connect() for _ in range(3)]
        for p in kept:
            await p.wait_for(lambda f: f["type"] == "state")
        async with websockets.connect(f"ws://{address}/ws/{table}") as extra:
            frame = json.loads(await extra.recv())
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await extra.recv()
        assert frame["type"] == "error" and frame["code"] == "rate-limited"
        assert frame["message"] == (
            "too many connections from your address: close a few pages and reload"
        )
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        await kept[0].close()
        await asyncio.sleep(0.1)
        again = await Player(address, table, None).connect()
        assert (await again.wait_for(lambda f: True))["type"] == "state"
        for p in (*kept[1:], again):
            await p.close()


# -- 2. refused real-time actions --------------------------------------------------------------


async def test_refused_actions_from_ten_connections_on_one_seat(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, seat_rate_per_second=2.0, seat_rate_burst=30)
    async with serving(settings) as (app, address):
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            body = {"game": "speed", "name": "Ann", "players": 2,
                    "options": {"countdown": "0"},
                    "seats": [{"kind": "person"}, {"kind": "person"}]}  # fmt: skip
            made = (await http.post("/api/tables", json=body)).json()
        table = made["table"]
        bob_token = made["invites"][0]["url"].split(".", 1)[1]
        bob = await Player(address, table, bob_token).connect()
        await bob.send({"type": "join", "name": "Bob"})
        await bob.wait_for(lambda f: f["type"] == "state" and f["status"] == "playing")
        flood = [await Player(address, table, bob_token).connect() for _ in range(10)]
        for p in flood:
            await p.wait_for(lambda f: f["type"] == "state")
        before = len(await app.state.store.entries(table))
        # before the first flip only a call is legal: these plays are all refused
        play = {"type": "play", "card": "2C", "pile": 0, "seen": "3D"}
        await asyncio.gather(
            *(p.send({"type": "act", "action": play, "id": i}) for p in flood for i in range(10))
        )

        def errors() -> list[dict[str, Any]]:
            return [f for p in flood for f in p.frames if f["type"] == "error"]

        for _ in range(200):
            if len(errors()) >= 100:
                break
            await asyncio.sleep(0.05)
        entries = await app.state.store.entries(table)
        for p in (bob, *flood):
            await p.close()
    logged = [e for e in entries[before:] if e.kind == "action"]
    limited = [e for e in errors() if e["code"] == "rate-limited"]
    refused = [e for e in errors() if e["code"] != "rate-limited"]
    assert {e["code"] for e in refused} == {"illegal"}
    assert limited and all(e["message"] == (
        "this seat is sending messages too fast: wait a moment") for e in limited)  # fmt: skip
    assert len(refused) + len(limited) == 100  # every message got its answer
    assert len(refused) <= 32  # the seat's burst, and a little refill
    assert len(logged) <= 10  # refused actions stored one by one only up to a small number


async def test_the_chat_bucket_does_not_refill_on_reconnect(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        created = await service_of(app).create(
            TableConfig(
                rules=Rules(), seats=(SeatSpec("person", name="Ann"), SeatSpec("person")), seed=3
            )
        )
        table = created.table_id
        ann = await Player(address, table, created.creator_token).connect()
        await ann.wait_for(lambda f: f["type"] == "state", timeout=10)
        for i in range(5):  # the burst
            await ann.send({"type": "chat", "text": f"line {i}", "id": i})
        await ann.wait_for(lambda f: f["type"] == "chat" and f["text"] == "line 4", timeout=10)
        await ann.close()  # the table's last connection: its feeds end
        await asyncio.sleep(0.05)
        again = await Player(address, table, created.creator_token).connect()
        await again.wait_for(lambda f: f["type"] == "state", timeout=10)
        await again.send({"type": "chat", "text": "one more", "id": "x"})
        answer = await again.wait_for(
            lambda f: f["type"] == "error" or (f["type"] == "chat" and f["text"] == "one more"),
            timeout=10,
        )
        await again.close()
    assert answer["type"] == "error" and answer["code"] == "rate-limited"


async def test_a_hint_flood_is_bounded_per_seat_and_runs_in_its_own_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cardroom.games.nain_jaune.bots.hint as hint_module

    threads: list[str] = []

    def quick(view: Any, **_: Any) -> tuple[str, str]:
        threads.append(threading.current_thread().name)
        legal = view.legal_actions[0]
        return legal, "a reason"

    monkeypatch.setattr(hint_module, "suggest", quick)  # (the hints piece's thinking)
    async with serving(settings_for(tmp_path, hints_per_minute=4)) as (app, address):
        created = await service_of(app).create(two_people(True, 12))
        ann, bob, watcher = await start_two(address, created)
        state = ann.state
        assert state is not None
        mover = ann if state["round"]["to_act"] == 0 else bob
        # 30 connections of the 30 x 30, scaled down: 3 connections on one seat
        token = created.creator_token if mover is ann else created.invites[1]
        extra = [await Player(address, created.table_id, token).connect() for _ in range(2)]
        askers = [mover, *extra]
        for p in extra:
            await p.wait_for(lambda f: f["type"] == "state")
        await asyncio.gather(
            *(p.send({"type": "hint", "seq": state["seq"], "id": i}) for p in askers
              for i in range(10))
        )  # fmt: skip

        def answers() -> list[dict[str, Any]]:
            return [f for p in askers for f in p.frames if f["type"] in ("hint", "error")]

        for _ in range(200):
            if len(answers()) >= 30:
                break
            await asyncio.sleep(0.05)
        for p in (ann, bob, watcher, *extra):
            await p.close()
    hints = [f for f in answers() if f["type"] == "hint"]
    limited = [f for f in answers() if f["type"] == "error"]
    assert len(hints) == 4 and len(limited) == 26
    assert {f["message"] for f in limited} == {
        "you have asked for many hints lately: wait a minute"
    }
    assert {f["id"] for f in limited} == {"bounds.hints-per-minute"}
    assert len(threads) == 4 and all(name.startswith("cardroom-hint") for name in threads)


async def test_a_full_frame_carries_the_logs_tail_and_older_lines_come_on_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cardroom.tables.realtime_frames as realtime_frames

    monkeypatch.setattr(realtime_frames, "FULL_FRAME_LOG", 3)
    async with serving(settings_for(tmp_path)) as (_app, address):
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            body = {"game": "speed", "name": "Ann", "players": 2,
                    "seats": [{"kind": "person"}, {"kind": "person"}]}  # fmt: skip
            made = await http.post("/api/tables", json=body)
        table = made.json()["table"]
        bob_token = made.json()["invites"][0]["url"].split(".", 1)[1]
        bob = await Player(address, table, bob_token).connect()
        await bob.send({"type": "join", "name": "Bob"})
        await bob.wait_for(lambda f: f["type"] == "state" and f["status"] == "playing")
        play = {"type": "play", "card": "2C", "pile": 0, "seen": "3D"}
        for i in range(5):  # refused (before the first flip), each logged
            await bob.send({"type": "act", "action": play, "id": i})
            await bob.wait_for(lambda f, i=i: f["type"] == "error" and f["ref"] == i)
        seen = await Player(address, table, None).connect()
        first = await seen.wait_for(lambda f: f["type"] == "state")
        assert first["log_from"] == 2 and len(first["log"]) == 3
        await seen.send({"type": "log", "before": 2, "id": "older"})
        older = await seen.wait_for(lambda f: f["type"] == "log")
        await bob.send({"type": "log", "before": 5})
        mine = await bob.wait_for(lambda f: f["type"] == "log")
        for p in (bob, seen):
            await p.close()
    assert older["ref"] == "older" and older["log_from"] == 0 and len(older["log"]) == 2
    assert [line["seat"] for line in older["log"] + first["log"]] == [1] * 5
    assert all("refused" in line and "action" not in line for line in older["log"])
    assert mine["log_from"] == 2 and all(line["action"] == play for line in mine["log"])


def test_replay_uploads_are_bounded_per_address_and_in_flight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with app_client(tmp_path, replays_per_minute=2) as client:
        codes = [client.post("/api/replay", json=[sweep_record()]).status_code for _ in range(2)]
        late = client.post("/api/replay", json=[sweep_record()])
    assert codes == [200, 200] and late.status_code == 429
    assert 1 <= int(late.headers["retry-after"]) <= 60
    assert late.json()["message"] == (
        "you have replayed 2 records in the last minute: wait a moment"
    )
    monkeypatch.setattr(replay_route, "MAX_WAITING", 0)  # as if the pool were full
    with app_client(tmp_path) as client:
        busy = client.post("/api/replay", json=[sweep_record()], headers={"Accept-Language": "fr"})
    assert busy.status_code == 503 and busy.headers["retry-after"] == "2"
    assert busy.json()["message"] == (
        "beaucoup de parties à revoir sont en préparation : réessayez dans un instant"
    )


async def test_requests_and_websockets_of_one_address_are_bounded_in_the_app(
    tmp_path: Path,
) -> None:
    settings = settings_for(tmp_path, connections_per_address=3, sockets_per_address=100)
    async with serving(settings) as (app, address):
        created = await service_of(app).create(
            TableConfig(
                rules=Rules(), seats=(SeatSpec("person", name="Ann"), SeatSpec("person")), seed=1
            )
        )
        table = created.table_id
        kept = [await Player(address, table, None).connect() for _ in range(3)]
        for p in kept:
            await p.wait_for(lambda f: f["type"] == "state")
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            refused = await http.get("/api/tables", headers={"Accept-Language": "fr"})
            assert refused.status_code == 429 and refused.headers["retry-after"] == "5"
            assert refused.json() == {
                "error": "rate-limited",
                "message": "trop de connexions depuis votre adresse en même temps : fermez "
                "quelques pages et réessayez",
                "id": "bounds.connections",
            }
            async with websockets.connect(f"ws://{address}/ws/{table}?lang=cy") as extra:
                frame = json.loads(await extra.recv())
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await extra.recv()
            assert frame["type"] == "error" and frame["code"] == "rate-limited"
            assert frame["id"] == "bounds.connections"
            assert frame["message"] == (
                "gormod o gysylltiadau o’ch cyfeiriad chi ar yr un pryd: caewch ambell dudalen "
                "a rhowch gynnig arall arni"
            )
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            await kept[0].close()
            for _ in range(100):  # the closed websocket's place is given back
                answer = await http.get("/api/tables")
                if answer.status_code == 200:
                    break
                await asyncio.sleep(0.02)
            assert answer.status_code == 200
        for p in kept[1:]:
            await p.close()


@pytest.mark.parametrize("http", ["httptools", "h11"])
async def test_uvicorns_own_refusals_carry_the_security_headers(tmp_path: Path, http: str) -> None:
    """A malformed request's 400 and the 503 past the connection cap are made by uvicorn, not
    by the app: they carry the security headers too."""
    settings = settings_for(
        tmp_path, http_impl=http, max_connections=2, idle_connections_per_address=50
    )
    async with serving(settings) as (_app, address):
        host, port = address.split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"GARBAGE \x00\r\n\r\n")
        head = (await asyncio.wait_for(reader.read(), 5)).lower()
        writer.close()
        assert head.startswith(b"http/1.1 400")
        for header in (b"x-content-type-options: nosniff", b"x-frame-options: deny"):
            assert header in head
        assert b"content-security-policy: default-src 'self'" in head
        held = [await asyncio.open_connection(host, int(port)) for _ in range(2)]
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)).lower()
        writer.close()
        for _r, w in held:
            w.close()
        assert head.startswith(b"http/1.1 503")
        assert b"x-content-type-options: nosniff" in head
        assert b"x-frame-options: deny" in head
