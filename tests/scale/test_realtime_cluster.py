"""Spit and Speed tables shared by two table services on one PostgreSQL (as two processes).

The lease holder is the table's clock (bots, countdowns, the start); a person connected to the
other service acts through it, and its connections see every entry, each for its own seat,
with the countdown's deadline read from the log. When the holder goes away the other service
takes the lease, rebuilds the table from the log and goes on. (And a Nain Jaune table's
next-round deadline, shown by a process that does not run the timer.)
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import pytest

from cardroom.games.nain_jaune import Rules
from cardroom.store import EventStore, LogEntry
from cardroom.tables import SeatSpec, Subscription, TableConfig, TableError, TableService
from cardroom.tables.realtime import RealtimeConfig, RealtimeTable
from tests.scale.clients import scan_after_each_row, two_services
from tests.tables.helpers import until

pytest.importorskip("asyncpg", reason="asyncpg is not installed")

FAST = "reaction:min=0.01,max=0.03"


def speed(seed: int, bob: SeatSpec | None = None) -> RealtimeConfig:
    seats = (SeatSpec("person", name="Ann"), bob or SeatSpec("person"))
    return RealtimeConfig(game="speed", options={"countdown": "0.3"}, seats=seats, seed=seed)


async def race(
    service: TableService, sub: Subscription, tid: str, seat: int, calls: bool, seed: int
) -> list[dict[str, Any]]:
    """Play from the newest state: a random legal card, else the call (if ``calls``)."""
    rng = random.Random(seed)
    frames: list[dict[str, Any]] = []
    while True:
        try:
            frame = await asyncio.wait_for(sub.get(), 0.3)
        except TimeoutError:  # nothing new (our action was refused): look again
            frame = service.frame_for(tid, seat)
        else:
            assert frame is not None
            frames.append(frame)
        if frame["status"] == "over":
            return frames
        if not sub.queue.empty() or frame["status"] != "playing":
            continue
        legal = frame["table_view"]["legal"]
        plays = [a for a in legal if a["type"] == "play"]
        calls_now = [a for a in legal if a["type"] == "call" and calls]
        choice = rng.choice(plays or calls_now or [None])
        if choice is None:
            continue
        try:
            await service.act_realtime(tid, seat, choice)
        except TableError as exc:
            assert exc.code in ("stale", "illegal", "over"), exc


def check_frames(entries: list[LogEntry], frames: list[dict[str, Any]], seat: int) -> int:
    """Each frame is the log's state at its seq for that seat: view, status, deadline."""
    table = RealtimeTable("check")
    done = 0
    for frame in frames:
        assert frame["seq"] >= done
        for entry in entries[done : frame["seq"]]:
            table.apply(entry)
        done = frame["seq"]
        expected = table.frame(seat)
        assert frame["status"] == expected["status"]
        assert frame.get("table_view") == expected.get("table_view")
        assert frame["deadline"] == expected["deadline"]
    return len(frames)


