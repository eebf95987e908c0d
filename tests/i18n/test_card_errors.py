"""A card that cannot be read is said in the reader's words, with what is wrong with it: from
``cards.parse_card`` (an id and fields) through a record (``cardroom replay``), the terminal
(``cardroom play``), a table's action (the web) and the rules' board cards."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cardroom.cli.main  # noqa: F401  (every command registered)
from cardroom.cards import CardError, parse_card
from cardroom.cli.groups import cli
from cardroom.games.messages import Message, message_of
from cardroom.games.nain_jaune.rules import Rules as NainJauneRules
from cardroom.games.nain_jaune.table import parse_action
from cardroom.i18n import translator
from cardroom.i18n.messages import MESSAGES, words
from cardroom.i18n.reasons import request_error_text
from cardroom.tables import TableError

RECORD = Path(__file__).resolve().parents[1] / "data" / "records" / "nain-jaune-380ca22.json"

# (typed, id, fields, French words, Welsh words)
CASES: list[tuple[Any, str, dict[str, Any], str, str]] = [
    (
        "7X",
        "card.suit",
        {"value": '"7X"', "suit": '"X"'},
        '"7X" n’est pas une carte : "X" n’est pas une couleur (écrivez C, D, H ou S, ou ♣ ♦ ♥ ♠)',
        'nid yw "7X" yn gerdyn: nid yw "X" yn siwt (ysgrifennwch C, D, H neu S, neu ♣ ♦ ♥ ♠)',
    ),
    (
        "ZD",
        "card.rank",
        {"value": '"ZD"', "rank": '"Z"'},
        '"ZD" n’est pas une carte : "Z" n’est pas un rang (écrivez A, 2 à 10 ou T, J, Q ou K)',
        'nid yw "ZD" yn gerdyn: nid yw "Z" yn safle (ysgrifennwch A, 2 i 10 neu T, J, Q neu K)',
    ),
    (
        "Q",
        "card.too-short",
        {"value": '"Q"'},
        '"Q" n’est pas une carte : écrivez son rang puis sa couleur, comme 10D ou QS',
        'nid yw "Q" yn gerdyn: ysgrifennwch ei safle ac yna ei siwt, fel 10D neu QS',
    ),
    (
        17,
        "card.not-text",
        {"value": "17"},
        "17 n’est pas une carte : une carte s’écrit sous forme de texte, comme 10D ou QS",
        "nid yw 17 yn gerdyn: ysgrifennir cerdyn fel testun, e.e. 10D neu QS",
    ),
]


@pytest.mark.parametrize(("typed", "id", "fields", "fr", "cy"), CASES)
def test_each_card_error_has_an_id_fields_and_words(
    typed: Any, id: str, fields: dict[str, Any], fr: str, cy: str
) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(typed)
    error = caught.value
    assert (error.id, error.fields) == (id, fields)
    said = message_of(error)
    assert isinstance(said, Message) and said.id == id and said.fields == fields
    assert str(said) == str(error)  # the English sentence is kept as it was
    assert id in MESSAGES
    assert words(said, translator("fr")) == fr
    assert words(said, translator("cy")) == cy
    again = pickle.loads(pickle.dumps(error))  # a worker process hands it back whole
    assert (again.id, again.fields, str(again)) == (id, fields, str(error))


def test_a_long_or_odd_value_is_cut_and_never_english() -> None:
    with pytest.raises(CardError) as caught:
        parse_card("Z" * 60 + "D")
    assert caught.value.fields["rank"] == '"' + "Z" * 22 + '…"'
    with pytest.raises(CardError) as listed:
        parse_card(["7D"] * 30)  # type: ignore[arg-type]
    assert listed.value.fields == {"value": "[…]"}  # not the English "a long list"


def test_half_a_card_is_near_a_word_is_not() -> None:
    near = {}
    for typed in ("7X", "ZD", "10Z", "frobnicate", "zz"):
        with pytest.raises(CardError) as caught:
            parse_card(typed)
        near[typed] = caught.value.near
    assert near == {"7X": True, "ZD": True, "10Z": True, "frobnicate": False, "zz": False}


# ----------------------------------------------------------------------------- a record


def _nain_jaune_record(tmp_path: Path, card: str) -> Path:
    game = json.loads(RECORD.read_text())
    one = copy.deepcopy(game[0])
    one["talon"][0] = card
    path = tmp_path / "record.json"
    path.write_text(json.dumps(one))
    return path


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("fr", '"7X" n’est pas une carte : "X" n’est pas une couleur'),
        ("cy", 'nid yw "7X" yn gerdyn: nid yw "X" yn siwt'),
    ],
)
def test_cardroom_replay_says_what_is_wrong_with_a_card(
    tmp_path: Path, lang: str, said: str
) -> None:
    path = _nain_jaune_record(tmp_path, "7X")
    result = CliRunner().invoke(cli, ["replay", str(path), "--lang", lang])
    assert result.exit_code == 1
    line = result.stderr.strip().splitlines()[-1]
    assert said in line, line
    assert "unknown suit" not in line and "use C, D" not in line


def test_a_speed_record_says_what_is_wrong_with_a_played_card() -> None:
    from cardroom.games.errors import RecordError
    from cardroom.games.speed.engine import action_from_json
    from cardroom.i18n.reasons import record_error_text

    with pytest.raises(RecordError) as caught:
        action_from_json({"type": "play", "card": "KQ", "pile": 0})
    assert caught.value.message.id == "rec.speed.card"
    assert record_error_text(caught.value, translator("fr")) == (
        'action « play » : "KQ" n’est pas une carte : "Q" n’est pas une couleur '
        "(écrivez C, D, H ou S, ou ♣ ♦ ♥ ♠)"
    )


# ----------------------------------------------------------------------------- the terminal

ARGS = ["play", "nain-jaune", "--plain", "--seed", "3", "--name", "Ann", "--bots", "greedy"]


@pytest.mark.parametrize(
    ("lang", "suit", "rank", "word"),
    [
        (
            "fr",
            'Refusé : "7X" n’est pas une carte : "X" n’est pas une couleur',
            'Refusé : "ZD" n’est pas une carte : "Z" n’est pas un rang',
            "Refusé : impossible de lire 'frobnicate' : ni une carte ni une commande",
        ),
        (
            "cy",
            'Gwrthodwyd: nid yw "7X" yn gerdyn: nid yw "X" yn siwt',
            'Gwrthodwyd: nid yw "ZD" yn gerdyn: nid yw "Z" yn safle',
            "Gwrthodwyd: methu darllen 'frobnicate': nid cerdyn na gorchymyn",
        ),
        (
            "en",
            'Refused: "7X" is not a card: "X" is not a suit',
            'Refused: "ZD" is not a card: "Z" is not a rank',
            "Refused: cannot read 'frobnicate': not a card nor a command",
        ),
    ],
)
def test_cardroom_play_says_what_is_wrong_with_a_typed_card(
    tmp_path: Path, lang: str, suit: str, rank: str, word: str
) -> None:
    result = CliRunner().invoke(
        cli,
        [*ARGS, "--records", str(tmp_path), "--lang", lang],
        input="7X\nZD\nfrobnicate\nquit\n",
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert any(line.startswith(suit) for line in lines), result.stdout[-800:]
    assert any(line.startswith(rank) for line in lines), result.stdout[-800:]
    assert any(line.startswith(word) for line in lines), result.stdout[-800:]


# ----------------------------------------------------------------------------- the web


def test_a_tables_action_says_what_is_wrong_with_its_card() -> None:
    with pytest.raises(TableError) as caught:
        parse_action("7x")
    said = caught.value.message
    assert isinstance(said, Message) and said.id == "table.unreadable-card"
    assert request_error_text(said, translator("fr")) == (
        'impossible de la jouer : "7x" n’est pas une carte : "x" n’est pas une couleur '
        "(écrivez C, D, H ou S, ou ♣ ♦ ♥ ♠)"
    )
    assert request_error_text(said, translator("cy")).startswith(
        'ni ellir ei chwarae: nid yw "7x" yn gerdyn: nid yw "x" yn siwt'
    )
    with pytest.raises(TableError) as word:
        parse_action("dance")
    assert isinstance(word.value.message, Message)
    assert word.value.message.id == "table.unreadable-action"


def test_the_rules_board_cards_say_which_card_is_wrong() -> None:
    from cardroom.games.errors import RulesError

    with pytest.raises(RulesError) as caught:
        NainJauneRules.from_options(None, {"board_cards": "10D JC QS KH 7Q"})
    said = message_of(caught.value)
    assert isinstance(said, Message) and said.id == "rules.board-card-said"
    assert words(said, translator("fr")).endswith(
        ' : "7Q" n’est pas une carte : "Q" n’est pas une couleur (écrivez C, D, H ou S, ou ♣ ♦ ♥ ♠)'
    )


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_spit_or_speed_play_says_what_is_wrong_with_its_card(game: str) -> None:
    """What a Spit or Speed table answers a person's play of an unreadable card (the websocket's
    ``act``): its words name what is wrong with the card."""
    from cardroom.games.errors import RecordError
    from cardroom.games.realtime_engine import client_action
    from cardroom.games.speed import SpeedGame, SpeedRules
    from cardroom.games.spit import SpitGame, SpitRules

    engine: Any = (
        SpitGame.new(SpitRules(), 1) if game == "spit" else SpeedGame.new(SpeedRules(), 1)
    )
    with pytest.raises(RecordError) as caught:
        client_action(engine, {"type": "play", "card": "7X", "pile": 0, "seen": "8C"})
    said = message_of(caught.value)
    assert isinstance(said, Message)
    assert said.id in ("rec.rt.action-card-said", "rec.speed.card")
    fr = words(said, translator("fr"))
    cy = words(said, translator("cy"))
    assert fr.endswith(': "7X" n’est pas une carte : "X" n’est pas une couleur (écrivez C, D, H '
                       "ou S, ou ♣ ♦ ♥ ♠)"), fr  # fmt: skip
    assert 'nid yw "7X" yn gerdyn: nid yw "X" yn siwt' in cy, cy
