"""The replay viewer's steps for Spit and Speed records (terminal and web alike)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.arbiter import replay
from cardroom.games.speed import SpeedGame, SpeedRules
from cardroom.games.spit import SpitGame, SpitRules
from cardroom.sim.realtime import new_table, run_table
from cardroom.web.replay_realtime import RecordError, realtime_frames


def record(game: str, seed: int = 7, start: float = 0.0) -> dict[str, Any]:
    engine: Any = (
        SpitGame.new(SpitRules(), seed) if game == "spit" else SpeedGame.new(SpeedRules(), seed)
    )
    table = new_table(engine, ["hard", "medium"], [random.Random(1), random.Random(2)],
                      ["Ann", "Bob"])  # fmt: skip
    assert run_table(table)
    data: dict[str, Any] = json.loads(json.dumps(table.arbiter.record()))
    if start:  # a web record: the server's clock
        data["start"] += start
        for action in data["actions"]:
            action["t"] += start
    return data


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_every_entry_is_a_step_with_every_card_face_up(game: str) -> None:
    data = record(game)
    frames = realtime_frames(data, "en")
    assert frames["game"] == game and frames["players"] == ["Ann", "Bob"]
    (only,) = frames["rounds"]
    steps = only["steps"]
    assert len(steps) == len(data["actions"]) + 1  # the deal, then one per entry
    times = [round(a["t"] - data["start"], 3) for a in data["actions"]]
    assert [s["t"] for s in steps[1:]] == times
    assert only["duration"] == steps[-1]["t"]
    assert [s["accepted"] for s in steps[1:]] == [a["accepted"] for a in data["actions"]]
    final = replay(data).engine
    assert only["result"]["winner"] == final.winner
    assert steps[-1]["centre"] == [c.code if c else None for c in final.view(0).centre]
    first = steps[0]
    if game == "spit":  # all 52 cards: stock piles (hidden ones too), spit piles, middle
        held = sum(len(p["cards"]) for seat in first["stocks"] for p in seat)
        assert held + sum(first["spit_left"]) + sum(first["centre_sizes"]) == 52
    else:
        assert [len(h) for h in first["hands"]] == [5, 5]  # both hands, face up
    refused = [s for s in steps if not s["accepted"]]
    for s in refused:  # a refusal says what and why, in words, without card codes
        assert s["refused"]["reason"] and s["refused"]["action"]
        assert not any(code in s["refused"]["reason"] for code in ("H ", "D ", "C ", "S "))


def test_a_web_record_steps_from_zero_like_a_terminal_one() -> None:
    terminal = realtime_frames(record("speed", 3), "en")
    web = realtime_frames(record("speed", 3, start=1795504055.25), "en")
    assert [s["t"] for s in web["rounds"][0]["steps"]] == pytest.approx(
        [s["t"] for s in terminal["rounds"][0]["steps"]], abs=1e-3
    )


def test_a_tampered_record_is_refused_naming_the_entry() -> None:
    data = record("spit")
    number = next(i for i, a in enumerate(data["actions"], 1) if a["seat"] is not None)
    data["actions"][number - 1]["accepted"] = not data["actions"][number - 1]["accepted"]
    with pytest.raises(RecordError, match=f"action {number}"):
        realtime_frames(data)


def test_the_upload_answers_steps_in_the_pages_language(client: TestClient) -> None:
    data = record("speed", 5)
    json_type = {"Content-Type": "application/json"}
    answer = client.post("/api/replay?lang=fr", content=json.dumps(data), headers=json_type)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["game"] == "speed" and len(body["rounds"][0]["steps"]) == len(data["actions"]) + 1
    data["actions"][0]["t"] = -5
    bad = client.post("/api/replay", content=json.dumps(data), headers=json_type)
    assert bad.status_code == 400 and bad.json()["error"] == "bad-record"


@pytest.mark.parametrize(
    ("game", "options", "unit", "target"),
    [("speed", {"target": "20"}, "points", 20), ("spit", {"games": "3"}, "games", 3)],
)
def test_the_lobby_creates_a_match(
    client: TestClient, game: str, options: dict[str, str], unit: str, target: int
) -> None:
    body = {"game": game, "name": "Ann", "players": 2, "options": options, "takeover_after": 30,
            "seats": [{"kind": "person"}, {"kind": "person"}]}  # fmt: skip
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    with client.websocket_connect(f"/ws/{made.json()['table']}") as ws:
        frame = ws.receive_json()
    assert frame["away_limit"] == 30 and frame["away_then"] == "forfeit"
    assert frame["status"] == "waiting"  # Bob has not come: the match starts with him
    assert frame["match"] == {"unit": unit, "target": target, "game": 1, "scores": [0, 0],
                              "between": False, "next_at": None, "winner": None}  # fmt: skip
    bad = client.post("/api/tables", json={**body, "options": {"games": "12"}})
    assert bad.status_code == 400


def test_a_record_past_the_bounds_is_refused_before_it_is_replayed() -> None:
    from cardroom.web.replay_frames import ReplayTooLarge

    data = record("spit")
    with pytest.raises(ReplayTooLarge, match="at most 10 steps"):
        realtime_frames(data, "en", max_steps=10)
    with pytest.raises(ReplayTooLarge, match="at most 1 rounds"):
        realtime_frames([data, data], "en", max_games=1)
    assert realtime_frames(data, "en", max_steps=len(data["actions"]) + 1)["rounds"]


def speed_match_record(target: int = 15, seed: int = 3) -> list[dict[str, Any]]:
    """A Speed match to ``target`` played by two bots, as the web writes it: a list of games."""
    from cardroom.games.speed import SpeedMatch
    from cardroom.games.speed.record import record_header

    match = SpeedMatch(SpeedRules(target=target), seed)
    out: list[dict[str, Any]] = []
    while True:
        table = new_table(match.game, ["hard", "medium"], [random.Random(len(out)),
                          random.Random(9)], ["Ann", "Bob"])  # fmt: skip
        assert run_table(table)
        out.append(
            json.loads(
                json.dumps(table.arbiter.record(record_header(match.game, ["Ann", "Bob"], match)))
            )
        )
        if match.over:
            return out
        match.next_game()


def test_a_speed_match_gives_the_scores_after_each_game_and_its_winner() -> None:
    data = speed_match_record()
    assert len(data) >= 2
    games = realtime_frames(data, "en")["rounds"]
    scores = [0, 0]
    for number, game in enumerate(games, start=1):
        res = game["result"]
        scores[res["winner"]] += res["points"]  # worked out here from each game's points
        assert res["match"]["after"] == scores
        assert res["match"]["winner"] == (None if number < len(games) else res["winner"])
    assert max(scores) >= 15 > min(scores)


def test_a_spit_match_counts_games_won() -> None:
    data = [record("spit", seed) for seed in (1, 2, 3)]
    winners = [replay(g).winner for g in data]
    games = realtime_frames(data, "en")["rounds"]
    after = [[winners[:n].count(0), winners[:n].count(1)] for n in (1, 2, 3)]
    assert [g["result"]["match"]["after"] for g in games] == after
    assert [g["result"]["match"]["winner"] for g in games] == [None, None, winners[2]]
