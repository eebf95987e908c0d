"""Every refusal of a request is a message with an id, told in French and Welsh words: the rules'
errors below the lobby and the command line (the board's cards, a malformed rules object, an
option not written key=value), the engines' refusals of a table (players, chips, an end that can
never come), the lobby's own and the websocket's. Nothing English, no option key, no code."""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from cardroom.cli.main import cli
from cardroom.games.errors import RulesError
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.engine import Game, Round
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.simulate import Simulation
from cardroom.games.nain_jaune.table import parse_action
from cardroom.games.options import parse_option_pairs
from cardroom.games.registry import new_engine
from cardroom.games.speed.record import record_header as speed_header
from cardroom.games.speed.rules import SpeedRules
from cardroom.games.spit.record import record_header as spit_header
from cardroom.games.spit.rules import SpitRules
from cardroom.i18n import placeholders, translator
from cardroom.i18n.messages import MESSAGES, words
from cardroom.i18n.reasons import rules_error_text
from cardroom.tables import SeatSpec, TableConfig
from cardroom.web import Settings, create_app
from cardroom.web.protocol import decode_create, decode_message

LANGS = ("fr", "cy")

# English words no French or Welsh refusal may keep.
ENGLISH = (
    " is ",
    " must ",
    " not ",
    "players",
    "chips",
    " cards",
    "board",
    "seat",
    "rules",
    "bad ",
    "unknown",
    "choose",
    " give ",
    "use ",
    "answer",
    " the ",
    "request",
    "Expected",
    "field",
    "nested",
)
# Keys and codes a person never reads (what they typed themself aside).
CODES = (
    "board_cards",
    "may_stop",
    "starting_chips",
    "piles",
    "end=",
    "target:",
    "rounds:",
    "true",
    "false",
    "$.",
    "`",
    "7D",
    "nain-jaune",
)


def _general(lang: str) -> str:
    """The general refusal, said when a message has no words (never the answer here)."""
    return translator(lang)._(str(MESSAGES["refused"]))


def _typed(message: Message) -> list[str]:
    """What the person typed, as the message quotes it (it may be anything)."""
    return [str(message.fields[k]) for k in ("typed", "value") if k in message.fields]


def assert_in_words(message: object) -> None:
    """``message`` has an id with words, and says no English word and no code in French and
    Welsh."""
    assert isinstance(message, Message), repr(message)
    assert message.id in MESSAGES, message.id
    for lang in LANGS:
        said = words(message, translator(lang))
        assert said != _general(lang), (message.id, said)  # not the general refusal
        bare = said
        for typed in _typed(message):
            bare = bare.replace(typed, "")
        assert not any(w in bare for w in ENGLISH), (lang, said)
        assert not any(c in bare for c in CODES), (lang, said)


def _raised(make: Callable[[], object]) -> Exception:
    with pytest.raises(Exception) as caught:
        make()
    return caught.value


def _message_of(error: Exception) -> object:
    """The message an error was raised with (a record error keeps it as its ``detail``)."""
    for said in (getattr(error, "message", None), getattr(error, "detail", None)):
        if isinstance(said, Message):
            return said
    return error.args[0] if error.args else None


def _raised_message(make: Callable[[], object]) -> Message:
    """The :class:`Message` the error ``make`` raises was raised with."""
    message = _message_of(_raised(make))
    assert isinstance(message, Message), message
    return message


def _spit() -> Any:
    return new_engine("spit", {}, 1)


def _speed() -> Any:
    return new_engine("speed", {}, 1)


def _seats(n: int) -> tuple[SeatSpec, ...]:
    return (SeatSpec("person"), *([SeatSpec("bot", "easy")] * (n - 1)))


