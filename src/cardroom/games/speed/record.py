"""Speed records (the public JSON contract): the header of a game and the checks of a match.

A game record is the header written by :func:`record_header` plus the arbiter's ``actions``
list (``cardroom.arbiter`` writes and replays those)::

    {"game": "speed", "version": {"format": 2, "rules": 3},
     "rules": {"side_piles": 10, "countdown": 3.0, "target": 0, "score_hand": false},
     "players": ["Ann", "Bob"], "seed": 7, "deal": ["4H", "QS", ... 52 cards],
     "actions": [...]}

``deal`` is the 52 cards in the order :mod:`cardroom.games.speed.engine` deals them; ``seed``
feeds the shuffles of rebuilt side piles. A game of a match also carries
``"match": {"seed": S, "game": n, "scores": [a, b]}``: the match seed, the game's number (from
1; its ``seed`` must be ``derive_seed(S, n)``) and the scores before it. A match record is a JSON
list of game records, in order.

``version`` (from format 2) names the version of the rules the game was played under
(:data:`~cardroom.games.speed.rules.RULES_VERSION`); a record without it is replayed under the
rules of its time (:func:`rules_versions`), so records of every earlier release replay as played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cardroom.games.errors import RecordError
from cardroom.games.messages import Message, message_of
from cardroom.games.options import players_error
from cardroom.games.realtime_engine import derive_seed, parse_deal, read_header
from cardroom.games.records import get_int, placed, read_version, shown, written_version
from cardroom.games.speed.engine import SpeedGame, SpeedMatch
from cardroom.games.speed.rules import FLIP_CALLED_FROM, RULES_VERSION, SpeedRules

__all__ = [
    "MatchSummary",
    "RecordError",
    "check_match",
    "game_from_header",
    "parse_deal",
    "record_header",
    "result_json",
    "rules_versions",
]


def record_header(
    game: SpeedGame, players: Sequence[str], match: SpeedMatch | None = None
) -> dict[str, Any]:
    """The header of ``game``'s record; with ``match``, the game's place in that match."""
    if len(players) != 2:
        raise ValueError(players_error("speed", len(players), 2, 2))
    header: dict[str, Any] = {
        "game": "speed",
        "version": written_version(game.rules_version),
        "rules": game.rules.to_json(),
        "players": list(players),
        "seed": game.seed,
        "deal": [c.code for c in game.deal],
    }
    if match is not None:
        number = next((i for i, g in enumerate(match.games, 1) if g is game), None)
        if number is None:
            raise ValueError("this game is not one of the match's games")
        header["match"] = {
            "seed": match.seed,
            "game": number,
            "scores": list(match.scores_before(number)),
        }
    return header


def _int(value: Any, where: str, minimum: int = 0) -> int:
    try:
        return get_int(value, where, minimum, 2**63 - 1)
    except ValueError as exc:
        raise RecordError(message_of(exc)) from None


def game_from_header(data: Any, rules_version: int | None = None) -> SpeedGame:
    """The game a record's header describes, as dealt, under ``rules_version`` (None: the
    latest version the record may have been played under); raise :class:`RecordError` naming
    the problem (not an object, another game, bad rules, players, seed, deal or match)."""
    rules, _, seed, deal = read_header(data, "speed", SpeedRules.from_json)
    version = rules_versions(data)[0] if rules_version is None else rules_version
    if version < FLIP_CALLED_FROM:  # then the winner scored the loser's hand too
        rules = replace(rules, score_hand=True)
    if "match" in data:
        match = data["match"]
        if not isinstance(match, Mapping):
            raise RecordError(
                Message(
                    "rec.speed.match-object",
                    'match must be an object like {"seed": 1, "game": 1, "scores": [0, 0]}',
                    field="match",
                )
            )
        match_seed = _int(match.get("seed"), "match.seed")
        number = _int(match.get("game"), "match.game", 1)
        scores = match.get("scores")
        if not isinstance(scores, list) or len(scores) != 2:
            raise RecordError(
                Message(
                    "rec.speed.scores",
                    "match.scores must be a list of two numbers",
                    field="match.scores",
                )
            )
        for i, s in enumerate(scores):
            _int(s, f"match.scores[{i}]", 0)
        if derive_seed(match_seed, number) != seed:
            raise RecordError(
                Message(
                    "rec.speed.seed",
                    f"seed {seed} is not the seed of game {number} of match {match_seed} "
                    f"({derive_seed(match_seed, number)})",
                    seed=seed,
                    game=number,
                    match=match_seed,
                    expected=derive_seed(match_seed, number),
                )
            )
    return SpeedGame(rules, deal, seed, version)


def rules_versions(data: Mapping[str, Any]) -> list[int]:
    """The versions of the rules a record may have been played under, latest first: the one
    it names, or for a record written before records carried one, 3 if its ``rules`` have
    ``score_hand`` (the option came with version 3), else 2 or 1 (told apart by replaying)."""
    raw_rules = data.get("rules")
    if isinstance(raw_rules, Mapping) and "score_hand" in raw_rules:
        before = [FLIP_CALLED_FROM]
    else:
        before = list(range(FLIP_CALLED_FROM - 1, 0, -1))
    version = read_version(data, "Speed", RULES_VERSION, before[0])
    return [version.rules] if version.format > 1 else before


def result_json(game: SpeedGame) -> dict[str, Any]:
    """A game's result: ``winner``, ``cards_left``, ``points``, ``blocked`` and counters."""
    res = game.result
    return {
        "finished": res is not None,
        "winner": res.winner if res else None,
        "cards_left": [game.cards_left(0), game.cards_left(1)],
        "points": res.points if res else 0,
        "blocked": res.blocked if res else False,
        "plays": game.plays,
        "flips": game.flips,
        "rebuilds": game.rebuilds,
    }


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """The outcome of a checked match record."""

    scores: tuple[int, int]
    winner: int | None
    """The seat that reached the target, or None if the record stops before anyone did."""
    games: int


