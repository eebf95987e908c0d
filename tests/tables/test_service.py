"""The table service end to end on a temporary SQLite log."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest

from cardroom.cards import parse_cards
from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.record import parse_game, replay_game
from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.store import EventStore
from cardroom.tables import SeatSpec, TableError, TableService
from tests.nain_jaune.deals import make_deal
from tests.nain_jaune.test_scenarios import TWO_SEAT1, TWO_TALON
from tests.tables.helpers import bot_config, until


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[EventStore]:
    store = await EventStore.open(str(tmp_path / "tables.db"))
    yield store
    await store.close()


@pytest.fixture
async def service(store: EventStore) -> AsyncIterator[TableService]:
    svc = TableService(store)
    await svc.start()
    yield svc
    await svc.stop()


def two_seat_config(seed: int = 2, **kw: Any) -> TableConfig:
    """Ann (a person, seat 0) against one easy bot; seed 2 makes the bot (seat 1) deal."""
    return TableConfig(
        rules=Rules(),
        seats=(SeatSpec("person", name="Ann"), SeatSpec("bot", "easy", "Bob")),
        seed=seed,
        bot_delay=0,
        **kw,
    )


def rigged_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round gets the hand-made 2-player deal: position 0 holds TWO_SEAT1."""
    hands, talon = make_deal(2, {0: TWO_SEAT1}, TWO_TALON)

    def deal(self: NainJauneTable) -> dict[str, Any]:
        assert self.game is not None
        return {
            "k": self.game.rounds_played,
            "hands": [[c.code for c in h] for h in hands],
            "talon": [c.code for c in talon],
        }

    monkeypatch.setattr(NainJauneTable, "deal", deal)


def seat_to_act(table: NainJauneTable) -> int | None:
    """The game seat whose turn it is (None: nobody's)."""
    turn = table.turn()
    return None if turn is None else turn.seat


def cards_played(table: NainJauneTable) -> int:
    """The cards played in the table's round so far (it has one)."""
    rnd = table.round
    assert rnd is not None
    return len(rnd.played)


