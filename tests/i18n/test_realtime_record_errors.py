"""A malformed Spit or Speed record is refused in the reader's words: ``cardroom replay --lang
fr`` and ``POST /api/replay?lang=fr`` say each problem from its own id (``rec.rt.*``,
``rec.speed.*``), the place in the record worded too, with no English sentence."""

from __future__ import annotations

import ast
import copy
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from cardroom.arbiter import RecordError, replay_any
from cardroom.cli.main import cli
from cardroom.games.speed import SpeedGame, SpeedRules
from cardroom.games.spit import SpitGame, SpitRules
from cardroom.i18n import translator
from cardroom.i18n.messages import MESSAGES
from cardroom.i18n.reasons import record_error_id, record_error_text
from cardroom.sim.realtime import new_table, run_table
from cardroom.web import Settings, create_app

FR = translator("fr")

SRC = Path(__file__).resolve().parents[2] / "src" / "cardroom"
Q = "\u00a0"  # the no-break space inside « » and before « : »


def _record(game: str, seed: int = 7) -> dict[str, Any]:
    engine: Any = (
        SpitGame.new(SpitRules(), seed) if game == "spit" else SpeedGame.new(SpeedRules(), seed)
    )
    table = new_table(
        engine, ["hard", "medium"], [random.Random(1), random.Random(2)], ["Ann", "Bob"]
    )
    assert run_table(table)
    data: dict[str, Any] = json.loads(json.dumps(table.arbiter.record()))
    return data


SPIT = _record("spit")
SPEED = _record("speed")
FIRST_T = SPIT["actions"][0]["t"]  # 0.6679… (Ann calls "Spit!")
assert SPIT["actions"][0] == {"t": FIRST_T, "seat": 0, "action": {"type": "spit"}, "accepted": True}
assert 0.5 < FIRST_T < 0.7


