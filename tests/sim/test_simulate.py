"""``cardroom simulate nain-jaune``: summary shape, reproducibility, workers, Ray, bad input."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from cardroom.bots import make_bot
from cardroom.cli.main import cli
from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune import kernel as fast
from cardroom.games.nain_jaune.sim.readable import readable_game
from cardroom.games.nain_jaune.sim.simulate import (
    CHUNK_ROUNDS,
    Simulation,
    SimulationError,
    run,
    summarize,
)
from cardroom.kernels.streams import derive_seed, game_key


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, ["simulate", "nain-jaune", *args])


def deterministic(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in ("seconds", "rounds_per_second")}


def test_json_summary_shape_and_consistency() -> None:
    result = invoke("--rounds", "3000", "--players", "3", "--bots", "heuristic,random", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rounds"] == 3000 and data["players"] == 3
    assert data["bots"] == ["heuristic", "random", "heuristic"]
    assert data["rounds_per_second"] > 0
    assert 15 <= data["cards_per_round"] <= 45  # a 3-player hand is 15 cards; all are 45
    seats = data["seats"]
    assert sum(s["rounds_won"] for s in seats) == 3000
    assert sum(s["rounds_played"] for s in seats) == 3 * 3000  # nobody drops out with broke
    # chips only move between players and the board: what the players won is what the
    # board lost, and the board starts empty
    board_after = sum(b["mean"] for b in data["boxes"])  # a mean, so check the sign only
    assert sum(s["chips_won"] for s in seats) <= 0 <= board_after
    assert set(data["per_bot"]) == {"heuristic", "random"}
    assert data["per_bot"]["heuristic"]["seats"] == 2
    games = data["games"]
    assert sum(games["end_reasons"].values()) == games["finished"]
    assert set(games["end_reasons"]) <= {
        "a player could not pay in full",
        "a player cannot stake for the next round",
    }
    assert games["cut_at_chunk_end"] <= 1  # one chunk: at most its last game is cut


@pytest.mark.parametrize(
    "seat_bots",
    [
        ("greedy", "random", "heuristic"),
        ("random", "random", "random"),  # the specialized loop of random players
    ],
)
def test_summary_counts_match_the_readable_engine(seat_bots: tuple[str, ...]) -> None:
    """One chunk of 40 rounds, replayed game by game through the readable engine."""
    rules = Rules(starting_chips=20)
    sim = Simulation(rules, seat_bots, 40, seed=11)
    stats, _ = run(sim)
    bots = [make_bot(b) for b in sim.bots]
    rounds = games = opera = 0
    chips_won = [0, 0, 0]
    g = 0
    while rounds < 40:
        game, _ = readable_game(rules, bots, game_key(11, 0, g), max_rounds=40 - rounds)
        g += 1
        rounds += game.rounds_played
        games += game.result is not None
        chips = [20, 20, 20]
        for rnd_chips in _round_chips(game):
            chips_won = [w + b - a for w, a, b in zip(chips_won, chips, rnd_chips, strict=True)]
            chips = rnd_chips
        opera += sum(1 for r in _round_results(game) if r)
    assert int(stats[fast.ST_ROUNDS]) == 40
    assert int(stats[fast.ST_GAMES]) == games
    assert [int(x) for x in stats[fast.ST_NET : fast.ST_NET + 3]] == chips_won
    assert int(stats[fast.ST_OPERA]) == opera


def _round_chips(game: Any) -> list[list[int]]:
    from cardroom.games.nain_jaune.record import parse_round, replay_round

    out = []
    for record in game.records:
        rep = replay_round(parse_round(record))
        assert rep.result is not None
        out.append(list(rep.result.chips))
    return out


def _round_results(game: Any) -> list[bool]:
    from cardroom.games.nain_jaune.record import parse_round, replay_round

    out: list[bool] = []
    for record in game.records:
        result = replay_round(parse_round(record)).result
        assert result is not None
        out.append(bool(result.grand_opera))
    return out


def test_same_seed_same_summary_for_any_workers() -> None:
    sim = Simulation.build(2 * CHUNK_ROUNDS + 500, bots=["random", "greedy"], seed=3)
    one, _ = run(sim, workers=1)
    two, _ = run(sim, workers=2)
    assert np.array_equal(one, two)
    other, _ = run(Simulation.build(2 * CHUNK_ROUNDS + 500, bots=["random", "greedy"], seed=4))
    assert not np.array_equal(one, other)


def test_ray_backend_gives_the_local_result() -> None:
    pytest.importorskip("ray")
    sim = Simulation.build(CHUNK_ROUNDS + 300, players=3, bots=["heuristic", "random"], seed=5)
    local, _ = run(sim)
    remote, _ = run(sim, workers=1, backend="ray")
    assert np.array_equal(local, remote)


def test_memory_stays_flat_as_rounds_grow() -> None:
    """Peak traced memory of a 10x longer simulation is no larger (statistics are sums)."""
    sims = [Simulation.build(n, seed=1) for n in (2 * CHUNK_ROUNDS, 20 * CHUNK_ROUNDS)]
    run(sims[0])  # compile / load the cache first
    peaks = []
    for sim in sims:
        tracemalloc.start()
        run(sim)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < peaks[0] * 1.5 + 64_000, peaks


def test_plot_writes_png_charts(tmp_path: Path) -> None:
    path = tmp_path / "charts.png"
    result = invoke("--rounds", "2000", "--plot", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["plots"] == [str(path)]
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table_output_names_every_figure() -> None:
    result = invoke("--rounds", "1500", "--bots", "hard,easy", "--players", "4")
    assert result.exit_code == 0, result.output
    for text in ("rounds per second", "cards per round", "grand opéra", "heuristic", "7D",
                 "How finished games ended"):
        assert text in result.output


def test_options_and_presets_reach_the_fast_path() -> None:
    result = invoke("--rounds", "600", "--preset", "count", "--option", "end=rounds:3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rules"]["payment"] == "card-count" and data["rules"]["end"] == "rounds:3"
    assert data["games"]["end_reasons"] == {"rounds played": 200}
    assert data["games"]["rounds_per_game"] == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rounds", "0"], "not in the range 1 to 10,000,000,000"),
        (["--rounds", "1e23"], "not in the range 1 to"),
        (["--players", "9"], "2 to 8"),
        (["--bots", "search"], "cannot be simulated"),
        (["--bots", "random,greedy,random", "--players", "2"], "at most 2"),
        (["--option", "payment=gold"], "payment"),
        (["--option", "nonsense"], "key=value"),
        (["--option", "end=target:10000"], "never be reached"),
        (["--workers", "0"], "not in the range 1 to 256"),
        (["--workers", "1e23"], "not in the range 1 to 256"),
        (["--players", "1000000000"], "2 to 8"),
        (["--seed", "-1"], "--seed"),
        (["--plot", "charts"], ".png"),
        (["--plot", "/nonexistent-folder/charts.png"], "does not exist"),
        (["--address", "127.0.0.1:1"], "--backend ray"),
    ],
)
def test_bad_input_is_refused_with_a_reason(args: list[str], message: str) -> None:
    result = invoke(*args, "--json")
    assert result.exit_code != 0
    assert message in result.output
    assert "{" not in result.output  # no summary printed


def test_simulation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Simulation.build(0)
    assert derive_seed(0) != derive_seed(1)
    assert summarize(Simulation.build(1), np.zeros(fast.ST_SIZE, np.int64), 0.0)["rounds"] == 0
    with pytest.raises(SimulationError):
        run(Simulation.build(1), backend="spark")
