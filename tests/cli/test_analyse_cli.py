"""``cardroom analyse``: tables, --json, --hindsight, French and Welsh words, refusals."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cardroom.bots.base import make_bot
from cardroom.cli.main import cli
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import game_record
from cardroom.games.registry import new_engine
from cardroom.sim.realtime import new_table, run_table


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, ["analyse", *args])


def write_game(tmp_path: Path, **options: str) -> tuple[Path, list[dict[str, object]]]:
    rules = Rules.from_options("classic", {"end": "rounds:2", **options})
    bots = [make_bot(b) for b in ("random", "greedy", "heuristic")]
    record = game_record(rules, ["Ann", "Bob", "Cat"], bots, 5)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    return path, record


def test_json_and_tables(tmp_path: Path) -> None:
    path, _ = write_game(tmp_path)
    res = invoke(str(path), "--json", "--worlds", "64", "--hindsight")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["players"] == ["Ann", "Bob", "Cat"] and data["worlds"] == 64
    assert data["hindsight"] and len(data["rounds"]) == 2
    again = json.loads(invoke(str(path), "--json", "--worlds", "64", "--hindsight").output)
    assert again == data  # the same record, the same figures
    text = invoke(str(path), "--worlds", "64", "--all").output
    assert "Nain Jaune:" in text and "Every decision" in text and "Accuracy" in text
    for p in data["summary"]:
        assert p["name"] in text


def test_claims_under_manual_announcements_are_valued(tmp_path: Path) -> None:
    path, _ = write_game(tmp_path, announce="manual")
    data = json.loads(invoke(str(path), "--json", "--worlds", "200").output)
    claims = [
        d
        for r in data["rounds"]
        for d in r["decisions"]
        if any(c["action"] == "claim" for c in d["choices"])
    ]
    assert claims
    # taking a box now is never worse than leaving its chips there: whoever played on
    # instead of claiming lost chips by it
    for d in claims:
        assert d["best"] == "claim"
        if d["chosen"] != "claim":
            assert d["loss"] >= 1


def test_words_in_french_and_welsh_and_refusals(tmp_path: Path) -> None:
    path, record = write_game(tmp_path)
    fr = invoke(str(path), "--worlds", "64", "--lang", "fr").output
    assert "décisions analysées" in fr and "Précision" in fr and "Joue comme" in fr
    cy = invoke(str(path), "--worlds", "64", "--lang", "cy").output
    assert "Cywirdeb" in cy and "Chwarae fel" in cy
    assert "l’expert évalue chaque choix" in CliRunner().invoke(
        cli, ["analyse", "--help", "--lang", "fr"]
    ).output.replace("\n", " ").replace("  ", " ")
    last = dict(record[-1])
    moves = last["moves"]
    assert isinstance(moves, list)
    last["moves"] = moves[:2]
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps([*record[:-1], last]))
    res = invoke(str(unfinished), "--lang", "fr")
    assert res.exit_code == 1 and "Seule une partie terminée peut être analysée" in res.output
    assert invoke(str(path), "--worlds", "1").exit_code == 2


def test_a_spit_record(tmp_path: Path) -> None:
    table = new_table(new_engine("spit", {}, 3), ["easy", "expert"],
                      [random.Random(1), random.Random(2)], ["Eve", "Xan"])
    assert run_table(table)
    path = tmp_path / "spit.json"
    path.write_text(json.dumps(table.arbiter.record()))
    text = invoke(str(path)).output
    assert "Spit: reaction times and missed plays" in text and "Slaps won" in text
    assert "Eve" in text and "Xan" in text
    data = json.loads(invoke(str(path), "--json").output)
    assert data["game"] == "spit" and [p["name"] for p in data["players"]] == ["Eve", "Xan"]
