"""The table websocket on a real server: a whole round, refresh, spectators, refusals."""

from __future__ import annotations

import asyncio
import json
import random
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import websockets

from cardroom.cards import parse_card
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.engine import Round, deal_hands
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.table import action_text, parse_action
from cardroom.tables import Created, SeatSpec
from tests.web.conftest import AutoPlayer, Player, over, service_of, serving, settings_for


def config(seats: list[SeatSpec], seed: int, **rules: Any) -> TableConfig:
    return TableConfig(
        rules=Rules.from_options(None, {"end": "rounds:1", **rules}),
        seats=tuple(seats),
        seed=seed,
        takeover_after=0.0,
        bot_delay=0.0,
    )


def sorted_codes(codes: list[str]) -> list[str]:
    return [c.code for c in sorted(parse_card(x) for x in codes)]


def is_state(frame: dict[str, Any]) -> bool:
    return bool(frame["type"] == "state")


async def test_two_people_and_a_bot_play_a_whole_round(tmp_path: Path) -> None:
    seed = 2024
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        seats = [SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("bot", "easy")]
        created = await service.create(config(seats, seed))
        table = created.table_id
        ann = AutoPlayer(address, table, created.creator_token)
        bob = AutoPlayer(address, table, created.invites[1])
        ann.first_legal = bob.first_legal = True
        watcher = Player(address, table, None)
        for p in (ann, bob, watcher):
            await p.connect()
        first = await bob.wait_for(is_state)
        assert first["status"] == "waiting" and first["you"] == 1
        await bob.send({"type": "join", "name": "Bob"})  # everyone is seated: the game starts
        final = await ann.wait_for(over)
        await bob.wait_for(over)
        seen = await watcher.wait_for(over)
        entries = await app.state.store.entries(table)
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            record = (await http.get(f"/t/{table}/record")).json()
            frames = (await http.get(f"/api/replay/{table}")).json()
        for p in (ann, bob, watcher):
            await p.close()
    kinds = [e.kind for e in entries]
    assert kinds[:4] == ["created", "joined", "started", "round"]
    dealer = entries[2].data["dealer"]
    deal = entries[3].data
    hands, talon = deal_hands(3, dealer, random.Random(f"{seed}/deal/0"))
    assert deal["hands"] == [[c.code for c in h] for h in hands]  # the deal is the seed's
    assert deal["talon"] == [c.code for c in talon]
    ann_first = next(f for f in ann.frames if is_state(f) and f["round"])
    assert sorted(ann_first["round"]["hand"]) == sorted(deal["hands"][0])
    # replay the log through a fresh engine: each person's action is the first legal one
    rnd = Round(
        Rules.from_options(None, {"end": "rounds:1"}),
        [60] * 3,
        [0] * 5,
        dealer,
        [[parse_card(c) for c in h] for h in deal["hands"]],
        [parse_card(c) for c in deal["talon"]],
    )
    by_person = 0
    for entry in entries[4:]:
        assert entry.kind == "action", entry
        assert entry.data["seat"] == rnd.to_act
        if entry.data["seat"] in (0, 1):
            assert entry.data["by"] == "person"
            assert entry.data["action"] == action_text(rnd.legal_actions()[0])
            by_person += 1
        else:
            assert entry.data["by"] == "bot"
        rnd.apply(parse_action(entry.data["action"]))
    assert rnd.result is not None and by_person > 0
    assert final["game_result"]["chips"] == list(rnd.result.chips)
    assert final["last_result"]["winner"] == rnd.result.winner
    assert sum(rnd.result.chips) + sum(rnd.result.board) == 180
    assert seen["game_result"] == final["game_result"]
    # the published record replays to the same end, hands face up
    assert record[0]["hands"] == [sorted_codes(h) for h in deal["hands"]] and len(record) == 1
    assert frames["rounds"][0]["settlement"]["chips"] == list(rnd.result.chips)
    assert frames["rounds"][0]["steps"][0]["hands"] == [sorted_codes(h) for h in deal["hands"]]


async def start_two(address: str, created: Created) -> tuple[Player, Player, Player]:
    table = created.table_id
    ann = await Player(address, table, created.creator_token).connect()
    bob = await Player(address, table, created.invites[1]).connect()
    watcher = await Player(address, table, None).connect()
    await bob.send({"type": "join", "name": "Bob"})
    for p in (ann, bob, watcher):
        await p.wait_for(lambda f: is_state(f) and f["round"] is not None)
    return ann, bob, watcher


