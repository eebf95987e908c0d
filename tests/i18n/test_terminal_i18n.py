"""The rest of the terminal in French and Welsh: the Spit/Speed Textual UI, both footers,
``--help`` (our texts and click's words), simulate/tournament output and the save notices."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console
from textual.widgets import Static
from textual.widgets._footer import FooterKey  # (textual.widgets does not export it)

from cardroom.arbiter import VirtualClock
from cardroom.cli.main import cli
from cardroom.games.nain_jaune.cli import simulate as simulate_cli
from cardroom.games.nain_jaune.cli.play import build_table
from cardroom.games.nain_jaune.terminal import game as terminal
from cardroom.games.nain_jaune.terminal.tui import NainJauneApp
from cardroom.games.speed import SpeedGame, SpeedRules
from cardroom.terminal.realtime_plain import PlainRealtime
from cardroom.terminal.realtime_tui import RealtimeApp
from tests.cli.test_tui_nain_jaune import SIZE, make_table
from tests.realtime.test_tui_fixes import RUN, slot_key
from tests.speed.deals import H, make_deal

SLOW_BOT = "reaction:min=100,max=100"
"""A bot that does nothing unless the test moves the clock."""


def shown(app: RealtimeApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


# -- the Spit/Speed Textual UI -----------------------------------------------------------------


async def test_spit_screen_in_french(tmp_path: Path) -> None:
    clock = VirtualClock()
    app = RealtimeApp("spit", {}, 5, SLOW_BOT, "Ann", tmp_path, clock=clock, lang="fr")
    async with app.run_test(size=(200, 30)) as pilot:
        assert shown(app, "#keys") == (
            "1-5 choisir une pile de réserve · a/← poser sur la pile 1 · d/→ poser sur la pile 2"
            " · t retourner · m mettre dans une place vide · espace « Spit ! » · z/x frapper la"
            " pile 1/2 · q/Ctrl-C quitter (enregistre)"
        )
        assert app.sub_title == "Spit contre Robot (graine 5)"
        assert shown(app, "#status") == (
            "Phase : début   annoncer « Spit ! » (espace)   compte à rebours 3,0 s"
        )
        assert shown(app, "#centre").startswith("Centre :  pile 1 -- (0)     pile 2 -- (0)")
        assert shown(app, "#mine").endswith("pile de spit 11")
        assert app.log_lines[0] == "Spit : annoncez (espace) pour retourner les premières cartes."
        await pilot.press("a")  # nothing picked
        assert shown(app, "#status").endswith("choisissez d’abord une carte (1-5)")
        await pilot.press("1", "a")  # before "Spit!": refused by the engine, said in French
        refusal = "vous ne pouvez pas jouer avant « Spit ! » : annoncez-le pour commencer"
        assert shown(app, "#status").endswith("refusé : " + refusal)
        assert app.log_lines[-1].startswith("   0,00 s  Ann : poser ")
        assert app.log_lines[-1].endswith(" sur la pile 1 refusé : " + refusal)
        await pilot.press("space")
        assert app.log_lines[-1] == "   0,00 s  Ann annonce « Spit ! »"
        await pilot.press("q")
    (path,) = tmp_path.glob("*.json")
    assert app.farewell == [f"Enregistrement sauvé dans {path}"]


async def test_speed_result_and_keys_in_french(tmp_path: Path) -> None:
    game = SpeedGame(SpeedRules(), make_deal(middle="AC 7H", draw0=RUN), 0)
    clock = VirtualClock()
    app = RealtimeApp("speed", {}, 1, SLOW_BOT, "Ann", tmp_path, clock=clock, lang="fr")
    app._start(game)
    async with app.run_test(size=(200, 30)) as pilot:
        assert shown(app, "#keys") == (
            "1-5 choisir une carte · a/← poser sur la pile 1 · d/→ poser sur la pile 2 · espace"
            " demander de retourner (quand vous ne pouvez pas jouer) · q/Ctrl-C quitter"
            " (enregistre)"
        )
        await pilot.press("space")
        assert "(a demandé)" not in shown(app, "#opponent")
        assert shown(app, "#status") == "Phase : début   ont demandé : Ann   compte à rebours 3,0 s"
        clock.advance_to(3.0)
        app.pump()
        for n, card in enumerate(H(RUN)):
            clock.advance_to(4.0 + n)
            await pilot.press(slot_key(app, card), "a")
        await pilot.pause()
        assert game.over and game.winner == 0
        assert shown(app, "#status") == (
            "Phase : finie   Ann gagne (cartes restantes : 0 / 15). Ann marque 10 points : un par "
            "carte restée dans la pioche du perdant.   q pour quitter"
        )
        assert app.log_lines[-2:] == [
            "Ann gagne (cartes restantes : 0 / 15). Ann marque 10 points : un par carte restée "
            "dans la pioche du perdant.",
            "Appuyez sur q pour quitter.",
        ]


async def test_speed_screen_in_welsh(tmp_path: Path) -> None:
    clock = VirtualClock()
    app = RealtimeApp("speed", {}, 5, "easy", "Ann", tmp_path, clock=clock, lang="cy")
    async with app.run_test(size=(200, 30)) as pilot:
        assert app.names[1] == "Bot hawdd"
        assert app.sub_title == "Cyflymder yn erbyn Bot hawdd (hedyn 5)"
        assert shown(app, "#status") == (
            "Cyfnod: dechrau   galw am y troi (Bylchwr)   cyfrif i lawr 3.0 eiliad"
        )
        assert shown(app, "#opponent") == "Bot hawdd: 5 yn y llaw, 10 i’w codi"
        assert shown(app, "#centre").endswith("pentyrrau ochr 10 / 10")
        await pilot.press("d")
        assert shown(app, "#status").endswith("dewiswch gerdyn yn gyntaf (1-5)")
        await pilot.press("q")
    (path,) = tmp_path.glob("*.json")
    assert app.farewell == [f"Cadwyd y cofnod yn {path}"]


def test_plain_spit_own_refusal_in_welsh(tmp_path: Path) -> None:
    out: list[str] = []
    p = PlainRealtime(
        "spit", {}, 7, "easy", "Ann", tmp_path, clock=VirtualClock(), lang="cy", out=out.append
    )
    p.after_change()
    assert p.command("1 1")
    assert out[-1].startswith("0.0 eiliad  Ann: gwrthodwyd chwarae ")
    assert out[-1].endswith(
        " ar bentwr 1: allwch chi ddim chwarae cyn “Poeri!”: gwaeddwch ef i ddechrau"
    )
    p.command("look")
    assert any(line.startswith("Eich rhai chi: 1: ") and "pentwr poeri" in line for line in out)


# -- the footers ------------------------------------------------------------------------------


async def test_nain_jaune_footer_in_french(tmp_path: Path) -> None:
    app = NainJauneApp(make_table(tmp_path), delay=0, lang="fr")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        keys = {str(k.description) for k in app.query(FooterKey)}
        expected = {"Poser la carte", "Passer", "Ramasser", "Manche suivante", "Aide", "Quitter"}
        assert expected <= keys
        assert not keys & {"Play card", "Pass", "Claim", "Next round", "Help", "Quit"}
    english = NainJauneApp(make_table(tmp_path / "en"), delay=0, lang="en")
    async with english.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Play card" in {str(k.description) for k in english.query(FooterKey)}


def test_realtime_key_descriptions_in_french(tmp_path: Path) -> None:
    app = RealtimeApp("spit", {}, 5, SLOW_BOT, "Ann", tmp_path, clock=VirtualClock(), lang="fr")
    described = {b.description for _k, b in app._bindings if b.description}
    wanted = {"choisir 1-5", "pile de gauche", "frapper à droite", "quitter (enregistre)"}
    assert wanted <= described
    assert "left pile" not in described
    other = RealtimeApp("spit", {}, 5, SLOW_BOT, "Ann", tmp_path, clock=VirtualClock())
    assert "left pile" in {b.description for _k, b in other._bindings}  # per app, not per class


# -- --help -----------------------------------------------------------------------------------


def _invoke(args: list[str], **env: str) -> str:
    res = CliRunner().invoke(cli, args, env=env or None)
    assert res.exit_code == 0, res.output
    return res.output


def flat(text: str) -> str:
    """``text`` with its lines joined (help is wrapped to the terminal's width)."""
    return " ".join(text.split())


def test_cardroom_help_in_french_and_welsh() -> None:
    fr = _invoke(["--lang", "fr", "--help"])
    assert fr.startswith("Usage : ")
    for phrase in (
        "cardroom : jouer, revoir, simuler et étudier des jeux de cartes : Nain Jaune, Spit et "
        "Speed.",
        "Exemples : cardroom play nain-jaune jouer contre trois robots",
        "Chaque commande a son propre --help.",
        "--version Afficher la version et quitter.",
        "-h, --help Afficher ce message et quitter.",
        "Commandes : analyse Analyse le RECORD (JSON) d’une partie terminée",
        "play Jouer dans le terminal contre des robots",
    ):
        assert phrase in flat(fr), phrase
    assert "Show this message" not in fr and "Examples" not in fr
    cy = _invoke(["--help", "--lang=cy"])  # the option after --help counts too
    assert cy.startswith("Defnydd: ")
    for phrase in (
        "cardroom: chwarae, ailchwarae, efelychu ac astudio gemau cardiau: Nain Jaune, Tafod a "
        "Chyflymder.",
        "-h, --help Dangos y neges hon a gadael.",
        "Opsiynau:",
        "Gorchmynion:",
        "simulate Chwarae llawer o gemau rhwng botiau a’u crynhoi.",
    ):
        assert phrase in flat(cy), phrase
    # and English again afterwards: nothing of the last language stays behind
    en = _invoke(["--help"])
    assert en.startswith("Usage: ") and "-h, --help Show this message and exit." in flat(en)


def test_play_help_in_french_and_welsh() -> None:
    fr = flat(_invoke(["play", "--help"], CARDROOM_LANG="", LANGUAGE="", LC_ALL="fr_FR.UTF-8"))
    # from the locale
    assert "Jouer dans le terminal contre des robots : Nain Jaune, Spit et Speed." in fr
    assert "nain-jaune Jouer au Nain Jaune dans le terminal contre des robots." in fr
    assert "Chaque partie est enregistrée (dans cardroom-records/ par défaut)" in fr
    cy = _invoke(["play", "--help", "--lang", "cy"])
    assert cy.startswith("Defnydd: ")
    assert "Chwarae yn y derfynell yn erbyn botiau: Nain Jaune, Tafod a Chyflymder." in flat(cy)
    assert "spit Chwarae Tafod mewn amser real yn erbyn bot, yn y" in flat(cy)
    spit = flat(_invoke(["play", "spit", "--lang", "cy", "--help"]))
    for phrase in (
        "Chwarae Tafod mewn amser real yn erbyn bot, yn y derfynell.",
        "mae’r Bylchwr yn galw “Poeri!” ar y dechrau ac mewn cyfyngder",
        "Enghreifftiau: cardroom play spit yn erbyn bot canolig",
        "Opsiwn yn rheolau Tafod (gellir ei ailadrodd).",
        "[diofyn: medium]",
    ):
        assert phrase in spit, phrase
    nj = flat(_invoke(["play", "nain-jaune", "--help", "--lang", "fr"]))
    assert "Force des robots : easy (random), medium (greedy)" in nj
    assert "[défaut : classic]" in nj and "Touches (plein écran) :" in nj
    # a card is typed with the English letters (qs), and the help says so
    assert "(a 2-9 0/t j q k, lettres anglaises : j valet, q dame, k roi)" in nj


def test_a_usage_error_in_french() -> None:
    res = CliRunner().invoke(cli, ["--lang", "fr", "play", "nain-jaune", "--players", "99"])
    assert res.exit_code == 2
    assert "Erreur : Valeur invalide pour '--players'" in res.output
    assert "Essayez « " in res.output


# -- simulate and tournament output -----------------------------------------------------------


def test_simulate_spit_in_welsh() -> None:
    res = CliRunner().invoke(
        cli, ["simulate", "spit", "--games", "3", "--bots", "easy,easy", "--seed", "1",
              "--lang", "cy"],
    )
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Tafod: 3 gêm, hedyn 1" in out  # Welsh: 3 takes the singular after a numeral
    for word in ("bot", "buddugoliaethau", "cyfradd ennill", "Hyd gêm: ", " eiliad o amser gêm",
                 "Cyfyngderau: ", " y gêm (", "Ailddelio: ", "Chwarae rhy hwyr a wrthodwyd: "):
        assert word in out, word
    assert "wins" not in out and "Game length" not in out


def test_tournament_in_welsh() -> None:
    res = CliRunner().invoke(
        cli, ["tournament", "nain-jaune", "--bots", "random,random", "--games", "2",
              "--players", "2", "--lang", "cy"],
    )
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Nain Jaune: 2 ddeliad × 2 gylchdro, seddi random random#2, hedyn 0" in out
    for word in ("sglodion/rownd", "CH 95%", "buddugoliaethau", "operâu", "sgôr"):
        assert word in out, word
    assert "chips/round" not in out and "rating" not in out


def test_welsh_tournament_counts_its_rotations() -> None:
    """Three seats: three rotations, « 3 chylchdro » (the number mutates the noun)."""
    res = CliRunner().invoke(
        cli, ["tournament", "nain-jaune", "--bots", "random,random", "--games", "1",
              "--players", "3", "--lang", "cy"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "Nain Jaune: 1 deliad × 3 chylchdro, seddi" in res.stdout


def test_simulate_nain_jaune_summary_in_welsh() -> None:
    summary: dict[str, Any] = {
        "players": 2, "bots": ["random", "greedy"], "rounds": 1200, "rounds_per_second": 5000.4,
        "cards_per_round": 30.5, "passes_per_round": 4.25,
        "grand_opera": {"rounds": 3, "frequency": 0.0025},
        "games": {"finished": 10, "rounds_per_game": 12.0, "cut_at_chunk_end": 1,
                  "chunk_rounds": 1000, "end_reasons": {"nobody can stake": 10}},
        "seats": [{"seat": 0, "bot": "random", "rounds_won": 500, "chips_won": -20,
                   "chips_won_per_round": -0.0167, "games_won": 4}],
        "per_bot": {"random": {"seats": 1, "chips_won_per_round": -0.0167, "rounds_won": 500,
                               "games_won": 4}},
        "boxes": [{"card": "7D", "mean": 2.5, "max": 9}],
    }  # fmt: skip
    buf = io.StringIO()
    simulate_cli.show(summary, Console(file=buf, width=200), "cy")
    out = buf.getvalue()
    for phrase in ("Efelychiad Nain Jaune", "rowndiau yr eiliad", "3 rownd (0.250%)",
                   "Caiff y rowndiau eu chwarae mewn sypiau o 1,000", "Sut y daeth y gemau",
                   "sglodion a enillwyd", "Blychau ar ôl rownd"):
        assert phrase in out, phrase
    assert "rounds per second" not in out and "Seats" not in out


# -- the save notices -------------------------------------------------------------------------


def test_a_failed_save_is_told_in_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(os.environ, "CARDROOM_LANG", "fr")
    table = build_table(2, "classic", ("end=rounds:1",), 5, "Ann", "easy", (), tmp_path)
    table.start_round()

    def broken(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    real = terminal.write_atomically
    monkeypatch.setattr(terminal, "write_atomically", broken)
    table.save()
    table.save()
    assert table.take_notices() == [
        f"Impossible d’enregistrer la partie dans {table.path} : No space left on device. "
        "La partie continue ; nouvel essai après le prochain coup."
    ]
    monkeypatch.setattr(terminal, "write_atomically", real)
    table.save()
    assert table.take_notices() == [f"La partie est de nouveau enregistrée dans {table.path}."]


def test_resume_notice_in_welsh(tmp_path: Path) -> None:
    args = ["play", "nain-jaune", "--plain", "--seed", "3", "--players", "2", "--records",
            str(tmp_path), "--lang", "cy"]
    res = CliRunner().invoke(cli, args, input="quit\n")
    assert res.exit_code == 0, res.output
    (path,) = tmp_path.glob("*.json")
    assert f"Ailchwaraewch hi gyda: cardroom replay {path}" in res.output
    res = CliRunner().invoke(
        cli, ["play", "nain-jaune", "--plain", "--resume", str(path), "--lang", "cy"],
        input="quit\n",
    )
    assert res.exit_code == 0, res.output
    assert f"Ailddechrau {path} yn rownd 1." in res.stderr