async def test_a_speed_table_across_two_services_has_one_clock(pg_url: str) -> None:
    async with two_services(pg_url) as (store_a, store_b, a, b):
        created = await a.create_realtime(speed(seed=21))
        tid = created.table_id
        assert tid in a.owned and tid not in b.owned
        assert await b.seat_of(tid, created.invites[1]) == 1  # Bob is connected to B
        ann = a.subscribe(tid, 0)
        bob = b.subscribe(tid, 1)
        await b.join(tid, 1, "Bob")  # A, the clock, hears it and starts the game
        # Bob never calls: every stalemate is ended by A's countdown, which B shows
        ann_frames, bob_frames = await asyncio.wait_for(
            asyncio.gather(race(a, ann, tid, 0, True, 1), race(b, bob, tid, 1, False, 2)), 120
        )
        entries = await store_a.entries(tid)
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        final = RealtimeTable.replay(tid, entries)
        assert final.status == "over"
        assert ann_frames[-1]["seq"] == bob_frames[-1]["seq"] == entries[-1].seq
        assert ann_frames[-1]["table_view"]["winner"] == final.engine.winner is not None
        assert check_frames(entries, ann_frames, 0) and check_frames(entries, bob_frames, 1)
        kinds = [e.kind for e in entries]
        # Ann called to begin, Bob never did: the countdown turned the middle cards
        # (on a busy machine the countdown may turn them before Ann's call arrives)
        assert kinds[:3] == ["created", "joined", "started"]
        assert kinds.index("timeout") in (3, 4)
        if kinds[3] == "action":
            assert entries[3].data["seat"] == 0 and entries[3].data["action"]["type"] == "call"
        assert kinds.count("timeout") >= 2
        # B showed the countdowns without running one: the deadline came from the log
        assert any(f["deadline"] is not None for f in bob_frames)
        assert b.realtime._live[tid].task is None and not b.realtime._live[tid].bots
        bob_moves = [e for e in entries if e.kind == "action" and e.data["seat"] == 1]
        assert bob_moves and all(e.data["by"] == "person" for e in bob_moves)
        assert not any(e.data.get("action", {}).get("type") == "call" for e in bob_moves)
        # presence crossed the processes: each sees the other person at the table
        assert all(row["present"] for row in b.frame_for(tid, 1)["seats"])
        # both ask for a rematch at once, through different processes: one table, logged once
        ids = [i for i, _ in await asyncio.gather(a.rematch(tid, 0), b.rematch(tid, 1))]
        assert ids[0] == ids[1] != tid
        kinds = [e.kind for e in await store_a.entries(tid)]
        assert kinds[-1] == "rematch" and kinds.count("rematch") == 1
        assert sorted(r["id"] for r in await a.list_tables()) == sorted([tid, ids[0]])  # no other
        assert (await store_b.entries(ids[0]))[0].data["rematch_of"] == tid
        await until(lambda: b.frame_for(tid, 1)["rematch"] == f"/t/{ids[0]}")
        assert a.frame_for(tid, 0)["rematch"] == f"/t/{ids[0]}"


async def test_the_other_service_takes_over_a_speed_table_and_its_bot(pg_url: str) -> None:
    async with two_services(pg_url, 0.2) as (store_a, store_b, a, b):
        created = await a.create_realtime(speed(seed=5, bob=SeatSpec("bot", FAST)))
        tid = created.table_id
        assert await b.seat_of(tid, None) is None  # B holds the table now, not its lease
        ann_b = b.subscribe(tid, 0)
        assert tid in a.owned and tid not in b.owned
        rng = random.Random(3)
        while a.realtime.frame_for(tid, 0)["seq"] < 12:  # Ann plays through B while A is up
            frame = b.frame_for(tid, 0)
            legal = frame["table_view"]["legal"]
            if legal:
                with_call = [x for x in legal if x["type"] == "play"] or legal
                try:
                    await b.act_realtime(tid, 0, rng.choice(with_call))
                except TableError as exc:
                    assert exc.code in ("stale", "illegal")
            await asyncio.sleep(0.02)
        seq_before = (await store_a.entries(tid))[-1].seq
        await a.stop()  # its lease connection closes: as if the process had died
        await until(lambda: b.realtime._live[tid].task is not None, steps=3000)  # B's clock
        assert tid in b.owned
        frames = await asyncio.wait_for(race(b, ann_b, tid, 0, True, 4), 120)
        entries = await store_b.entries(tid)
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        assert RealtimeTable.replay(tid, entries).status == "over"
        later_bot = [e for e in entries[seq_before:] if e.data.get("by") == "bot"]
        assert later_bot  # the bot went on, run by B
        assert check_frames(entries, [f for f in frames if f["seq"] >= 1], 0)


async def until_round_over(service: TableService, sub: Subscription, tid: str, seat: int) -> None:
    """Play the first legal card whenever it is ``seat``'s turn, until the round is over."""
    while True:
        frame = await asyncio.wait_for(sub.get(), 30)
        assert frame is not None
        if frame["status"] == "round-over":
            return
        legal = (frame.get("round") or {}).get("legal")
        if frame["status"] == "playing" and legal and sub.queue.empty():
            with contextlib.suppress(TableError):  # stale: a newer frame is on its way
                await service.act(tid, seat, legal[0], frame["seq"])


