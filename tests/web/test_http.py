"""The HTTP routes through the ASGI test client: pages, creating tables, invitations, replays."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import browser
from tests.web.test_replay_frames import sweep_record

JSON_TYPE = {"Content-Type": "application/json"}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"name": "Ann", **body})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def test_pages_and_health(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
    csp = lobby.headers["content-security-policy"]
    assert "script-src 'self';" in csp
    assert "connect-src 'self' ws://testserver wss://testserver;" in csp
    assert lobby.headers["x-content-type-options"] == "nosniff"
    assert client.get("/healthz").json() == {"ok": True, "open_tables": 0}
    assert client.get("/replay").status_code == 200


def test_creating_a_table_gives_the_creator_a_seat_cookie_and_links(client: TestClient) -> None:
    response = client.post(
        "/api/tables",
        json={
            "name": "Ann",
            "players": 3,
            "seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
            "title": "Friday",
        },
    )
    assert response.status_code == 201, response.text
    data = response.json()
    table = data["table"]
    assert data["url"] == f"/t/{table}" and data["watch"] == f"/t/{table}/watch"
    assert [i["seat"] for i in data["invites"]] == [1]
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"cr_seat_{table}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed["open"]] == [table]
    assert [(t["id"], t["you"]) for t in listed["mine"]] == [(table, 0)]
    assert listed["open"][0]["title"] == "Friday"
    assert "token_hash" not in str(listed)
    assert client.get(f"/t/{table}").status_code == 200
    assert client.get(f"/t/{table}/watch").status_code == 200


def test_an_invitation_sets_the_seat_cookie_and_goes_to_the_table(client: TestClient) -> None:
    data = create(client, players=2, seats=[{"kind": "person"}, {"kind": "person"}])
    table = data["table"]
    with browser(client) as friend:
        response = friend.get(data["invites"][0]["url"], follow_redirects=False)
        assert response.status_code == 303
        assert response.headers["location"] == f"/t/{table}"
        assert f"cr_seat_{table}=" in response.headers["set-cookie"]
        listed = friend.get("/api/tables").json()
        assert [(t["id"], t["you"]) for t in listed["mine"]] == [(table, 1)]
    bad = client.get(f"/j/{table}.not-the-token", follow_redirects=False)
    assert bad.status_code == 403 and "invitation link does not work" in bad.text
    assert client.get("/j/garbage", follow_redirects=False).status_code == 403
    assert client.get("/j/nosuchtable.abc", follow_redirects=False).status_code == 404


def test_unknown_tables_are_not_found(client: TestClient) -> None:
    assert client.get("/t/nosuch").status_code == 404
    assert client.get("/t/nosuch/watch").status_code == 404
    assert client.get("/t/bad..id").status_code == 404
    assert client.get("/t/nosuch/record").status_code == 404


def test_the_record_is_refused_until_the_game_is_over(client: TestClient) -> None:
    table = create(client, players=2, seats=[{"kind": "person"}, {"kind": "person"}])["table"]
    response = client.get(f"/t/{table}/record")
    assert response.status_code == 403
    assert "when the game is over" in response.json()["message"]
    assert client.get(f"/api/replay/{table}").status_code == 403


def test_bad_create_requests_say_what_is_wrong_and_create_nothing(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"options": {"payment": "gold"}}, "payment='gold' is not valid"),
        ({"options": {"colour": "red"}}, "unknown option 'colour'"),
        ({"preset": "modern"}, "unknown preset 'modern'"),
        ({"end": "forever"}, "end='forever' is not valid"),
        ({"starting_chips": 3}, "at least 15 chips"),
        ({"players": 9}, "Nain Jaune is played by 2 to 8 players, not 9"),
        ({"players": 3, "seats": [{"kind": "person"}]}, "seats lists 1 seats for 3 players"),
        ({"players": 2, "seats": [{"kind": "bot"}, {"kind": "person"}]}, "the first seat is yours"),
        ({"name": "   "}, "a name has 1 to 24 characters"),
        ({"surprise": 1}, "unknown field `surprise`"),
    ]
    for change, words in cases:
        response = client.post("/api/tables", json={"name": "Ann", **change})
        assert response.status_code == 400, change
        assert words in response.json()["message"], (change, response.json())
        assert "set-cookie" not in response.headers
    assert client.post("/api/tables", content=b"{not json", headers=JSON_TYPE).status_code == 400
    huge = client.post(
        "/api/tables", content=b'{"name": "' + b"x" * 20000 + b'"}', headers=JSON_TYPE
    )
    assert huge.status_code == 413 and "at most 16 KB" in huge.json()["message"]
    assert client.get("/api/tables").json() == {"open": [], "mine": []}


def test_replay_upload_returns_the_engines_frames(client: TestClient) -> None:
    response = client.post("/api/replay", json=[sweep_record()])
    assert response.status_code == 200
    frames = response.json()
    assert frames["players"] == ["Ann", "Bob"]
    assert frames["rounds"][0]["settlement"]["chips"] == [35, 365]
    bad = client.post("/api/replay", json={**sweep_record(), "moves": ["AC", "3C"]})
    assert bad.status_code == 400
    assert "move 2 (3C) by seat 1 is illegal" in bad.json()["message"]
    assert client.post("/api/replay", content=b"\xff\xfe", headers=JSON_TYPE).status_code == 400
    huge = b"[" + b"1," * (1024 * 1024) + b"1]"
    too_large = client.post("/api/replay", content=huge, headers=JSON_TYPE)
    assert too_large.status_code == 413 and "at most 2 MB" in too_large.json()["message"]


def test_a_bad_option_is_refused_in_french_with_its_id(client: TestClient) -> None:
    fr = {"Accept-Language": "fr-FR,fr;q=0.9"}
    cases: list[tuple[dict[str, Any], str, str]] = [
        (
            {"options": {"payment": "gold"}},
            "rules.not-valid",
            "Ce que les autres paient au gagnant d’une manche : la valeur 'gold' ne convient pas : "
            "choisissez parmi «\u00a0la valeur de leurs cartes",
        ),
        (
            {"options": {"colour": "red"}},
            "rules.unknown-option",
            "option inconnue 'colour' : les options sont «\u00a0Prendre une case\u00a0»",
        ),
        (
            {"preset": "modern"},
            "rules.unknown-preset",
            "préréglage inconnu 'modern' : choisissez parmi «\u00a0Classique français\u00a0», "
            "«\u00a0Un jeton par carte\u00a0», «\u00a0As fort, jusqu’à 120\u00a0»",
        ),
        (
            {"starting_chips": 3},
            "rules.starting-chips",
            "Jetons de départ : 3 ne convient pas : chaque joueur a besoin d’au moins 15 jetons",
        ),
    ]
    for change, id, french in cases:
        response = client.post("/api/tables", json={"name": "Ann", **change}, headers=fr)
        assert response.status_code == 400, change
        answer = response.json()
        assert answer["id"] == id and answer["message"].startswith(french), answer
    assert client.get("/api/tables").json() == {"open": [], "mine": []}


@pytest.mark.parametrize(
    ("path", "query", "headers", "lang"),
    [
        ("/", "", {"Accept-Language": "cy-GB,cy;q=0.9,en;q=0.5"}, "cy"),
        ("/play", "?lang=fr", {"Accept-Language": "cy"}, "fr"),
        ("/me", "", {"Accept-Language": "de-DE"}, "en"),
        ("/replay", "", {"Cookie": "cr_lang=fr"}, "fr"),
    ],
)
def test_a_page_says_its_language_before_any_script_runs(
    client: TestClient, path: str, query: str, headers: dict[str, str], lang: str
) -> None:
    """A Welsh reader's page is `<html lang="cy">` as it arrives (a screen reader starts reading
    at once), chosen as the page's script chooses: ?lang=, the switch's cookie, the browser's."""
    response = client.get(path + query, headers=headers)
    assert response.status_code == 200
    assert response.text.count("<html lang=") == 1
    assert f'<html lang="{lang}">' in response.text