def _changed(base: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> Any:
    data = copy.deepcopy(base)
    change(data)
    return data


def _timeout(t: float, accepted: bool = True, kind: str = "timeout") -> dict[str, Any]:
    return {"t": t, "seat": None, "action": {"type": kind}, "accepted": accepted}


def _first(data: dict[str, Any], entry: Any) -> None:
    data["actions"][0] = entry


# case -> (the record, the id of what is wrong, what the French words say, worked out by hand)
CASES: dict[str, tuple[Any, str, str]] = {
    "an entry not an object": (
        _changed(SPIT, lambda d: _first(d, 5)),
        "rec.rt.entry-object",
        "action 1 : chaque entrée des actions doit être un objet avec t, seat, action, accepted",
    ),
    "an action not an object": (
        _changed(SPIT, lambda d: d["actions"][0].update(action=5)),
        "rec.rt.action-object",
        f"«{Q}action{Q}» doit être un objet avec un «{Q}type{Q}», pas 5",
    ),
    "an action's type not a name": (
        _changed(SPIT, lambda d: d["actions"][0].update(action={"type": 7})),
        "rec.rt.action-type",
        f"le «{Q}type{Q}» d’une action doit être un nom court, pas 7",
    ),
    "an action's field neither card nor pile": (
        _changed(SPIT, lambda d: d["actions"][0].update(action={"type": "play", "card": 3.5})),
        "rec.rt.action-field",
        f'dans une action "play", «{Q}"card"{Q}» vaut 3.5 : ce n’est ni une carte ni un numéro',
    ),
    "a seat that is not one": (
        _changed(SPIT, lambda d: d["actions"][0].update(seat=5)),
        "rec.rt.seat",
        f"action 1 : «{Q}seat{Q}» doit valoir 0, 1 ou null (un compte à rebours), pas 5",
    ),
    "time running backwards": (
        _changed(SPIT, lambda d: d["actions"][1].update(t=FIRST_T - 0.1)),
        "rec.rt.time-order",
        f"action 2 : l’heure {FIRST_T - 0.1:.3f} précède celle de l’entrée d’avant "
        f"({FIRST_T:.3f})".replace(".", ","),
    ),
    "a legal action recorded as refused": (
        _changed(SPIT, lambda d: d["actions"][0].update(accepted=False)),
        "rec.rt.rejected-legal",
        'action 1 : l’action {"type": "spit"} de la place 0 est enregistrée comme refusée, '
        "mais elle est permise",
    ),
    "a seatless entry not a countdown's": (
        _changed(SPIT, lambda d: _first(d, _timeout(0.25, kind="spit"))),
        "rec.rt.seatless",
        'action 1 : une entrée sans place doit être celle du compte à rebours, {"type": "timeout"}',
    ),
    "a countdown entry refused": (
        _changed(SPIT, lambda d: _first(d, _timeout(0.25, accepted=False))),
        "rec.rt.countdown-accepted",
        "action 1 : une entrée de compte à rebours est toujours acceptée",
    ),
    "a countdown out at the wrong time": (
        _changed(SPIT, lambda d: _first(d, _timeout(0.25))),
        "rec.rt.countdown-at",
        "action 1 : l’enregistrement dit qu’un compte à rebours s’est achevé à 0,25 s, mais il "
        "s’achève à 3 s",
    ),
    "a Speed match that is not an object": (
        _changed(SPEED, lambda d: d.update(match=5)),
        "rec.speed.match-object",
        f"«{Q}match{Q}» doit être un objet donnant la graine, la partie et les scores du match",
    ),
    "a Speed match's scores not two numbers": (
        _changed(SPEED, lambda d: d.update(match={"seed": 1, "game": 1, "scores": [0]})),
        "rec.speed.scores",
        f"«{Q}match.scores{Q}» doit être une liste de deux nombres",
    ),
    "a Speed game's seed not its match's": (
        _changed(SPEED, lambda d: d.update(match={"seed": 1, "game": 1, "scores": [0, 0]})),
        "rec.speed.seed",
        "la graine 7 n’est pas celle de la partie 1 du match 1 (",
    ),
    "a header without its deal": (
        _changed(SPIT, lambda d: d.pop("deal")),
        "rec.rt.no-key",
        f"l’enregistrement n’a pas de champ «{Q}deal{Q}»",
    ),
    "a deal card that is not one": (
        _changed(SPIT, lambda d: d["deal"].__setitem__(0, "ZZ")),
        "rec.rt.deal-card-said",
        'carte 1 de la donne : "ZZ" n’est pas une carte',
    ),
    "a deal card twice": (
        _changed(SPEED, lambda d: d["deal"].__setitem__(1, d["deal"][0])),
        "rec.rt.deal-twice",
        "carte 2 de la donne : ",
    ),
    "a deal short of a card": (
        _changed(SPEED, lambda d: d["deal"].pop()),
        "rec.rt.deal-size",
        "la donne a 51 cartes : elle doit contenir chacune des 52 cartes une fois",
    ),
    "a Spit action of no known type": (
        _changed(SPIT, lambda d: d["actions"][0].update(action={"type": "dance"})),
        "rec.rt.seat-action",
        'action 1 : place 0 : type d’action de Spit inconnu "dance" : les types sont play, ',
    ),
    "a Speed play on a third pile": (
        _changed(
            SPEED,
            lambda d: d["actions"][0].update(action={"type": "play", "card": "7D", "pile": 5}),
        ),
        "rec.rt.seat-action",
        f"action 1 : place 0 : «{Q}pile{Q}» doit valoir 0 ou 1, pas 5",
    ),
}
# English words that no French refusal keeps
ENGLISH = (" must ", " the ", " is ", " not ", " record ", " entry ", "countdown", " seat ")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("replay")
    with TestClient(create_app(Settings(db_url=f"sqlite+aiosqlite:///{path / 'w.db'}"))) as c:
        yield c


def _assert_french(said: str, expected: str) -> None:
    assert expected in said, said
    assert not any(w in f" {said} " for w in ENGLISH), said


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_problem_has_its_id_and_french_words(case: str, tmp_path: Path) -> None:
    data, id, french = CASES[case]
    with pytest.raises(RecordError) as caught:
        replay_any(data)
    assert record_error_id(caught.value) == id and id in MESSAGES
    assert str(caught.value) != record_error_text(caught.value, FR)  # English as it was
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["replay", str(path), "--lang", "fr"])
    assert result.exit_code == 1
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("Erreur : "), line
    _assert_french(line, french)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_upload_says_each_problem_in_the_pages_language(client: TestClient, case: str) -> None:
    data, id, french = CASES[case]
    answer = client.post(
        "/api/replay?lang=fr",
        content=json.dumps(data),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["error"] == "bad-record" and body["id"] == id, body
    _assert_french(body["message"], french)


def test_a_match_whose_game_lacks_its_match_is_placed_in_that_game(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps([SPEED, SPEED]))
    for lang, said in (
        ("fr", f"partie 1 : une partie d’un match a besoin de son objet «{Q}match{Q}»"),
        ("cy", "gêm 1: mae angen ei gwrthrych ‘match’ ar bob gêm mewn gornest"),
        ("en", 'game 1: a game of a match needs its "match" object'),
    ):
        result = CliRunner().invoke(cli, ["replay", str(path), "--lang", lang])
        assert result.exit_code == 1
        assert result.stderr.strip().splitlines()[-1].endswith(said), result.stderr


def test_in_welsh_too() -> None:
    data, _, _ = CASES["a countdown out at the wrong time"]
    with pytest.raises(RecordError) as caught:
        replay_any(data)
    assert record_error_text(caught.value, translator("cy")) == (
        "gweithred 1: mae’r cofnod yn dweud bod cyfrif i lawr wedi dod i ben ar 0.25 eiliad, "
        "ond mae’n dod i ben ar 3 eiliad"
    )
    assert str(caught.value) == (
        "action 1: the record says a countdown ran out at 0.25, but it runs out at 3.0"
    )


FILES = (
    "arbiter.py",
    "games/realtime_engine.py",
    "games/spit/record.py",
    "games/spit/engine.py",
    "games/speed/record.py",
    "games/speed/engine.py",
)


def test_no_record_error_is_raised_with_a_bare_sentence() -> None:
    """Every ``RecordError(…)``/``ArbiterError(…)`` in these files is given a Message (or the
    message of the error it replaces), never an English string, an f-string or ``str(exc)``."""
    bare: list[str] = []
    for name in FILES:
        tree = ast.parse((SRC / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("RecordError", "ArbiterError")
                and node.args
            ):
                continue
            said = node.args[0]
            if isinstance(said, ast.Constant | ast.JoinedStr | ast.BinOp) or (
                isinstance(said, ast.Call)
                and isinstance(said.func, ast.Name)
                and said.func.id == "str"
            ):
                bare.append(f"{name}:{node.lineno}")
    assert bare == []
