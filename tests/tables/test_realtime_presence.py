"""People who come and go at Spit and Speed tables: a seat without a connection pauses the game
(clock, bots and countdowns), then after the table's limit the seat is forfeited or a bot takes
it; the person takes it back on return; a restart resumes paused until the people are back.
Every decision is a log entry, so the log replays to the same game. The service runs on a fake
clock that the tests move by hand."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardroom.arbiter import RecordError, replay
from cardroom.cli.main import cli
from cardroom.games.speed import SpeedGame, SpeedRules
from cardroom.i18n import translator
from cardroom.i18n.realtime_words import line_words
from cardroom.sim.realtime import new_table, run_table
from cardroom.store import EventStore
from cardroom.tables import SeatSpec, TableError, TableService
from cardroom.tables.realtime import RealtimeConfig, RealtimeTable
from cardroom.tables.realtime_service import _RealtimeLive
from cardroom.tables.subscription import Subscription
from tests.tables.helpers import until

START = 1_000_000.0


class FakeClock:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.t = START

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[EventStore]:
    opened = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'rt.db'}")
    yield opened
    await opened.close()


def people(
    game: str, seed: int = 3, countdown: str = "5", options: dict[str, str] | None = None,
    **away: Any,
) -> RealtimeConfig:
    return RealtimeConfig(
        game=game,
        options={"countdown": countdown, **(options or {})},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
        seed=seed,
        **away,
    )


async def seated(
    store: EventStore, config: RealtimeConfig, clock: FakeClock
) -> tuple[TableService, str, list[Subscription]]:
    service = TableService(store, clock=clock)
    created = await service.create_realtime(config)
    table_id = created.table_id
    if config.seats[1].kind == "person":
        await service.join(table_id, 1, "Bob")
    subs = [service.subscribe(table_id, g) for g in (0, 1) if config.seats[g].kind == "person"]
    persons = set(table(service, table_id).people())
    await until(lambda: live(service, table_id).seen == persons)
    return service, table_id, subs


def live(service: TableService, table_id: str) -> _RealtimeLive:
    return service.realtime._live[table_id]


def table(service: TableService, table_id: str) -> RealtimeTable:
    return live(service, table_id).table


async def kinds(store: EventStore, table_id: str) -> list[str]:
    return [e.kind for e in await store.entries(table_id)]


async def tick(service: TableService, table_id: str, clock: FakeClock, seconds: float) -> None:
    """Move the clock on and let the table's clock task look at it."""
    clock.t += seconds
    live(service, table_id).wake.set()
    seq = -1
    while seq != table(service, table_id).seq:  # until nothing more happens
        seq = table(service, table_id).seq
        for _ in range(10):
            await asyncio.sleep(0.005)
            if table(service, table_id).seq != seq:
                break


async def leave(service: TableService, table_id: str, sub: Subscription) -> None:
    seat = sub.seat
    service.unsubscribe(sub)
    await until(lambda: seat in table(service, table_id).away)


def step(service: TableService, table_id: str, seat: int) -> dict[str, Any] | None:
    """A legal action of ``seat`` in record form (a play carries the top it saw), preferring
    to get rid of cards; None when the seat can do nothing useful."""
    t = table(service, table_id)
    view = t.engine.view(seat)
    order = ["play", "slap", "choose", "turn-up", "move", "call", "spit"]
    actions: list[dict[str, Any]] = [t.engine.action_to_json(a) for a in view.legal_actions]
    # a move is worth it when it uncovers a card (never back and forth between spaces)
    deep = {top.code for top, n in getattr(view, "stock", ()) if top is not None and n > 1}
    actions = [
        a for a in actions if a["type"] in order and (a["type"] != "move" or a["card"] in deep)
    ]
    if not actions:
        return None
    action = min(actions, key=lambda a: order.index(a["type"]))
    if action["type"] == "play":
        action["seen"] = t.engine.view(seat).centre[action["pile"]].code
    return action


async def drive(
    service: TableService, table_id: str, clock: FakeClock, phase: str, steps: int = 3000
) -> None:
    """Both people play (0.05 s apart) until the engine reaches ``phase``."""
    for _ in range(steps):
        t = table(service, table_id)
        if t.engine.phase == phase:
            return
        if t.status != "playing":
            break
        for seat in (0, 1):
            action = step(service, table_id, seat)
            if action is None or t.engine.phase == phase:
                continue
            clock.t += 0.05
            with contextlib.suppress(TableError):
                await service.act_realtime(table_id, seat, action)
    raise AssertionError(f"the game never reached {phase!r} (it is {t.engine.phase!r})")


