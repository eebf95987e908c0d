"""Play now: who is paired with whom, bots for Nain Jaune seats nobody takes, the routes."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

import sqlalchemy as sa
from fastapi.testclient import TestClient

from cardroom.store import EventStore, PlayerStore
from cardroom.store.players import seat_claims_t
from cardroom.store.ratings import play_queue_t, ratings_t
from cardroom.tables import TableService
from cardroom.web.play_now import PlayNow, Waiting
from cardroom.web.ratings import is_rated
from tests.web.conftest import browser
from tests.web.test_players import ORIGIN, first_state, name


def waiting(pid: str, game: str, mu: float, at: float, size: int = 2) -> Waiting:
    return Waiting(pid, pid, game, size, 30.0, mu, at)


def test_speed_pairs_the_longest_waiting_with_the_closest_rating() -> None:
    queue = [
        waiting("a", "speed", 25.0, 1.0),
        waiting("b", "speed", 35.0, 2.0),
        waiting("c", "speed", 27.0, 3.0),
        waiting("d", "speed", 23.0, 4.0),
    ]
    chosen = PlayNow.choose(queue, 10.0)
    assert chosen is not None and [w.player_id for w in chosen[0]] == ["a", "c"]
    assert PlayNow.choose(queue[:1], 30.9) is None  # alone: wait (a bot after 30 s)


def test_nain_jaune_waits_for_people_then_gives_the_other_seats_to_bots() -> None:
    queue = [waiting("a", "nain-jaune", 25, 100.0, 4), waiting("b", "nain-jaune", 25, 101.0, 4)]
    assert PlayNow.choose(queue, 129.9) is None
    chosen = PlayNow.choose(queue, 130.0)
    assert chosen is not None and [w.player_id for w in chosen[0]] == ["a", "b"] and chosen[1] == 4
    full = [waiting(p, "nain-jaune", 25, 100.0 + i, 3) for i, p in enumerate("abcd")]
    chosen = PlayNow.choose(full, 100.0)
    assert chosen is not None and [w.player_id for w in chosen[0]] == ["a", "b", "c"]


def test_two_browsers_pressing_play_now_for_speed_are_seated_facing_each_other(
    client: TestClient,
) -> None:
    assert client.post("/api/play", json={"game": "speed"}, headers=ORIGIN).status_code == 401
    name(client, "Ann")
    first = client.post("/api/play", json={"game": "speed"}, headers=ORIGIN).json()
    assert first["waiting"]["game"] == "speed" and first["waiting"]["table"] is None
    with browser(client) as bob:
        name(bob, "Bob")
        seated = bob.post("/api/play", json={"game": "speed"}, headers=ORIGIN).json()
        table = seated["waiting"]["table"]
        assert table
        assert client.get("/api/play").json()["waiting"]["table"] == table
        assert client.get("/api/play").json()["waiting"] is None  # told once
        with (
            client.websocket_connect(f"/ws/{table}") as ann_ws,
            bob.websocket_connect(f"/ws/{table}") as bob_ws,
        ):
            ann_frame, bob_frame = first_state(ann_ws), first_state(bob_ws)
            assert {ann_frame["you"], bob_frame["you"]} == {0, 1}
            assert "Bob" in json.dumps(ann_frame) and "Ann" in json.dumps(bob_frame)


def test_leaving_the_queue(client: TestClient) -> None:
    name(client, "Ann")
    client.post("/api/play", json={"game": "nain-jaune", "size": 3, "wait": 300}, headers=ORIGIN)
    assert client.get("/api/play").json()["waiting"]["size"] == 3
    client.post("/api/play/leave", json={"confirm": True}, headers=ORIGIN)
    assert client.get("/api/play").json()["waiting"] is None
    assert time.time() > 0


def test_the_lobby_lists_a_play_now_table_among_mine(client: TestClient) -> None:
    name(client, "Ann")
    client.post("/api/play", json={"game": "speed"}, headers=ORIGIN)
    with browser(client) as bob:
        name(bob, "Bob")
        table = bob.post("/api/play", json={"game": "speed"}, headers=ORIGIN).json()["waiting"]
        mine = client.get("/api/tables").json()["mine"]
        assert [(t["id"], t["you"]) for t in mine] == [(table["table"], 0)]


async def test_a_nain_jaune_table_fills_with_bots_after_the_wait(tmp_path: Path) -> None:
    store = await EventStore.open(str(tmp_path / "p.db"))
    service = TableService(store)
    players = PlayerStore(store)
    play = PlayNow(store, service, players, 0.0)
    try:
        await service.start()
        ann = (await players.create("Ann", 1.0))[0].id
        bob = (await players.create("Bob", 1.0))[0].id
        await play.join(ann, "nain-jaune", 3, 30.0, now=100.0)
        await play.join(bob, "nain-jaune", 3, 30.0, now=101.0)
        assert await play.match_all(now=129.0) == []  # Ann has waited 29 s of her 30
        [table] = await play.match_all(now=130.0)
        rows = await players.table_rows([table])
        assert [s["kind"] for s in rows[0].seats] == ["person", "person", "bot"]
        assert [s["name"] for s in rows[0].seats][:2] == ["Ann", "Bob"]
        assert await players.tables_of(ann) == [(table, 0)]
        assert await players.tables_of(bob) == [(table, 1)]
        assert await is_rated(store, table)
        status = await play.status(bob)
        assert status is not None and status["table"] == table
    finally:
        await service.stop()
        await store.close()


async def twenty_at_once(stores: list[EventStore]) -> None:
    """20 people press Play now for Speed, half on each of two servers sharing a database:
    each is seated exactly once, two at each of ten tables."""
    services = [TableService(s, coordinate=False) for s in stores]
    players = [PlayerStore(s) for s in stores]
    plays = [PlayNow(s, v, p, 0.0) for s, v, p in zip(stores, services, players, strict=True)]
    try:
        people = [(await players[0].create(f"P{i}", 1.0))[0].id for i in range(20)]
        rng = random.Random(7)

        async def press(i: int) -> None:
            play = plays[i % 2]  # half the people reach each server
            await asyncio.sleep(rng.random() * 0.05)
            await play.join(people[i], "speed", 2, 30.0)
            await play.match_all()

        await asyncio.gather(*(press(i) for i in range(20)))
        for _ in range(5):  # whoever was left waiting by a lost race is seated next round
            await asyncio.gather(*(p.match_all() for p in plays))
        async with stores[0].engine.connect() as conn:
            claims = (
                await conn.execute(sa.select(seat_claims_t.c.table_id, seat_claims_t.c.player_id))
            ).all()
            queue = (await conn.execute(sa.select(play_queue_t))).all()
        seated = [c.player_id for c in claims]
        assert sorted(seated) == sorted(people)  # everyone once, nobody twice
        tables: dict[str, set[str]] = {}
        for c in claims:
            tables.setdefault(c.table_id, set()).add(c.player_id)
        assert len(tables) == 10 and all(len(p) == 2 for p in tables.values())
        # each waiting row names the table its person sits at
        assert {r.player_id: r.table_id for r in queue} == {c.player_id: c.table_id for c in claims}
        status = await plays[1].status(people[0])
        assert status is not None and status["table"] in tables
    finally:
        for service in services:
            await service.stop()
        for store in stores:
            await store.close()


async def test_twenty_people_pressing_at_once_on_two_servers_sharing_a_sqlite_file(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "shared.db")
    await twenty_at_once([await EventStore.open(path) for _ in range(2)])


def test_spit_alone_gets_a_bot_after_the_wait_and_at_once_by_choice() -> None:
    """Play now never leaves a person waiting without an end (issue 34, item 2)."""
    alone = [waiting("a", "spit", 25.0, 100.0)]
    assert PlayNow.choose(alone, 129.9) is None  # the 30 s the page states
    chosen = PlayNow.choose(alone, 130.0)
    assert chosen is not None and [w.player_id for w in chosen[0]] == ["a"] and chosen[1] == 2
    now = [Waiting("b", "b", "speed", 2, 0.0, 25.0, 100.0)]  # asked for a bot at once
    assert PlayNow.choose(now, 100.0) is not None


async def test_a_spit_player_alone_plays_a_bot_of_their_level(tmp_path: Path) -> None:
    store = await EventStore.open(str(tmp_path / "p.db"))
    service = TableService(store)
    players = PlayerStore(store)
    play = PlayNow(store, service, players, 0.0)
    try:
        await service.start()
        ann = (await players.create("Ann", 1.0))[0].id
        bob = (await players.create("Bob", 1.0))[0].id
        await play.join(ann, "spit", 2, 30.0, now=100.0)
        status = await play.status(ann)
        assert status is not None and status["others"] == 0 and status["bots_at"] == 130.0
        assert status["level"] == "medium"  # no rated game yet
        await play.join(bob, "speed", 2, 30.0, now=110.0)
        assert (await play.status(ann) or {})["others"] == 0  # Bob waits for another game
        assert await play.match_all(now=129.0) == []
        [table] = await play.match_all(now=130.5)
        rows = await players.table_rows([table])
        assert [s["kind"] for s in rows[0].seats] == ["person", "bot"]
        assert rows[0].seats[1]["level"] == "medium" and await is_rated(store, table)
        assert (await play.status(ann) or {})["table"] == table
        async with store.engine.begin() as conn:  # Bob has played Spit at the expert's rating
            await conn.execute(
                sa.insert(ratings_t).values(
                    player_id=bob, game="spit", mu=63.0, sigma=1.0, games=40
                )
            )
        await play.join(bob, "spit", 2, 30.0, now=200.0, bot_now=True)
        [table] = await play.match_all(now=200.0)  # at once, by choice
        rows = await players.table_rows([table])
        assert rows[0].seats[1]["level"] == "expert"
    finally:
        await service.stop()
        await store.close()


def test_play_now_for_a_game_nobody_registered_is_a_bad_request_and_queues_nothing(
    client: TestClient,
) -> None:
    name(client, "Ann")
    answer = client.post("/api/play", json={"game": "snap"}, headers=ORIGIN)
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad-request"
    assert client.get("/api/play").json()["waiting"] is None
