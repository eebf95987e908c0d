"""The Nain Jaune terminal in French and Welsh: the Textual table (pilot) and the plain mode."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.widgets import Static

from cardroom.cli.main import cli
from cardroom.games.nain_jaune import PASS
from cardroom.games.nain_jaune.terminal.tui import NainJauneApp
from cardroom.i18n import translator
from cardroom.i18n.words import a_rank, without_call
from tests.cli.test_play_plain_nain_jaune import ARGS, scripted_commands, table_for
from tests.cli.test_tui_nain_jaune import SIZE, log_text, make_table, text_of


async def test_tui_in_french(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    app = NainJauneApp(table, delay=0, lang="fr")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = table.view()
        assert view is not None and view.need is not None
        assert "Nain Jaune · manche 1 · Bea donne · Classique français" in text_of(app, "#title")
        assert f"Ensuite : {a_rank(view.need, translator('fr'))}" in text_of(app, "#sequence")
        assert text_of(app, "#status").startswith("À vous : posez ")
        assert "Mises : 15 jetons chacun sur le plateau" in log_text(app)
        assert "15 jetons" not in text_of(app, "#players")  # the players' table has numbers only
        assert "joueur" in str(app.query_one("#players", Static).content)
        await pilot.press("question_mark")
        assert "Touches :" in log_text(app)
        await pilot.press("p")  # Ann holds a card of the needed rank: refused, in French
        reason = table.round.why_illegal(PASS) if table.round else None
        assert reason is not None
        assert text_of(app, "#message").startswith("Refusé : vous avez ")


async def test_tui_in_welsh_says_without(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    app = NainJauneApp(table, delay=0, lang="cy")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Nain Jaune · rownd 1 · Bea sy’n delio" in text_of(app, "#title")
        assert "Betiau: 15 o sglodion yr un ar y bwrdd" in log_text(app)
        # Dee said "without 8" before Ann's turn (see the English test of the same table)
        assert f"Dee: “{without_call(8, translator('cy'))}”" in log_text(app)


def test_plain_game_in_welsh_and_french(tmp_path: Path) -> None:
    expected = table_for("end=rounds:1")
    lines = scripted_commands(expected)
    for lang, words in {
        "cy": [
            "Nain Jaune: Ann yn erbyn Bea, Cid, Dee.",
            "Eich tro: ",
            "Gallwch chwarae ",
            "Diwedd y gêm ar ôl 1 rownd (chwaraewyd 1 rownd)",
        ],
        "fr": [
            "Nain Jaune : Ann contre Bea, Cid, Dee.",
            "À vous : ",
            "Vous pouvez poser ",
            "Fin de la partie après 1 manche (1 manche jouée)",
        ],
    }.items():
        args = [*ARGS, "-o", "end=rounds:1", "--records", str(tmp_path / lang), "--lang", lang]
        res = CliRunner().invoke(cli, [*args], input="\n".join([*lines, "frobnicate"]) + "\n")
        assert res.exit_code == 0, res.output
        for word in words:
            assert word in res.stdout, (lang, word)
        assert "Refused" not in res.stdout and "Your turn" not in res.stdout


def test_unreadable_input_is_refused_in_french(tmp_path: Path) -> None:
    args = [*ARGS, "--records", str(tmp_path), "--lang", "fr"]
    res = CliRunner().invoke(cli, args, input="frobnicate\naide\nquitter\n")
    assert res.exit_code == 0, res.output
    assert "Refusé : impossible de lire 'frobnicate' : ni une carte ni une commande" in res.stdout
    assert "Commandes : une carte" in res.stdout


def test_speak_says_the_calls_with_espeak_ng(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stand-in espeak-ng on PATH writes what it was asked to say."""
    said = tmp_path / "said.txt"
    fake = tmp_path / "bin" / "espeak-ng"
    fake.parent.mkdir()
    fake.write_text(f'#!/bin/sh\nprintf "%s|%s\\n" "$2" "$4" >> {said}\n', encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:{os.environ['PATH']}")
    expected = table_for("end=rounds:1")
    lines = scripted_commands(expected)
    args = [*ARGS, "-o", "end=rounds:1", "--records", str(tmp_path / "r"), "--lang", "fr",
            "--speak"]
    res = CliRunner().invoke(cli, args, input="\n".join(lines) + "\n")
    assert res.exit_code == 0, res.output
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (not said.exists() or "sans" not in said.read_text()):
        time.sleep(0.05)
    spoken = said.read_text(encoding="utf-8").splitlines()
    assert spoken and all(line.startswith("fr-fr|") for line in spoken), spoken
    assert any("« sans " in line for line in spoken)
    assert not any(" pose " in line for line in spoken)  # plain plays are not said


def test_speak_without_espeak_ng_says_so_and_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    args = [*ARGS, "--records", str(tmp_path / "r"), "--speak"]
    res = CliRunner().invoke(cli, args, input="quit\n")
    assert res.exit_code == 0, res.output
    assert "espeak-ng is not installed" in res.stderr