@pytest.mark.parametrize(
    ("game", "phase"),
    [("spit", "start"), ("spit", "play"), ("spit", "stalemate"), ("spit", "slap"),
     ("spit", "choose"), ("speed", "start"), ("speed", "play"), ("speed", "stalemate")],
)  # fmt: skip
async def test_a_person_leaves_at_any_phase_the_game_pauses_and_goes_on_when_back(
    store: EventStore, game: str, phase: str
) -> None:
    clock = FakeClock()
    options = {"slap": "chooser"} if phase == "choose" else {}  # (the variant of the re-deal)
    config = people(game, 3, countdown="30", options=options)
    service, table_id, subs = await seated(store, config, clock)
    await drive(service, table_id, clock, phase)
    t = table(service, table_id)
    before = t.engine.phase
    game_before = t.game_time(clock.t)
    countdown = t.arbiter.deadline if t.arbiter is not None else None

    await leave(service, table_id, subs[1])
    left_at = clock.t
    frame = service.frame_for(table_id, 0)
    assert frame["paused"]["seats"] == [1] and frame["deadline"] is None
    assert frame["seats"][1]["away"] == left_at and frame["seats"][1]["limit_at"] == left_at + 60
    assert frame["seats"][1]["present"] is False
    action = step(service, table_id, 0)
    if action is not None:
        with pytest.raises(TableError) as info:
            await service.act_realtime(table_id, 0, action)
        assert info.value.code == "paused"
    await tick(service, table_id, clock, 40.0)  # nothing is due while paused, not the countdown
    assert (await kinds(store, table_id))[-1] == "away"
    assert t.engine.phase == before and t.game_time(clock.t) == game_before

    subs[1] = service.subscribe(table_id, 1)
    await until(lambda: not t.paused)
    assert (await kinds(store, table_id))[-2:] == ["away", "back"]
    assert t.paused_for == pytest.approx(40.0)
    assert t.arbiter is not None and t.arbiter.deadline == countdown  # game time stood still
    if countdown is not None:
        assert t.deadline == pytest.approx(countdown + t.paused_for)
    clock.t += 1.0
    if t.status == "playing" and (action := step(service, table_id, 0)) is not None:
        await service.act_realtime(table_id, 0, action)
        assert t.arbiter.log[-1].t == pytest.approx(game_before + 1.0)  # game time: no pause
    record = t.record()
    assert replay(record).engine.phase == t.engine.phase  # the record never shows the pause
    # the log alone says the same (another process, a restart)
    again = RealtimeTable.replay(table_id, await store.entries(table_id))
    assert again.frame(0) == t.frame(0)
    await service.stop()


async def test_leaving_after_the_end_changes_nothing(store: EventStore) -> None:
    clock = FakeClock()
    service, table_id, subs = await seated(store, people("speed"), clock)
    await drive(service, table_id, clock, "over")
    seq = table(service, table_id).seq
    service.unsubscribe(subs[0])
    await tick(service, table_id, clock, 100.0)
    assert table(service, table_id).seq == seq and not table(service, table_id).away
    await service.stop()


async def test_away_past_the_limit_between_people_is_a_forfeit(store: EventStore) -> None:
    clock = FakeClock()
    service, table_id, subs = await seated(store, people("speed", away_limit=20), clock)
    await drive(service, table_id, clock, "play")
    await leave(service, table_id, subs[0])
    await tick(service, table_id, clock, 19.5)
    assert table(service, table_id).status == "playing"
    await tick(service, table_id, clock, 0.5)
    entries = await store.entries(table_id)
    assert entries[-1].kind == "over"
    assert entries[-2].kind == "away"
    assert entries[-1].data == {"t": pytest.approx(entries[-2].data["t"] + 20),
                                "reason": "forfeit", "seat": 0}  # fmt: skip
    frame = service.frame_for(table_id, 1)
    assert frame["status"] == "over" and frame["forfeit"] == 0 and frame["winner"] == 1
    # the table talk's presence lines, each placed before the log line that followed it
    end = table(service, table_id).log_length
    away_t, over_t = entries[-2].data["t"], entries[-1].data["t"]
    assert frame["notes"] == [
        {"kind": "away", "seat": 0, "t": away_t, "at": end},
        {"kind": "forfeit", "seat": 0, "t": over_t, "at": end},
    ]
    assert RealtimeTable.replay(table_id, entries).notes == frame["notes"]  # from the log alone
    rows = await service.list_tables()
    assert [r["status"] for r in rows if r["id"] == table_id] == ["over"]
    await service.stop()


