"""``cardroom replay`` in French and Welsh (--lang and the locale), from a hand-made round."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cardroom.cli.main import cli
from tests.cli.test_replay_nain_jaune import cascade_record


def _run(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> list[str]:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(cascade_record()), encoding="utf-8")
    res = CliRunner().invoke(cli, ["replay", str(path), *args], env=env)
    assert res.exit_code == 0, res.output
    return res.stdout.splitlines()


def _in_order(lines: list[str], expected: list[str]) -> None:
    positions = [lines.index(line) for line in expected]
    assert positions == sorted(positions)


def test_french_account(tmp_path: Path) -> None:
    lines = _run(tmp_path, "--lang", "fr")
    _in_order(
        lines,
        [
            "Mises : 15 jetons chacun sur le plateau",
            "Ann pose A♣",
            "Ann : « sans 4 »",
            "Bob : « sans 7 »",
            "Dee : « Nain Jaune qui prend » (40 jetons)",
            "Dee : « 10 qui prend » (8 jetons)",
            "Dee : « sans valet »",
            "Eve : « valet qui prend » (16 jetons)",
            "Fay : « sans roi »",
            "Bob commence une nouvelle suite (après un roi)",
            "Bob n’a plus de cartes et gagne la manche",
            "Règlement :",
            "  Cid paie 28 à Bob",
            "  Hal paie 45 des 47 dus (tout ce qui lui reste) à Bob",
            "Bob gagne la manche.",
            "Jetons : Ann 18 · Bob 238 · Cid 17 · Dee 90 · Eve 29 · Fay 3 · Gus 29 · Hal 0",
            "Plateau : 10♦ 0 · V♣ 0 · D♠ 24 · R♥ 32 · 7♦ 0",
            "Prochain donneur : Ann",
        ],
    )
    assert lines[0].startswith("Manche : Ann, Bob, Cid")
    assert "Hal donne ; Classique français" in lines[0]


def test_welsh_account_from_the_locale(tmp_path: Path) -> None:
    lines = _run(
        tmp_path,
        env={
            "CARDROOM_LANG": "",
            "LANGUAGE": "",
            "LC_ALL": "",
            "LC_MESSAGES": "",
            "LANG": "cy_GB.UTF-8",
        },
    )
    _in_order(
        lines,
        [
            "Betiau: 15 o sglodion yr un ar y bwrdd",
            "Ann yn chwarae A♣",
            "Ann: “heb 4”",
            "Dee: “Corrach Melyn sy’n cymryd” (40 o sglodion)",
            "Eve: “gwas sy’n cymryd” (16 o sglodion)",
            "Eve: “heb frenhines”",
            "Taliadau:",
            "  Cid yn talu 28 i Bob",
            "Bob sy’n ennill y rownd.",
            "Deliwr nesaf: Ann",
        ],
    )


def test_lang_option_wins_over_the_locale(tmp_path: Path) -> None:
    lines = _run(tmp_path, "--lang", "en", env={"LANG": "fr_FR.UTF-8", "CARDROOM_LANG": ""})
    assert 'Dee: "Yellow Dwarf who takes" (40 chips)' in lines
    lines = _run(
        tmp_path,
        env={
            "LANG": "fr_FR.UTF-8",
            "CARDROOM_LANG": "",
            "LANGUAGE": "",
            "LC_ALL": "",
            "LC_MESSAGES": "",
        },
    )
    assert "Dee : « Nain Jaune qui prend » (40 jetons)" in lines


def test_group_lang_option(tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(cascade_record()), encoding="utf-8")
    res = CliRunner().invoke(cli, ["--lang", "cy", "replay", str(path)])
    assert res.exit_code == 0 and "Ann: “heb 4”" in res.stdout


def test_the_players_who_could_not_pay_agree_with_their_number() -> None:
    """« N’a pas pu » for one player, « N’ont pas pu » for several (the verb before a list)."""
    from cardroom.games.nain_jaune.engine import RoundResult
    from cardroom.games.nain_jaune.rules import Rules
    from cardroom.games.nain_jaune.terminal.text import result_lines

    names = ["Ann", "Bob", "Dee", "Gus", "Hal"]

    def said(short: tuple[int, ...]) -> str:
        result = RoundResult(1, False, (9, 9, 0, 0, 0), (0,) * 5, 2, short)
        return result_lines(result, Rules(), names, "fr")[1]

    assert said((4,)) == "N’a pas pu tout payer : Hal"
    assert said((2, 3, 4)) == "N’ont pas pu tout payer : Dee, Gus, Hal"


def test_the_terminal_game_keeps_the_letters_typed() -> None:
    """The terminal game prints the letters a player types (``qs`` for Q♠), the replay the
    letters of French packs (D♠)."""
    from cardroom.cards import Card
    from cardroom.games.nain_jaune.terminal.text import board_text, cards_text

    cards = [Card.parse(c) for c in ("QS", "JC", "KH", "AD")]
    assert cards_text(cards) == "Q♠ J♣ K♥ A♦"
    assert cards_text(cards, "fr") == "D♠ V♣ R♥ A♦"
    assert board_text(cards[:2], [3, 4], "fr") == "D♠ 3 · V♣ 4"
