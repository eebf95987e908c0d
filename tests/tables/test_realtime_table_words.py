"""What a Spit or Speed table says to a person has an id and words in every language; what only
a corrupt log could hold is a :class:`LogError` of ours, never a person's refusal."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cardroom.games.messages import Message
from cardroom.games.speed import SpeedRules
from cardroom.games.spit import SpitRules
from cardroom.i18n import translator
from cardroom.i18n.reasons import table_error_text
from cardroom.store import EventStore
from cardroom.tables import SeatSpec, TableError, TableService
from cardroom.tables.realtime import (
    BETWEEN_GAMES,
    LogError,
    RealtimeConfig,
    RealtimeTable,
)
from tests.tables.test_realtime_service import FAST, finished


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[EventStore]:
    opened = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'rt.db'}")
    yield opened
    await opened.close()


async def test_an_action_between_two_games_of_a_match_is_refused_in_words(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardroom.tables import realtime

    monkeypatch.setattr(realtime, "BETWEEN", 0.05)
    service = TableService(store)
    bot = SeatSpec("bot", FAST)
    config = RealtimeConfig(
        game="spit", options={"countdown": "0.1"}, seats=(bot, bot), seed=6, games=2
    )
    created = await service.create_realtime(config)
    await finished(service, created.table_id)
    entries = await store.entries(created.table_id)
    await service.stop()
    first_next = next(i for i, e in enumerate(entries) if e.kind == "next")
    table = RealtimeTable(created.table_id)
    for entry in entries[:first_next]:  # the first game over, the second not yet dealt
        table.apply(entry)
    assert table.between
    action = {"type": "spit"}
    with pytest.raises(TableError) as caught:
        table.check("action", {"seat": 0, "t": table.time, "action": action, "by": "person"})
    error = caught.value
    assert not isinstance(error, LogError)
    assert error.code == "not-started" and error.message is BETWEEN_GAMES
    assert table_error_text(error.code, error.message, translator("fr")) == (
        "cette partie est finie : la suivante du match est distribuée dans un instant"
    )
    assert table_error_text(error.code, error.message, translator("cy")) == (
        "mae’r gêm hon ar ben: bydd gêm nesaf yr ornest yn cael ei delio cyn bo hir"
    )


def _config() -> dict[str, Any]:
    bot = SeatSpec("bot", "easy")
    return RealtimeConfig(
        game="spit", options={}, seats=(SeatSpec("person", name="Ann"), bot), seed=1
    ).to_json()


@pytest.mark.parametrize(
    "change",
    [
        {"game": "whist"},
        {"seats": []},
        {"seed": "x"},
        {"rules": 5},
        {"rules_version": 99},
        {"away_limit": -1},
        {"away_then": "sleep"},
        {"games": 40},
        {"level": "godlike"},
    ],
)
def test_a_config_only_a_corrupt_log_holds_is_a_log_error(change: dict[str, Any]) -> None:
    table = RealtimeTable("t")
    with pytest.raises(LogError) as caught:
        table.check("created", {"config": {**_config(), **change}})
    assert caught.value.code == "bad-request"
    assert not isinstance(caught.value.message, Message)  # words for the logs, not a person


def test_entries_the_service_alone_writes_are_log_errors() -> None:
    table = RealtimeTable("t")
    with pytest.raises(LogError):
        table.check("dance", {})
    with pytest.raises(LogError):
        table.check("joined", {"seat": 0, "name": "Ann"})  # before 'created'
    from cardroom.store import LogEntry

    table.apply(LogEntry(1, "created", {"config": _config(), "tokens": {}}, 0.0))
    with pytest.raises(LogError):
        table.check("joined", {"seat": 0, "name": ""})
    with pytest.raises(LogError):
        table.check("started", {"t": 0.0, "filled": "all"})
    with pytest.raises(LogError):
        table.apply(LogEntry(5, "started", {"t": 0.0, "filled": [0]}, 0.0))


@pytest.mark.parametrize(("game", "rules"), [("spit", SpitRules), ("speed", SpeedRules)])
def test_every_option_a_person_may_send_is_refused_with_an_id(game: str, rules: Any) -> None:
    """The lobby hands the rules any ``key=value``: each refusal is a message with an id (so
    the table's fallback for another ``ValueError`` is a fault of ours, a LogError)."""
    odd = ["x", "-1", "0", "1e400", "nan", "", "7X", "true", "3.5", "9" * 30]
    seats = (SeatSpec("person", name="Ann"), SeatSpec("bot", "easy"))
    refused = 0
    for key in [f.name for f in dataclasses.fields(rules)] + ["nope"]:
        for value in odd:
            config = RealtimeConfig(game=game, options={key: value}, seats=seats, seed=1)
            try:
                config.rules_target()
            except TableError as exc:
                refused += 1
                assert not isinstance(exc, LogError), (key, value)
                assert isinstance(exc.message, Message), (key, value, exc.message)
    assert refused > 20