async def test_against_a_bot_the_bot_waits_then_takes_the_seat_until_the_person_is_back(
    store: EventStore,
) -> None:
    clock = FakeClock()
    config = RealtimeConfig(
        game="speed",
        options={"countdown": "5"},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("bot", "reaction:min=0.1,max=0.2")),
        seed=5,
        level="reaction:min=0.1,max=0.2",
        away_limit=30,
    )
    assert config.then() == "bot"
    service, table_id, subs = await seated(store, config, clock)
    t = table(service, table_id)
    await service.act_realtime(table_id, 0, {"type": "call"})
    await tick(service, table_id, clock, 1.0)
    assert t.engine.phase == "play"
    await leave(service, table_id, subs[0])
    seq = t.seq
    await tick(service, table_id, clock, 29.0)
    assert t.seq == seq  # the bot waits while its opponent is away
    await tick(service, table_id, clock, 1.0)
    assert (await kinds(store, table_id))[-1] == "takeover"
    assert [(n["kind"], n["seat"]) for n in service.frame_for(table_id, 1)["notes"]] == [
        ("away", 0), ("takeover", 0)]  # fmt: skip
    assert t.bots[0] == config.level and 0 in t.taken and not t.paused
    for _ in range(20):
        await tick(service, table_id, clock, 0.5)
    assert t.arbiter is not None
    assert [e.seat for e in t.arbiter.log[-10:] if e.seat is not None].count(0) > 0  # both bots
    # the bot in Ann's seat plays under its own name, in each language
    log = service.frame_for(table_id, 1)["log"]
    mine = [line for line in log if line.get("seat") == 0 and line.get("accepted")]
    assert mine and mine[-1].get("for_seat") is True
    assert mine[-1]["text"].startswith("Bot (for Ann)"), mine[-1]["text"]
    for lang, shown in (("fr", "Robot (pour Ann)"), ("cy", "Bot (ar ran Ann)")):
        said = line_words(mine[-1], "speed", ["Ann", "Bot"], translator(lang))
        assert said is not None and said.startswith(shown), said
    if t.status == "playing":
        subs[0] = service.subscribe(table_id, 0)
        await until(lambda: t.bots[0] is None)
        assert "back" in await kinds(store, table_id) and 0 not in live(service, table_id).bots
        frame = service.frame_for(table_id, 0)
        assert frame["seats"][0]["taken"] is False and frame["seats"][0]["present"] is True
        notes = [(n["kind"], n["seat"]) for n in frame["notes"]]
        assert notes == [("away", 0), ("takeover", 0), ("back", 0)]
        ats = [n["at"] for n in frame["notes"]]
        assert ats[0] == ats[1] < ats[2] <= t.log_length  # the bot's plays came between
    await service.stop()


async def test_a_person_handed_to_a_bot_who_acts_is_back_and_not_refused(
    store: EventStore,
) -> None:
    """Their action came through a connection (one their server could not tell the table's
    clock about, cut from the database): it is theirs, the seat is given back first."""
    clock = FakeClock()
    config = RealtimeConfig(
        game="speed",
        options={"countdown": "5"},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("bot", "reaction:min=0.1,max=0.2")),
        seed=5,
        level="reaction:min=0.1,max=0.2",
        away_limit=30,
    )
    service, table_id, subs = await seated(store, config, clock)
    t = table(service, table_id)
    await service.act_realtime(table_id, 0, {"type": "call"})
    await tick(service, table_id, clock, 1.0)
    await leave(service, table_id, subs[0])
    await tick(service, table_id, clock, 30.0)
    assert 0 in t.taken
    while t.status == "playing" and 0 in t.taken:
        try:
            await service.act_realtime(table_id, 0, {"type": "call"})
        except TableError as exc:
            assert exc.code != "forbidden", exc.message
            break
        await tick(service, table_id, clock, 0.5)
    logged = await kinds(store, table_id)
    assert t.status != "playing" or ("back" in logged and t.bots[0] is None)
    await service.stop()


