"""The analysis API: refused for an unfinished table, computed once in its own worker process
and stored, bounded by its queue."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.analysis.queue import AnalysisQueue
from cardroom.bots.base import make_bot
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import game_record
from cardroom.games.records import FORMER_PLAYER
from cardroom.store.analyses import AnalysisStore
from cardroom.web import Settings, create_app
from cardroom.web.routes.analysis import names_in_words
from tests.web.conftest import app_of, service_of
from tests.web.test_http import create


def finished_game() -> list[dict[str, object]]:
    rules = Rules.from_options("classic", {"end": "rounds:1"})
    bots = [make_bot(b) for b in ("heuristic", "random", "greedy")]
    return game_record(rules, ["Ann", "Bob", "Cat"], bots, 4)


def pretend_finished(client: TestClient, monkeypatch: pytest.MonkeyPatch, table: str) -> Any:
    """The service answers a finished Nain Jaune game's record for ``table``."""
    service = service_of(app_of(client))
    record = finished_game()

    async def game_of(table_id: str) -> str:
        return "nain-jaune"

    async def record_of(table_id: str) -> list[dict[str, object]]:
        assert table_id == table
        return record

    monkeypatch.setattr(service, "game_of", game_of)
    monkeypatch.setattr(service, "record", record_of)
    return record


def test_an_unfinished_table_is_refused_in_words(client: TestClient) -> None:
    table = create(client, players=2, seats=[{"kind": "person"}, {"kind": "person"}])["table"]
    response = client.post(f"/api/analysis/{table}")
    assert response.status_code == 409
    assert response.json()["message"].startswith("Only a finished game can be analysed")
    french = client.post(f"/api/analysis/{table}?lang=fr")
    assert french.json()["message"].startswith("Seule une partie terminée")
    assert client.get(f"/api/analysis/{table}").json()["state"] == "absent"
    assert client.post("/api/analysis/nosuch").status_code == 404
    assert client.get(f"/analysis/{table}").status_code == 200


