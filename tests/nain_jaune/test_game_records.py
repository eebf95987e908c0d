"""Whole-game records replay through ``Game``: every record the rules forbid is refused with its
round, and a real game always replays to the account that was played."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.nain_jaune import Event, Game, Round, Rules
from cardroom.games.nain_jaune.record import (
    RecordError,
    game_json,
    parse_game,
    replay_round,
    replay_whole_game,
)


def play(
    options: dict[str, str], names: list[str], seed: int, max_rounds: int = 30
) -> tuple[Game, list[list[Event]]]:
    """A game by random legal play; returns it and each round's events as played."""
    game = Game(Rules.from_options("classic", options), names)
    rng = random.Random(seed)
    events = []
    while game.result is None and game.rounds_played < max_rounds:
        rnd = game.start_round(rng)
        while not rnd.over:
            actions = rnd.legal_actions()
            rnd.apply(actions[rng.randrange(len(actions))])
        events.append(list(rnd.events))
        game.finish_round()
    return game, events


def records(game: Game) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(json.dumps(game.records))
    return data


def refused(data: list[dict[str, Any]]) -> str:
    with pytest.raises(RecordError) as info:
        replay_whole_game(parse_game(data))
    return str(info.value)


def with_rules(data: list[dict[str, Any]], **options: str) -> list[dict[str, Any]]:
    out = copy.deepcopy(data)
    for record in out:
        record["rules"] = {**record["rules"], **options}
    return out


def test_a_real_game_replays_and_tells_how_it_ended() -> None:
    game, _ = play({"end": "rounds:3"}, ["Ann", "Bob", "Cid"], 1)
    rep = replay_whole_game(parse_game(records(game)))
    assert rep.result == game.result
    end = game_json(rep)
    assert end["over"] is True and end["reason"] == "3 rounds played"
    assert end["chips"] == game.chips and end["rounds_played"] == 3
    best = max(game.chips)
    assert end["winners"] == [s for s in range(3) if game.chips[s] == best]


def test_no_round_after_rounds_n() -> None:
    game, _ = play({"end": "rounds:3"}, ["Ann", "Bob", "Cid"], 1)
    message = refused(with_rules(records(game), end="rounds:2"))
    assert message.startswith("round 3: the game ended after round 2 (2 rounds played")


def test_no_round_after_a_target_is_reached() -> None:
    game, _ = play({"end": "rounds:3"}, ["Ann", "Bob", "Cid"], 1)
    data = records(game)
    after_first = max(data[1]["chips"])  # the most chips anyone had after round 1
    message = refused(with_rules(data, end=f"target:{after_first}"))
    assert message.startswith(f"round 2: the game ended after round 1 (reached {after_first}")


def test_no_round_after_a_player_broke() -> None:
    game, _ = play({"end": "rounds:4", "starting_chips": "20"}, ["Ann", "Bob", "Cid"], 2)
    data = records(game)
    # with 20 chips, somebody has fewer than the 15 of a round's stakes after round 1
    assert min(data[1]["chips"]) < 15
    message = refused(with_rules(data, end="broke"))
    assert message.startswith("round 2: the game ended after round 1")


def test_a_player_who_dropped_out_cannot_play_on() -> None:
    names = ["Ann", "Bob", "Cid", "Dee"]
    game, _ = play({"end": "rounds:4", "starting_chips": "30"}, names, 0)
    data = records(game)
    assert data[1]["chips"] == [12, 28, 46, 34]  # Ann cannot stake 15 for round 2
    message = refused(with_rules(data, end="last-standing"))
    assert message == "round 2: the players should be Bob, Cid, Dee (Ann dropped out), not " \
        "Ann, Bob, Cid, Dee"
    data[1]["chips"][0] = 15  # so the chips carried over are wrong, not only the players
    message = refused(data)
    assert message.startswith("round 2: Ann starts with 15 chips but ended the round before")


def test_last_standing_drops_players_and_the_next_player_still_in_deals() -> None:
    # seed 1: Bob placed round 1's first card (so he would deal next) but drops out
    game, _ = play({"end": "last-standing", "starting_chips": "20"}, ["A", "B", "C", "D"], 1)
    data = records(game)
    assert data[0]["players"] == ["A", "B", "C", "D"] and data[1]["players"] == ["A", "C", "D"]
    assert data[1]["dealer"] == 1  # C, the next player still in
    rep = replay_whole_game(parse_game(data))
    assert rep.result == game.result
    for wrong in (0, 2):
        data[1]["dealer"] = wrong
        assert "round 2: the dealer should be C (seat 1)" in refused(data)


def test_the_rules_cannot_change_between_rounds() -> None:
    game, _ = play({"end": "rounds:3"}, ["Ann", "Bob", "Cid"], 1)
    data = records(game)
    data[1]["rules"]["payment"] = "card-count"
    assert refused(data).startswith("round 2: the rules differ from the first round's")