RAISED: dict[str, Callable[[], object]] = {
    "board cards twice": lambda: Rules.from_options(
        None, {"board_cards": ["10D", "10D", "QS", "KH", "7D"]}
    ),
    "board without the dwarf": lambda: Rules.from_options(
        None, {"board_cards": ["10D", "JC", "QS", "KH", "8D"]}
    ),
    "board card unreadable": lambda: Rules.from_options(None, {"board_cards": "XX"}),
    "board cards not a list": lambda: Rules.from_options(None, {"board_cards": 5}),
    "rules not an object": lambda: Rules.from_json([1, 2]),
    "spit rules not an object": lambda: SpitRules.from_json("piles"),
    "speed rules not an object": lambda: SpeedRules.from_json(3),
    "preset not a name": lambda: Rules.from_json({"preset": 3}),
    "option not key=value": lambda: parse_option_pairs(["may_stop"]),
    "flag neither yes nor no": lambda: Rules.from_options(None, {"may_stop": "maybe"}),
    "game of nine": lambda: Game(Rules(), [f"p{i}" for i in range(9)]),
    "round of one": lambda: Round.deal(Rules(), [60], [0] * 5, 0, random.Random(1)),
    "dealer not a seat": lambda: Game(Rules(), ["a", "b"], dealer=5),
    "target never reached": lambda: Game(
        Rules.from_options(None, {"end": "target:1000"}), ["a", "b"]
    ),
    "spit of three": lambda: spit_header(_spit(), ["a", "b", "c"]),
    "speed of one": lambda: speed_header(_speed(), ["a"]),
    "table of nine": lambda: TableConfig(rules=Rules(), seats=_seats(9), seed=1),
    "table whose target is never reached": lambda: TableConfig(
        rules=Rules.from_options(None, {"end": "target:1000"}), seats=_seats(3), seed=1
    ),
    "simulation whose target is never reached": lambda: Simulation.build(
        1, players=2, options={"end": "target:1000"}
    ),
    "table request of the wrong type": lambda: decode_create(b'{"name": "A", "players": "4"}'),
    "table request with an unknown field": lambda: decode_create(b'{"name": "A", "x": 1}'),
    "message too deep": lambda: decode_message("[" * 100_000 + "]" * 100_000),
    "message not an object": lambda: decode_message("[1]"),
    "message of no known type": lambda: decode_message('{"type": "dance"}'),
    "message of a known type, badly": lambda: decode_message('{"type": "act", "seq": "x"}'),
    "act without seq": lambda: decode_message('{"type": "act", "action": "7D"}'),
    "action unreadable": lambda: parse_action("XX"),
}


@pytest.mark.parametrize("path", sorted(RAISED))
def test_each_raised_refusal_is_a_message_in_words(path: str) -> None:
    error = _raised(RAISED[path])
    message = _message_of(error)
    assert_in_words(message)
    if isinstance(error, RulesError):  # the command line says it in words too
        assert isinstance(message, Message)
        for lang in LANGS:
            assert rules_error_text(error, translator(lang)) == words(message, translator(lang))


def test_the_english_sentences_are_kept() -> None:
    """Records, logs and the English command line keep the sentences they always had."""
    error = _raised(RAISED["board cards twice"])
    assert str(error) == "board_cards must be five different cards"
    error = _raised(RAISED["game of nine"])
    assert str(error) == "Nain Jaune is played by 2 to 8 players, not 9"
    error = _raised(RAISED["speed of one"])
    assert str(error) == "Speed is played by two players, not 1"
    error = _raised(RAISED["option not key=value"])
    assert str(error) == "option 'may_stop' must be written key=value (see --help)"


def test_the_words_of_a_few_refusals() -> None:
    said = {
        lang: words(_raised_message(RAISED[path]), translator(lang))
        for lang in LANGS
        for path in ("game of nine",)
    }
    assert said == {
        "fr": "le Nain Jaune se joue de 2 à 8 joueurs, pas à 9",
        "cy": "chwaraeir Nain Jaune gan 2 i 8 chwaraewr, nid 9",
    }
    spit = _raised_message(RAISED["spit of three"])
    assert words(spit, translator("fr")) == "le Spit se joue à deux, pas à 3"
    assert words(spit, translator("cy")) == "chwaraeir Tafod gan ddau chwaraewr, nid 3"
    flag = _raised_message(RAISED["flag neither yes nor no"])
    assert words(flag, translator("fr")).endswith("répondez oui ou non")
    assert words(flag, translator("cy")).endswith("atebwch ie neu na")


@pytest.mark.parametrize(
    ("typed", "value"), [("oui", True), ("non", False), ("ie", True), ("na", False)]
)
def test_yes_and_no_are_understood_as_the_words_ask(typed: str, value: bool) -> None:
    assert Rules.from_options(None, {"may_stop": typed}).may_stop is value
    assert SpitRules.from_options({"alternate_colours": typed}).alternate_colours is value


SRC = Path(__file__).resolve().parents[2] / "src" / "cardroom"


def _message_ids() -> dict[str, str]:
    """Every ``Message("id", …)`` the code writes -> the file it is written in."""
    found: dict[str, str] = {}
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Message"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found[node.args[0].value] = path.name
    return found


def test_every_message_the_code_raises_has_words_in_every_language() -> None:
    ids = _message_ids()
    assert {"table.seat-taken", "table.busy", "chat.db-down", "rules.players"} <= set(ids)
    assert sorted(i for i in ids if i not in MESSAGES) == []
    for id, where in ids.items():
        text = MESSAGES[id]
        if isinstance(text, tuple) or placeholders(text) or id == "refused":
            continue  # told with its fields, above and in test_rules_errors.py
        for lang in LANGS:
            said = translator(lang)._(text)
            assert said != text, (where, id, lang)  # translated, not left in English
            assert said != _general(lang)


