"""The pages read the games and Nain Jaune's options from the server, which reads the registry
and the rules: the page's model is the rules' model, and no script keeps its own copy."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from cardroom.games import registry
from cardroom.i18n.options import lobby_model

JS = Path(__file__).resolve().parents[2] / "src/cardroom/web/static/js"


def test_the_options_model_is_the_rules_model(client: TestClient) -> None:
    answer = client.get("/api/options/nain-jaune")
    assert answer.status_code == 200
    model = answer.json()
    assert model == lobby_model()
    assert model["choices"]["when_blocked"]["values"][1][0] == "free-restart"
    assert model["presets"]["ace-high"]["end"] == "target:120"


def test_the_games_are_the_registrys(client: TestClient) -> None:
    answer = client.get("/api/games")
    assert answer.status_code == 200
    games = answer.json()["games"]
    assert [g["name"] for g in games] == list(registry.names())
    assert {g["name"]: g["title"] for g in games}["nain-jaune"] == "Nain Jaune"


def test_no_script_keeps_a_map_of_game_titles() -> None:
    for path in JS.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"const GAME_NAMES\s*=\s*\{", text), path.name
