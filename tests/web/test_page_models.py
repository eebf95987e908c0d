"""The pages read the games and Nain Jaune's options from the server, which reads the registry
and the rules: the page's model is the rules' model, and no script keeps its own copy."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from cardroom.games import registry
from cardroom.games.nain_jaune.rules import EndCondition
from cardroom.games.nain_jaune.words import lobby_model
from cardroom.web.protocol import LEVEL_NAMES

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


def test_the_games_say_their_kind_and_players_and_the_levels_their_words(
    client: TestClient,
) -> None:
    model = client.get("/api/games").json()
    games = {g["name"]: g for g in model["games"]}
    assert games["nain-jaune"]["kind"] == "turn-based"
    assert games["nain-jaune"]["players"] == [2, 8]
    assert games["spit"]["kind"] == games["speed"]["kind"] == "realtime"
    assert games["speed"]["players"] == [2, 2]
    assert model["levels"] == [
        {"name": "easy", "words": "easy", "bot": "the easy bot"},
        {"name": "medium", "words": "medium", "bot": "the medium bot"},
        {"name": "hard", "words": "hard", "bot": "the hard bot"},
        {"name": "expert", "words": "expert", "bot": "the expert bot"},
    ]
    # the levels a create request accepts are the ones offered
    assert [lv["name"] for lv in model["levels"]] == list(LEVEL_NAMES)


def test_the_ways_a_game_ends_come_from_the_server(client: TestClient) -> None:
    kinds = client.get("/api/options/nain-jaune").json()["end_kinds"]
    assert [k for k, _words in kinds] == ["broke", "rounds", "target", "last-standing"]
    assert dict(kinds)["rounds"] == "A number of rounds"
    # each is a way Nain Jaune's rules read (the page sends "<kind>" or "<kind>:<n>")
    for kind, _words in kinds:
        option = kind if kind in ("broke", "last-standing") else f"{kind}:5"
        assert EndCondition.parse(option).kind == kind


def test_no_script_keeps_a_map_of_levels_or_end_kinds() -> None:
    for path in JS.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\beasy:\s*N?_\(", text), path.name
        assert not re.search(r"END_KINDS\s*=\s*\[", text), path.name
        assert "levels.js" not in text, path.name
