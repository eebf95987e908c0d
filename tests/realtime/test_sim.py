"""The simulation driver and ``cardroom simulate`` / ``cardroom replay`` for real-time games."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.arbiter import replay
from cardroom.cards import DECK
from cardroom.cli.main import cli
from cardroom.games.realtime_engine import RealtimeIllegal
from cardroom.games.registry import new_engine
from cardroom.games.speed import SpeedGame, SpeedRules
from cardroom.sim.realtime import bot_labels, new_table, play_one, run_table


def test_same_bot_twice_gets_told_apart() -> None:
    assert bot_labels(["easy", "easy", "easy"]) == ["easy", "easy#2", "easy#3"]
    assert bot_labels(["easy", "hard"]) == ["easy", "hard"]


def test_simulate_json_shape_and_reproducibility() -> None:
    args = ["simulate", "speed", "--games", "12", "--bots", "easy,easy", "--seed", "5", "--json"]
    runner = CliRunner()
    first = runner.invoke(cli, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert set(data) >= {
        "wins", "games", "mean_game_seconds", "stalemates_per_game", "redeals_per_game",
    }
    assert data["games"] == 12 and set(data["wins"]) == {"easy", "easy#2"}
    assert sum(data["wins"].values()) + data["draws"] + data["unfinished"] == 12
    assert data["mean_game_seconds"] > 0
    second = runner.invoke(cli, args)
    assert second.output == first.output
    other = runner.invoke(cli, [*args[:-2], "6", "--json"])
    assert json.loads(other.output) != data


def test_simulate_refuses_bad_input() -> None:
    runner = CliRunner()
    for args, message in [
        (["--bots", "easy"], "exactly two bots"),
        (["--bots", "easy,wizard"], "unknown bot 'wizard'"),
        (["--option", "side_piles=7"], "side_piles=7"),
        (["--option", "nonsense"], "key=value"),
    ]:
        result = runner.invoke(cli, ["simulate", "speed", "--games", "1", *args])
        assert result.exit_code == 2 and message in result.output, result.output


def test_a_speed_match_is_played_to_the_target() -> None:
    result = play_one("speed", ["expert", "easy"], {"target": "20"}, 1, 0)
    assert result.finished and result.winner == 0
    single = play_one("speed", ["expert", "easy"], {}, 1, 0)
    assert result.seconds > single.seconds


@settings(max_examples=20, deadline=None)
@given(
    game=st.sampled_from(["speed", "spit"]),
    kinds=st.tuples(*[st.sampled_from(["reaction", "random"])] * 2),
    seed=st.integers(0, 10_000),
    lows=st.tuples(st.floats(0.0, 2.0), st.floats(0.0, 2.0)),
    spans=st.tuples(st.floats(0.0, 2.0), st.floats(0.0, 2.0)),
    countdown=st.sampled_from(["0", "1.5", "3"]),
    steps=st.integers(5, 400),
)
def test_records_of_random_bot_games_replay_exactly(
    game: str,
    kinds: tuple[str, str],
    seed: int,
    lows: tuple[float, float],
    spans: tuple[float, float],
    countdown: str,
    steps: int,
) -> None:
    """Random timings (ties included: a range may be a single time) and random or human-like
    actions: the record replays to the same state with the same accepted/refused flags."""
    engine = new_engine(game, {"countdown": countdown}, seed)
    specs = [
        f"{kind}:min={lo},max={lo + sp}"
        for kind, lo, sp in zip(kinds, lows, spans, strict=True)
    ]
    rngs = [random.Random(f"{seed}/{s}") for s in (0, 1)]
    apply = engine.apply
    refused = []

    def checked_apply(seat: int, action: Any) -> Any:
        before = engine.snapshot()
        try:
            return apply(seat, action)
        except RealtimeIllegal:
            assert engine.snapshot() == before  # a refused action changes nothing
            refused.append(action)
            raise
        finally:
            assert sorted(engine.locations()) == sorted(DECK)  # 52 cards, each in one place

    engine.apply = checked_apply
    table = new_table(engine, specs, rngs, ["Ann", "Bob"])
    run_table(table, max_steps=steps)
    assert len(refused) == table.rejected
    record = json.loads(json.dumps(table.arbiter.record()))
    rep = replay(record)
    assert rep.engine.snapshot() == engine.snapshot()
    assert [e.accepted for e in rep.arbiter.log] == [e.accepted for e in table.arbiter.log]
    assert [e.reason for e in rep.arbiter.log] == [e.reason for e in table.arbiter.log]
    assert [e.t for e in rep.arbiter.log] == [e.t for e in table.arbiter.log]


def _record(tmp_path: Path, steps: int = 10_000) -> tuple[Path, dict[str, Any]]:
    engine = SpeedGame.new(SpeedRules(), 11)
    table = new_table(engine, ["hard", "medium"], [random.Random(1), random.Random(2)], ["A", "B"])
    run_table(table, max_steps=steps)
    data = table.arbiter.record()
    path = tmp_path / "speed.json"
    path.write_text(json.dumps(data))
    return path, data


def test_replay_json_prints_winner_and_cards_left(tmp_path: Path) -> None:
    path, data = _record(tmp_path)
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    engine = replay(data).engine
    assert out["winner"] == engine.winner is not None
    assert out["cards_left"] == [engine.cards_left(0), engine.cards_left(1)]
    assert out["cards_left"][out["winner"]] == 0
    text = CliRunner().invoke(cli, ["replay", str(path)])
    assert text.exit_code == 0
    assert text.output.splitlines()[0].startswith("Speed: A (seat 0) v B (seat 1)")
    assert f"{data['players'][out['winner']]} wins after" in text.output


def test_replay_of_a_tampered_record_exits_1_naming_the_action(tmp_path: Path) -> None:
    path, data = _record(tmp_path, steps=30)
    number = next(i for i, a in enumerate(data["actions"], 1) if a["seat"] is not None)
    data["actions"][number - 1]["accepted"] = not data["actions"][number - 1]["accepted"]
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 1
    assert f"action {number}: " in result.output


def test_a_speed_match_record_replays_with_its_scores(tmp_path: Path) -> None:
    from cardroom.games.speed import SpeedMatch, record_header

    match = SpeedMatch(SpeedRules.from_options({"target": "15"}), 3)
    records = []
    while True:
        engine = match.game
        table = new_table(engine, ["expert", "easy"], [random.Random(1), random.Random(2)],
                          ["A", "B"])
        assert run_table(table)
        records.append(table.arbiter.record(record_header(engine, ["A", "B"], match)))
        if match.over:
            break
        match.next_game()
    path = tmp_path / "match.json"
    path.write_text(json.dumps(records))
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["scores"] == list(match.scores) and out["winner"] == match.winner == 0
    assert len(out["games"]) == len(records) == match.number
    text = CliRunner().invoke(cli, ["replay", str(path)])
    assert "A wins the match." in text.output


def test_workers_do_not_change_the_result() -> None:
    base = ["simulate", "spit", "--games", "6", "--bots", "expert,medium", "--seed", "4", "--json"]
    one = CliRunner().invoke(cli, base)
    two = CliRunner().invoke(cli, [*base, "--workers", "2"])
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert json.loads(one.output) == json.loads(two.output)


def test_replay_prints_times_from_the_start_for_web_records_too(tmp_path: Path) -> None:
    path, data = _record(tmp_path)
    shifted = {**data, "start": data["start"] + 1795504000.0}  # a web record: the server's clock
    shifted["actions"] = [{**a, "t": a["t"] + 1795504000.0} for a in data["actions"]]
    web = tmp_path / "web.json"
    web.write_text(json.dumps(shifted))
    lines = [CliRunner().invoke(cli, ["replay", str(p)]).output.splitlines() for p in (path, web)]
    assert lines[0] == lines[1]
    first = data["actions"][0]["t"] - data["start"]
    assert any(line.strip().startswith(f"{first:.2f} s") for line in lines[1])
    assert "17955" not in "\n".join(lines[1])
