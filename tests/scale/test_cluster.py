"""The event log on PostgreSQL and several table services (as several processes would) on it.

Two ``TableService`` objects on one database each have their own lease connection, exactly
like two server processes: only the lease holder runs a table's bots and timers, a person's
action accepted by either is seen by the other's connections, and a service that goes away
hands its tables to the other.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.store import NOTIFY_CHANNEL, EventStore, LogEntry, SeqConflict
from cardroom.tables import SeatSpec, Subscription, TableError, TableService
from cardroom.tables.cluster import Coordinator, asyncpg_dsn
from tests.pgcluster import PgCluster
from tests.scale.clients import scan_after_each_row, two_services
from tests.tables.helpers import bot_config, until

asyncpg = pytest.importorskip("asyncpg", reason="asyncpg is not installed")

SEATS = [{"seat": 0, "kind": "person", "name": "Ann", "token_hash": "aa", "joined": True}]


async def test_the_pg_log_keeps_order_refuses_a_taken_seq_and_tells_listeners(
    pg_store: EventStore,
) -> None:
    heard: list[str] = []
    conn = await asyncpg.connect(asyncpg_dsn(pg_store.url))
    await conn.add_listener(NOTIFY_CHANNEL, lambda *args: heard.append(args[-1]))
    try:
        await pg_store.create_table(
            "t1", "nain-jaune", LogEntry(1, "created", {}, 1.0), "", True, SEATS
        )
        await pg_store.append("t1", LogEntry(2, "joined", {"seat": 0, "name": "Ann"}, 2.0))
        with pytest.raises(SeqConflict):
            await pg_store.append("t1", LogEntry(2, "action", {"seat": 0}, 3.0))
        assert [(e.seq, e.kind) for e in await pg_store.entries("t1")] == [
            (1, "created"),
            (2, "joined"),
        ]
        assert [e.seq for e in await pg_store.entries("t1", after=1)] == [2]
        await until(lambda: len(heard) >= 2)
        assert heard == ["t1 1", "t1 2"]  # the refused entry was never told
    finally:
        await conn.close()


async def test_change_notices_reach_the_processes_holding_the_table_and_no_other(
    pg_url: str,
) -> None:
    heard: dict[str, list[tuple[str, int, LogEntry | None]]] = {"a": [], "b": []}

    def coordinator(name: str, held: set[str]) -> Coordinator:
        return Coordinator(
            pg_url,
            lambda t, seq, entry: heard[name].append((t, seq, entry)),
            lambda *_: None,
            wants=held.__contains__,
        )

    a = coordinator("a", {"t1", "t2"})
    b = coordinator("b", {"t1"})  # B holds t1 only
    await a.connect()
    await b.connect()
    try:
        await until(lambda: not a.alone and not b.alone)  # (alone, nobody would be told)
        quoted = LogEntry(5, "joined", {"seat": 1, "name": "O'Brien \\ 'x''"}, 7.5)
        a.announce("t1", quoted)
        a.announce("t2", LogEntry(3, "action", {"seat": 0}, 8.0))  # B does not hold t2
        big = LogEntry(6, "action", {"pad": "x" * 8000}, 9.0)  # too big: its seq alone
        a.announce("t1", big)
        b.announce("t2", LogEntry(4, "action", {"seat": 2}, 9.5))
        await until(lambda: len(heard["b"]) >= 2 and len(heard["a"]) >= 1)
        await asyncio.sleep(0.3)  # anything else would have come by now
        # B: t1's entries as written (quotes and backslashes intact), the big one by seq
        assert heard["b"] == [("t1", 5, quoted), ("t1", 6, None)]
        # A heard B's notice and none of its own
        assert heard["a"] == [("t2", 4, LogEntry(4, "action", {"seat": 2}, 9.5))]
    finally:
        await a.close()
        await b.close()


async def test_change_presence_and_deadlines_notices_of_a_turn_go_in_one_query(
    pg_url: str,
) -> None:
    """Whatever their channel, the notices a process posts in one loop turn reach the others
    in one query on its lease connection (not one ``SELECT pg_notify`` round trip each for
    presence and deadlines), intact and in order."""
    changes: list[tuple[str, int, LogEntry | None]] = []
    presence: list[tuple[str, str, int, int]] = []
    deadlines: list[tuple[str, list[tuple[str, int | None, float]]]] = []
    a = Coordinator(pg_url, lambda *_: None, lambda *_: None)
    b = Coordinator(
        pg_url,
        lambda t, seq, entry: changes.append((t, seq, entry)),
        lambda pid, t, seat, n: presence.append((pid, t, seat, n)),
        on_deadlines=lambda t, told: deadlines.append((t, told)),
    )
    await a.connect()
    await b.connect()
    await until(lambda: not a.alone and not b.alone)
    queries: list[tuple[Any, ...]] = []

    class Counted:  # A's connection, its queries counted
        def __init__(self, conn: Any) -> None:
            self.conn = conn

        def __getattr__(self, name: str) -> Any:
            return getattr(self.conn, name)

        async def execute(self, *args: Any) -> Any:
            queries.append(args)
            return await self.conn.execute(*args)

    a.conn = Counted(a.conn)
    try:
        entry = LogEntry(2, "action", {"seat": 0, "say": "l'as"}, 3.0)
        a.announce("t1", entry)
        await a.tell_presence(["t1 0 1", "t1 1 2"])
        await a.tell_deadlines("t1", [("takeover", 1, 12.5), ("next-round", None, 20.0)])
        await until(lambda: bool(changes and presence and deadlines))
        await asyncio.sleep(0.3)  # anything else would have come by now
        assert len(queries) == 1
        assert changes == [("t1", 2, entry)]
        assert presence == [(a.pid, "t1", 0, 1), (a.pid, "t1", 1, 2)]
        assert deadlines == [("t1", [("takeover", 1, 12.5), ("next-round", None, 20.0)])]
    finally:
        await a.close()
        await b.close()


class _Counted:
    """A lease connection whose simple queries are written down."""

    def __init__(self, conn: Any, queries: list[str]) -> None:
        self.conn = conn
        self.queries = queries

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)

    async def execute(self, *args: Any) -> Any:
        self.queries.append(str(args[0]))
        return await self.conn.execute(*args)


async def test_a_lone_service_tells_nobody_and_one_that_comes_meanwhile_learns_every_change(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alone on the database, a service sends no change notice (no NOTIFY round trip per loop
    turn). A second service that comes while the first is still alone (its ``hello`` not heard
    yet), loads a table, and then misses the changes the first made without telling, is told
    by the first's ``sync`` and reads them from the log; then the changes come as notices."""
    async with two_services(pg_url, start=False) as (store_a, _, a, b):
        coord_a, coord_b = a._coord, b._coord
        assert coord_a is not None and coord_b is not None
        held: list[tuple[Any, ...]] = []
        heard_by_a = coord_a._peers

        def late(*args: Any) -> None:  # A hears of B only when the test says so
            held.append(args)

        monkeypatch.setattr(coord_a, "_peers", late)
        queries: list[str] = []
        await a.start()
        coord_a.conn = _Counted(coord_a.conn, queries)
        created = await a.create(two_people(seed=3))
        tid = created.table_id
        assert coord_a.alone
        await b.start()
        assert not coord_b.alone  # B saw A's shared lock: it tells from the start
        await until(lambda: bool(held))  # B's hello, not heard by A yet
        await b.seat_of(tid, created.invites[1])  # B loads the table from the log
        loaded = b.table(tid).seq
        await a.join(tid, 1, "Bob")  # A, alone: joined, started, the deal, the bots' moves
        await until(lambda: a.table(tid).status == "playing")
        await asyncio.sleep(0.3)  # a notice would have come by now
        assert a.table(tid).seq > loaded + 2
        assert b.table(tid).seq == loaded  # nobody told B
        assert coord_a.alone and not [q for q in queries if "NOTIFY" in q]
        for args in held:  # A hears B's hello: it answers, tells from now on, says sync
            heard_by_a(*args)
        assert not coord_a.alone
        await until(lambda: b.table(tid).seq == a.table(tid).seq)  # B read the log
        assert any(q.startswith("NOTIFY cardroom_peers, 'here'") for q in queries)
        assert any(f"NOTIFY cardroom_peers, 'sync {tid}'" in q for q in queries)
        # from now on A's changes reach B as notices
        await asyncio.sleep(0.1)
        queries.clear()
        before = a.table(tid).seq
        turn = [(g, f) for g in (0, 1) if (f := a.frame_for(tid, g))["round"]["legal"]]
        assert len(turn) == 1  # the bots have played up to a person's turn
        seat, frame = turn[0]
        await a.act(tid, seat, frame["round"]["legal"][0], frame["seq"])
        assert a.table(tid).seq > before
        await until(lambda: b.table(tid).seq == a.table(tid).seq)
        assert any("NOTIFY cardroom_tables" in q for q in queries)
        entries = await store_a.entries(tid)
        assert b.table(tid).seq == entries[-1].seq