def test_a_rules_page_that_does_not_exist_is_said_in_words(client_fr: TestClient) -> None:
    response = client_fr.get("/rules/chess?lang=fr")
    assert response.status_code == 404
    assert "Cette page de règles n’existe pas" in response.text
    assert "nain-jaune" not in response.text


# ---------------------------------------------------------------------------- the lobby

BODIES: dict[str, tuple[dict[str, Any], str]] = {
    "board cards twice": (
        {"options": {"board_cards": ["10D", "10D", "QS", "KH", "7D"]}},
        "rules.board-different",
    ),
    "board card unreadable": ({"options": {"board_cards": "XX"}}, "rules.board-card-said"),
    "board cards not a list": ({"options": {"board_cards": 5}}, "rules.board-cards"),
    "nine players": ({"players": 9}, "rules.players"),
    "one player": ({"players": 1}, "rules.players"),
    "too many chips": ({"starting_chips": 10**7}, "rules.starting-chips"),
    "a target never reached": ({"end": "target:100000"}, "rules.target-unreachable"),
    "a flag neither yes nor no": ({"options": {"may_stop": "maybe"}}, "rules.not-valid"),
    "games of a match": ({"game": "spit", "options": {"games": "x"}}, "lobby.games"),
    "a bot in the first seat": (
        {"players": 2, "seats": [{"kind": "bot"}, {"kind": "person"}]},
        "lobby.seat-0",
    ),
    "hints at Spit": ({"game": "spit", "hints": True}, "lobby.hints-nain-jaune"),
    "hints at a rated table": ({"rated": True, "hints": True}, "lobby.rated-hints"),
    "a field of the wrong type": ({"players": "four"}, "lobby.bad-request"),
    "an unknown field": ({"colour": "red"}, "lobby.bad-request"),
    "a name with a private-use character": ({"name": "Ann\ue000"}, "table.name-chars"),
}


@pytest.fixture(scope="module")
def lobby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("lobby")
    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{path / 'web.db'}",
        bot_delay=0.0,
        tables_per_minute=1000,
        open_tables_per_client=1000,
    )
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture
def client_fr(lobby: TestClient) -> TestClient:
    return lobby


@pytest.mark.parametrize("case", sorted(BODIES))
def test_each_lobby_refusal_has_an_id_and_words(lobby: TestClient, case: str) -> None:
    body, id = BODIES[case]
    for lang in LANGS:
        response = lobby.post(f"/api/tables?lang={lang}", json={"name": "Ann", **body})
        assert response.status_code == 400, response.json()
        answer = response.json()
        assert answer["id"] == id
        said = answer["message"]
        assert said != _general(lang)
        for typed in ("'x'", "'XX'", "'maybe'", "10000000"):
            said = said.replace(typed, "")
        assert not any(w in said for w in ENGLISH), (lang, said)
        assert not any(c in said for c in CODES), (lang, said)
    assert lobby.get("/api/tables").json()["mine"] == []  # nothing was created


# ---------------------------------------------------------------------------- the command line

COMMANDS: dict[str, list[str]] = {
    "option not key=value": ["play", "nain-jaune", "--plain", "-o", "may_stop"],
    "board card unreadable": ["play", "nain-jaune", "--plain", "-o", "board_cards=XX"],
    "a target never reached": ["play", "nain-jaune", "--plain", "-o", "end=target:100000"],
    "nine players": ["play", "nain-jaune", "--plain", "--players", "9"],
    "spit option not key=value": ["play", "spit", "--plain", "-o", "piles"],
    "spit slap": ["play", "spit", "--plain", "-o", "slap=fast"],
    "simulate option not key=value": ["simulate", "nain-jaune", "--rounds", "1", "-o", "may_stop"],
    "simulate a target never reached": (
        ["simulate", "nain-jaune", "--rounds", "1", "-o", "end=target:100000"]
    ),
    "tournament option not key=value": (
        ["tournament", "nain-jaune", "--bots", "random,greedy", "--games", "1", "-o", "may_stop"]
    ),
}


@pytest.mark.parametrize("case", sorted(COMMANDS))
def test_each_command_line_refusal_is_in_words(case: str, tmp_path: Path) -> None:
    args = COMMANDS[case]
    if args[:2] == ["play", "nain-jaune"]:
        args = [*args, "--records", str(tmp_path)]
    for lang in LANGS:
        result = CliRunner().invoke(cli, [*args, "--lang", lang])
        assert result.exit_code in (1, 2), result.output
        line = result.stderr.strip().splitlines()[-1]
        assert line.startswith({"fr": "Erreur : ", "cy": "Gwall: "}[lang]), line
        said = line.split(": ", 1)[1]
        for typed in ("--option", "--players", "'-n'", "'may_stop'", "'piles'", "'XX'", "'fast'"):
            said = said.replace(typed, "")
        assert not any(w in said for w in ENGLISH), (lang, line)
        assert not any(c in said for c in CODES), (lang, line)