async def test_a_restart_waits_for_the_people_and_the_downtime_is_no_game_time(
    store: EventStore,
) -> None:
    clock = FakeClock()
    service, table_id, _subs = await seated(store, people("speed", countdown="5"), clock)
    await drive(service, table_id, clock, "play")
    t = table(service, table_id)
    action = step(service, table_id, 0)
    while action is not None and action["type"] != "call":  # Ann plays until she must call
        clock.t += 0.1
        await service.act_realtime(table_id, 0, action)
        action = step(service, table_id, 0)
    if action is None:
        pytest.skip("Ann ran out of cards first")
    clock.t += 0.1
    await service.act_realtime(table_id, 0, action)
    assert t.engine.phase == "stalemate" and t.arbiter is not None
    deadline = t.arbiter.deadline
    assert deadline is not None
    clock.t += 2.0
    await service.stop()  # the server goes down 2 s after the call (3 s before the deadline)
    last = (await store.entries(table_id))[-1]

    clock.t += 100.0
    second = TableService(store, clock=clock)
    await second.start()
    assert await second.game_of(table_id) == "speed"
    after = await store.entries(table_id)
    assert [e.kind for e in after[len(after) - 2 :]] == ["away", "away"]
    assert all(e.data["since"] == last.data["t"] for e in after[-2:])
    u = table(second, table_id)
    assert u.paused and u.deadline is None
    frame = second.frame_for(table_id, 0)
    # from the last entry on, the table had no clock: the countdown stands where it was then
    assert frame["paused"]["countdown_left"] == pytest.approx(5.0)
    await tick(second, table_id, clock, 10.0)
    assert (await store.entries(table_id))[len(after):] == []  # nothing for anyone meanwhile
    sub0 = second.subscribe(table_id, 0)
    await until(lambda: u.away.keys() == {1})
    await tick(second, table_id, clock, 10.0)
    assert len(await store.entries(table_id)) == len(after) + 1  # Ann is back, Bob is not
    sub1 = second.subscribe(table_id, 1)
    await until(lambda: not u.paused)
    back_at = clock.t
    assert u.deadline == pytest.approx(back_at + 5.0)
    await tick(second, table_id, clock, 4.9)
    assert (await store.entries(table_id))[-1].kind == "back"
    await tick(second, table_id, clock, 0.1)
    entries = await store.entries(table_id)
    assert entries[-1].kind == "timeout" and entries[-1].data["t"] == pytest.approx(back_at + 5)
    assert u.arbiter is not None and u.arbiter.log[-1].t == deadline  # game time: no downtime
    assert replay(u.record()).arbiter.timeouts == u.arbiter.timeouts
    second.unsubscribe(sub0)
    second.unsubscribe(sub1)
    await second.stop()


def test_tables_of_earlier_releases_read_with_the_defaults() -> None:
    config = people("spit").to_json()
    del config["away_limit"], config["away_then"]
    read = RealtimeConfig.from_json(config)
    assert (read.away_limit, read.then()) == (60.0, "forfeit")
    with pytest.raises(TableError):
        RealtimeConfig.from_json({**config, "away_then": "wait"})
    with pytest.raises(TableError):
        RealtimeConfig.from_json({**config, "away_limit": -1})


async def test_a_rematch_gives_each_person_a_fresh_token_and_old_ones_do_not_open_it(
    store: EventStore,
) -> None:
    clock = FakeClock()
    service = TableService(store, clock=clock)
    created = await service.create_realtime(people("speed", away_limit=20))
    table_id = created.table_id
    old = {0: created.creator_token, 1: created.invites[1]}
    await service.join(table_id, 1, "Bob")
    subs = [service.subscribe(table_id, g) for g in (0, 1)]
    await until(lambda: live(service, table_id).seen == {0, 1})
    await leave(service, table_id, subs[0])
    await tick(service, table_id, clock, 20.0)  # Ann forfeits
    assert table(service, table_id).status == "over"
    new_id, bob = await service.rematch(table_id, 1)  # Bob asks first: he makes the table
    again, ann = await service.rematch(table_id, 0)
    assert again == new_id and ann and bob and len({ann, bob, *old.values()}) == 4
    assert (await service.seat_of(new_id, ann), await service.seat_of(new_id, bob)) == (0, 1)
    for token in old.values():  # the old table's tokens open nothing there
        with pytest.raises(TableError):
            await service.seat_of(new_id, token)
        assert await service.seat_of(table_id, token) in (0, 1)  # (they still open the old table)
    entries = await store.entries(new_id)
    assert [e.data["seat"] for e in entries if e.kind == "seat-token"] == [0]  # only hashes
    assert ann not in str([e.data for e in entries]) and bob not in str([e.data for e in entries])
    # the log alone gives the same seats (a restart, or another process)
    assert RealtimeTable.replay(new_id, entries).seq == len(entries)
    rematch_config = table(service, new_id).config
    assert rematch_config is not None
    assert rematch_config.away_limit == 20  # the rematch keeps the settings
    # asking for the rematch took each person's seat: no second click (issue 34, item 13)
    assert table(service, new_id).names == ["Ann", "Bob"]
    assert table(service, new_id).status == "playing"
    assert [e.kind for e in entries].count("joined") == 1  # Ann's; Bob's name came with it
    await service.stop()