async def test_nain_jaune_deadlines_are_shown_by_the_process_without_the_timers(
    pg_url: str,
) -> None:
    async with two_services(pg_url) as (_, _, a, b):
        rules = Rules.from_options("classic", {"end": "rounds:2"})
        seats = (SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("bot", "easy"))
        config = TableConfig(
            rules=rules, seats=seats, seed=3, bot_delay=0, next_round_after=30, takeover_after=40
        )
        created = await a.create(config)
        tid = created.table_id
        assert await b.seat_of(tid, created.invites[1]) == 1
        ann, bob = a.subscribe(tid, 0), b.subscribe(tid, 1)
        await b.join(tid, 1, "Bob")
        await until(lambda: b.table(tid).status == "playing")
        # Ann leaves: A (the lease holder) arms her takeover timer; B shows the same deadline
        a.unsubscribe(ann)
        await until(lambda: ("takeover", 0) in a.turns._live[tid].deadlines)
        at = a.turns._live[tid].deadlines[("takeover", 0)]
        takeover = {"kind": "takeover", "seat": 0, "at": at}
        await until(lambda: b.frame_for(tid, 1)["deadline"] == takeover)
        ann = a.subscribe(tid, 0)  # she is back: the timer is cancelled, and B shows none
        await until(lambda: b.frame_for(tid, 1)["deadline"] is None)
        assert not b.turns._live[tid].timers
        await asyncio.gather(until_round_over(a, ann, tid, 0), until_round_over(b, bob, tid, 1))
        await until(lambda: a.frame_for(tid, 0)["deadline"] is not None)
        on_a, on_b = a.frame_for(tid, 0)["deadline"], b.frame_for(tid, 1)["deadline"]
        assert on_a["kind"] == "next-round" and on_b == on_a  # B runs no timer: from the log
        assert tid not in b.owned and not b.turns._live[tid].timers
        ended = b.table(tid).round_ended_at
        assert ended is not None and on_b["at"] == ended + 30


async def spit_person(
    service: TableService, sub: Subscription, tid: str, seat: int, seed: int
) -> list[dict[str, Any]]:
    """Play Spit from the newest state: play, turn up, spit, call, slap, choose, else a move
    that uncovers a card (as the web leak test's player does)."""
    rng = random.Random(seed)
    frames: list[dict[str, Any]] = []
    while True:
        try:
            frame = await asyncio.wait_for(sub.get(), 0.3)
        except TimeoutError:
            frame = service.frame_for(tid, seat)
        else:
            assert frame is not None
            frames.append(frame)
        if frame["status"] == "over":
            return frames
        if not sub.queue.empty() or frame["status"] != "playing":
            continue
        view = frame["table_view"]
        legal = view["legal"]
        choice = None
        for kind in ("play", "turn-up", "spit", "call", "slap", "choose"):
            options = [a for a in legal if a["type"] == kind]
            if options:
                choice = rng.choice(options)
                break
        if choice is None:
            deep = {top for top, n in view["stocks"][seat] if top is not None and n > 1}
            choice = next((a for a in legal if a["type"] == "move" and a["card"] in deep), None)
        if choice is None:
            continue
        try:
            await service.act_realtime(tid, seat, choice)
        except TableError as exc:
            assert exc.code in ("stale", "illegal", "over"), exc


async def test_another_services_scan_right_after_a_new_speed_tables_row_cannot_take_it(
    pg_url: str,
) -> None:
    async with two_services(pg_url) as (store_a, _, a, b):
        with scan_after_each_row(store_a, b):  # B's scan sees the new table's committed row
            created = await a.create_realtime(speed(seed=13, bob=SeatSpec("bot", FAST)))
        tid = created.table_id
        # A took the lease before writing the row: B's scan found it held (else B would be
        # the clock of a table whose connections are routed to A)
        assert tid in a.owned and tid not in b.owned and not b.realtime.holds(tid)
        assert a.realtime._live[tid].task is not None  # A runs the bot and the countdowns
        ann = a.subscribe(tid, 0)
        frames = await asyncio.wait_for(race(a, ann, tid, 0, True, 14), 120)
        entries = await store_a.entries(tid)
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        assert RealtimeTable.replay(tid, entries).status == "over"
        assert frames[-1]["seq"] == entries[-1].seq
        assert [e.kind for e in entries].count("started") == 1
        assert any(e.data.get("by") == "bot" for e in entries if e.kind == "action")
        await b._scan()
        assert tid not in b.owned and not b.realtime.holds(tid)


