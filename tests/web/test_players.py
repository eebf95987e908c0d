"""People: a player per browser, claimed seats, moving to another device, passwords, leaving."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardroom.store import PlayerError
from cardroom.store.players import FORMER_PLAYER, clean_display_name
from cardroom.tables.chat import TokenBucket
from cardroom.web import create_app, identity
from cardroom.web.settings import Settings
from tests.web.conftest import app_of, browser, settings_for

ORIGIN = {"origin": "http://testserver"}


def name(client: TestClient, who: str) -> dict[str, Any]:
    response = client.post("/api/me", json={"name": who}, headers=ORIGIN)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["player"]
    return data


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"name": "Ann", **body})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def two_people(client: TestClient) -> dict[str, Any]:
    return create(client, players=2, seats=[{"kind": "person"}, {"kind": "person"}])


def first_state(ws: Any) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] in ("state", "error"):
            return frame


def chat_lines(client: TestClient, query: str) -> int:
    import sqlite3

    path = app_of(client).state.store.url.split(":///", 1)[1]
    with sqlite3.connect(path) as conn:
        return int(conn.execute(query).fetchone()[0])


def test_names_are_cleaned_of_invisible_and_direction_characters() -> None:
    assert clean_display_name("  Ann\u202e\u200b  Lee\x00 ") == "Ann Lee"
    assert clean_display_name("Zoë\u2066") == "Zoë"
    with pytest.raises(PlayerError):
        clean_display_name("\u200b\u202e")
    with pytest.raises(PlayerError):
        clean_display_name("x" * 25)


def test_the_first_name_makes_a_player_with_a_safe_cookie_and_two_tabs_are_one(
    client: TestClient,
) -> None:
    assert client.get("/api/me").json()["player"] is None
    response = client.post("/api/me", json={"name": "Ann\u202e"}, headers=ORIGIN)
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("cr_player=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie
    key = cookie.split(";")[0].split("=", 1)[1]
    assert len(key) >= 40
    me = response.json()["player"]
    assert me["name"] == "Ann" and not me["protected"]
    # a second tab sends the same cookie: the same player; renaming keeps the player
    with browser(client, {"cr_player": key}) as tab:
        assert tab.get("/api/me").json()["player"]["id"] == me["id"]
        assert name(tab, "Annie")["id"] == me["id"]
    assert client.get("/api/me").json()["player"]["name"] == "Annie"
    refused = client.post("/api/me", json={"name": "\u200b"}, headers=ORIGIN)
    assert refused.status_code == 400 and "1 to 24" in refused.json()["message"]


def test_cookies_are_secure_behind_https_or_with_the_setting(settings: Settings) -> None:
    with TestClient(create_app(settings), base_url="https://testserver") as client:
        response = client.post(
            "/api/me", json={"name": "Ann"}, headers={"origin": "https://testserver"}
        )
        assert "Secure" in response.headers["set-cookie"]
    secure = Settings(db_url=settings.db_url, bot_delay=0.0, secure_cookies=True)
    with TestClient(create_app(secure)) as client:
        assert (
            "Secure"
            in client.post("/api/me", json={"name": "Ann"}, headers=ORIGIN).headers["set-cookie"]
        )


def test_cross_site_and_form_posts_change_nothing(client: TestClient) -> None:
    cross = client.post("/api/me", json={"name": "Eve"}, headers={"origin": "http://evil.example"})
    assert cross.status_code == 403
    form = client.post("/api/me", content="name=Eve", headers={"content-type": "text/plain"})
    assert form.status_code == 415
    assert client.get("/api/me").json()["player"] is None


def test_an_invitation_seats_the_first_browser_and_tells_the_next_the_seat_is_taken(
    client: TestClient,
) -> None:
    name(client, "Ann")
    made = two_people(client)
    table, link = made["table"], made["invites"][0]["url"]
    with browser(client) as bob, browser(client) as eve:
        name(bob, "Bob")
        assert bob.get(link, follow_redirects=False).status_code == 303
        # Bob's second tab (same cookies) and the same link again: still Bob's seat
        assert bob.get(link, follow_redirects=False).status_code == 303
        taken = eve.get(link, follow_redirects=False)
        assert taken.status_code == 409
        assert "This seat is taken" in taken.text and "new link" in taken.text
        assert f"cr_seat_{table}" not in taken.headers.get("set-cookie", "")
        # Eve copies Bob's seat token by hand: the socket refuses her, in words
        token = link.split(".", 1)[1]
        with eve.websocket_connect(f"/ws/{table}?token={token}") as ws:
            frame = first_state(ws)
            assert frame["type"] == "error" and "someone else already holds" in frame["message"]
        with bob.websocket_connect(f"/ws/{table}") as ws:
            frame = first_state(ws)
            assert frame["type"] == "state" and frame["you"] == 1
        fr = eve.get(link, headers={"accept-language": "fr"}, follow_redirects=False)
        assert "Cette place est prise" in fr.text


def test_the_creator_reissues_a_seat_and_the_old_link_stops_working(client: TestClient) -> None:
    name(client, "Ann")
    made = two_people(client)
    table, link = made["table"], made["invites"][0]["url"]
    with browser(client) as bob, browser(client) as cat:
        name(bob, "Bob")
        bob.get(link, follow_redirects=False)
        refused = bob.post(f"/api/tables/{table}/seats/1/link", headers=ORIGIN)
        assert refused.status_code == 403  # only the creator
        with bob.websocket_connect(f"/ws/{table}") as ws:  # Bob's open page is closed
            assert first_state(ws)["you"] == 1
            fresh = client.post(f"/api/tables/{table}/seats/1/link", headers=ORIGIN).json()["url"]
            with pytest.raises(WebSocketDisconnect):
                while True:
                    ws.receive_json()
        assert fresh.startswith(f"/j/{table}.1.")
        # Bob's link and seat are gone; Cat opens the new link and holds seat 1 without a token
        assert bob.get(link, follow_redirects=False).status_code == 409
        with pytest.raises(WebSocketDisconnect), bob.websocket_connect(f"/ws/{table}") as ws:
            assert first_state(ws)["type"] == "error"
            ws.receive_json()
        name(cat, "Cat")
        assert cat.get(fresh, follow_redirects=False).status_code == 303
        assert bob.get(fresh, follow_redirects=False).status_code == 409
        with cat.websocket_connect(f"/ws/{table}") as ws:
            assert first_state(ws)["you"] == 1
        # the creator leaves the seat to the bots: nobody's link opens it any more
        assert client.post(f"/api/tables/{table}/seats/1/bot", headers=ORIGIN).json()["url"] is None
        assert cat.get(fresh, follow_redirects=False).status_code == 403
        with cat.websocket_connect(f"/ws/{table}") as ws:
            assert first_state(ws)["you"] is None


def test_a_moved_device_is_the_same_player_and_the_link_works_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    me = name(client, "Ann")
    made = two_people(client)
    moved = client.post("/api/me/move", json={"confirm": True}, headers=ORIGIN).json()
    assert moved["expires_in"] == 600 and moved["qr"].startswith("data:image/svg+xml")
    path = moved["url"].split("testserver", 1)[1]
    with browser(client) as phone, browser(client) as thief:
        asked = phone.get(path, follow_redirects=False)
        assert asked.status_code == 200 and "set-cookie" not in asked.headers
        secret = path.rsplit("/", 1)[1]
        response = phone.post(f"/api/move/{secret}", json={"confirm": True}, headers=ORIGIN)
        assert response.status_code == 200 and "cr_player=" in response.headers["set-cookie"]
        assert phone.get("/api/me").json()["player"]["id"] == me["id"]
        with phone.websocket_connect(f"/ws/{made['table']}") as ws:
            assert first_state(ws)["you"] == 0  # the creator's seat followed the player
        again = thief.get(path, follow_redirects=False)
        assert again.status_code == 410 and "already used" in again.text
        assert thief.get("/api/me").json()["player"] is None
        # a link older than 10 minutes is refused (the clock moved on, not the test)
        late = client.post("/api/me/move", json={"confirm": True}, headers=ORIGIN).json()
        now = time.time()
        monkeypatch.setattr("cardroom.web.routes.players.time.time", lambda: now + 601)
        expired = thief.get(late["url"].split("testserver", 1)[1], follow_redirects=False)
        assert expired.status_code == 410 and "expired" in expired.text


def test_a_password_signs_a_player_in_again(client: TestClient) -> None:
    me = name(client, "Ann")
    short = client.post("/api/me/password", json={"password": "short"}, headers=ORIGIN)
    assert short.status_code == 400
    done = client.post("/api/me/password", json={"password": "correct horse"}, headers=ORIGIN)
    assert done.json()["player"]["protected"]
    with browser(client) as other:
        wrong = other.post(
            "/api/signin", json={"name": "ann", "password": "wrong horse"}, headers=ORIGIN
        )
        assert wrong.status_code == 401 and other.get("/api/me").json()["player"] is None
        right = other.post(
            "/api/signin", json={"name": "ann", "password": "correct horse"}, headers=ORIGIN
        )
        assert right.status_code == 200 and right.json()["player"]["id"] == me["id"]
        assert other.get("/api/me").json()["player"]["id"] == me["id"]


def test_identity_required_asks_for_a_name_first(settings: Settings) -> None:
    strict = Settings(db_url=settings.db_url, bot_delay=0.0, identity="required")
    with TestClient(create_app(strict)) as client:
        refused = client.post("/api/tables", json={"name": "Ann"})
        assert refused.status_code == 401 and "choose a name" in refused.json()["message"]
        name(client, "Ann")
        made = two_people(client)
        with browser(client) as bob:
            go = bob.get(made["invites"][0]["url"], follow_redirects=False)
            assert go.status_code == 303 and go.headers["location"].startswith("/me?next=/j/")


def test_my_games_and_the_export_and_leaving_names_nobody(tmp_path: Path) -> None:
    # a bot takes Zelda's seat at once (the server's shortest takeover lifted for the test)
    with TestClient(create_app(settings_for(tmp_path, min_takeover_after=0.0))) as client:
        my_games_export_and_leaving(client)


def my_games_export_and_leaving(client: TestClient) -> None:
    import io
    import zipfile

    from cardroom.games.nain_jaune.record import parse_game, replay_game

    name(client, "Zelda")
    made = create(
        client,
        players=2,
        seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}],
        end="rounds:1",
        takeover_after=0.01,
    )
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        first_state(ws)
        ws.send_json({"type": "chat", "text": "hello from Zelda"})
        said = "SELECT count(*) FROM chat WHERE text = 'hello from Zelda'"
        deadline = time.time() + 10  # (the line may come back in the history or as a line)
        while chat_lines(client, said) == 0 and time.time() < deadline:
            time.sleep(0.05)
    deadline = time.time() + 30
    while time.time() < deadline:
        listed = client.get("/api/me/games").json()["games"]
        if listed and listed[0]["status"] == "over":
            break
        time.sleep(0.1)
    [game] = listed
    assert game["table"] == table and game["game"] == "nain-jaune" and game["seat"] == 0
    assert game["people"][0] == "Zelda" and game["replay"] == f"/replay/{table}"
    assert "chips" in game["result"]
    archive = zipfile.ZipFile(io.BytesIO(client.get("/api/me/export").content))
    [member] = archive.namelist()
    record = json.loads(archive.read(member))
    replay_game(parse_game(record))  # `cardroom replay` reads it
    assert chat_lines(client, said) == 1
    gone = client.post("/api/me/delete", json={"confirm": True}, headers=ORIGIN)
    assert gone.status_code == 200
    assert client.get("/api/me").json()["player"] is None
    after = client.get(f"/t/{table}/record").json()
    assert "Zelda" not in json.dumps(after) and FORMER_PLAYER in json.dumps(after)
    replay_game(parse_game(after))
    welsh = client.get(f"/api/replay/{table}", headers={"Accept-Language": "cy"}).json()
    assert welsh["players"][0] == "cyn-chwaraewr" and FORMER_PLAYER not in json.dumps(welsh)
    assert chat_lines(client, said) == 0
    with client.websocket_connect(f"/ws/{table}?watch=1") as ws:
        assert "Zelda" not in json.dumps(first_state(ws))


def test_the_name_given_at_the_table_becomes_the_players_and_a_named_player_keeps_theirs(
    client: TestClient,
) -> None:
    name(client, "Ann")
    made = two_people(client)
    table, link = made["table"], made["invites"][0]["url"]
    with browser(client) as bob:
        bob.get(link, follow_redirects=False)  # a newcomer: a player without a name yet
        assert bob.get("/api/me").json()["player"]["name"] == ""
        with bob.websocket_connect(f"/ws/{table}") as ws:
            first_state(ws)
            ws.send_json({"type": "join", "name": "Bobby"})
            while "Bobby" not in json.dumps(ws.receive_json()):
                pass
        assert bob.get("/api/me").json()["player"]["name"] == "Bobby"
    made = two_people(client)
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        assert "Ann" in json.dumps(first_state(ws))


class _StillBucket(TokenBucket):
    """A token bucket whose clock stands still: none comes back while a busy machine answers."""

    def __init__(self, rate: float, burst: int, now: float | None = None) -> None:
        super().__init__(rate, burst, 0.0)

    def take(self, now: float | None = None) -> bool:
        return super().take(0.0)


def test_one_address_makes_at_most_twenty_players_a_minute(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(identity, "TokenBucket", _StillBucket)
    for _ in range(20):
        client.cookies.clear()
        assert client.post("/api/me", json={"name": "Bot"}, headers=ORIGIN).status_code == 200
    client.cookies.clear()
    refused = client.post(
        "/api/me", json={"name": "Bot"}, headers={**ORIGIN, "accept-language": "fr"}
    )
    assert refused.status_code == 429 and refused.headers["retry-after"] == "3"
    assert "trop de nouveaux joueurs" in refused.json()["message"]
    assert client.get("/api/me").json()["player"] is None


def test_leaving_renames_a_speed_seat_in_the_log(client: TestClient) -> None:
    name(client, "Zed")
    seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
    made = client.post("/api/tables", json={"name": "Zed", "game": "speed", "seats": seats})
    table = made.json()["table"]
    store = app_of(client).state.store
    portal = client.portal
    assert portal is not None

    def logged() -> str:
        return json.dumps([e.data for e in portal.call(store.entries, table)])

    assert "Zed" in logged()
    client.post("/api/me/delete", json={"confirm": True}, headers=ORIGIN)
    assert "Zed" not in logged() and FORMER_PLAYER in logged()
    assert "Zed" not in json.dumps(client.get("/api/tables").json())


def test_sign_ins_passkeys_and_play_now_are_bounded_per_address_and_name(tmp_path: Path) -> None:
    settings = settings_for(
        tmp_path,
        sign_ins_per_minute=3,
        wrong_passwords_per_name=2,
        passkey_tries_per_minute=2,
        plays_per_minute=2,
    )
    wrong = {"name": "Ann", "password": "wrong horse"}
    with TestClient(create_app(settings)) as client:
        name(client, "Ann")
        client.post("/api/me/password", json={"password": "correct horse"}, headers=ORIGIN)
        with browser(client) as stranger:  # (Ann's own browser is never bound by her name)
            tries = [stranger.post("/api/signin", json=wrong, headers=ORIGIN) for _ in range(2)]
            assert [r.status_code for r in tries] == [401, 401]
            # the third is within the address's bound but past its two wrong passwords
            right = {"name": "ann", "password": "correct horse"}
            named = stranger.post(
                "/api/signin", json=right, headers={**ORIGIN, "Accept-Language": "fr"}
            )
        assert named.status_code == 429 and 3000 <= int(named.headers["retry-after"]) <= 3600
        assert named.json()["message"] == (
            "trop de mauvais mots de passe pour ce nom ces derniers temps : "
            "attendez un moment et réessayez"
        )
        other = {"name": "Bob", "password": "any horse"}
        late = client.post("/api/signin", json=other, headers={**ORIGIN, "Accept-Language": "cy"})
        assert late.status_code == 429 and 1 <= int(late.headers["retry-after"]) <= 60
        assert late.json()["message"] == (
            "gormod o ymdrechion i fewngofnodi o'r fan hon: "
            "arhoswch funud a rhowch gynnig arall arni"
        )
        options = [
            client.post("/api/passkey/signin-options", json={"confirm": True}, headers=ORIGIN)
            for _ in range(2)
        ]
        assert [r.status_code for r in options] == [200, 200]
        past = client.post("/api/passkey/signin", json={"credential": {}}, headers=ORIGIN)
        assert past.status_code == 429 and "retry-after" in past.headers
        assert past.json()["message"] == (
            "too many passkey attempts from here: wait a minute and try again"
        )
        plays = [
            client.post(
                "/api/play", json={"game": "nain-jaune", "size": 3, "wait": 300}, headers=ORIGIN
            )
            for _ in range(3)
        ]
        assert [r.status_code for r in plays] == [200, 200, 429]
        assert plays[2].json()["message"] == (
            "Play now was pressed too often in the last minute: wait a moment"
        )
        assert 1 <= int(plays[2].headers["retry-after"]) <= 60
