"""A mutation fuzzer over the three record formats (Nain Jaune, Spit, Speed).

Each damaged record goes through the whole ``cardroom replay`` path (file, reader, replayer,
``--json`` or the readable account) and must end in exit 0 or in exit 1 with one short
``Error:`` line on stderr and nothing on stdout: never a traceback. Run more mutants with
``PYTHONPATH=src python -m tests.test_record_fuzz 20000``.
"""

from __future__ import annotations

import copy
import json
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardroom.cli.main  # noqa: F401  (registers every command on the group)
from cardroom.cli.groups import cli
from cardroom.games.nain_jaune import Game, Rules

DOCS = Path(__file__).parents[1] / "docs" / "games"

# raw JSON text that a tree cannot hold: huge or non-finite numbers, deep nesting, long strings
RAW = [
    "1" + "0" * 5000,
    "-" + "9" * 30,
    "1e400",
    "-1e400",
    "NaN",
    "Infinity",
    "-Infinity",
    "1e308",
    "123456789012345678",
    "9223372036854775808",
    "0.5",
    "1.0",
    "0.0",
    "-1",
    "0",
    "1",
    "2",
    "7",
    "99999",
    "[" * 1000 + "]" * 1000,
    "[" * 20 + "1" + "]" * 20,
    '{"a":' * 40 + "1" + "}" * 40,
    '"' + "A" * 100_000 + '"',
    '"\\u001b[31mRED\\u001b[0m"',
    '"Ann\\nBob"',
    '"\\u202eevil"',
    "null",
    "true",
    "false",
    "[]",
    "{}",
    '""',
    '"pass"',
    '"timeout"',
    '"play"',
    '"AC"',
    '"7D"',
    '"10D"',
    '["AC"]',
    '[0, 1]',
    '{"type": ["play"]}',
    '{"type": "play", "card": "AC", "pile": 1.0}',
    '{"card": "7D", "announced": false}',
    '"rounds:1"',
    '"target:100000000"',
    '"last-standing"',
]


def nain_jaune_game() -> list[dict[str, object]]:
    """A whole game by random legal play: voluntary passes, manual announcements, 4 players."""
    rules = Rules.from_options(
        "classic", {"may_stop": "true", "announce": "manual", "end": "rounds:3"}
    )
    game = Game(rules, ["Ann", "Bob", "Cid", "Dee"])
    rng = random.Random(3)
    while game.result is None:
        rnd = game.start_round(rng)
        while not rnd.over:
            actions = rnd.legal_actions()
            rnd.apply(actions[rng.randrange(len(actions))])
        game.finish_round()
    records: list[dict[str, object]] = json.loads(json.dumps(game.records))
    return records


def speed_match() -> list[dict[str, Any]]:
    """A Speed match to 10 points between two bots, as the list of its games' records."""
    from cardroom.games.speed import SpeedMatch, SpeedRules
    from cardroom.games.speed.record import record_header
    from cardroom.sim.realtime import new_table, run_table

    match = SpeedMatch(SpeedRules(target=10), seed=5)
    names = ["Ann", "Bob"]
    out: list[dict[str, Any]] = []
    rngs = [random.Random(1), random.Random(2)]
    while True:
        game = match.game
        table = new_table(game, ["hard", "expert"], rngs, names)
        run_table(table)
        out.append(table.arbiter.record(record_header(game, names, match)))
        if match.over or not game.over:
            games: list[dict[str, Any]] = json.loads(json.dumps(out))
            return games
        match.next_game()


def base_records() -> dict[str, list[Any]]:
    """The records mutated, by format."""
    speed = json.loads((DOCS / "speed-example.json").read_text(encoding="utf-8"))
    return {
        "nain-jaune": [
            nain_jaune_game(),
            json.loads((DOCS / "nain-jaune-example.json").read_text(encoding="utf-8")),
        ],
        "spit": [json.loads((DOCS / "spit-example.json").read_text(encoding="utf-8"))],
        "speed": [speed, speed_match()],
    }


