"""The toy game's face on the web (its registry entry's ``web`` piece): its record cut into
replay frames, one step per card played, both hands face up."""

from __future__ import annotations

from typing import Any

from tests.toygame import NAME
from tests.toygame.engine import ToyGame
from tests.toygame.record import replay
from tests.toygame.rules import ToyRules


def checked(data: Any, max_rounds: int | None = None) -> list[Any]:
    """The record checked by the engine once: its one game, as a file holds it or as a table
    gives it (a list of that one game); a ``RecordError`` says what is wrong."""
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    replay(data)
    return [data]


def page(
    records: list[Any], first: int, count: int, lang: str = "en", max_steps: int | None = None
) -> dict[str, Any]:
    """The frames of the game: the deal, then one step per card with the tricks so far."""
    rounds = []
    for number, data in enumerate(records[first : first + count], start=first + 1):
        game = ToyGame(ToyRules.from_options(data.get("rules") or {}), data["seed"])
        steps = [{"hands": [[str(c) for c in h] for h in game.hands], "tricks": [0, 0]}]
        for seat, card in replay(data).played:
            game.play(seat, card)
            hands = [[str(c) for c in h] for h in game.hands]
            step = {"seat": seat, "card": str(card), "hands": hands, "tricks": game.tricks[:]}
            steps.append(step)
        rounds.append({"number": number, "steps": steps})
    return {"game": NAME, "players": ["Seat 1", "Seat 2"], "rounds": rounds}
