"""The web layer names no game: every game's own part of the pages comes from its web face
(``games/<game>/web``, the registry's ``web`` piece) and is served generically."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from cardroom.games.registry import GAMES
from cardroom.web import faces

WEB = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "web"


def test_no_file_of_the_web_layer_names_a_game() -> None:
    words = {w for g in GAMES.values() for w in (g.name, g.title)}
    spelled = re.compile(
        "|".join(re.escape(w).replace(r"\-", ".?").replace(r"\ ", ".?") for w in words), re.I
    )
    naming = sorted(
        str(path.relative_to(WEB))
        for path in WEB.rglob("*")
        if path.suffix in (".py", ".js", ".html", ".css")
        and spelled.search(path.read_text(encoding="utf-8"))
    )
    assert naming == []


def test_a_games_script_is_served_from_its_folder_and_nothing_else(client: TestClient) -> None:
    for entry in GAMES.values():
        answer = client.get(f"/games/{entry.name}/realtime.js")
        if entry.realtime:  # a real-time game's part of the table page
            assert answer.status_code == 200, entry.name
            assert answer.headers["content-type"].startswith("text/javascript")
            assert "export function myCards" in answer.text
        else:
            assert answer.status_code == 404
    for path in ("/games/chess/realtime.js", "/games/spit/__init__.py", "/games/spit/..%2Frules.py",
                 "/games/spit/keys.html", "/games/spit/Realtime.js"):  # fmt: skip
        assert client.get(path).status_code == 404, path


def test_the_options_model_is_the_games_own(client: TestClient) -> None:
    assert client.get("/api/options/nain-jaune").json()["presets"]  # the lobby's turn-based form
    for entry in GAMES.values():
        answer = client.get(f"/api/options/{entry.name}")
        has = faces.part(entry, "options_model") is not None
        assert answer.status_code == (200 if has else 404), entry.name
    assert client.get("/api/options/chess").status_code == 404


def test_each_game_puts_its_parts_in_the_pages(client: TestClient) -> None:
    lobby, play = client.get("/").text, client.get("/play").text
    assert "<!--#games" not in lobby + play
    for entry in GAMES.values():
        assert f'href="/rules/{entry.name}"' in lobby
        assert f'data-game="{entry.name}"' in play  # its Play now button
        if entry.realtime:  # its options in the lobby's real-time form
            assert f'class="row rt-opts" data-game="{entry.name}"' in lobby