async def test_a_services_own_scan_during_a_new_speed_tables_creation_leaves_it_to_it(
    pg_store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The creator's claim did not get the lease (its lease connection was down): its own
    scan, right after the row, takes the lease but leaves the table to the creation (loading
    it too would make a second copy in memory, with its own clock)."""
    a = TableService(pg_store)
    await a.start()
    write_row = pg_store.create_table
    made: list[str] = []

    async def no_lease(_table_id: str) -> None:
        pass

    async def then_a_scans(table_id: str, *args: Any) -> None:
        await write_row(table_id, *args)
        made.append(table_id)
        await a._scan()

    monkeypatch.setattr(a, "_claim", no_lease)
    monkeypatch.setattr(pg_store, "create_table", then_a_scans)
    try:
        created = await a.create_realtime(speed(seed=17, bob=SeatSpec("bot", FAST)))
        tid = created.table_id
        assert made == [tid] and tid in a.owned
        live = a.realtime._live[tid]
        assert live.task is not None  # the creation's copy is the clock
        frames = await asyncio.wait_for(race(a, a.subscribe(tid, 0), tid, 0, True, 18), 120)
        entries = await pg_store.entries(tid)
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        assert RealtimeTable.replay(tid, entries).status == "over"
        assert frames[-1]["seq"] == entries[-1].seq and a.realtime._live[tid] is live
        assert [e.kind for e in entries].count("started") == 1
    finally:
        await a.stop()


async def test_a_spit_table_whose_clock_is_the_other_service(pg_url: str) -> None:
    async with two_services(pg_url) as (store_a, _, a, b):
        seats = (SeatSpec("person", name="Ann"), SeatSpec("bot", FAST))
        config = RealtimeConfig(game="spit", options={"countdown": "0.3"}, seats=seats, seed=8)
        created = await a.create_realtime(config)
        tid = created.table_id
        assert tid in a.owned  # A is the clock: it runs the bot
        assert await b.seat_of(tid, created.creator_token) == 0  # Ann is connected to B
        ann = b.subscribe(tid, 0)
        frames = await asyncio.wait_for(spit_person(b, ann, tid, 0, 9), 120)
        entries = await store_a.entries(tid)
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        final = RealtimeTable.replay(tid, entries)
        assert final.status == "over" and frames[-1]["seq"] == entries[-1].seq
        assert frames[-1]["table_view"]["winner"] == final.engine.winner is not None
        assert check_frames(entries, frames, 0) > 10
        # the bot played from A's clock, Ann through B; B never ran the table
        by = {(e.data["seat"], e.data["by"]) for e in entries if e.kind == "action"}
        assert by == {(0, "person"), (1, "bot")}
        assert b.realtime._live[tid].task is None and tid not in b.owned


async def test_a_person_away_from_the_other_process_pauses_the_game_and_forfeits(
    pg_url: str,
) -> None:
    async with two_services(pg_url) as (store_a, store_b, a, b):
        config = RealtimeConfig(
            game="speed", options={"countdown": "0.3"}, seed=21, away_limit=2.0,
            seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
        )  # fmt: skip
        created = await a.create_realtime(config)
        tid = created.table_id
        assert await b.seat_of(tid, created.invites[1]) == 1  # Bob is connected to B
        ann = a.subscribe(tid, 0)
        bob = b.subscribe(tid, 1)
        await b.join(tid, 1, "Bob")
        await until(lambda: a.realtime.status(tid) == "playing", steps=3000)
        await until(lambda: 1 in a.realtime._live[tid].seen, steps=3000)  # A heard of Bob
        b.unsubscribe(bob)  # Bob's page closes: A, the clock, logs him away
        await until(lambda: b.frame_for(tid, 1)["paused"] is not None, steps=3000)
        frame = b.frame_for(tid, 0)
        assert frame["paused"]["seats"] == [1] and frame["seats"][1]["present"] is False
        with pytest.raises(TableError) as info:  # Ann may not play on meanwhile, on either side
            await a.act_realtime(tid, 0, {"type": "call"})
        assert info.value.code == "paused"
        bob = b.subscribe(tid, 1)  # back, through B again
        await until(lambda: a.frame_for(tid, 0)["paused"] is None, steps=3000)
        kinds = [e.kind for e in await store_a.entries(tid)]
        assert kinds[-2:] == ["away", "back"]
        b.unsubscribe(bob)  # gone for good: after the limit, A logs the forfeit
        await until(lambda: b.realtime.status(tid) == "over", steps=3000)
        entries = await store_b.entries(tid)
        assert [e.kind for e in entries[-2:]] == ["away", "over"]
        assert entries[-1].data["reason"] == "forfeit" and entries[-1].data["seat"] == 1
        assert entries[-1].data["t"] - entries[-2].data["t"] >= 2.0
        assert b.frame_for(tid, 0)["winner"] == a.frame_for(tid, 0)["winner"] == 0
        a.unsubscribe(ann)