def _in_game(number: int, id: str, said: str, **fields: Any) -> RecordError:
    """Game ``number`` of a match record is at fault: ``rec.in-game`` around message ``id``."""
    inner = Message(id, said, **fields)
    return RecordError(placed("rec.in-game", f"game {number}: ", inner, game=number))


LIST_NOT_A_MATCH = Message(
    "rec.list-not-speed", "only Speed records come as a list (a match to a target score)"
)
"""A list of records that is not the games of one Speed match (told by ``cardroom replay``)."""


def check_match(headers: Sequence[Mapping[str, Any]], games: Sequence[SpeedGame]) -> MatchSummary:
    """Check that a match record's games follow each other (``games`` are the replayed finals,
    one per header) and total the scores; raise :class:`RecordError` naming the game at fault."""
    if not headers or len(headers) != len(games):
        raise RecordError(
            Message("rec.rt.empty-match", "a match record is a non-empty list of game records")
        )
    scores = [0, 0]
    first = headers[0]
    target = games[0].rules.target
    winner: int | None = None
    for number, (header, game) in enumerate(zip(headers, games, strict=True), start=1):
        match = header.get("match")
        if not isinstance(match, Mapping):
            raise _in_game(
                number,
                "rec.speed.no-match",
                'a game of a match needs its "match" object',
                field="match",
            )
        first_match = first.get("match")
        assert isinstance(first_match, Mapping)
        if match.get("seed") != first_match.get("seed"):
            raise _in_game(number, "rec.speed.match-seed", "its match seed differs from game 1's")
        if match.get("game") != number:
            said = match.get("game")
            raise _in_game(
                number, "rec.speed.game-number", f"it says it is game {said!r}", value=shown(said)
            )
        if header.get("players") != first.get("players"):
            raise _in_game(number, "rec.speed.players", "the players differ from game 1's")
        if game.rules != games[0].rules:
            raise _in_game(number, "rec.speed.rules", "the rules differ from game 1's")
        if list(match.get("scores", [])) != scores:
            said = match.get("scores")
            raise _in_game(
                number,
                "rec.speed.start-scores",
                f"it starts from scores {said!r}, but the games before leave {scores}",
                value=shown(said),
                scores=shown(scores),
            )
        if winner is not None:
            raise _in_game(
                number,
                "rec.speed.already-won",
                f"the match was already won in game {number - 1}",
                before=number - 1,
            )
        res = game.result
        if res is None:
            if number != len(games):
                raise _in_game(
                    number, "rec.speed.unfinished", "it never ended, yet another game follows"
                )
            break
        if res.winner is not None:
            scores[res.winner] += res.points
        if target <= 0 or max(scores) >= target:
            winner = res.winner if target <= 0 else (0 if scores[0] >= target else 1)
            if target <= 0 and number != len(games):
                raise _in_game(
                    number,
                    "rec.speed.single-game",
                    "target is 0 (a single game), yet another game follows",
                )
    return MatchSummary((scores[0], scores[1]), winner, len(games))
