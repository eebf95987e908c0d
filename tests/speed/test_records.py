"""Speed options, record headers, the JSON form of actions, and matches to a target score."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardroom.cards import parse_card
from cardroom.games.speed import (
    CALL,
    Action,
    Play,
    RecordError,
    RulesError,
    SpeedGame,
    SpeedMatch,
    SpeedRules,
    action_from_json,
    action_to_json,
    check_match,
    derive_seed,
    game_from_header,
    record_header,
    result_json,
)


def finish(game: SpeedGame, rng: random.Random) -> list[tuple[int, Action] | None]:
    """Random legal play; when nobody can play, one seat calls and the countdown flips;
    returns the log (None: the countdown's flip)."""
    log: list[tuple[int, Action] | None] = []
    while not game.over:
        acts = [(s, a) for s in (0, 1) for a in game.legal_actions(s) if isinstance(a, Play)]
        if acts:
            seat, play = rng.choice(acts)
            game.apply(seat, play)
            log.append((seat, play))
            continue
        if not game.stalemate:
            seat = rng.randrange(2)
            game.apply(seat, CALL)
            log.append((seat, CALL))
        if not game.over:
            game.resolve_stalemate()
            log.append(None)
    return log


def replay(game: SpeedGame, log: list[tuple[int, Action] | None]) -> SpeedGame:
    for step in log:
        if step is None:
            game.resolve_stalemate()
        else:
            game.apply(*step)
    return game


# ----------------------------------------------------------------------------- options


def test_options_from_strings_and_json() -> None:
    rules = SpeedRules.from_options(
        {"side-piles": "5", "countdown": "1.5", "target": "50", "score_hand": "yes"}
    )
    assert rules == SpeedRules(side_piles=5, countdown=1.5, target=50, score_hand=True)
    assert rules.draw_pile == 20 and rules.is_match
    assert SpeedRules().draw_pile == 15 and not SpeedRules().is_match
    assert SpeedRules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
    assert SpeedRules.from_json(None) == SpeedRules()
    assert SpeedRules.from_json({}) == SpeedRules()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"side_piles": "7"}, "side_piles='7'|side_piles=7"),
        ({"side_piles": "ten"}, "whole number"),
        ({"countdown": "-1"}, "countdown"),
        ({"countdown": "soon"}, "seconds"),
        ({"countdown": "inf"}, "countdown"),
        ({"target": "-5"}, "target"),
        ({"target": True}, "target"),
        ({"score_hand": "maybe"}, "score_hand='maybe' is not valid: use true or false"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_say_what_to_do(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        SpeedRules.from_options(options)


# ----------------------------------------------------------------------------- actions


def test_action_json_round_trip() -> None:
    play = Play(parse_card("7D"), 0, parse_card("8C"))
    assert action_to_json(play) == {"type": "play", "card": "7D", "pile": 0, "seen": "8C"}
    assert action_from_json(action_to_json(play)) == play
    blind = Play(parse_card("10S"), 1)
    assert action_to_json(blind)["seen"] is None
    assert action_from_json({"type": "play", "card": "TS", "pile": 1}) == blind
    assert action_to_json(CALL) == {"type": "call"}
    assert action_from_json({"type": "call"}) is CALL


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("call", "JSON object"),
        ({"type": "slap"}, "unknown Speed action type"),
        ({"type": "play", "card": "7D"}, "needs"),
        ({"type": "play", "card": "7D", "pile": 2}, "pile must be 0 or 1"),
        ({"type": "play", "card": "7D", "pile": True}, "pile must be 0 or 1"),
        ({"type": "play", "card": "ZZ", "pile": 0}, "play action"),
        ({"type": "play", "card": "7D", "pile": 0, "seen": "1X"}, "play action"),
        ({"type": "play", "card": "7D", "pile": 0, "hand": 3}, "no field hand"),
        ({"type": "call", "seat": 0}, "no other fields"),
    ],
)
def test_bad_actions_are_record_errors(data: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        action_from_json(data)


# ----------------------------------------------------------------------------- headers


def header() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        json.dumps(record_header(SpeedGame.new(SpeedRules(), 5), ["Ann", "Bob"]))
    )
    return data


def test_header_shape() -> None:
    h = header()
    assert set(h) == {"game", "version", "rules", "players", "seed", "deal"}
    assert h["version"] == {"format": 2, "rules": 4}
    assert h["game"] == "speed" and h["seed"] == 5
    assert h["rules"] == {"side_piles": 10, "countdown": 3.0, "target": 0, "score_hand": False}
    game = game_from_header(h)
    assert [c.code for c in game.deal] == h["deal"]