def test_a_finished_game_is_analysed_once_and_stored(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    table = "t1"
    pretend_finished(client, monkeypatch, table)
    first = client.post(f"/api/analysis/{table}").json()
    assert first["state"] in ("queued", "running")
    deadline = time.monotonic() + 120
    answer = first
    while answer["state"] != "done":
        assert answer["state"] in ("queued", "running"), answer
        assert time.monotonic() < deadline
        time.sleep(0.2)
        answer = client.get(f"/api/analysis/{table}").json()
    analysis = answer["analysis"]
    assert analysis["game"] == "nain-jaune" and analysis["players"] == ["Ann", "Bob", "Cat"]
    assert analysis["hindsight"] and analysis["rounds"][0]["decisions"]
    # stored in the database: a new server on the same file reads it without analysing again
    # asked again: read from the store, the same figures, nothing queued
    again = client.post(f"/api/analysis/{table}").json()
    assert again["state"] == "done" and again["analysis"] == analysis
    with TestClient(create_app(settings)) as other:
        assert other.get(f"/api/analysis/{table}").json()["analysis"] == analysis


def test_a_full_queue_refuses_in_words(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    pretend_finished(client, monkeypatch, "t2")
    state = app_of(client).state
    state.analyses = AnalysisQueue(AnalysisStore(state.store), max_pending=0)
    response = client.post("/api/analysis/t2")
    assert response.status_code == 503
    assert response.json()["error"] == "busy" and "try again" in response.json()["message"]


def test_the_lobby_shows_each_bot_at_its_leaderboard_rating(client: TestClient) -> None:
    from cardroom.games.nain_jaune.bots.strength import LEVEL_STRENGTH

    levels = client.get("/api/levels").json()["levels"]
    assert list(levels) == ["easy", "medium", "hard", "expert"]
    # one rating per bot: the fixed one people are rated against, on the shown scale
    # 1500 + 48 (mu - 25) of BOT_RATINGS (hard: 1500 + 48 x -1.34 = 1435.68), the same number
    # the leaderboard gives
    assert levels["hard"]["rating"] == 1436
    assert levels["easy"]["rating"] == 1212  # 1500 + 48 x (19.01 - 25) = 1212.48
    board = client.get("/api/leaderboard/nain-jaune").json()["board"]
    bots = {row["bot"]: row["rating"] for row in board if row["bot"]}
    assert bots == {level: levels[level]["rating"] for level in levels}
    assert levels["hard"]["accuracy"] == LEVEL_STRENGTH["hard"].accuracy


def test_an_uploaded_record_is_analysed_once_and_bounded_per_address(tmp_path: Any) -> None:
    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'u.db'}",
        analyses_per_hour=1,
        max_analysis_rounds=2,
        max_replay_bytes=64 * 1024,
    )
    record = finished_game()
    with TestClient(create_app(settings)) as client:
        first = client.post("/api/analysis/upload", json=record).json()
        key = first["id"]
        assert key.startswith("u-") and len(key) == 42
        answer, deadline = first, time.monotonic() + 120
        while answer["state"] != "done":
            assert answer["state"] in ("queued", "running"), answer
            assert time.monotonic() < deadline
            time.sleep(0.2)
            answer = client.get(f"/api/analysis/{key}").json()
        assert answer["analysis"]["players"] == ["Ann", "Bob", "Cat"]
        assert answer["analysis"]["rounds"][0]["decisions"]
        # the same file again: the stored analysis, not counted against the bound
        again = client.post("/api/analysis/upload", json=record).json()
        assert again["state"] == "done" and again["id"] == key
        assert client.post(f"/api/analysis/{key}").json()["analysis"] == answer["analysis"]
        assert client.get(f"/analysis/{key}").status_code == 200
        # another record from the same address within the hour: told when, in words
        other = [{**record[0], "players": ["Ann", "Bob", "Dee"]}]
        refused = client.post("/api/analysis/upload?lang=cy", json=other)
        assert refused.status_code == 429
        assert 3000 < int(refused.headers["retry-after"]) <= 3600
        assert refused.json()["message"] == (
            "rydych chi wedi gofyn am 1 dadansoddiad yn ystod yr awr ddiwethaf: arhoswch ychydig"
        )
        # past the rounds and the size: refused before anything is queued or counted
        long = client.post("/api/analysis/upload?lang=fr", json=record * 3)
        assert long.status_code == 422
        assert long.json()["message"] == (
            "cet enregistrement a 3 manches : l’analyse prend des parties d’au plus 2 manches"
        )
        big = client.post(
            "/api/analysis/upload",
            content=b"[" + b" " * 70_000 + b"]",
            headers={"Content-Type": "application/json"},
        )
        assert big.status_code == 413
        assert big.json()["message"] == "a record file may be at most 64 KB: this one is larger"
        gone = client.get("/api/analysis/u-" + "0" * 40)
        assert gone.status_code == 404 and gone.json()["message"].startswith(
            "This record's analysis is not kept here"
        )


def test_the_names_cardroom_gives_are_in_the_readers_words() -> None:
    nain_jaune = {"game": "nain-jaune", "players": ["Ann", "Bot 2", "Seat 3", "Bot 1"]}
    # a bot's given name is its seat's (Bot 2 at the second seat); any other name is a person's
    assert names_in_words(nain_jaune, "fr")["players"] == ["Ann", "Robot 2", "Place 3", "Bot 1"]
    assert names_in_words(nain_jaune, "en") == nain_jaune
    rows: list[dict[str, Any]] = [{"name": "Expert bot", "plays": 3}, {"name": "Eve"}]
    speed = {"game": "speed", "players": rows}
    shown = names_in_words(speed, "fr")["players"]
    assert shown == [{"name": "Robot expert", "plays": 3}, {"name": "Eve"}]
    assert rows[0]["name"] == "Expert bot"  # the stored analysis is left as it is
    former = names_in_words({"game": "nain-jaune", "players": [FORMER_PLAYER, "Bob"]}, "fr")
    assert former["players"] == ["un ancien joueur", "Bob"]