def two_people(seed: int, rounds: int = 1, takeover_after: float = 0.0) -> TableConfig:
    rules = Rules.from_options("classic", {"end": f"rounds:{rounds}"})
    seats = (
        SeatSpec("person", name="Ann"),
        SeatSpec("person"),
        SeatSpec("bot", "easy"),
        SeatSpec("bot", "easy"),
    )
    return TableConfig(
        rules=rules, seats=seats, seed=seed, bot_delay=0, takeover_after=takeover_after
    )


async def play(service: TableService, sub: Subscription, table_id: str, seat: int) -> list[Any]:
    """Play the first legal action whenever it is ``seat``'s turn; ready for the next round."""
    frames = []
    while True:
        frame = await asyncio.wait_for(sub.get(), 30)
        assert frame is not None
        frames.append(frame)
        if frame["status"] == "over":
            return frames
        if not sub.queue.empty():
            continue  # act on the newest state only
        legal = (frame.get("round") or {}).get("legal")
        try:
            if frame["status"] == "playing" and legal:
                await service.act(table_id, seat, legal[0], frame["seq"])
            elif frame["status"] == "round-over" and seat not in frame.get("ready", []):
                await service.ready(table_id, seat)
        except TableError as exc:
            assert exc.code == "stale", exc  # a newer frame is on its way