DEAL: list[str] = header()["deal"]


def _bad(change: dict[str, Any], drop: str | None = None) -> dict[str, Any]:
    h = header()
    h.update(change)
    if drop:
        del h[drop]
    return h


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "must be a JSON object"),
        (_bad({"game": "spit"}), "not 'speed'"),
        (_bad({}, drop="deal"), "no 'deal'"),
        (_bad({"rules": {"side_piles": 3}}), "rules: side_piles"),
        (_bad({"players": ["Ann"]}), "two names"),
        (_bad({"seed": "x"}), "seed must be a whole number"),
        (_bad({"deal": "AC 2C"}), "deal must be a list"),
        (_bad({"deal": ["XX", *DEAL[1:]]}), "deal card 1"),
        (_bad({"deal": DEAL[:51]}), "51 cards"),
        (_bad({"deal": [*DEAL[:51], DEAL[0]]}), "deal card 52: .* already in the deal"),
        (_bad({"match": {"seed": 1, "game": 1, "scores": [0, 0]}}), "is not the seed of game 1"),
        (_bad({"match": {"seed": 1, "game": 0, "scores": [0, 0]}}), "match.game"),
        (_bad({"match": [1]}), "match must be an object"),
    ],
)
def test_bad_headers_name_the_problem(data: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        game_from_header(data)


def test_result_json() -> None:
    game = SpeedGame.new(SpeedRules(), 3)
    assert result_json(game)["finished"] is False
    finish(game, random.Random(3))
    out = result_json(game)
    res = game.result
    assert res is not None
    assert out["winner"] == res.winner and out["points"] == res.points
    assert out["cards_left"] == [game.cards_left(0), game.cards_left(1)]
    assert out["plays"] == game.plays


# ----------------------------------------------------------------------------- matches


def test_a_match_is_played_to_the_target() -> None:
    match = SpeedMatch(SpeedRules(target=40), seed=8)
    rng = random.Random(8)
    totals = [0, 0]
    logs = []
    while True:
        game = match.game
        assert game.seed == derive_seed(8, match.number)
        assert match.scores == (totals[0], totals[1])
        with pytest.raises(ValueError, match="not over"):
            match.next_game()
        logs.append(finish(game, rng))
        res = game.result
        assert res is not None
        if res.winner is not None:
            totals[res.winner] += res.points
        assert match.scores == (totals[0], totals[1])
        if max(totals) >= 40:
            break
        assert not match.over and match.winner is None
        match.next_game()
    assert match.over and match.number >= 2  # one game scores at most 10: a draw pile
    assert match.winner == (0 if totals[0] >= 40 else 1)
    with pytest.raises(ValueError, match="match is over"):
        match.next_game()
    # The match record: each game's header knows its place; check_match totals the scores.
    headers = [json.loads(json.dumps(record_header(g, ["Ann", "Bob"], match))) for g in match.games]
    assert headers[1]["match"]["scores"] == list(match.scores_before(2))
    replayed = [replay(game_from_header(h), log) for h, log in zip(headers, logs, strict=True)]
    for again, game in zip(replayed, match.games, strict=True):
        assert again.snapshot() == game.snapshot()
    summary = check_match(headers, replayed)
    assert summary.scores == (totals[0], totals[1]) and summary.winner == match.winner
    headers[1]["match"]["scores"] = [headers[1]["match"]["scores"][0] + 1, 0]
    with pytest.raises(RecordError, match="game 2: it starts from scores"):
        check_match(headers, replayed)


def test_match_record_with_a_game_after_the_win_is_refused() -> None:
    match = SpeedMatch(SpeedRules(target=1, score_hand=True), seed=2)
    finish(match.game, random.Random(0))
    assert match.over and match.winner == match.game.winner  # the hand counts: at least 1
    extra = SpeedGame.new(match.rules, derive_seed(2, 2))
    finish(extra, random.Random(1))
    h1 = record_header(match.game, ["A", "B"], match)
    h2 = record_header(extra, ["A", "B"])
    h2["match"] = {"seed": 2, "game": 2, "scores": list(match.scores)}
    with pytest.raises(RecordError, match="game 2: the match was already won in game 1"):
        check_match([h1, h2], [match.game, extra])


def test_single_game_match() -> None:
    match = SpeedMatch(SpeedRules(), seed=4)
    assert match.game.seed == derive_seed(4, 1)
    finish(match.game, random.Random(4))
    assert match.over and match.winner == match.game.winner
