"""The header of a Spit record: rules, players, seed and deal (the arbiter adds the actions).

``{"game": "spit", "rules": {...}, "players": ["Ann", "Bob"], "seed": 7, "deal": [52 codes]}``;
:func:`game_from_header` rebuilds the game as dealt, checking every field.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.cards import DECK, Card, CardError, parse_card
from cardroom.games.nain_jaune.record import RecordError
from cardroom.games.spit.engine import SpitGame
from cardroom.games.spit.rules import RulesError, SpitRules

__all__ = ["RecordError", "game_from_header", "record_header"]


def record_header(game: SpitGame, players: Sequence[str]) -> dict[str, Any]:
    """The record header of ``game`` played by ``players`` (seat 0 first)."""
    if len(players) != 2:
        raise RecordError(f"Spit is played by two players, not {len(players)}")
    return {
        "game": "spit",
        "rules": game.rules.to_json(),
        "players": list(players),
        "seed": game.seed,
        "deal": [c.code for c in game.deal],
    }


def game_from_header(data: Any) -> SpitGame:
    """The game as dealt from a record header; raise :class:`RecordError` naming the problem."""
    if not isinstance(data, dict):
        raise RecordError("a Spit record must be a JSON object")
    if data.get("game") != "spit":
        raise RecordError(f"game is {data.get('game')!r}, not 'spit'")
    for key in ("players", "seed", "deal"):
        if key not in data:
            raise RecordError(f"the record has no {key!r}")
    try:
        rules = SpitRules.from_json(data.get("rules"))
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    players = data["players"]
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError("players must be a list of two names")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError(f"seed must be a whole number, not {seed!r}")
    raw = data["deal"]
    if not isinstance(raw, list):
        raise RecordError('deal must be a list of the 52 cards, like ["7D", "QS", ...]')
    cards: list[Card] = []
    for i, code in enumerate(raw):
        try:
            cards.append(parse_card(code))
        except CardError as exc:
            raise RecordError(f"deal[{i}]: {exc}") from None
    if len(cards) != len(DECK):
        raise RecordError(f"the deal must hold the 52 cards, it holds {len(cards)}")
    seen: set[Card] = set()
    for i, card in enumerate(cards):
        if card in seen:
            raise RecordError(f"deal[{i}]: {card.code} appears twice: each card once")
        seen.add(card)
    return SpitGame(rules, cards, seed)
