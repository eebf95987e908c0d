"""The real-time table for the web (tables/realtime.py): rebuilt from its log, frames without
hidden cards, and the entries it refuses."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from cardroom.arbiter import replay
from cardroom.bots.reaction import make_reaction_bot
from cardroom.cards import DECK
from cardroom.games.realtime_engine import SEATS
from cardroom.tables.realtime import (
    RealtimeConfig,
    RealtimeSeat,
    RealtimeTable,
    RealtimeTableError,
)

T0 = 1_700_000_000.0
"""Server time stamps: the table never reads a clock, it takes them from the entries."""
CODES = {c.code for c in DECK}


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    data: dict[str, Any]


class Log:
    """A list of entries and the table they build, as a service would keep them."""

    def __init__(self, config: RealtimeConfig) -> None:
        self.entries: list[Entry] = []
        self.table = RealtimeTable("t1")
        self.add("created", {"config": config.to_json()})

    def add(self, kind: str, data: dict[str, Any]) -> None:
        self.table.check(kind, data, person=data.get("by") != "bot")
        entry = Entry(len(self.entries) + 1, kind, json.loads(json.dumps(data)))
        self.entries.append(entry)
        self.table.apply(entry)


def bots_game(game: str, seed: int) -> Log:
    """Two bots play a whole game through the table, as the service would drive them."""
    bot = RealtimeSeat("bot", "expert")
    log = Log(RealtimeConfig(game=game, seats=(bot, bot), seed=seed))
    log.add("started", {"t": T0, "filled": []})
    table = log.table
    bots = [make_reaction_bot("expert", game, s, random.Random(f"{seed}/{s}")) for s in SEATS]
    for b in bots:
        b.observe(table.engine.view(b.seat), T0)
    for _ in range(5000):
        if table.status == "over":
            break
        due = [(b.due, b.seat) for b in bots if b.due is not None]
        deadline = table.deadline
        if deadline is not None and (not due or deadline <= min(due)[0]):
            log.add("timeout", {"t": deadline})
            now = deadline
        else:
            now, seat = min(due)
            action = bots[seat].act(now)
            before = len(table.arbiter.log) if table.arbiter else 0
            data = {"seat": seat, "t": now, "by": "bot",
                    "action": table.engine.action_to_json(action)}  # fmt: skip
            log.add("action", data)
            assert table.arbiter is not None
            last = table.arbiter.log[before]
            if not last.accepted:
                bots[seat].rejected((last.reason or "").startswith("stale: "),
                                    table.engine.view(seat), now)  # fmt: skip
                continue
        for b in bots:
            b.observe(table.engine.view(b.seat), now)
    assert table.engine.over
    log.add("over", {"t": table.arbiter.time if table.arbiter else T0, "reason": "won"})
    return log


def shown_cards(frame: dict[str, Any]) -> set[str]:
    """Every card code anywhere in a frame's table view."""
    text = json.dumps(frame["table_view"])
    return {code for code in CODES if f'"{code}"' in text}


@pytest.mark.parametrize(("game", "seed"), [("speed", 3), ("spit", 4)])
def test_a_bot_game_rebuilds_from_its_log_and_its_record_replays(game: str, seed: int) -> None:
    log = bots_game(game, seed)
    again = RealtimeTable.replay("t1", log.entries)
    for seat in (0, 1, None):
        assert again.frame(seat) == log.table.frame(seat)
    assert again.frame(None)["status"] == "over" and again.closed == "won"
    record = json.loads(json.dumps(log.table.record()))
    assert record["start"] == T0
    rep = replay(record)
    assert rep.engine.snapshot() == log.table.engine.snapshot()
    assert log.table.arbiter is not None
    assert [e.accepted for e in rep.arbiter.log] == [e.accepted for e in log.table.arbiter.log]


@pytest.mark.parametrize(("game", "seed"), [("speed", 3), ("speed", 9), ("spit", 4)])
def test_frames_show_a_seat_only_what_it_may_see(game: str, seed: int) -> None:
    log = bots_game(game, seed)
    table = RealtimeTable("t1")
    refusals_seen = 0
    for entry in log.entries:
        table.apply(entry)
        if table.arbiter is None:
            continue
        engine = table.engine
        tops = {c.code for c in (engine.top(0), engine.top(1)) if c is not None}
        for seat in (0, 1, None):
            frame = table.frame(seat)
            view = frame["table_view"]
            if game == "speed":
                own = set(view.get("hand", []))
                assert own == ({c.code for c in engine.hand(seat)} if seat is not None else set())
                assert shown_cards(frame) <= tops | own
            else:
                up = {c for s in view["stocks"] for c, _ in s if c is not None}
                assert shown_cards(frame) <= tops | up
            assert ("legal" in view) == (seat is not None)
            for line in frame["log"]:
                if not line["accepted"] and line["seat"] != seat:
                    refusals_seen += 1
                    assert "action" not in line and "reason" not in line
                    assert not any(code in line["text"] for code in CODES - tops)
    assert refusals_seen > 0


def test_the_table_refuses_what_it_cannot_apply_and_changes_nothing() -> None:
    config = RealtimeConfig(
        game="speed", seats=(RealtimeSeat("person"), RealtimeSeat("bot", "easy")), seed=5
    )
    log = Log(config)
    table = log.table
    with pytest.raises(RealtimeTableError) as info:
        table.check("action", {"seat": 0, "t": T0, "action": {"type": "call"}})
    assert info.value.code == "not-started"
    with pytest.raises(RealtimeTableError, match="seat 0 is empty"):
        table.check("started", {"t": T0, "filled": []})
    with pytest.raises(RealtimeTableError, match="seat 1 cannot be joined"):
        table.check("joined", {"seat": 1, "name": "Eve"})
    log.add("joined", {"seat": 0, "name": "Ann"})
    log.add("started", {"t": T0, "filled": []})
    before = table.frame(0)
    assert before["deadline"] == {"kind": "countdown", "at": T0 + 3.0}
    assert before["seats"][1]["name"] == "Easy bot"
    play = {"type": "play", "card": "7D", "pile": 0}
    with pytest.raises(RealtimeTableError, match='a play must carry "seen"'):
        table.check("action", {"seat": 0, "t": T0 + 1, "action": play})
    with pytest.raises(RealtimeTableError, match="log the timeout first"):
        table.check("action", {"seat": 0, "t": T0 + 4, "action": {"type": "call"}})
    with pytest.raises(RealtimeTableError, match="no countdown runs out"):
        table.check("timeout", {"t": T0 + 2})
    with pytest.raises(RealtimeTableError, match="does not follow"):
        table.apply(Entry(9, "timeout", {"t": T0 + 3}))
    with pytest.raises(RealtimeTableError, match="rules: target"):
        RealtimeConfig.from_json({**config.to_json(), "rules": {"target": -1}})
    assert table.frame(0) == before
    log.add("timeout", {"t": T0 + 3.0})
    assert table.frame(0)["table_view"]["phase"] in ("play", "over")
    assert table.frame(0)["deadline"] is None
