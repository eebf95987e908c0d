"""The documented example record replays through the arbiter exactly as recorded."""

from __future__ import annotations

import json
from pathlib import Path

from cardroom.arbiter import replay
from cardroom.games.spit import SpitGame

EXAMPLE = Path(__file__).parents[2] / "docs" / "games" / "spit-example.json"


def test_the_documented_example_replays() -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    rep = replay(data)
    g = rep.engine
    assert isinstance(g, SpitGame)
    assert g.over and g.winner == 0 and g.redeals == 1
    assert [g.cards_left(0), g.cards_left(1)] == [0, 12]
    reasons = [a.get("reason", "") for a in data["actions"] if not a["accepted"]]
    assert reasons == [
        "stale: pile 2 now shows 7H, not 6H",
        "stale: the other player slapped first and the piles are shared",
    ]
