"""A move link (``/m/<secret>``) never replaces a browser's player silently: its page says who
the browser would become and who it is now, and only a same-origin confirmation spends it."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import browser
from tests.web.test_players import ORIGIN, name


def _mallorys_link(mallory: TestClient) -> str:
    name(mallory, "Mallory")
    made = mallory.post("/api/me/move", json={"confirm": True}, headers=ORIGIN).json()
    url: str = made["url"]
    return url.split("testserver", 1)[1]


def test_a_move_link_opened_from_another_site_does_not_replace_the_player(
    client: TestClient,
) -> None:
    victim = name(client, "Victoria")
    with browser(client) as mallory:
        path = _mallorys_link(mallory)
        secret = path.rsplit("/", 1)[1]
        # a top-level link from another site: the page asks, the cookie stays the victim's
        opened = client.get(path, headers={"sec-fetch-site": "cross-site"}, follow_redirects=False)
        assert opened.status_code == 200, opened.text
        assert "set-cookie" not in opened.headers
        assert "Mallory" in opened.text and "Victoria" in opened.text
        assert client.get("/api/me").json()["player"]["id"] == victim["id"]
        # a cross-site POST (a form or a script of another site) cannot complete it
        for headers in (
            {"origin": "http://evil.example"},
            {"sec-fetch-site": "cross-site"},
        ):
            forged = client.post(f"/api/move/{secret}", json={"confirm": True}, headers=headers)
            assert forged.status_code == 403
        form = client.post(
            f"/api/move/{secret}",
            content="confirm=true",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert form.status_code in (403, 415)
        unconfirmed = client.post(f"/api/move/{secret}", json={"confirm": False}, headers=ORIGIN)
        assert unconfirmed.status_code == 404
        assert client.get("/api/me").json()["player"]["id"] == victim["id"]
        # the person who confirms on the page (same origin) becomes Mallory's player
        done = client.post(f"/api/move/{secret}", json={"confirm": True}, headers=ORIGIN)
        assert done.status_code == 200 and done.json()["player"]["name"] == "Mallory"
        assert "cr_player=" in done.headers["set-cookie"]
        assert client.get("/api/me").json()["player"]["name"] == "Mallory"
        again = client.post(f"/api/move/{secret}", json={"confirm": True}, headers=ORIGIN)
        assert again.status_code == 410 and "already used" in again.json()["message"]
        used = client.get(path, headers={"accept-language": "fr"})
        assert used.status_code == 410 and "a déjà servi" in used.text, used.text


def test_a_browser_without_a_player_is_asked_too(client: TestClient) -> None:
    with browser(client) as mallory:
        path = _mallorys_link(mallory)
        opened = client.get(path, follow_redirects=False)
        assert opened.status_code == 200 and "set-cookie" not in opened.headers
        assert "Mallory" in opened.text and "move-confirm" in opened.text
        assert client.get("/api/me").json()["player"] is None
        fr = client.get(path, headers={"accept-language": "fr"})
        assert fr.status_code == 200


def test_a_name_on_the_page_is_text_not_markup(client: TestClient) -> None:
    with browser(client) as mallory:
        name(mallory, "<b>M</b>")
        made = mallory.post("/api/me/move", json={"confirm": True}, headers=ORIGIN).json()
        page = client.get(made["url"].split("testserver", 1)[1])
        assert "&lt;b&gt;M&lt;/b&gt;" in page.text and "<b>M</b>" not in page.text
