"""Spit and Speed line by line: typed actions on a virtual clock, the bot between them, public
events printed as lines, and the command itself through a pipe (plain chosen by itself)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardroom.arbiter import VirtualClock
from cardroom.cli.main import cli
from cardroom.terminal.realtime_plain import PlainRealtime


def _game(
    tmp_path: Path, game: str, lang: str = "en"
) -> tuple[PlainRealtime, list[str], VirtualClock]:
    out: list[str] = []
    clock = VirtualClock()
    p = PlainRealtime(game, {}, 7, "easy", "Ann", tmp_path, clock=clock, lang=lang, out=out.append)
    return p, out, clock


def test_spit_lines_and_the_bot_between_them(tmp_path: Path) -> None:
    p, out, clock = _game(tmp_path, "spit")
    p.after_change()
    assert p.command("1 1")  # before "Spit!": refused, and the line says why
    assert out[-1].endswith('refused: you cannot play before "Spit!": call it to start')
    assert p.command("s")
    assert out[-1] == '  0.0 s  Ann calls "Spit!"'
    clock.advance(5.0)
    p.pump()  # the easy bot called too (or the countdown ran out): both spit cards are turned
    assert any("spits" in line for line in out), out
    assert p.engine.view(0).centre[0] is not None and p.engine.view(0).centre[1] is not None
    before = len(out)
    assert p.command("look")
    state = out[before:]
    assert state[0].startswith("Centre: pile 1 ") and state[1].startswith("Yours: 1: ")
    assert p.command("9 1") and out[-1] == "Refused: give a number from 1 to 5"
    assert p.command("frobnicate") and "cannot read 'frobnicate'" in out[-1]
    assert not p.command("q")


def test_speed_in_welsh(tmp_path: Path) -> None:
    p, out, _clock = _game(tmp_path, "speed", "cy")
    p.after_change()
    p.command("help")
    assert out[-1].startswith("Gorchmynion: ")
    p.command("look")
    assert any(line.startswith("Canol: ") for line in out), out


def test_play_spit_through_a_pipe_is_plain_and_saves(tmp_path: Path) -> None:
    args = [
        "play",
        "spit",
        "--bot",
        "easy",
        "--seed",
        "3",
        "--name",
        "Ann",
        "--records",
        str(tmp_path),
        "--lang",
        "cy",
    ]
    res = CliRunner().invoke(cli, args, input="s\nlook\nq\n")
    assert res.exit_code == 0, res.output
    assert "Tafod yn erbyn Bot hawdd" in res.stdout
    assert 'Ann calls "Spit!"' in res.stdout or "Ann" in res.stdout
    saved = list(tmp_path.glob("spit-*.json"))
    assert len(saved) == 1
    record = json.loads(saved[0].read_text(encoding="utf-8"))
    assert record["game"] == "spit" and record["players"][0] == "Ann"


def test_spit_replay_account_in_welsh_and_french(tmp_path: Path) -> None:
    p, _out, clock = _game(tmp_path, "spit")
    p.after_change()
    p.command("s")
    clock.advance(5.0)
    p.pump()
    path = p.save()
    runner = CliRunner()
    cy = runner.invoke(cli, ["replay", str(path), "--lang", "cy"])
    assert cy.exit_code == 0, cy.output
    lines = cy.stdout.splitlines()
    assert lines[0].startswith("Tafod: Ann (sedd 0) v Easy bot (sedd 1); ")
    assert any(line.endswith("Ann yn gweiddi “Poeri!”") for line in lines), lines
    assert any("yn poeri " in line and " ar bentwr " in line for line in lines), lines
    assert lines[-1].startswith("Mae’r cofnod yn gorffen yma: ni orffennwyd y gêm.")
    # options in words
    assert "=" not in lines[0] and "Cyfrif i lawr: 3 eiliad" in lines[0], lines[0]
    fr = runner.invoke(cli, ["replay", str(path), "--lang", "fr"])
    assert any(line.endswith("Ann annonce « Spit ! »") for line in fr.stdout.splitlines())
    first = fr.stdout.splitlines()[0]
    assert "piles=" not in first and "Piles de réserve : cinq piles de 1 à 5 cartes" in first
    en = runner.invoke(cli, ["replay", str(path)])
    assert any(line.endswith('Ann calls "Spit!"') for line in en.stdout.splitlines())


def test_the_game_goes_on_while_no_line_is_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot's move falls due while nobody types: the game goes on and waits for the next
    line; it does not quit and save by itself (issue 34, item 7)."""
    import time
    from collections.abc import Iterator

    p, out, _clock = _game(tmp_path, "speed")
    waits: list[float | None] = []
    wait = p._wait

    def soon() -> float | None:  # something falls due every 10 ms
        waits.append(wait())
        return 0.01

    monkeypatch.setattr(p, "_wait", soon)
    typed: list[str] = []

    def slow_typist() -> Iterator[str]:
        time.sleep(0.3)  # nobody types for a while
        typed.append("q")
        yield "q"

    p.run_lines(slow_typist())
    assert typed == ["q"] and len(waits) >= 3  # the quit was typed, not an empty wait
    assert out[-1].startswith("Record saved to ")


def test_french_lines_built_by_code_read_as_french(tmp_path: Path) -> None:
    """Times with a decimal comma (« 3,0 s », not « 3.0s »), a space before « : » and « ; »
    in the lines the code puts together, and French packs' letters (no card is typed in Spit:
    the keys name slots and piles)."""
    p, out, clock = _game(tmp_path, "spit", "fr")
    p.after_change()
    assert p.command("s")
    assert out[-1] == "  0,0 s  Ann annonce « Spit ! »"
    clock.advance(5.0)
    p.pump()
    turned = out[-1]
    assert turned.startswith("  3,0 s  compte à rebours fini : Ann crache "), turned
    assert " ; Robot facile crache " in turned and "; " not in turned.replace(" ; ", ""), turned
    assert p.command("look")
    mine = next(line for line in out if line.startswith("Vous : "))
    # seed 7 deals Ann Q♣ and Q♠ face up: dames, « D »
    assert mine.startswith("Vous : 1 : 5♦, 2 : 6♥ (2), 3 : D♣ (3), 4 : D♠ (4), 5 : 8♥ (5)"), mine
    theirs = next(line for line in out if line.startswith("Robot facile : "))
    assert "V♥(3)" in theirs and "J♥" not in theirs, theirs
