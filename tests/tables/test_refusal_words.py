"""Each refusal of the table service (Nain Jaune and Spit/Speed tables) has its own id, and its
words in French and Welsh say no English: raised by the service itself, then answered by the web
in the request's language."""

from __future__ import annotations

import ast
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.games.messages import Message
from cardroom.i18n import translator
from cardroom.i18n.messages import MESSAGES
from cardroom.i18n.reasons import message_id, table_error_text
from cardroom.tables import SeatSpec, TableError, TableService
from cardroom.tables.realtime import RealtimeConfig
from cardroom.web import Settings, create_app
from tests.tables.helpers import bot_config

SRC = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "tables"
LANGS = ("fr", "cy")
ENGLISH = (" the ", " is ", " not ", " can ", " has ", "seat", " only ", "again", "hint", "rematch")


def _general(lang: str) -> str:
    return translator(lang)._(str(MESSAGES["refused"]))


def assert_told(error: TableError, id: str) -> None:
    """``error`` carries the message ``id``, told in French and Welsh without English."""
    assert isinstance(error.message, Message), repr(error.message)
    assert message_id(error.code, error.message) == id
    assert error.message.id in MESSAGES
    for lang in LANGS:
        said = table_error_text(error.code, error.message, translator(lang))
        assert said != _general(lang) and said != str(error.message), (lang, said)
        assert not any(w in f" {said} " for w in ENGLISH), (lang, said)


def test_the_service_raises_no_sentence_without_an_id() -> None:
    """Every ``TableError(code, what)`` in the services says ``what`` as a message with an id
    (or carries the engine's ``reason``), never a bare or formatted English string."""
    bare: list[str] = []
    parts = sorted(p.name for p in SRC.glob("*.py") if p.name != "realtime.py")  # every part
    assert {"service.py", "realtime_service.py", "rematch.py", "realtime_rematch.py"} <= set(parts)
    for name in parts:
        tree = ast.parse((SRC / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "TableError"
                and len(node.args) == 2
            ):
                continue
            if any(k.arg == "reason" for k in node.keywords):
                continue
            said = node.args[1]
            if isinstance(said, ast.Constant | ast.JoinedStr) or (
                isinstance(said, ast.Call)
                and isinstance(said.func, ast.Name)
                and said.func.id == "str"
            ):
                bare.append(f"{name}:{node.lineno}")
    assert bare == []


async def _refused(call: Awaitable[Any]) -> TableError:
    with pytest.raises(TableError) as caught:
        await call
    return caught.value


async def test_each_nain_jaune_refusal_has_its_id(service: TableService) -> None:
    created = await service.create(bot_config(3))
    tid = created.table_id
    cases: list[tuple[Callable[[], Awaitable[Any]], str, str]] = [
        (lambda: service.start_now(tid, 1), "forbidden", "table.creator-starts"),
        (lambda: service.earlier_log(tid, 0, 5), "bad-request", "table.no-log"),
        (lambda: service.act_realtime(tid, 0, {}), "bad-request", "table.turn-action"),
        (lambda: service.rematch(tid, 0), "forbidden", "table.rematch-not-over"),
        (lambda: service.record(tid), "forbidden", "table.record-not-over"),
        (lambda: service.hint(tid, 0, 0), "forbidden", "table.hints-off"),
        (lambda: service.create(bot_config(4), table_id=tid), "stale", "table.exists"),
        (lambda: service.create(bot_config(4, level="nobody")), "bad-request", "table.bad-level"),
    ]
    seen: set[str] = set()
    for call, code, id in cases:
        error = await _refused(call())
        assert error.code == code, (id, error.code)
        assert_told(error, id)
        seen.add(id)
    assert len(seen) == len(cases)  # each refusal its own id
    exists = await _refused(service.create(bot_config(4), table_id=tid))
    assert isinstance(exists.message, Message) and exists.message.fields == {"table": tid}
    assert tid in table_error_text("stale", exists.message, translator("fr"))


async def test_each_spit_and_speed_refusal_has_its_id(service: TableService) -> None:
    config = RealtimeConfig(
        game="spit",
        options={"countdown": "5"},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
        seed=3,
    )
    tid = (await service.create_realtime(config)).table_id
    spit = {"type": "spit"}
    cases: list[tuple[Callable[[], Awaitable[Any]], str, str]] = [
        (lambda: service.leave(tid, 0), "bad-request", "table.left-by-closing"),
        (lambda: service.act(tid, 0, "7D", 1), "bad-request", "table.realtime-action"),
        (lambda: service.ready(tid, 0), "bad-request", "table.no-rounds"),
        (lambda: service.hint(tid, 0, 1), "bad-request", "table.no-hints"),
        (lambda: service.start_now(tid, 1), "forbidden", "table.creator-starts"),
        (lambda: service.act_realtime(tid, 0, spit), "not-started", "table.not-started-yet"),
        (lambda: service.record(tid), "forbidden", "table.record-not-over"),
        (lambda: service.rematch(tid, 0), "forbidden", "table.rematch-not-over"),
    ]  # fmt: skip
    for call, code, id in cases:
        error = await _refused(call())
        assert error.code == code, (id, error.code)
        assert_told(error, id)
    await service.start_now(tid, 0)  # the empty person seat gets a bot
    unseen = {"type": "play", "card": "7D", "pile": 0}  # no "seen": the card it was aimed at
    error = await _refused(service.act_realtime(tid, 0, unseen))
    assert error.code == "bad-request" and str(error.message).startswith("seat 0: a play must")
    assert_told(error, "rt.play-seen")


# ---------------------------------------------------------------------------- the web


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = tmp_path_factory.mktemp("refusals")
    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{path / 'web.db'}",
        bot_delay=0.0,
        tables_per_minute=1000,
        open_tables_per_client=1000,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def _new_table(client: TestClient, **body: Any) -> str:
    created = client.post("/api/tables", json={"name": "Ann", **body})
    assert created.status_code == 201, created.text
    table: str = created.json()["table"]
    return table


@pytest.mark.parametrize("lang", LANGS)
def test_the_web_answers_each_refusal_with_its_id_in_the_request_language(
    client: TestClient, lang: str
) -> None:
    nain_jaune = _new_table(client, players=2)
    spit = _new_table(client, game="spit", players=2)
    asked = [
        (client.post(f"/t/{nain_jaune}/rematch?lang={lang}", json={}), "table.rematch-not-over"),
        (client.get(f"/t/{nain_jaune}/record?lang={lang}"), "table.record-not-over"),
        (client.post(f"/t/{spit}/leave?lang={lang}", json={}), "table.left-by-closing"),
    ]
    client.cookies.clear()  # a browser holding no seat
    asked += [
        (client.post(f"/t/{nain_jaune}/rematch?lang={lang}", json={}), "table.rematch-players"),
        (client.post(f"/t/{nain_jaune}/leave?lang={lang}", json={}), "table.players-only"),
    ]
    for response, id in asked:
        answer = response.json()
        assert response.status_code in (400, 403), answer
        assert answer["id"] == id, answer
        said = answer["message"]
        assert said != _general(lang), answer
        assert not any(w in f" {said} " for w in ENGLISH), (lang, said)
