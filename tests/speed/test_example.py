"""docs/games/speed-example.json is a real record: its actions replay through the engine."""

from __future__ import annotations

import json
from pathlib import Path

from cardroom.games.realtime_engine import RealtimeIllegal
from cardroom.games.speed import game_from_header, result_json

EXAMPLE = Path(__file__).parents[2] / "docs" / "games" / "speed-example.json"


def test_the_documented_example_replays() -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    game = game_from_header(data)
    times = [a["t"] for a in data["actions"]]
    assert times == sorted(times)
    kinds = {a["action"]["type"] for a in data["actions"]}
    assert kinds == {"play", "call", "timeout"}
    for number, entry in enumerate(data["actions"], start=1):
        if entry["action"] == {"type": "timeout"}:
            assert entry["seat"] is None and game.stalemate, number
            game.resolve_stalemate()
            continue
        action = game.action_from_json(entry["action"])
        try:
            game.apply(entry["seat"], action)
        except RealtimeIllegal as exc:
            assert not entry["accepted"], number
            assert exc.reason == entry["reason"], number
        else:
            assert entry["accepted"], number
    out = result_json(game)
    # Bob wins; Ann keeps 6 cards, 5 in hand and 1 in her draw pile: Bob scores 1.
    assert out["winner"] == 1 and out["cards_left"] == [6, 0] and out["points"] == 1