def test_a_player_cannot_vanish_between_rounds() -> None:
    game, _ = play({"end": "rounds:3"}, ["Ann", "Bob", "Cid"], 1)
    data = records(game)
    rnd = Round.deal(Rules.from_options("classic", {"end": "rounds:3"}),
                     data[1]["chips"][:2], [0] * 5, 0, random.Random(9))
    data[1] = {**data[1], "players": ["Ann", "Bob"], "chips": data[1]["chips"][:2],
               "dealer": 0, "hands": [[c.code for c in h] for h in rnd.initial_hands],
               "talon": [c.code for c in rnd.talon], "moves": []}
    assert refused(data).startswith("round 2: the players should be Ann, Bob, Cid, not Ann, Bob")


def test_a_target_nobody_can_reach_is_refused() -> None:
    game, _ = play({"end": "rounds:1"}, ["Ann", "Bob", "Cid"], 1)
    message = refused(with_rules(records(game), end="target:1000"))
    assert "end=target:1000 can never be reached: there are only 180 chips" in message


def test_no_forgotten_announcement_under_announce_auto() -> None:
    game, _ = play({"end": "rounds:1", "announce": "manual"}, ["Ann", "Bob"], 4)
    data = records(game)
    moves = data[0]["moves"]
    at = next(i for i, m in enumerate(moves) if isinstance(m, dict))
    assert moves[at] == {"card": "KH", "announced": False} and at == 4  # random play forgot KH
    replay_whole_game(parse_game(data))  # forgetting is allowed with announce=manual
    message = refused(with_rules(data, announce="auto"))
    assert message == "move 5 (KH): with announce=auto every board card is announced, none " \
        "is forgotten"


def test_two_players_of_the_same_name_replay() -> None:
    game, _ = play({"end": "rounds:3"}, ["Ann", "Ann", "Bob"], 5)
    assert replay_whole_game(parse_game(records(game))).result == game.result


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    when_blocked=st.sampled_from(["next-rank", "free-restart"]),
    announce=st.sampled_from(["auto", "manual"]),
)
def test_may_stop_games_replay_to_the_account_played(
    seed: int, players: int, when_blocked: str, announce: str
) -> None:
    options = {"may_stop": "true", "end": "rounds:3", "when_blocked": when_blocked,
               "announce": announce}
    game, events = play(options, [f"P{i}" for i in range(players)], seed)
    rep = replay_whole_game(parse_game(records(game)))
    assert [r.events for r in rep.replays] == events
    assert rep.result == game.result


def test_a_voluntary_pass_is_in_the_record() -> None:
    """Free restarts: a stop by the holder of the next card changes the account."""
    found = 0
    for seed in range(40):
        game, events = play({"may_stop": "true", "when_blocked": "free-restart",
                             "end": "rounds:2"}, ["A", "B", "C"], seed)
        data = records(game)
        if not any("pass" in r["moves"] for r in data):
            continue
        found += 1
        old = copy.deepcopy(data)
        for r in old:  # the record as written before "pass" existed
            r["moves"] = [m for m in r["moves"] if m != "pass"]
        try:
            replayed = [r.events for r in replay_whole_game(parse_game(old)).replays]
        except RecordError:
            continue  # a stop changed who could play what: old records could not say it
        assert [r.events for r in replay_whole_game(parse_game(data)).replays] == events
        if replayed != events:
            return
    pytest.fail(f"no game among {found} with voluntary passes lost them without 'pass'")


def test_pass_needs_may_stop_and_a_rank_to_pass() -> None:
    game, _ = play({"may_stop": "true", "end": "rounds:1"}, ["A", "B"], 3)
    data = records(game)
    data[0]["moves"].insert(0, "pass")
    assert "move 1 (pass): A (seat 0) must play a card now" in refused(data) or \
        "move 1 (pass): B (seat 1) must play a card now" in refused(data)
    strict = with_rules(records(game), may_stop="false")
    strict[0]["moves"].insert(1, "pass")
    assert "move 2 (pass): only with may_stop=true" in refused(strict)


def test_single_round_records_still_replay_alone() -> None:
    game, _ = play({"end": "rounds:2"}, ["Ann", "Bob"], 6)
    data = records(game)
    rep = replay_round(parse_game(data[1])[0])
    assert rep.result is not None


def test_the_web_replay_frames_step_through_voluntary_passes() -> None:
    from cardroom.web.replay_frames import replay_frames

    for seed in range(40):
        game, _ = play({"may_stop": "true", "when_blocked": "free-restart", "end": "rounds:1"},
                       ["A", "B", "C"], seed)
        data = records(game)
        if "pass" in data[0]["moves"]:
            break
    frames = replay_frames(data)
    steps = frames["rounds"][0]["steps"]
    texts = [line for step in steps for line in step["text"]]
    replayed = replay_whole_game(parse_game(data)).replays[0]
    described = [
        e.describe(["A", "B", "C"]) for e in replayed.events if type(e).__name__ != "Staked"
    ]
    assert texts[1:] == described  # the first text is the stakes line
    assert steps[-1]["hands"] == [[c.code for c in h] for h in replayed.round.hands]
