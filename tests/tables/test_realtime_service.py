"""Spit and Speed tables in the table service: bots on the server's clock, the log as the truth
(a restart goes on from it), and a person's refused actions told in words."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cardroom.arbiter import replay
from cardroom.games.realtime_engine import adjacent
from cardroom.i18n.grammar import card_phrase
from cardroom.store import EventStore
from cardroom.tables import SeatSpec, TableError, TableService
from cardroom.tables.realtime import RealtimeConfig
from tests.tables.helpers import until

FAST = "reaction:min=0.004,max=0.012"
"""Bots fast enough for a whole game in a second or two of wall time."""
CODE = re.compile(r"(?<![\w])(10|[2-9AJQK])[CDHS](?![\w])")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[EventStore]:
    opened = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'rt.db'}")
    yield opened
    await opened.close()


def bots_config(game: str, seed: int, countdown: str = "0.1") -> RealtimeConfig:
    bot = SeatSpec("bot", FAST)
    return RealtimeConfig(game=game, options={"countdown": countdown}, seats=(bot, bot), seed=seed)


async def finished(service: TableService, table_id: str) -> None:
    await until(lambda: service.realtime.frame_for(table_id, None)["status"] == "over", 60000)
    for _ in range(1000):  # the lobby's projection is written just after the last entry
        rows = await service.list_tables()
        if [r["status"] for r in rows if r["id"] == table_id] == ["over"]:
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the lobby never showed the table over")


def check_log(entries: list[Any]) -> None:
    """Time stamps never go back; the first entry is ``created``."""
    assert entries[0].kind == "created"
    times = [e.data["t"] for e in entries if "t" in e.data]
    assert times == sorted(times)


@pytest.mark.parametrize("game", ["spit", "speed"])
async def test_bots_play_to_the_end_and_the_record_replays(store: EventStore, game: str) -> None:
    service = TableService(store)
    created = await service.create_realtime(bots_config(game, 11))
    await finished(service, created.table_id)
    record = await service.record(created.table_id)
    assert isinstance(record, dict)  # one game (a Speed match would be a list of them)
    replayed = replay(record)
    frame = service.frame_for(created.table_id, None)
    assert replayed.engine.over
    assert replayed.engine.winner == frame["table_view"]["winner"]
    entries = await store.entries(created.table_id)
    check_log(entries)
    # every accepted or refused action of the record is one logged action entry
    assert len([e for e in entries if e.kind == "action"]) == len(
        [a for a in record["actions"] if a["seat"] is not None]
    )
    rows = await service.list_tables()
    assert [(r["status"], r["game"]) for r in rows] == [("over", game)]
    await service.stop()


async def test_a_restart_rebuilds_the_table_from_its_log_and_goes_on(store: EventStore) -> None:
    first = TableService(store)
    created = await first.create_realtime(bots_config("speed", 5))
    table_id = created.table_id
    await until(lambda: first.realtime.frame_for(table_id, None)["seq"] >= 25, 20000)
    await first.stop()
    before = await store.entries(table_id)
    assert len(before) >= 25
    second = TableService(store)
    await second.start()
    assert await second.game_of(table_id) == "speed"
    await finished(second, table_id)
    after = await store.entries(table_id)
    assert after[: len(before)] == before
    assert len(after) > len(before)
    check_log(after)
    assert replay(await second.record(table_id)).engine.over
    await second.stop()


async def people_at_speed(store: EventStore) -> tuple[TableService, str, Any]:
    """Ann and Bob at a Speed table (no countdown), both called: the middle cards are up."""
    service = TableService(store)
    config = RealtimeConfig(
        game="speed",
        options={"countdown": "0"},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
        seed=3,
    )
    created = await service.create_realtime(config)
    table_id = created.table_id
    assert await service.seat_of(table_id, created.invites[1]) == 1
    with pytest.raises(TableError) as info:
        await service.act_realtime(table_id, 0, {"type": "call"})
    assert info.value.code == "not-started"
    await service.join(table_id, 1, "Bob")
    for seat in (0, 1):
        await service.act_realtime(table_id, seat, {"type": "call"})
    return service, table_id, service.realtime._live[table_id].table.engine


async def test_a_persons_refusals_are_told_in_words(store: EventStore) -> None:
    service, table_id, engine = await people_at_speed(store)
    top = engine.view(0).centre[0]
    hand = engine.view(0).hand
    fits = [c for c in hand if adjacent(c, top)]
    misfit = next(c for c in hand if not adjacent(c, top))
    seq = service.frame_for(table_id, 0)["seq"]

    with pytest.raises(TableError, match='must carry "seen"') as info:
        await service.act_realtime(table_id, 0, {"type": "play", "card": misfit.code, "pile": 0})
    assert info.value.code == "bad-request"
    with pytest.raises(TableError) as info:
        await service.act_realtime(
            table_id, 0, {"type": "play", "card": misfit.code, "pile": 0, "seen": top.code}
        )
    assert info.value.code == "illegal"
    assert "is not next to" in info.value.message and not CODE.search(info.value.message)
    assert info.value.message.startswith(card_phrase(misfit, "en").the)
    other = next(c for c in engine.view(1).hand if c != top)
    with pytest.raises(TableError) as info:
        await service.act_realtime(
            table_id, 0, {"type": "play", "card": misfit.code, "pile": 0, "seen": other.code}
        )
    assert info.value.code == "stale"
    assert info.value.message.startswith("too late: pile 1 now shows")
    assert not CODE.search(info.value.message)
    # refusals are logged (the record keeps them) but nobody's view changed
    assert service.frame_for(table_id, 1)["table_view"]["centre"][0] == top.code
    assert service.frame_for(table_id, 1)["seq"] == seq + 2  # the two refused plays
    if fits:
        card = fits[0]
        await service.act_realtime(
            table_id, 0, {"type": "play", "card": card.code, "pile": 0, "seen": top.code}
        )
        frame = service.frame_for(table_id, 1)
        assert frame["table_view"]["centre"][0] == card.code
        assert "hand" in frame["table_view"] and card.code not in frame["table_view"]["hand"]
    await service.stop()


async def test_the_first_play_on_a_pile_wins_the_race(store: EventStore) -> None:
    service, table_id, engine = await people_at_speed(store)
    sub0 = service.subscribe(table_id, 0)
    sub1 = service.subscribe(table_id, 1)
    await sub0.get()
    await sub0.get()  # Bob arrives
    await sub1.get()
    tops = engine.view(0).centre
    pairs = [
        (pile, a, b)
        for pile in (0, 1)
        for a in engine.view(0).hand
        for b in engine.view(1).hand
        if adjacent(a, tops[pile]) and adjacent(b, tops[pile])
    ]
    if not pairs:
        pytest.skip("this deal gives no common pile (seed 3 does)")
    pile, a, b = pairs[0]
    seen = tops[pile].code
    results = await asyncio.gather(
        service.act_realtime(table_id, 0, {"type": "play", "card": a.code, "pile": pile,
                                           "seen": seen}, "r0"),
        service.act_realtime(table_id, 1, {"type": "play", "card": b.code, "pile": pile,
                                           "seen": seen}, "r1"),
        return_exceptions=True,
    )  # fmt: skip
    assert results[0] is None  # arrival order: Ann's play was first in
    assert isinstance(results[1], TableError) and results[1].code == "stale"
    assert results[1].message.startswith("too late")
    frame = await sub1.get()
    assert frame is not None and frame["table_view"]["centre"][pile] == a.code
    assert frame["by"] == 0 and frame["at"] is not None
    mine = await sub0.get()
    assert mine is not None and mine["ref"] == "r0"
    await service.stop()


async def test_a_speed_match_deals_games_until_the_target_and_its_record_replays(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardroom.arbiter import replay_any
    from cardroom.tables import realtime

    monkeypatch.setattr(realtime, "BETWEEN", 0.05)  # the scores are shown briefly
    service = TableService(store)
    bot = SeatSpec("bot", FAST)
    config = RealtimeConfig(
        game="speed", options={"countdown": "0.1", "target": "12"}, seats=(bot, bot), seed=4
    )
    created = await service.create_realtime(config)
    table_id = created.table_id
    sub = service.subscribe(table_id, None)
    between: list[dict[str, Any]] = []
    while True:
        frame = await asyncio.wait_for(sub.get(), 30)
        assert frame is not None
        if frame["match"]["between"]:
            between.append(frame["match"])
        if frame["status"] == "over":
            break
    await finished(service, table_id)
    entries = await store.entries(table_id)
    check_log(entries)
    nexts = [e for e in entries if e.kind == "next"]
    records = await service.record(table_id)
    assert isinstance(records, list) and len(records) == len(nexts) + 1 >= 2
    replays = replay_any(records)
    scores = [0, 0]
    for rep in replays:  # each game's points go to its winner, as the headers carry them
        assert rep.header["match"]["scores"] == scores
        scores[rep.engine.winner] += rep.engine.result.points
    assert max(scores) >= 12 and sorted(scores)[0] < 12
    final = service.frame_for(table_id, None)
    assert final["match"]["scores"] == scores
    assert final["match"]["winner"] == scores.index(max(scores))
    assert final["winner"] == final["match"]["winner"]
    # between two games every frame showed the scores so far, the target not reached
    assert between and all(max(m["scores"]) < 12 and m["next_at"] is not None for m in between)
    # the log counts on across games: a full frame ends with the last game's last lines, and
    # the lines before page back through the earlier games
    total = sum(len(r["actions"]) for r in records)
    assert final["log_from"] + len(final["log"]) == total
    earlier = await service.earlier_log(table_id, None, final["log_from"])
    assert earlier["log_from"] + len(earlier["log"]) == final["log_from"]
    first_game = len(records[0]["actions"])
    if earlier["log_from"] < first_game <= final["log_from"]:  # the page spans two games
        assert earlier["log"][first_game - earlier["log_from"] - 1]["t"] == pytest.approx(
            records[0]["actions"][-1]["t"]
        )
    service.unsubscribe(sub)
    await service.stop()


async def test_a_spit_match_is_won_by_the_first_to_win_two_games(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardroom.arbiter import replay_any
    from cardroom.tables import realtime

    monkeypatch.setattr(realtime, "BETWEEN", 0.05)
    service = TableService(store)
    bot = SeatSpec("bot", FAST)
    config = RealtimeConfig(
        game="spit", options={"countdown": "0.1"}, seats=(bot, bot), seed=6, games=2
    )
    created = await service.create_realtime(config)
    await finished(service, created.table_id)
    records = await service.record(created.table_id)
    assert isinstance(records, list) and 2 <= len(records) <= 3
    winners = [rep.engine.winner for rep in replay_any(records)]
    scores = [winners.count(0), winners.count(1)]
    assert max(scores) == 2 and winners[-1] == scores.index(2)  # the last game decided it
    frame = service.frame_for(created.table_id, None)
    assert frame["match"]["unit"] == "games" and frame["match"]["target"] == 2
    assert frame["match"]["scores"] == scores and frame["winner"] == scores.index(2)
    entries = await store.entries(created.table_id)
    assert [e.kind for e in entries].count("next") == len(records) - 1
    with pytest.raises(TableError):
        RealtimeConfig.from_json({**config.to_json(), "game": "speed", "rules": {}})
    await service.stop()