async def test_two_services_one_table_one_authority(pg_url: str) -> None:
    async with two_services(pg_url) as (store_a, _, a, b):
        created = await a.create(two_people(seed=11, rounds=2, takeover_after=0.4))
        tid = created.table_id
        assert tid in a.owned and tid not in b.owned
        assert await b.seat_of(tid, created.invites[1]) == 1  # Bob is connected to process B
        ann = a.subscribe(tid, 0)
        bob = b.subscribe(tid, 1)
        await b.join(tid, 1, "Bob")  # everyone seated: A (the authority) starts and deals
        # A's takeover timers (0.4 s) would give absent seats to bots: Bob is present on B
        await asyncio.sleep(1.5)
        ann_frames, bob_frames = await asyncio.gather(play(a, ann, tid, 0), play(b, bob, tid, 1))
        entries = await store_a.entries(tid)
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        # B never held the lease: every bot move and every deal was written by A's tasks
        assert tid not in b.owned and b.turns._live[tid].bot_task is None
        replayed = NainJauneTable.replay(tid, entries)
        assert replayed.status == "over"
        for frames, seat in ((ann_frames, 0), (bob_frames, 1)):
            assert frames[-1]["seq"] == entries[-1].seq
            for frame in frames:  # every frame matches the log at its seq
                at = NainJauneTable.replay(tid, entries[: frame["seq"]])
                assert frame["round"] == at.frame(seat, None, set(), None)["round"]
        # Bob's actions went through B; nobody else wrote for seat 1
        bob_moves = [e for e in entries if e.kind == "action" and e.data["seat"] == 1]
        assert bob_moves and all(e.data["by"] == "person" for e in bob_moves)
        # presence crossed processes: no takeover was ever written for either person
        assert not [e for e in entries if e.kind == "takeover"]


async def test_another_services_scan_right_after_a_new_tables_row_cannot_take_it(
    pg_url: str,
) -> None:
    async with two_services(pg_url) as (store_a, _, a, b):
        with scan_after_each_row(store_a, b):  # B's scan sees the new table's committed row
            created = await a.create(bot_config(5, players=4, end="rounds:1"))
        tid = created.table_id
        # A took the lease before writing the row: B's scan found it held (else B would be
        # the authority of a table whose connections are routed to A)
        assert tid in a.owned and tid not in b.owned
        await a.start_now(tid, 0)
        await until(lambda: a.table(tid).status == "over", steps=20000)
        entries = await store_a.entries(tid)
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        assert tid not in b.owned


async def test_a_service_that_goes_away_hands_its_tables_to_the_other(pg_url: str) -> None:
    async with two_services(pg_url, 0.2) as (_, store_b, a, b):
        ids = []
        for seed in range(3):
            created = await a.create(bot_config(seed, players=4, end="rounds:3"))
            ids.append(created.table_id)
        for tid in ids:
            await a.start_now(tid, 0)
        await until(lambda: all(a.table(t).seq > 5 for t in ids))
        assert set(ids) <= a.owned and not b.owned
        await a.stop()  # its lease connection closes: as if the process had died
        await until(lambda: set(ids) <= b.owned, steps=3000)
        for tid in ids:
            await b.seat_of(tid, None)
        await until(lambda: all(b.table(t).status == "over" for t in ids), steps=20000)
        for tid in ids:
            entries = await store_b.entries(tid)
            assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
            assert NainJauneTable.replay(tid, entries).status == "over"


async def test_the_database_restarting_under_a_service_gives_clear_errors_then_recovers(
    pg_cluster: PgCluster, pg_url: str
) -> None:
    store = await EventStore.open(pg_url)
    service = TableService(store, lease_interval=0.2)
    await service.start()
    try:
        created = await service.create(two_people(seed=5, rounds=3))
        tid = created.table_id
        ann = service.subscribe(tid, 0)
        first = await ann.get()
        assert first is not None
        pg_cluster.stop()
        seq = service.table(tid).seq
        with pytest.raises(TableError) as refused:
            await service.join(tid, 1, "Bob")
        assert refused.value.code == "unavailable"
        assert "database is not answering" in refused.value.message
        assert service.table(tid).seq == seq  # nothing changed
        await until(lambda: not service.owned, steps=3000)  # the leases went with the database
        await until(lambda: ann.ended_by == "unavailable", steps=3000)  # the page is told
        pg_cluster.start()
        await until(lambda: tid in service.owned, steps=5000)  # no restart of the service
        ann = service.subscribe(tid, 0)  # the page connects again
        bob = service.subscribe(tid, 1)
        await service.join(tid, 1, "Bob")
        await asyncio.gather(play(service, ann, tid, 0), play(service, bob, tid, 1))
        entries = await store.entries(tid)
        assert NainJauneTable.replay(tid, entries).status == "over"
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    finally:
        pg_cluster.start_if_stopped()
        await service.stop()
        await store.close()