async def test_a_friend_connected_before_the_start_who_leaves_pauses_the_game(
    store: EventStore, tmp_path: Path
) -> None:
    """The invite flow: the friend's page connects to the seat, then joins (which starts the
    game). Closing that page later pauses the game and the limit comes (issue 34, item 9)."""
    clock = FakeClock()
    service = TableService(store, clock=clock)
    table_id = (await service.create_realtime(people("speed", away_limit=20))).table_id
    subs = [service.subscribe(table_id, 0), service.subscribe(table_id, 1)]
    await asyncio.sleep(0.02)  # the clock looks at who is here while the table waits
    await service.join(table_id, 1, "Bob")
    t = table(service, table_id)
    await until(lambda: t.status == "playing")
    await tick(service, table_id, clock, 1.0)
    await leave(service, table_id, subs[1])
    assert t.paused and (await kinds(store, table_id))[-1] == "away"
    await tick(service, table_id, clock, 20.0)
    assert t.status == "over" and t.forfeit == 1 and t.winner == 0
    service.unsubscribe(subs[0])
    await service.stop()
    # the record names the winner: Bob forfeited, Ann won (issue 34, item 11)
    record = t.records()
    assert isinstance(record, dict) and record["ended"] == {"reason": "forfeit", "seat": 1}
    rep = replay(record)
    assert rep.winner == 0 and rep.finished and not rep.engine.over
    path = tmp_path / "forfeit.json"
    path.write_text(json.dumps(record))
    out = json.loads(CliRunner().invoke(cli, ["replay", str(path), "--json"]).output)
    assert out["finished"] is True and out["winner"] == 0 and out["ended"] == "forfeit"
    text = CliRunner().invoke(cli, ["replay", str(path)]).output
    assert "Ann wins by forfeit: Bob was away too long." in text
    assert "not finished" not in text


async def test_both_away_the_one_away_longer_loses(store: EventStore) -> None:
    clock = FakeClock()
    service, table_id, subs = await seated(store, people("speed", away_limit=20), clock)
    await drive(service, table_id, clock, "play")
    t = table(service, table_id)
    await leave(service, table_id, subs[1])  # Bob first
    await tick(service, table_id, clock, 5.0)
    await leave(service, table_id, subs[0])
    await tick(service, table_id, clock, 15.0)
    assert t.status == "over" and t.forfeit == 1 and t.winner == 0
    await service.stop()


async def test_both_away_equally_long_nobody_wins(store: EventStore) -> None:
    """Seat 0 does not lose for being seat 0: both away since the same moment (a restart with
    nobody back) ends the game abandoned, without a winner (issue 34, item 12)."""
    clock = FakeClock()
    service, table_id, _ = await seated(store, people("speed", away_limit=20), clock)
    await drive(service, table_id, clock, "play")
    await service.stop()
    clock.t += 1.0
    again = TableService(store, clock=clock)
    await again.start()
    assert await again.game_of(table_id) == "speed"
    t = table(again, table_id)
    await until(lambda: len(t.away) == 2)
    await tick(again, table_id, clock, 25.0)
    entries = await store.entries(table_id)
    assert entries[-1].kind == "over" and entries[-1].data["reason"] == "abandoned"
    assert t.status == "over" and t.winner is None and t.forfeit is None
    assert [(n["kind"], n["seat"]) for n in again.frame_for(table_id, None)["notes"]] == [
        ("away", 0), ("away", 1), ("abandoned", None)]  # fmt: skip
    await again.stop()
    record = t.records()
    assert isinstance(record, dict) and record["ended"] == {"reason": "abandoned"}
    assert replay(record).winner is None and replay(record).finished


@pytest.mark.parametrize(
    "ended",
    [{"reason": "forfeit", "seat": 2}, {"reason": "forfeit", "seat": True}, {"reason": "forfeit"},
     {"reason": "won"}, "forfeit", {"reason": "abandoned", "seat": 0}],
)  # fmt: skip
def test_a_record_whose_end_is_not_a_forfeit_or_abandonment_is_refused(ended: Any) -> None:
    engine = SpeedGame.new(SpeedRules(), 11)
    played = new_table(engine, ["hard", "medium"], [random.Random(1), random.Random(2)], ["A", "B"])
    run_table(played, max_steps=10)  # a game still on
    record = played.arbiter.record()
    assert replay({**record, "ended": {"reason": "forfeit", "seat": 1}}).winner == 0
    with pytest.raises(RecordError) as info:
        replay({**record, "ended": ended})
    assert "ended must be a forfeit by seat 0 or 1" in str(info.value)