async def test_refresh_gives_the_same_seat_and_the_whole_view(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        seats = [SeatSpec("person", name="Ann"), SeatSpec("person")]
        created = await service_of(app).create(config(seats, 7))
        ann, bob, watcher = await start_two(address, created)
        before = ann.state
        assert before is not None
        await ann.close()
        cookie = {"Cookie": f"cr_seat_{created.table_id}={created.creator_token}"}
        again = await Player(address, created.table_id, None, cookie).connect()
        after = await again.wait_for(is_state)
        assert after["you"] == 0
        assert after["seq"] == before["seq"]
        assert after["round"]["hand"] == before["round"]["hand"]
        assert after["round"]["legal"] == before["round"]["legal"]
        assert [e["text"] for e in after["events"]][-1] == "Stakes: 15 chips each on the board"
        for p in (again, bob, watcher):
            await p.close()


async def test_spectators_see_no_hand_and_cannot_play(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        seats = [SeatSpec("person", name="Ann"), SeatSpec("person")]
        created = await service_of(app).create(config(seats, 8))
        ann, bob, watcher = await start_two(address, created)
        state = watcher.state
        assert state is not None and state["you"] is None
        # the watch page of someone who has a seat: ?watch=1 makes it a spectator all the same
        cookie = {"Cookie": f"cr_seat_{created.table_id}={created.creator_token}"}
        table = created.table_id
        also = await Player(address, f"{table}?watch=1", None, cookie).connect()
        assert (await also.wait_for(is_state))["you"] is None
        assert "hand" not in (await also.wait_for(is_state))["round"]
        await also.close()
        assert "hand" not in state["round"] and "legal" not in state["round"]
        mark = len(watcher.frames)
        await watcher.send({"type": "act", "action": "pass", "seq": state["seq"], "id": 5})
        error = await watcher.wait_for(lambda f: f["type"] == "error", mark)
        assert error["code"] == "forbidden" and error["ref"] == 5
        assert "watching" in error["message"]
        for p in (ann, bob, watcher):
            await p.close()


async def test_bad_messages_get_an_error_and_change_nothing(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        seats = [SeatSpec("person", name="Ann"), SeatSpec("person")]
        created = await service_of(app).create(config(seats, 9))
        ann, bob, watcher = await start_two(address, created)
        players = {0: ann, 1: bob}
        state = ann.state
        assert state is not None
        seq, to_act = state["seq"], state["round"]["to_act"]
        actor, other = players[to_act], players[1 - to_act]
        assert actor.state is not None
        hand = actor.state["round"]["hand"]
        log_before = await app.state.store.entries(created.table_id)
        not_mine = next(c for c in ("AC", "2C", "3C", "4C", "5C", "6C", "7C") if c not in hand)
        cases: list[tuple[Player, Any, str, str]] = [
            (actor, "{not json", "bad-request", "not valid JSON"),
            (actor, '{"type": "dance"}', "bad-request", "unknown message type"),
            (actor, b"\x00\x01", "bad-request", "binary"),
            (actor, json.dumps({"type": "join", "name": "x" * 5000}), "too-large", "4096"),
            (actor, {"type": "act", "action": hand[0], "seq": seq - 1}, "stale", "since you"),
            (actor, {"type": "act", "action": not_mine, "seq": seq}, "illegal", "do not hold"),
            (actor, {"type": "act", "action": "pass", "seq": seq}, "illegal", "new sequence"),
            (actor, {"type": "act", "action": "XX", "seq": seq}, "bad-request", ""),
            (actor, {"type": "join", "name": "Again"}, "bad-request", "already taken"),
            (other, {"type": "act", "action": "pass", "seq": seq}, "not-your-turn", "turn"),
            (watcher, {"type": "act", "action": hand[0], "seq": seq}, "forbidden", "watching"),
            (actor, {"type": "ready"}, "bad-request", "not over"),
        ]
        ids = {
            "stale": {"table.stale", "table.moved-on"},
            "illegal": {"nj.not-held", "nj.must-lead"},
            "not-your-turn": {"table.turn"},
            "too-large": {"web.too-large"},
            "forbidden": {"ws.watching"},
            "bad-request": {
                "ws.not-json",
                "ws.binary",
                "ws.unknown-type",
                "table.unreadable-action",
                "table.seat-taken",
                "table.round-not-over",
            },
        }
        for player, message, code, words in cases:
            mark = len(player.frames)
            await player.send(message)
            error = await player.wait_for(lambda f: f["type"] != "state", mark)
            assert error["type"] == "error" and error["code"] == code, (message, error)
            assert words in error["message"], (message, error)
            # every refusal names its own message: the engine's, the table's or the connection's
            assert error["id"] in ids.get(code, {f"table.{code}"}), (message, error)
        await actor.send({"type": "ping", "id": "p"})
        assert (await actor.wait_for(lambda f: f["type"] == "pong"))["ref"] == "p"
        assert await app.state.store.entries(created.table_id) == log_before
        assert service_of(app).frame_for(created.table_id, to_act)["seq"] == seq
        assert service_of(app).frame_for(created.table_id, to_act)["round"]["hand"] == hand
        for p in (ann, bob, watcher):
            await p.close()


async def test_a_flood_is_rate_limited_then_closed(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        created = await service_of(app).create(
            config([SeatSpec("person", name="Ann"), SeatSpec("person")], 10)
        )
        ann = await Player(address, created.table_id, created.creator_token).connect()
        await ann.wait_for(is_state)
        for _ in range(100):
            try:
                await ann.send({"type": "ping"})
            except websockets.ConnectionClosed:
                break
        assert ann.reader is not None
        await asyncio.wait_for(ann.reader, 30)
        assert ann.ws.close_code == 1008
        pongs = sum(f["type"] == "pong" for f in ann.frames)
        limited = [f for f in ann.frames if f.get("code") == "rate-limited"]
        assert 40 <= pongs < 60 and len(limited) >= 20
        assert "too fast" in limited[0]["message"]


async def test_a_foreign_page_and_a_wrong_token_are_refused(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        created = await service_of(app).create(
            config([SeatSpec("person", name="Ann"), SeatSpec("person")], 11)
        )
        table = created.table_id
        evil = await Player(address, table, None, {"Origin": "http://evil.example"}).connect()
        wrong = await Player(address, table, "not-a-token").connect()
        missing = await Player(address, "nosuch", None).connect()
        for p, code, close in (
            (evil, "forbidden", 4403),
            (wrong, "forbidden", 4403),
            (missing, "not-found", 4404),
        ):
            assert p.reader is not None
            await asyncio.wait_for(p.reader, 30)
            assert [f["code"] for f in p.frames] == [code]
            assert p.ws.close_code == close


def settled(player: AutoPlayer, frame: dict[str, Any]) -> bool:
    """The player has made its moves and it is its turn again (the bots have played)."""
    return bool(
        len(player.acted) == player.limit
        and is_state(frame)
        and frame["round"]["to_act"] == frame["you"]
        and frame["seq"] > max(player.acted)
    )


def ann_here(frame: dict[str, Any]) -> bool:
    """A state frame that has seen Ann's page (a watcher's first frame may come just before the
    server counts her connection on a busy machine)."""
    return is_state(frame) and frame["seats"][0].get("present") is True


async def test_a_restarted_server_gives_identical_state_frames(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    tables: list[tuple[Created, dict[str, Any], dict[str, Any]]] = []
    async with serving(settings) as (app, address):
        for seed in (21, 22, 23):
            seats = [
                SeatSpec("person", name="Ann"),
                SeatSpec("bot", "easy"),
                SeatSpec("bot", "medium"),
            ]
            created = await service_of(app).create(config(seats, seed))
            ann = AutoPlayer(address, created.table_id, created.creator_token, seed)
            ann.limit = 4
            await ann.connect()
            await ann.wait_for(partial(settled, ann))
            await ann.close()
            fresh = await Player(address, created.table_id, created.creator_token).connect()
            mine = await fresh.wait_for(is_state)
            watch = await Player(address, created.table_id, None).connect()
            theirs = await watch.wait_for(ann_here)
            await fresh.close()
            await watch.close()
            tables.append((created, mine, theirs))
    async with serving(settings) as (app, address):
        for created, mine, theirs in tables:
            fresh = await Player(address, created.table_id, created.creator_token).connect()
            assert await fresh.wait_for(is_state) == mine
            watch = await Player(address, created.table_id, None).connect()
            assert await watch.wait_for(ann_here) == theirs
            await watch.close()
            ann = AutoPlayer(address, created.table_id, created.creator_token, 1)
            await fresh.close()
            await ann.connect()
            assert (await ann.wait_for(over))["status"] == "over"  # and the game goes on
            await ann.close()


async def test_a_seat_given_to_a_bot_at_the_start_is_refused(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        created = await service.create(
            config([SeatSpec("person", name="Ann"), SeatSpec("person")], 12)
        )
        await service.start_now(created.table_id, 0)  # Bob never came: a bot has his seat
        late = await Player(address, created.table_id, created.invites[1]).connect()
        assert late.reader is not None
        await asyncio.wait_for(late.reader, 30)
        assert [f["code"] for f in late.frames] == ["forbidden"]
        assert late.ws.close_code == 4403