def _nodes(tree: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(tree, dict):
        for key, value in tree.items():
            out += _nodes(value, (*path, key))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            out += _nodes(value, (*path, i))
    return out


def _get(tree: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        tree = tree[step]
    return tree


def _set(tree: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(tree, path[:-1])[path[-1]] = value
    return tree


class Mutant:
    """A record tree being damaged, with raw JSON text spliced in where a tree cannot hold it."""

    def __init__(self, tree: Any, rng: random.Random) -> None:
        self.tree = copy.deepcopy(tree)
        self.rng = rng
        self.raw: list[str] = []

    def text(self) -> bytes:
        out = json.dumps(self.tree, ensure_ascii=False)
        for i, raw in enumerate(self.raw):
            out = out.replace(json.dumps(f"\x00RAW{i}\x00"), raw)
        return out.encode("utf-8")

    def mutate(self) -> None:
        rng = self.rng
        nodes = _nodes(self.tree)
        path = rng.choice(nodes)
        node = _get(self.tree, path)
        kind = rng.randrange(9)
        if kind == 0:
            self.raw.append(rng.choice(RAW))
            self.tree = _set(self.tree, path, f"\x00RAW{len(self.raw) - 1}\x00")
        elif kind == 1 and path:
            parent = _get(self.tree, path[:-1])
            del parent[path[-1]]
        elif kind == 2 and isinstance(node, list) and node:
            i = rng.randrange(len(node))
            node.insert(rng.randrange(len(node) + 1), copy.deepcopy(node[i]))
        elif kind == 3 and isinstance(node, list) and len(node) > 1:
            i, j = rng.randrange(len(node)), rng.randrange(len(node))
            node[i], node[j] = node[j], node[i]
        elif kind == 4:
            self.tree = _set(self.tree, path, copy.deepcopy(_get(self.tree, rng.choice(nodes))))
        elif kind == 5 and isinstance(node, (int, float)) and not isinstance(node, bool):
            change: Callable[[Any], Any] = rng.choice(
                [lambda v: v + 1, lambda v: v - 1, lambda v: -v, lambda v: v * 1_000_000,
                 lambda v: v + 0.5, lambda v: v * 10**15]
            )
            self.tree = _set(self.tree, path, change(node))
        elif kind == 6 and isinstance(node, list) and node:
            del node[rng.randrange(len(node)) :]
        elif kind == 7 and isinstance(node, str):
            words = ["", node * 2, node[:-1], node.upper(), "pass", "K", "QS", "8", "timeout"]
            self.tree = _set(self.tree, path, rng.choice(words))
        elif kind == 8:
            self.tree = _set(self.tree, path, _confused(node, rng))


def _confused(node: Any, rng: random.Random) -> Any:
    """The same value in the wrong type or size: 1 -> 1.0 or 1e308, "play" -> ["play"]."""
    if isinstance(node, bool):
        return rng.choice([int(node), str(node).lower(), None])
    if isinstance(node, (int, float)):
        return rng.choice([float(node), 1e308, -1e308, 1e300, 2**62, str(node), [node]])
    if isinstance(node, str):
        return rng.choice([[node], {node: node}, 0, len(node) + 0.0])
    if isinstance(node, list):
        return rng.choice([{"list": node}, node[:1] * 60, len(node)])
    return rng.choice([[node], None, "x"])


def damage(tree: Any, rng: random.Random) -> bytes:
    """``tree`` damaged by one to three mutations, sometimes damaged as bytes too."""
    mutant = Mutant(tree, rng)
    for _ in range(rng.randint(1, 3)):
        mutant.mutate()
    data = mutant.text()
    if rng.random() < 0.1:
        at = rng.randrange(len(data) + 1)
        choice = rng.randrange(3)
        if choice == 0:
            data = data[:at]
        elif choice == 1 and at < len(data):
            data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
        else:
            data = data[:at] + bytes([rng.randrange(256)]) + data[at:]
    return data


def check_one(runner: CliRunner, path: Path, data: bytes, as_json: bool) -> str | None:
    """Replay ``data``; None if it ended cleanly, else what went wrong."""
    path.write_bytes(data)
    args = ["replay", str(path)] + (["--json"] if as_json else [])
    res = runner.invoke(cli, args)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        return f"{type(res.exception).__name__}: {str(res.exception)[:200]}"
    if res.exit_code == 0:
        return None
    if res.exit_code != 1:
        return f"exit code {res.exit_code}"
    lines = res.stderr.splitlines()
    if res.stdout or len(lines) != 1 or not lines[0].startswith("Error: "):
        return f"not one error line: {res.stderr[:200]!r} / stdout {res.stdout[:100]!r}"
    if len(lines[0]) > 400:
        return f"an error line of {len(lines[0])} characters"
    return None


def fuzz(count: int, seed: int) -> tuple[int, int, list[str]]:
    """Run ``count`` damaged records per format; return (runs, clean refusals, failures)."""
    runner = CliRunner()
    rng = random.Random(seed)
    failures: list[str] = []
    runs = refused = 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        for game, trees in base_records().items():
            for i in range(count):
                data = damage(trees[i % len(trees)], rng)
                problem = check_one(runner, path, data, as_json=rng.random() < 0.5)
                runs += 1
                if problem is not None:
                    failures.append(f"{game} #{i}: {problem}")
                elif data != b"":
                    refused += 1
    return runs, refused, failures


def test_the_undamaged_records_replay() -> None:
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        for trees in base_records().values():
            for tree in trees:
                path.write_text(json.dumps(tree), encoding="utf-8")
                res = runner.invoke(cli, ["replay", str(path), "--json"])
                assert res.exit_code == 0, res.output


@pytest.mark.parametrize("seed", [1, 2])
def test_damaged_records_never_crash(seed: int) -> None:
    runs, _, failures = fuzz(150, seed)
    assert runs == 3 * 150
    assert failures == []


if __name__ == "__main__":
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    n, _, bad = fuzz(total // 3 + 1, int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    for line in bad[:50]:
        print(line)
    print(f"{n} damaged records replayed, {len(bad)} crashed")
    sys.exit(1 if bad else 0)