ANN_MOVES = [
    *["AC", "2C", "3C", "pass", "pass", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"],
    *["AD", "2D", "3D", "pass", "pass", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD"],
]


async def test_a_hand_made_deal_played_through_the_service(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    rigged_deal(monkeypatch)
    created = await service.create(two_seat_config())
    tid = created.table_id
    assert await service.seat_of(tid, created.creator_token) == 0 and created.invites == {}
    table = cast(NainJauneTable, service.table(tid))
    for move in ANN_MOVES:
        await until(lambda: seat_to_act(table) == 0)
        await service.act(tid, 0, move, table.seq)
    # Worked out by hand (as tests/nain_jaune/test_scenarios.py's 2-player deal, mirrored):
    # stakes 15 each -> 45/45, board 2 4 6 8 10; Ann takes JC 4, 7D 10, 10D 2 -> 61; Bob owes
    # 152 for his 22 cards and pays his 45 (short) -> 106; Bob holds QS and KH and doubles
    # them with nothing; Ann's 22 cards in one turn: grand opéra sweeps 6 + 8 -> 120.
    game = table.game
    assert game is not None and game.result is not None
    assert game.chips == [120, 0] and game.board == [0, 0, 0, 0, 0]
    assert game.result.winners == (0,)
    frame = service.frame_for(tid, 0)
    assert frame["status"] == "over" and frame["game_result"]["winners"] == [0]
    rows = {r["seat"]: r for r in frame["last_result"]["rows"]}
    assert rows[0]["paid"] == 60 and rows[1]["paid"] == -60 and rows[1]["cards_left"] == 22
    assert frame["last_result"]["grand_opera"] is True
    # the bot only ever passed, each pass logged as by the bot
    entries = await service.store.entries(tid)
    bot_moves = [e.data for e in entries if e.kind == "action" and e.data["seat"] == 1]
    assert [m["action"] for m in bot_moves] == ["pass"] * 4 and {m["by"] for m in bot_moves} == {
        "bot"
    }
    # the record replays to the same chips
    record = await service.record(tid)
    replays = replay_game(parse_game(json.loads(json.dumps(record))))
    assert replays[-1].result is not None and replays[-1].result.chips == (120, 0)


async def test_stale_illegal_and_out_of_turn_actions_change_nothing(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    rigged_deal(monkeypatch)
    created = await service.create(two_seat_config())
    tid = created.table_id
    table = cast(NainJauneTable, service.table(tid))
    await until(lambda: table.turn() is not None)
    before = (table.seq, service.frame_for(tid, 0), len(await service.store.entries(tid)))
    with pytest.raises(TableError) as stale:
        await service.act(tid, 0, "AC", table.seq - 1)
    assert stale.value.code == "stale" and "moved on" in stale.value.message
    with pytest.raises(TableError) as held:
        await service.act(tid, 0, "4H", table.seq)  # in the talon: Ann does not hold it
    assert held.value.code == "illegal" and "does not hold 4H" in held.value.message
    with pytest.raises(TableError) as unread:
        await service.act(tid, 0, "pass please", table.seq)
    assert unread.value.code == "bad-request"
    with pytest.raises(TableError) as other:
        await service.act(tid, 1, "AH", table.seq)
    assert other.value.code == "not-your-turn"
    after = (table.seq, service.frame_for(tid, 0), len(await service.store.entries(tid)))
    assert after == before


async def test_tokens_seats_and_spectators(service: TableService) -> None:
    config = TableConfig(
        rules=Rules(),
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("bot", "easy")),
        seed=1,
        bot_delay=0,
    )
    created = await service.create(config)
    tid = created.table_id
    assert set(created.invites) == {1} and created.invites[1] != created.creator_token
    assert await service.seat_of(tid, created.invites[1]) == 1
    assert await service.seat_of(tid, None) is None
    with pytest.raises(TableError) as wrong:
        await service.seat_of(tid, created.invites[1] + "x")
    assert wrong.value.code == "forbidden"
    with pytest.raises(TableError) as missing:
        await service.seat_of("no-such-table", None)
    assert missing.value.code == "not-found"
    # the token itself is nowhere in the log, only its sha256
    log = json.dumps([e.data for e in await service.store.entries(tid)])
    assert created.invites[1] not in log and created.creator_token not in log
    table = cast(NainJauneTable, service.table(tid))
    assert table.status == "waiting"
    with pytest.raises(TableError):
        await service.join(tid, 1, "  ")
    with pytest.raises(TableError) as bot_seat:
        await service.join(tid, 2, "Eve")
    assert bot_seat.value.code == "forbidden"
    await service.join(tid, 1, "  Cid  ")
    assert table.names[1] == "Cid"
    await until(lambda: table.status == "playing" and table.round is not None)  # all joined
    rnd = table.round
    assert rnd is not None
    spectator = service.frame_for(tid, None)
    assert "hand" not in spectator["round"] and "legal" not in spectator["round"]
    hidden = {c.code for h in rnd.hands for c in h} | {c.code for c in rnd.talon}
    text = json.dumps(spectator)
    played = {c for _, c in spectator["round"]["played"]} | {c.code for c in Rules().board_cards}
    assert not [c for c in hidden - played if f'"{c}"' in text]
    for seat in (0, 1):
        mine = service.frame_for(tid, seat)
        pos = table.round_seats.index(seat)
        assert mine["round"]["hand"] == [c.code for c in rnd.hands[pos]]
        others = {c.code for p, h in enumerate(rnd.hands) if p != pos for c in h}
        others |= {c.code for c in rnd.talon}
        others -= {c for _, c in mine["round"]["played"]} | {c.code for c in Rules().board_cards}
        text = json.dumps(mine)
        assert not [c for c in others if f'"{c}"' in text]
    with pytest.raises(TableError) as early:
        await service.record(tid)
    assert early.value.code == "forbidden"


async def test_a_person_away_is_replaced_by_a_bot_and_takes_the_seat_back(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    rigged_deal(monkeypatch)
    created = await service.create(two_seat_config(takeover_after=0.02))
    tid = created.table_id
    table = cast(NainJauneTable, service.table(tid))
    sub = service.subscribe(tid, 0)
    first = await sub.get()
    assert first is not None and first["seats"][0]["present"] is True
    await until(lambda: seat_to_act(table) == 0)
    await service.act(tid, 0, "AC", table.seq)
    service.unsubscribe(sub)
    await until(lambda: 0 in table.taken_over)
    await until(lambda: cards_played(table) >= 3)
    frame = service.frame_for(tid, None)
    assert frame["seats"][0]["bot_playing"] is True and frame["seats"][0]["present"] is False
    entries = await service.store.entries(tid)
    takeover = [e for e in entries if e.kind == "takeover"]
    assert takeover[0].data == {"seat": 0, "level": "medium"}
    back = service.subscribe(tid, 0)
    await until(lambda: 0 not in table.taken_over)
    kinds = [e.kind for e in await service.store.entries(tid)]
    assert kinds.count("returned") == 1
    assert service.frame_for(tid, 0)["seats"][0]["bot_playing"] is False
    service.unsubscribe(back)


async def test_a_person_who_leaves_before_the_return_is_written_stays_replaced(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the return is written under the table's lock; a page that opens and closes while the
    # bot holds it must not hand the seat back to nobody (the game then waited for ever)
    rigged_deal(monkeypatch)
    created = await service.create(two_seat_config(takeover_after=0.02))
    tid = created.table_id
    table = cast(NainJauneTable, service.table(tid))
    sub = service.subscribe(tid, 0)
    await sub.get()
    await until(lambda: seat_to_act(table) == 0)
    await service.act(tid, 0, "AC", table.seq)
    service.unsubscribe(sub)
    await until(lambda: 0 in table.taken_over)
    live = service.turns._live[tid]
    async with live.lock:  # as the bot loop holds it between two moves
        glimpse = service.subscribe(tid, 0)
        service.unsubscribe(glimpse)
    await asyncio.sleep(0.05)
    assert 0 in table.taken_over
    kinds = [e.kind for e in await service.store.entries(tid)]
    assert "returned" not in kinds
    played = cards_played(table)
    await until(lambda: cards_played(table) > played or table.status != "playing")


async def test_subscribers_get_each_event_once_and_a_slow_one_a_fresh_state(
    service: TableService,
) -> None:
    config = bot_config(5)
    created = await service.create(TableConfig(**{**_fields(config), "bot_delay": 0.001}))
    tid = created.table_id
    table = cast(NainJauneTable, service.table(tid))
    watcher = service.subscribe(tid, None)
    slow = service.subscribe(tid, None)  # never reads
    events: list[dict[str, Any]] = []
    seqs: list[int] = []

    async def watch() -> None:
        async for frame in watcher:
            assert "resync" not in frame and "hand" not in (frame["round"] or {})
            seqs.append(frame["seq"])
            events.extend(frame["events"])
            if frame["status"] == "over":
                return

    task = asyncio.get_running_loop().create_task(watch())
    await service.start_now(tid, 0)
    await until(lambda: table.status == "over")
    await until(task.done)
    await task
    assert events == table.events and seqs[-1] == table.seq
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    head = slow.queue.get_nowait()  # it fell behind (more than 64 changes): a fresh state
    assert head is not None and head.get("resync") is True
    service.unsubscribe(slow)
    service.unsubscribe(watcher)


async def test_only_the_creator_starts_and_only_once(service: TableService) -> None:
    created = await service.create(bot_config(3))
    with pytest.raises(TableError) as who:
        await service.start_now(created.table_id, 1)
    assert who.value.code == "forbidden"
    await service.start_now(created.table_id, 0)
    with pytest.raises(TableError):
        await service.start_now(created.table_id, 0)


@pytest.mark.parametrize("seed", range(6))
async def test_the_log_replays_to_the_live_table(service: TableService, seed: int) -> None:
    rng = random.Random(seed)
    options = {
        "announce": rng.choice(["auto", "manual"]),
        "when_blocked": rng.choice(["next-rank", "free-restart"]),
        "may_stop": rng.choice(["true", "false"]),
    }
    config = bot_config(seed, players=rng.randint(2, 6), level=rng.choice(["easy", "medium"]))
    config = TableConfig(**{**_fields(config), "rules": config.rules.with_options(options)})
    created = await service.create(config)
    tid = created.table_id
    await service.start_now(tid, 0)
    live = cast(NainJauneTable, service.table(tid))
    await until(lambda: live.status == "over")
    entries = await service.store.entries(tid)
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    again = NainJauneTable.replay(tid, entries)
    for seat in [None, *range(live.n)]:
        assert again.frame(seat, 0) == live.frame(seat, 0)
    assert again.record() == live.record()
    # and a new service on the same log holds the same table
    other = TableService(service.store)
    await other.start()
    assert (await other.record(tid)) == live.record()
    await other.stop()


def _fields(config: TableConfig) -> dict[str, Any]:
    return {f: getattr(config, f) for f in config.__dataclass_fields__}


async def test_a_restarted_service_resumes_the_bots(store: EventStore) -> None:
    first = TableService(store)
    await first.start()
    created = await first.create(bot_config(9, players=4))
    tid = created.table_id
    await first.start_now(tid, 0)
    table = cast(NainJauneTable, first.table(tid))
    await until(lambda: table.seq >= 30)
    await first.stop()
    stopped_at = len(await store.entries(tid))
    second = TableService(store)
    await second.start()
    rebuilt = cast(NainJauneTable, second.table(tid))
    assert rebuilt.seq == stopped_at
    # the resumed bots may move while the log is read: compare at the seq the frame was taken
    seen, seq = rebuilt.frame(None, 0), rebuilt.seq
    logged = [e for e in await store.entries(tid) if e.seq <= seq]
    assert seen == NainJauneTable.replay(tid, logged).frame(None, 0)
    await until(lambda: rebuilt.status == "over")
    await second.stop()
    [row] = await store.list_tables(status={"over"})
    assert row.id == tid and row.summary["rounds"] == 2


def test_deal_cards_are_the_seeded_deal() -> None:
    # the deal stored in a round entry is Random(f"{seed}/deal/{k}")'s, as the terminal deals
    table = NainJauneTable("t")
    from cardroom.store import LogEntry

    cfg = bot_config(4)
    table.apply(LogEntry(1, "created", {"config": cfg.to_json(), "tokens": {}}, 0.0))
    table.apply(LogEntry(2, "started", {"filled": [0], "dealer": 1}, 0.0))
    data = table.deal()
    from cardroom.games.nain_jaune.engine import deal_hands

    hands, talon = deal_hands(3, 1, random.Random("4/deal/0"))
    assert data["hands"] == [[c.code for c in h] for h in hands]
    assert parse_cards(data["talon"]) == talon


@pytest.mark.parametrize(("wait", "ready"), [(1000.0, True), (0.01, False)])
async def test_the_next_round_starts_when_everyone_is_ready_or_when_time_is_up(
    service: TableService, monkeypatch: pytest.MonkeyPatch, wait: float, ready: bool
) -> None:
    rigged_deal(monkeypatch)
    rules = Rules.from_options("classic", {"end": "rounds:3"})
    config = two_seat_config(next_round_after=wait)
    created = await service.create(TableConfig(**{**_fields(config), "rules": rules}))
    tid = created.table_id
    table = cast(NainJauneTable, service.table(tid))
    for move in ANN_MOVES:
        await until(lambda: seat_to_act(table) == 0)
        await service.act(tid, 0, move, table.seq)
    if ready:
        assert table.status == "round-over"
        frame = service.frame_for(tid, 0)
        assert frame["deadline"]["kind"] == "next-round"
        assert frame["last_result"]["winner"] == 0 and frame["round"]["winner"] == 0
        with pytest.raises(TableError):
            await service.act(tid, 0, "AC", table.seq)  # no round is being played
        await service.ready(tid, 0)
        with pytest.raises(TableError):
            await service.ready(tid, 0)  # asked once: the next round is already dealt
    await until(lambda: table.game is not None and table.game.rounds_played == 1)
    await until(lambda: table.status == "playing" and table.round is not None)
    kinds = [e.kind for e in await service.store.entries(tid)]
    assert kinds.count("round") == 2 and kinds.count("ready") == (1 if ready else 0)
    assert service.frame_for(tid, None)["round"]["k"] == 1


async def test_a_damaged_log_keeps_only_its_own_table_down(store: EventStore) -> None:
    from cardroom.store import LogEntry

    first = TableService(store)
    await first.start()
    broken = await first.create(bot_config(1))
    sound = await first.create(bot_config(2))
    await first.stop()
    # an entry no table accepts (the game has not started: no one can act)
    await store.append(
        broken.table_id, LogEntry(2, "action", {"seat": 1, "action": "7D", "by": "bot"}, 0.0)
    )
    second = TableService(store)
    await second.start()
    with pytest.raises(TableError) as down:
        second.table(broken.table_id)
    assert down.value.code == "not-found"
    await second.start_now(sound.table_id, 0)
    table = cast(NainJauneTable, second.table(sound.table_id))
    await until(lambda: table.status == "over")
    await second.stop()


async def test_a_person_whose_server_went_silent_is_not_away_at_once(
    service: TableService,
) -> None:
    """Presence told by another process and then no more (that process died or lost the
    database) holds a grace beyond its time: the person's page needs that long to reach
    another server, and the servers' failure is not theirs to lose by."""
    created = await service.create(two_seat_config())
    table_id = created.table_id
    live = service.turns._live[table_id]
    service._on_presence("other-process", table_id, 0, 1)
    assert 0 in service.turns._present(live)
    seen = service._remote[table_id]
    n, _ = seen[("other-process", 0)]
    now = time.monotonic()
    seen[("other-process", 0)] = (n, now - 8.0)  # its reports stopped 8 s ago
    assert 0 in service.turns._present(live)
    seen[("other-process", 0)] = (n, now - 17.0)  # long past the grace
    assert 0 not in service.turns._present(live)
    service._on_presence("other-process", table_id, 0, 0)  # said they left: gone at once
    assert 0 not in service.turns._present(live)
