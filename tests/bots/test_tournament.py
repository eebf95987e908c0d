"""Tournaments reproduce for a seed (also on two workers); bad input gets a clear error."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardroom.cli.main import cli
from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.sim.tournament import Setup, entry_names, play_deal, run_tournament


def test_repeated_bots_are_told_apart() -> None:
    assert entry_names(["random", "greedy", "random", "random"]) == [
        "random",
        "greedy",
        "random#2",
        "random#3",
    ]


def test_every_rotation_of_a_deal_gives_each_bot_every_seat() -> None:
    setup = Setup(("heuristic", "random"), 1, 4, Rules(), seed=3)
    assert setup.lineup == [0, 1, 0, 1]
    deal = play_deal(setup, 0)
    assert deal.appearances == [8, 8]  # 4 rotations x 2 seats each
    assert sum(deal.wins) == 4  # one winner per rotation


def test_same_seed_same_numbers_also_on_two_workers() -> None:
    setup = Setup(("heuristic", "greedy", "search:iterations=2"), 6, 3, Rules(), seed=7)
    one = run_tournament(setup).to_json()
    again = run_tournament(setup).to_json()
    two = run_tournament(setup, workers=2).to_json()
    assert one == again == two
    other = run_tournament(Setup(setup.bots, 6, 3, Rules(), seed=8)).to_json()
    assert other != one


def test_json_output(tmp_path: object) -> None:
    result = CliRunner().invoke(
        cli,
        [
            *("tournament", "nain-jaune", "--bots", "random,random", "--players", "3"),
            *("--games", "4", "--seed", "2", "--json", "--preset", "count"),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["bots"]) == {"random", "random#2"}
    assert (
        data["games"] == 4
        and data["players"] == 3
        and data["lineup"]
        == [
            "random",
            "random#2",
            "random",
        ]
    )
    first = data["bots"]["random"]
    lo, hi = first["ci95"]
    assert lo <= first["mean_chips_per_round"] <= hi
    # 4 deals x 3 rotations: "random" holds two of the three seats each time
    assert first["rounds"] == 24 and data["bots"]["random#2"]["rounds"] == 12
    assert 0 <= first["round_win_rate"] <= 1
    wins = sum(b["round_wins"] for b in data["bots"].values())
    assert wins == 12  # 4 deals x 3 rotations, one winner each


def test_table_and_plot(tmp_path: pytest.TempPathFactory) -> None:
    path = f"{tmp_path}/chart.png"
    result = CliRunner().invoke(
        cli,
        ["tournament", "nain-jaune", "--bots", "greedy,random", "--games", "3", "--plot", path],
    )
    assert result.exit_code == 0, result.output
    assert "greedy" in result.stdout and "random" in result.stdout
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "nobody", "--games", "3"], "unknown bot 'nobody'"),
        (["--bots", "search:depth=3,random", "--games", "3"], "has no option depth"),
        (["--bots", "search:ms=fast,random", "--games", "3"], "ms='fast'"),
        (["--bots", "random:x=1,greedy", "--games", "3"], "takes no options"),
        (["--bots", "random", "--games", "3"], "2 to 8 players, not 1"),
        (["--bots", "random", "--players", "9", "--games", "3"], "9 is not in the range 2 to 8"),
        (["--bots", "random", "-n", "1000000000", "--games", "3"], "2 to 8"),
        (["--bots", "random,greedy", "--games", "0"], "0 is not in the range 1 to"),
        (["--bots", "random,greedy", "--games", "100000000"], "not in the range 1 to 1,000,000"),
        (["--bots", "random,greedy", "--games", "2", "-w", "1e23"], "--workers"),
        (["--bots", "random,greedy", "--games", "2", "-o", "starting_chips=1e23"], "chips"),
        (["--bots", "random,greedy", "--games", "2", "--plot", "x.txt"], ".png"),
        (["--bots", "random,greedy,heuristic", "--players", "2", "--games", "2"], "3 bots"),
        (["--bots", "random,greedy", "--games", "2", "--preset", "x"], "unknown preset"),
        (["--bots", "random,greedy", "--games", "2", "--option", "payment=x"], "payment"),
        (["--bots", "random,greedy", "--games", "2", "--workers", "0"], "--workers"),
    ],
)
def test_bad_input_is_refused_clearly(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["tournament", "nain-jaune", *args])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_bot_options_after_a_comma_stay_with_their_bot() -> None:
    from cardroom.games.nain_jaune.cli.tournament import split_bots

    assert split_bots("search:ms=30,model=off,heuristic, random") == (
        "search:ms=30,model=off",
        "heuristic",
        "random",
    )
    assert split_bots("greedy,random,") == ("greedy", "random")
