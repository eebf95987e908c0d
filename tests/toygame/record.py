"""The toy game's record: ``{"game", "rules", "seed", "plays": [[seat, "7D"], …]}``."""

from __future__ import annotations

from typing import Any

from cardroom.cards import CardError, parse_card
from cardroom.games.errors import RecordError, RulesError
from cardroom.games.messages import Message
from tests.toygame import NAME
from tests.toygame.engine import ToyGame
from tests.toygame.rules import ToyRules


def to_record(game: ToyGame) -> dict[str, Any]:
    """The record of ``game`` so far."""
    return {
        "game": NAME,
        "rules": game.rules.to_json(),
        "seed": game.seed,
        "plays": [[seat, str(card)] for seat, card in game.played],
    }


def _bad(text: str) -> RecordError:
    return RecordError(Message("rec.toy", text))


def replay(data: Any) -> ToyGame:
    """The game a record describes, every play checked; :class:`RecordError` says what is
    wrong."""
    if not isinstance(data, dict) or data.get("game") != NAME:
        raise _bad(f"not a {NAME} record")
    seed, plays = data.get("seed"), data.get("plays")
    if not isinstance(seed, int) or not isinstance(plays, list):
        raise _bad("a record needs an integer seed and a list of plays")
    try:
        game = ToyGame(ToyRules.from_options(data.get("rules") or {}), seed)
    except RulesError as exc:
        raise _bad(f"bad rules: {exc}") from None
    for number, play in enumerate(plays, 1):
        if not (isinstance(play, list) and len(play) == 2 and play[0] in (0, 1)):
            raise _bad(f"play {number} is not [seat, card]")
        try:
            game.play(play[0], parse_card(str(play[1])))
        except (CardError, RulesError) as exc:
            raise _bad(f"play {number}: {exc}") from None
    return game
