"""The table service asks every kind of table through one protocol (``tables/kinds.py``): it
finds the kind holding a table, or the one claiming its log, and names no kind's internals."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any, cast

import pytest

from cardroom.store import LogEntry
from cardroom.tables import TableError, TableService
from cardroom.tables.kinds import TableKind
from cardroom.tables.realtime_service import RealtimeTables
from cardroom.tables.subscription import Frame, Subscription
from cardroom.tables.turns import TurnTables
from tests.tables.helpers import bot_config


def _protocol_methods() -> set[str]:
    return {
        name
        for name, value in vars(TableKind).items()
        if not name.startswith("_") and callable(value)
    }


def test_both_kinds_implement_every_method_of_the_protocol_with_its_parameters() -> None:
    methods = _protocol_methods()
    assert {"claims", "load", "seat_of", "act", "take", "give_away", "on_change"} <= methods
    for kind in (TurnTables, RealtimeTables):
        for name in methods:
            wanted = list(inspect.signature(getattr(TableKind, name)).parameters)
            got = list(inspect.signature(getattr(kind, name)).parameters)
            assert got == wanted, (kind.__name__, name)


class ThirdKind:
    """A kind of table the service has never heard of: it claims the logs marked for it."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, Any]] = {}
        self.calls: list[tuple[str, str]] = []

    def claims(self, created: LogEntry) -> bool:
        return created.data.get("third") is True

    def holds(self, table_id: str) -> bool:
        return table_id in self.tables

    async def load(self, table_id: str, entries: Sequence[LogEntry]) -> None:
        self.calls.append(("load", table_id))
        self.tables[table_id] = dict(entries[0].data)

    def table_ids(self) -> list[str]:
        return list(self.tables)

    def status(self, table_id: str) -> str | None:
        return "playing" if table_id in self.tables else None

    def game_of(self, table_id: str) -> str:
        return str(self.tables[table_id]["game"])

    def seat_of(self, table_id: str, token: str | None) -> int | None:
        self.calls.append(("seat_of", table_id))
        if token != "t0":
            raise TableError("forbidden", "not a seat of this table")
        return 0

    def seat_state(self, table_id: str, seat: int) -> str:
        return "playing"

    async def act(self, table_id: str, seat: int, action: str, seen_seq: int) -> None:
        self.calls.append(("act", f"{seat} {action} {seen_seq}"))

    async def record(self, table_id: str) -> Any:
        return {"third": table_id}

    def subscribe(self, table_id: str, seat: int | None) -> Subscription:
        self.calls.append(("subscribe", table_id))
        return Subscription(table_id, seat)

    def unsubscribe(self, sub: Subscription) -> None:
        self.calls.append(("unsubscribe", sub.table_id))

    def frame_for(self, table_id: str, seat: int | None) -> Frame:
        return {"type": "state", "third": True}

    def subscriptions(self, table_id: str) -> list[Subscription]:
        return []

    def connections(self) -> list[tuple[str, int, int]]:
        return []

    def unload(self, table_id: str) -> None:
        self.calls.append(("unload", table_id))

    def evict_idle(self, now: float, grace: float) -> list[str]:
        return []

    def lose(self, table_id: str) -> None:
        pass

    async def stop(self) -> None:
        self.tables.clear()


async def test_a_third_kind_is_asked_through_the_protocol(service: TableService) -> None:
    third = ThirdKind()
    service.kinds = (cast(TableKind, third), *service.kinds)
    created = LogEntry(1, "created", {"third": True, "game": "thirds"}, 0.0)
    await service.store.create_table("th1", "thirds", created, "", True, [])

    assert await service.game_of("th1") == "thirds"  # loaded by the kind that claims its log
    assert await service.seat_of("th1", "t0") == 0
    with pytest.raises(TableError) as refused:
        await service.seat_of("th1", "stolen")
    assert refused.value.code == "forbidden"
    await service.act("th1", 0, "7D", 3)
    assert await service.record("th1") == {"third": "th1"}
    sub = service.subscribe("th1", 0)
    assert service.frame_for("th1", 0)["third"] is True
    service.unsubscribe(sub)
    service.unload("th1")
    assert third.calls == [
        ("load", "th1"),
        ("seat_of", "th1"),
        ("seat_of", "th1"),
        ("act", "0 7D 3"),
        ("subscribe", "th1"),
        ("unsubscribe", "th1"),
        ("unload", "th1"),
    ]

    # the turn-based tables are still found by theirs, and the third kind is not asked
    nain = (await service.create(bot_config(3))).table_id
    assert service.turns.holds(nain) and not third.holds(nain)
    assert await service.game_of(nain) == "nain-jaune"
    assert len(third.calls) == 7


async def test_a_table_no_kind_holds_or_finds_is_not_found(service: TableService) -> None:
    for call in (
        lambda: service.game_of("nowhere"),
        lambda: service.seat_of("nowhere", None),
        lambda: service.join("nowhere", 0, "Ann"),
        lambda: service.record("nowhere"),
    ):
        with pytest.raises(TableError) as refused:
            await call()
        assert refused.value.code == "not-found"
    with pytest.raises(TableError):
        service.subscribe("nowhere", 0)
