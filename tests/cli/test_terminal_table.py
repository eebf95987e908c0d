"""The terminal table on the table state machine: record files, saving, resuming, signals."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardroom.bots import Bot, make_bot
from cardroom.cli.main import cli
from cardroom.games.nain_jaune.cli.play import build_table
from cardroom.games.nain_jaune.engine import FreeSequence, NextRank, Without
from cardroom.games.nain_jaune.record import parse_game, replay_game
from cardroom.games.nain_jaune.terminal import game as terminal
from cardroom.games.nain_jaune.terminal.game import Table, resume
from cardroom.games.nain_jaune.terminal.plain import PlainGame
from tests.cli.test_play_plain_nain_jaune import ARGS, scripted_commands, to_human_turn

ROOT = Path(__file__).parents[2]


def step(table: Table) -> None:
    """One change: a deal, a bot's action or the person's first legal action."""
    if table.phase == "round-over":
        table.start_round()
    elif table.phase == "bot":
        table.bot_act()
    else:
        view = table.view()
        assert view is not None
        table.human_act(view.legal_actions[0])


def on_disk(table: Table) -> object:
    assert table.path is not None
    return json.loads(table.path.read_text(encoding="utf-8"))


def test_every_change_is_on_disk_before_the_next_one(tmp_path: Path) -> None:
    table = build_table(3, "classic", ("end=rounds:2",), 11, "Ann", "easy", (), tmp_path)
    assert table.path is not None and table.path.read_text() == ""  # reserved before play
    table.start_round()
    assert on_disk(table) == table.record()  # the opening (the deal) is saved at once
    changes = 0
    while table.phase != "game-over":
        step(table)
        assert on_disk(table) == table.record()
        changes += 1
    assert changes > 50 and not list(tmp_path.glob("*.tmp"))


def test_two_games_with_one_seed_in_one_second_never_share_a_file(tmp_path: Path) -> None:
    tables = [build_table(2, "classic", (), 7, "Ann", "easy", (), tmp_path) for _ in range(3)]
    paths = {t.path for t in tables}
    assert len(paths) == 3 and len(list(tmp_path.iterdir())) == 3
    for t in tables:
        t.start_round()
    # the same seed deals the same cards: one shared file would have mixed three games
    assert all(on_disk(t) == tables[0].record() for t in tables)
    if tables[1].phase == "bot":
        tables[1].bot_act()
    else:
        view = tables[1].view()
        assert view is not None
        tables[1].human_act(view.legal_actions[0])
    assert on_disk(tables[1]) != on_disk(tables[0]) and on_disk(tables[2]) == tables[0].record()


def test_an_unusable_records_folder_stops_before_the_game(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    res = CliRunner().invoke(cli, [*ARGS, "--records", str(blocker / "sub")], input="quit\n")
    assert res.exit_code == 2
    assert "cannot write the game record in" in res.output and "--records" in res.output
    assert "Round 1" not in res.output


def test_a_failed_save_is_reported_and_retried_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = build_table(2, "classic", ("end=rounds:1",), 5, "Ann", "easy", (), tmp_path)
    table.start_round()
    real_fsync = os.fsync
    failing = {"on": True}

    def fsync(fd: int) -> None:
        if failing["on"]:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    saved_before = on_disk(table)
    step(table)
    step(table)
    notices = table.take_notices()
    assert len(notices) == 1 and "Could not save the game" in notices[0]
    assert "No space left on device" in notices[0] and "Playing on" in notices[0]
    assert on_disk(table) == saved_before and not list(tmp_path.glob("*.tmp"))
    failing["on"] = False
    step(table)
    assert table.take_notices() == [f"The game is saved again to {table.path}."]
    assert on_disk(table) == table.record()


def test_plain_mode_says_when_saving_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(path: Path, text: str) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(terminal, "write_atomically", broken)
    res = CliRunner().invoke(cli, [*ARGS, "--records", str(tmp_path)], input="state\nquit\n")
    assert res.exit_code == 0, res.output
    assert res.stdout.count("Could not save the game") == 1  # once, not at every move
    assert "Read-only file system" in res.stdout and "Board: 10♦" in res.stdout


def greedy_bots(n: int) -> dict[int, Bot]:
    return {g: make_bot("greedy") for g in range(1, n)}


def test_resume_rebuilds_the_saved_game_and_plays_it_to_the_end(tmp_path: Path) -> None:
    # play a few moves of a game, stop (end of input), resume it from the record
    args = [*ARGS, "-o", "end=rounds:2", "--records", str(tmp_path)]
    res = CliRunner().invoke(cli, args, input="pass\npass\n")
    assert res.exit_code == 0
    [path] = tmp_path.glob("nain-jaune-*.json")
    saved = json.loads(path.read_text())
    table = resume(path, greedy_bots, None)
    assert table.seed == 3 and table.record() == saved
    rnd = table.round
    assert rnd is not None and rnd.moves() == saved[-1]["moves"]
    # the continuation, typed into the resumed command, ends the game
    expected = resume(path, greedy_bots, None)
    expected.path = None  # worked out in memory, the file stays as saved
    lines = scripted_commands(expected)
    res = CliRunner().invoke(
        cli,
        ["play", "nain-jaune", "--plain", "--bots", "greedy", "--resume", str(path)],
        input="\n".join(lines) + "\n",
    )
    assert res.exit_code == 0, res.output
    assert "Resuming" in res.output and "Refused" not in res.stdout
    assert "Game over after 2 rounds" in res.stdout
    final = json.loads(path.read_text())
    assert (
        final == expected.record()
        and final[0]["moves"][: len(saved[0]["moves"])] == (saved[0]["moves"])
    )
    replays = replay_game(parse_game(final))
    assert replays[-1].result is not None and list(replays[-1].result.chips) == list(
        expected.game.chips
    )
    # a finished game cannot be resumed; neither can a file that is not a record
    again = CliRunner().invoke(cli, ["play", "nain-jaune", "--plain", "--resume", str(path)])
    assert again.exit_code == 1 and "is a finished game" in again.output
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    bad = CliRunner().invoke(cli, ["play", "nain-jaune", "--plain", "--resume", str(junk)])
    assert bad.exit_code == 1 and "is not a JSON game record" in bad.output
    wrong = CliRunner().invoke(
        cli, ["play", "nain-jaune", "--plain", "-n", "5", "--resume", str(path)]
    )
    assert wrong.exit_code != 0


@pytest.mark.parametrize("seed", range(8))
def test_resume_equals_the_game_it_was_saved_from(tmp_path: Path, seed: int) -> None:
    # random options (manual announcements, may_stop, free restarts) and a random stop
    rng = random.Random(seed)
    options = (
        f"announce={rng.choice(['auto', 'manual'])}",
        f"may_stop={rng.choice(['true', 'false'])}",
        f"when_blocked={rng.choice(['next-rank', 'free-restart'])}",
        "end=rounds:3",
    )
    players = rng.randint(2, 5)
    table = build_table(players, "classic", options, seed, "Ann", "easy", (), tmp_path)
    pick = random.Random(seed + 100)
    table.start_round()
    for _ in range(rng.randint(1, 250)):
        if table.phase == "game-over":
            break
        if table.phase == "human":
            view = table.view()
            assert view is not None
            table.human_act(pick.choice(view.legal_actions))
        else:
            step(table)
    assert table.path is not None
    if table.phase == "game-over":
        return
    again = resume(table.path, lambda n: {g: make_bot("easy") for g in range(1, n)}, None)
    assert again.record() == table.record() and again.phase == table.phase
    assert again.game.chips == table.game.chips and again.game.board == table.game.board
    a, b = again.round, table.round
    assert a is not None and b is not None
    assert (a.hands, a.board, a.chips, a.played, a.pending_claim) == (
        b.hands,
        b.board,
        b.chips,
        b.played,
        b.pending_claim,
    )
    # the record keeps no pass after the last card: with none, the turn is the same too
    if not isinstance(b.events[-1], Without | NextRank | FreeSequence):
        assert (a.to_act, a.need) == (b.to_act, b.need)


def test_ctrl_c_sigterm_and_sighup_save_and_exit_non_zero(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    for number, (sig, code) in enumerate(
        [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
    ):
        folder = tmp_path / str(number)
        child = subprocess.Popen(
            [sys.executable, "-m", "cardroom", *ARGS, "--records", str(folder)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            # as in a terminal: a shell's background job (a CI runner's, say) inherits SIGINT
            # ignored, and Python then leaves it ignored
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        for _ in range(3000):  # until the deal is on disk (the game waits for Ann)
            files = list(folder.glob("*.json")) if folder.exists() else []
            if files and files[0].stat().st_size > 0:
                break
            time.sleep(0.01)
        time.sleep(0.2)
        child.send_signal(sig)
        out, err = child.communicate(timeout=60)
        assert child.returncode == code, out + err
        assert "Interrupted." in out and "Game saved to" in out
        [path] = folder.glob("*.json")
        assert json.loads(path.read_text())[0]["players"] == ["Ann", "Bea", "Cid", "Dee"]


def test_q_is_the_queen_not_quit_in_plain_mode(tmp_path: Path) -> None:
    table = build_table(None, "classic", (), 3, "Ann", "medium", ("greedy",), None)
    to_human_turn(table)
    view = table.view()
    assert view is not None and not [c for c in view.hand if c.rank == 12]  # no queen (seed 3)
    res = CliRunner().invoke(cli, [*ARGS, "--records", str(tmp_path)], input="q\nQ\nquit\n")
    assert res.exit_code == 0
    refused = "Refused: you hold no queen (q is the queen: type quit to stop)"
    assert res.stdout.count(refused) == 2 and "Game saved to" in res.stdout


def test_the_plain_game_can_be_driven_directly(tmp_path: Path) -> None:
    table = build_table(None, "classic", ("end=rounds:1",), 3, "Ann", "medium", ("greedy",), None)
    lines = scripted_commands(
        build_table(None, "classic", ("end=rounds:1",), 3, "Ann", "medium", ("greedy",), None)
    )
    import io

    game = PlainGame(table, io.StringIO("\n".join(lines) + "\n"))
    game.run()
    assert table.phase == "game-over" and not game.interrupted
