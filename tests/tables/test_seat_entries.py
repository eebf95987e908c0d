"""The entries the table service writes about a seat (joined, takeover, returned, left,
seat-token) are checked alike at every turn-based game's table (``games/table.check_seat_entry``):
Nain Jaune's and the test-only game's refuse the same entries with the same words."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.games.table import SEAT_ENTRIES, LogEntry, SeatSpec, TableError, check_seat_entry
from tests.tables.helpers import bot_config
from tests.toygame import registered
from tests.toygame.table import ToyTable
from tests.toygame.test_table import toy_config


@pytest.fixture
def toy() -> Iterator[None]:
    with registered():
        yield


def _nain_jaune() -> Any:
    table = NainJauneTable("nj")
    config = bot_config(5, players=3)  # seat 0 a person, seats 1 and 2 bots
    table.apply(LogEntry(1, "created", {"config": config.to_json(), "tokens": {}}, 0.0))
    return table


def _toy() -> Any:
    table = ToyTable("toy")
    config = toy_config((SeatSpec("person"), SeatSpec("bot", "easy")))
    table.apply(LogEntry(1, "created", {"config": config.to_json(), "tokens": {}}, 0.0))
    return table


REFUSED: list[tuple[str, dict[str, Any], str, str]] = [
    ("joined", {"seat": 1, "name": "Eve"}, "forbidden", "a bot plays this seat"),
    ("joined", {"seat": 0, "name": ""}, "bad-request", "name"),
    ("takeover", {"seat": 1, "level": "easy"}, "bad-request", "only a person's seat"),
    ("takeover", {"seat": 0}, "bad-request", "takeover needs the bot's level"),
    ("returned", {"seat": 0}, "bad-request", "no bot plays for this seat"),
    ("left", {"seat": 0}, "bad-request", "leaving needs the level"),
    ("left", {"seat": 1, "level": "easy"}, "bad-request", "only a person at the table"),
    ("seat-token", {"seat": 1, "hash": "ab"}, "bad-request", "a seat token is for a person"),
    ("seat-token", {"seat": 0}, "bad-request", "a seat token is for a person"),
    ("joined", {"seat": 7, "name": "Eve"}, "bad-request", "seat 7 is not at this table"),
]


@pytest.mark.parametrize("make", [_nain_jaune, _toy], ids=["nain-jaune", "toy"])
@pytest.mark.parametrize(("kind", "data", "code", "said"), REFUSED)
def test_each_game_refuses_the_same_seat_entries(
    toy: None, make: Callable[[], Any], kind: str, data: dict[str, Any], code: str, said: str
) -> None:
    table = make()
    with pytest.raises(TableError) as refused:
        table.check(kind, data)
    assert refused.value.code == code
    assert said in str(refused.value.message)


@pytest.mark.parametrize("make", [_nain_jaune, _toy], ids=["nain-jaune", "toy"])
def test_a_seat_entry_in_order_is_accepted_and_the_same_again_refused(
    toy: None, make: Callable[[], Any]
) -> None:
    table = make()
    table.check("joined", {"seat": 0, "name": "Ann"})
    table.apply(LogEntry(2, "joined", {"seat": 0, "name": "Ann"}, 1.0))
    with pytest.raises(TableError) as refused:
        table.check("joined", {"seat": 0, "name": "Bob"})
    assert refused.value.code == "bad-request" and "taken" in str(refused.value.message)
    table.check("seat-token", {"seat": 0, "hash": "ab"})


def test_only_the_seat_entries_are_checked_there() -> None:
    assert {"joined", "takeover", "returned", "left", "seat-token"} == SEAT_ENTRIES
    with pytest.raises(ValueError):
        check_seat_entry(_nain_jaune(), "action", 0, {})
