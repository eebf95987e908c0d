"""The command line refuses bad input in one clear line, whatever the input: records that are
huge, endless or hostile, numbers out of range, output that cannot be written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardroom.cli.records as records_module
from cardroom.cli.groups import printable
from cardroom.cli.main import cli
from cardroom.cli.options import cpu_count, local_workers
from cardroom.games.errors import RecordError
from cardroom.games.records import MAX_RECORD_BYTES, loads

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs" / "games"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def replay(*args: str) -> Any:
    return CliRunner().invoke(cli, ["replay", *args])


def one_error_line(res: Any) -> str:
    assert res.exit_code == 1, res.output
    assert res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), res.stderr
    return str(lines[0])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 1000 + "]" * 1000, "nested more than 12 deep"),
        ("[" * 13 + "]" * 13, "nested more than 12 deep"),
        ('{"seed": 1' + "0" * 5000 + "}", "whole number of 5001 digits is too large"),
        ('{"t": 1e400}', "the number 1e400 is too large"),
        ('{"t": NaN}', "NaN is not a number a record may hold"),
        ('{"t": -Infinity}', "-Infinity is not a number a record may hold"),
        ("{not json", "not valid JSON: Expecting property name"),
        ('"\\ud800', "not valid JSON"),
    ],
)
def test_the_reader_refuses_what_no_record_holds(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(text)


def test_the_reader_refuses_a_record_too_large_before_parsing() -> None:
    with pytest.raises(RecordError, match="larger than 8 MiB"):
        loads(b" " * (MAX_RECORD_BYTES + 1))
    assert loads(b" " * 100 + b"[1]") == [1]
    assert loads(b"\xef\xbb\xbf[1]") == [1]  # a byte order mark is allowed


def test_a_huge_file_is_refused_by_its_size(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as f:
        f.truncate(54 * 1024 * 1024)  # 54 MB, sparse: refused by its size, never read
    assert "the file is larger than 8 MiB" in one_error_line(replay(str(path)))


def test_dev_zero_is_read_only_up_to_the_limit() -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    assert "larger than 8 MiB" in one_error_line(replay("/dev/zero"))


def test_a_fifo_with_no_writer_times_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    monkeypatch.setattr(records_module, "READ_TIMEOUT", 0.3)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert "nothing more arrived in 0.3 s" in one_error_line(replay(str(fifo)))


def test_a_fifo_with_a_record_is_read(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    record = (DOCS / "nain-jaune-example.json").read_bytes()

    def write() -> None:
        with open(fifo, "wb") as f:
            f.write(record)

    writer = threading.Thread(target=write)
    writer.start()
    res = replay(str(fifo), "--json")
    writer.join()
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["winner"] == 2


def test_empty_and_binary_files(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b"")
    assert "the file is empty" in one_error_line(replay(str(path)))
    path.write_bytes(b"\xff\xfe{}")
    assert "not UTF-8 text (byte 0)" in one_error_line(replay(str(path)))


def nain_jaune_record(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DOCS / "nain-jaune-example.json").read_text())
    data.update(changes)
    return data


def test_names_are_escaped_in_the_account_and_the_json(tmp_path: Path) -> None:
    data = nain_jaune_record()
    data["players"][0] = "\x1b[31mAnn\nEve\u202e\x9b"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    text = replay(str(path))
    assert text.exit_code == 0
    assert "\\x1b[31mAnn\\x0aEve\\u202e\\x9b" in text.stdout
    assert not any(ch in text.stdout for ch in "\x1b\u202e\x9b")
    out = replay(str(path), "--json")
    assert not any(ch in out.stdout for ch in "\x1b\u202e\x9b")
    assert json.loads(out.stdout)["players"][0] == data["players"][0]


@pytest.mark.parametrize(
    "change",
    [
        {"players": ["A" * 100_000, "B"] + ["C"] * 6},
        {"dealer": "x" * 100_000},
        {"moves": ["Q" * 100_000]},
        {"rules": {"payment": ["x"] * 100_000}},
        {"game": "y" * 100_000},
    ],
)
def test_errors_never_echo_input_of_any_size(tmp_path: Path, change: dict[str, Any]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(nain_jaune_record(**change)), encoding="utf-8")
    assert len(one_error_line(replay(str(path)))) < 300


@pytest.mark.parametrize(
    ("example", "path", "value", "message"),
    [
        ("speed", ["actions", 1, "seat"], 1.0, "seat must be 0, 1 or null"),
        ("speed", ["actions", 1, "action", "pile"], 1.0, "is neither a card nor a pile number"),
        ("spit", ["actions", 0, "action", "type"], ["play"], "an action's type must be a name"),
        ("spit", ["actions", 0, "t"], 1e300, "t must be a number of seconds from 0 to"),
        ("spit", ["rules", "countdown"], 1e300, "countdown"),
        ("speed", ["seed"], 10**20, "whole number of 21 digits is too large"),
        ("speed", ["seed"], 2**64, "seed must be from 0 to"),
        ("spit", ["players", 0], 7, "players[0] must be a string"),
    ],
)
def test_realtime_records_are_read_through_the_typed_fields(
    tmp_path: Path, example: str, path: list[Any], value: Any, message: str
) -> None:
    data = json.loads((DOCS / f"{example}-example.json").read_text())
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    record = tmp_path / "r.json"
    record.write_text(json.dumps(data), encoding="utf-8")
    assert message in one_error_line(replay(str(record)))


def test_unwritable_output_is_one_line_not_a_traceback() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        res = subprocess.run(
            [sys.executable, "-m", "cardroom", "replay", str(DOCS / "spit-example.json")],
            stdout=full, stderr=subprocess.PIPE, text=True, env=ENV, timeout=120,
        )
    assert res.returncode == 1
    assert res.stderr == "Error: cannot write the output: No space left on device\n"


def test_commands_that_do_not_simulate_do_not_load_numba() -> None:
    code = (
        "import sys\nfrom click.testing import CliRunner\nfrom cardroom.cli.main import cli\n"
        "r = CliRunner()\n"
        "for args in (['--help'], ['replay', sys.argv[1], '--json'], ['simulate', '--help'],"
        " ['tournament', 'nain-jaune', '--help'], ['play', 'nain-jaune', '--help']):\n"
        "    assert r.invoke(cli, args).exit_code == 0, args\n"
        "print('numba' in sys.modules)\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code, str(DOCS / "nain-jaune-example.json")],
        capture_output=True, text=True, env=ENV, timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "False"


def test_a_read_only_install_and_home_still_load_the_fast_path(tmp_path: Path) -> None:
    """numba cannot cache beside the package nor in the home: it caches in a temporary folder."""
    shutil.copytree(ROOT / "src" / "cardroom", tmp_path / "cardroom",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "cardroom" / "kernels" / "__pycache__").write_text("")  # a file: no folder there
    (tmp_path / "cache").write_text("")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    code = "import os, cardroom.games.nain_jaune.kernel\nprint(os.environ['NUMBA_CACHE_DIR'])"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    folder = res.stdout.strip()
    assert "cardroom-numba-" in folder and not Path(folder).exists()  # removed at exit


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "nain-jaune", "--plain", "--delay", "nan"], "'nan' is not a number from 0"),
        (["play", "nain-jaune", "--plain", "--delay", "inf"], "is not a number from 0 to 60"),
        (["play", "nain-jaune", "-n", "1000000000"], "not in the range 2 to 8"),
        (["play", "nain-jaune", "--seed", "1" + "0" * 40], "--seed"),
        (["play", "nain-jaune", "-o", "starting_chips=99999999999999999999999"], "15 to 1,000,000"),
        (["simulate", "spit", "--games", "1e23"], "not in the range 1 to 10,000,000"),
        (["simulate", "speed", "-w", "1e23"], "not in the range 1 to 256"),
        (["simulate", "speed", "-o", "target=100000000000000000000"], "target"),
        (["simulate", "nain-jaune", "-o", "end=target:1e23"], "end='target:1e23' is not valid"),
        (["tournament", "nain-jaune", "--bots", "random", "--games", "1e23"], "--games"),
    ],
)
def test_numbers_from_the_command_line_are_bounded(args: list[str], message: str) -> None:
    res = CliRunner().invoke(cli, args, input="")
    assert res.exit_code != 0
    assert message in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_workers_never_exceed_the_cores_or_the_jobs() -> None:
    assert local_workers(32) == min(32, cpu_count())
    assert local_workers(10**6, 3) <= 3
    assert local_workers(1) == 1


def test_a_plot_that_cannot_be_saved_keeps_the_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cardroom.games.nain_jaune.cli.tournament as tournament_cli

    def broken(*_: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tournament_cli, "plot", broken)
    path = tmp_path / "chart.png"
    args = ["tournament", "nain-jaune", "--bots", "random,greedy", "--games", "2", "--json",
            "--plot", str(path)]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 1
    assert json.loads(res.stdout)["games"] == 2  # the results were printed
    assert res.stderr.strip() == f"Error: could not save the chart to {path}: Permission denied"


@pytest.mark.parametrize("command", [["simulate", "nain-jaune", "--rounds", "10"],
                                     ["tournament", "nain-jaune", "--bots", "random,random",
                                      "--games", "1"]])
def test_a_plot_place_is_checked_before_the_run(tmp_path: Path, command: list[str]) -> None:
    for where, message in [
        (tmp_path, "is a directory"),
        (tmp_path / "charts", "give a file name ending in .png"),
        (tmp_path / "no-such-folder" / "c.png", "does not exist: create it first"),
        (tmp_path / "new.png" / "c.png", "does not exist"),
    ]:
        res = CliRunner().invoke(cli, [*command, "--plot", str(where)])
        assert res.exit_code == 2 and message in res.output, res.output
        assert not (tmp_path / "new.png").exists()


def test_printable_leaves_ordinary_text_alone() -> None:
    assert printable("Rémi · 7♦ wins") == "Rémi · 7♦ wins"
    assert printable("a\tb\x00") == "a\\x09b\\x00"
