"""Both kinds of table implement the one table protocol (``tables/protocol.py``), and the
registry's ``table`` piece of each game is the class the service runs it with: a finished game's
log replayed through that class ends where the service's live table ended."""

from __future__ import annotations

import dataclasses
from typing import cast

import pytest

from cardroom.games import registry
from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.games.registry import GAMES, TURN_BASED, game, names
from cardroom.store import LogEntry
from cardroom.tables import SeatSpec, TableError, TableService
from cardroom.tables.catchup import CatchUp
from cardroom.tables.protocol import Table, TableClass, TurnTable, game_in, table_class
from cardroom.tables.realtime import RealtimeConfig, RealtimeTable
from tests.tables.helpers import bot_config, until

CLASSES: tuple[TableClass, ...] = (NainJauneTable, RealtimeTable)
"""Both classes are checked against the protocol here (by mypy)."""
TURN_TABLE: type[TurnTable] = NainJauneTable
"""And the turn-based table against the turn-based protocol the service reads."""


def replayed(name: str, table_id: str, entries: list[LogEntry]) -> Table:
    cls = cast(TableClass, game(name).load("table"))
    return cls.replay(table_id, entries)


async def test_a_finished_game_of_each_kind_replays_through_its_registry_table(
    service: TableService,
) -> None:
    created = await service.create(bot_config(11, players=3))
    await service.start_now(created.table_id, 0)
    live_nj: Table = service.table(created.table_id)
    await until(lambda: live_nj.status == "over", 20000)
    bot = SeatSpec("bot", "reaction:min=0.004,max=0.012")
    config = RealtimeConfig(game="spit", options={"countdown": "0.1"}, seats=(bot, bot), seed=5)
    rt = (await service.create_realtime(config)).table_id
    await until(lambda: service.realtime.frame_for(rt, None)["status"] == "over", 60000)
    for table_id, name, kind in (
        (created.table_id, "nain-jaune", NainJauneTable),
        (rt, "spit", RealtimeTable),
    ):
        entries = await service.store.entries(table_id)
        again = replayed(name, table_id, entries)
        assert isinstance(again, kind) and kind in CLASSES
        assert (again.table_id, again.seq, again.status) == (table_id, len(entries), "over")
        assert again.rematch is None
        frame = again.frame(None)
        assert frame["status"] == "over"
        # an entry that cannot follow is refused and changes nothing
        try:
            again.check("created", entries[0].data)
        except TableError:
            pass
        else:
            raise AssertionError(f"{name}: a second 'created' was accepted")
        assert again.seq == len(entries)


async def test_one_catch_up_applies_told_entries_in_order_and_reads_the_log_for_a_gap(
    service: TableService,
) -> None:
    created = await service.create(bot_config(12, players=2))
    await service.start_now(created.table_id, 0)
    table_id = created.table_id
    await until(lambda: service.table(table_id).status == "over", 20000)
    entries = await service.store.entries(table_id)
    copy = NainJauneTable.replay(table_id, entries[:3])
    catch = CatchUp()
    assert not catch.news(copy, 2, entries[1])  # this copy has it
    assert catch.news(copy, 4, entries[3]) and catch.news(copy, 6, entries[5])  # 5 missing
    applied: list[int] = []

    def apply(entry: LogEntry) -> None:
        copy.apply(entry)
        applied.append(entry.seq)

    # 4 applies from the notice; the gap at 5 makes it read the rest of the log
    assert await catch.read(copy, service.store, apply) == len(entries) - 3
    assert applied == list(range(4, len(entries) + 1))
    assert catch.idle and copy.seq == len(entries) and copy.status == "over"


class MarkedNainJaune(NainJauneTable):
    """The registry's ``table`` piece swapped for a subclass: a table the service builds
    through the registry is one of these."""


class MarkedRealtime(RealtimeTable):
    """The same for the real-time games."""


def test_a_log_from_before_tables_named_their_game_is_the_first_turn_based_games() -> None:
    assert game_in({"config": {"seats": []}}) == names(TURN_BASED)[0] == "nain-jaune"
    assert game_in({"config": {"game": "spit"}}) == "spit"
    assert table_class("speed") is RealtimeTable


async def test_the_service_builds_and_rebuilds_every_table_through_the_registry(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = "tests.tables.test_protocol"
    for name, cls in (("nain-jaune", "MarkedNainJaune"), ("spit", "MarkedRealtime")):
        swapped = dataclasses.replace(GAMES[name], table=f"{here}:{cls}")
        monkeypatch.setitem(registry._GAMES, name, swapped)
    created = await service.create(bot_config(13, players=2))
    assert type(service.table(created.table_id)) is MarkedNainJaune
    bot = SeatSpec("bot", "reaction:min=0.004,max=0.012")
    config = RealtimeConfig(game="spit", seats=(bot, bot), seed=5)
    rt = (await service.create_realtime(config)).table_id
    assert type(service.realtime._live[rt].table) is MarkedRealtime
    # rebuilt from the log (a restarted process): the same classes
    again = TableService(service.store)
    await again.start()
    try:
        assert await again.game_of(created.table_id) == "nain-jaune"
        assert type(again.table(created.table_id)) is MarkedNainJaune
        assert await again.game_of(rt) == "spit"
        assert type(again.realtime._live[rt].table) is MarkedRealtime
    finally:
        await again.stop()
