"""NainJauneTable, the state machine over the log: replay equals live, refusals change nothing,
and a seat's frame never shows another seat's cards or the talon."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.table import NainJauneTable, action_text, parse_action
from cardroom.i18n import translator
from cardroom.store import LogEntry
from cardroom.tables import SeatSpec, TableError


class Driver:
    """Proposes entries to a table the way the service does, keeping the accepted log."""

    def __init__(self, config: TableConfig) -> None:
        self.table = NainJauneTable("t")
        self.log: list[LogEntry] = []
        self.propose("created", {"config": config.to_json(), "tokens": {"0": "h"}})

    def propose(self, kind: str, data: dict[str, Any]) -> bool:
        """Check then apply; a refused entry must leave every frame as it was."""
        before = self.frames()
        try:
            entry = self.table.entry(kind, data, float(len(self.log)))
        except TableError:
            assert self.frames() == before
            return False
        self.table.apply(entry)
        self.log.append(entry)
        return True

    def frames(self) -> list[dict[str, Any]]:
        if self.table.config is None:
            return []
        return [self.table.frame(s) for s in [None, *range(self.table.n)]]


def hidden_cards_absent(table: NainJauneTable) -> None:
    rnd = table.round
    if rnd is None:
        return
    public = {c.code for _, c in rnd.played} | {c.code for c in rnd.rules.board_cards}
    for seat in [None, *range(table.n)]:
        text = json.dumps(table.frame(seat))  # this round's events (cards come back each round)
        mine: set[str] = set()
        if seat is not None and seat in table.round_seats:
            mine = {c.code for c in rnd.hands[table.round_seats.index(seat)]}
        unseen = {c.code for h in rnd.hands for c in h} | {c.code for c in rnd.talon}
        leaked = [c for c in unseen - mine - public if f'"{c}"' in text]
        assert not leaked, (seat, leaked)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    manual=st.booleans(),
    may_stop=st.booleans(),
    moves=st.integers(20, 400),
)
def test_replay_equals_live_and_refusals_change_nothing(
    seed: int, players: int, manual: bool, may_stop: bool, moves: int
) -> None:
    rng = random.Random(seed)
    rules = Rules(announce="manual" if manual else "auto", may_stop=may_stop).with_options(
        {"end": "rounds:3"}
    )
    seats = (
        SeatSpec("person", name="Ann"),
        SeatSpec("person"),
        *(SeatSpec("bot", "easy") for _ in range(players - 2)),
    )
    drv = Driver(TableConfig(rules=rules, seats=seats, seed=seed))
    table = drv.table
    if rng.random() < 0.5:
        assert drv.propose("joined", {"seat": 1, "name": "Bob"})
    filled = [] if table.joined[1] else [1]
    assert not drv.propose("started", {"filled": [], "dealer": 0}) or not filled
    if table.status == "waiting":
        assert drv.propose("started", {"filled": filled, "dealer": rng.randrange(players)})
    for _ in range(moves):
        if table.status == "over":
            break
        if (table.status == "playing" and table.round is None) or table.status == "round-over":
            if rng.random() < 0.3:
                drv.propose("ready", {"seat": rng.randrange(players)})
            assert drv.propose("round", table.deal())
            continue
        turn = table.turn()
        assert turn is not None
        roll = rng.random()
        if roll < 0.05:
            drv.propose("takeover", {"seat": rng.randrange(players), "level": "easy"})
        elif roll < 0.1:
            drv.propose("returned", {"seat": rng.randrange(players)})
        elif roll < 0.2:  # wrong seat, wrong actor, unreadable or illegal: all refused
            other = (turn.seat + 1) % players
            assert not drv.propose("action", {"seat": other, "action": "pass", "by": "person"})
            by = "person" if turn.bot else "bot"
            assert not drv.propose("action", {"seat": turn.seat, "action": "pass", "by": by})
            assert not drv.propose(
                "action", {"seat": turn.seat, "action": "zz", "by": "bot" if turn.bot else "person"}
            )
        rnd, turn = table.round, table.turn()
        assert rnd is not None and turn is not None
        action = rng.choice(rnd.legal_actions())
        by = "bot" if turn.bot else "person"
        assert drv.propose("action", {"seat": turn.seat, "action": action_text(action), "by": by})
        if len(drv.log) % 4 == 0:
            hidden_cards_absent(table)
    again = NainJauneTable.replay("t", drv.log)
    assert again.seq == table.seq == len(drv.log)
    for seat in [None, *range(players)]:
        assert again.frame(seat, 0) == table.frame(seat, 0)
    assert again.record() == table.record()


def test_a_frame_shows_only_the_seats_own_hand_and_choices() -> None:
    seats = (SeatSpec("person", name="Ann"), SeatSpec("bot", "easy", "Bob"))
    drv = Driver(TableConfig(rules=Rules(), seats=seats, seed=4))
    assert drv.propose("started", {"filled": [], "dealer": 1})
    assert drv.propose("round", drv.table.deal())
    rnd = drv.table.round
    assert rnd is not None and rnd.to_act == 0  # dealer 1: Ann (seat 0) opens
    mine = drv.table.frame(0)
    theirs = drv.table.frame(1)
    watcher = drv.table.frame(None)
    assert mine["round"]["hand"] == [c.code for c in rnd.hands[0]]
    assert sorted(mine["round"]["legal"]) == sorted(mine["round"]["hand"])  # any card opens
    assert theirs["round"]["legal"] == [] and theirs["round"]["pending_claim"] is None
    assert "hand" not in watcher["round"] and "legal" not in watcher["round"]
    assert (
        watcher["round"]["hand_sizes"] == {"0": 22, "1": 22} and watcher["round"]["talon_size"] == 8
    )
    assert [e["kind"] for e in watcher["events"]] == ["round", "stakes"]  # this round's
    assert [e["kind"] for e in drv.table.frame(None, 0)["events"]] == ["started", "round", "stakes"]
    assert watcher["events"][-1]["text"] == "Stakes: 15 chips each on the board"


@pytest.mark.parametrize(
    ("kind", "data", "code"),
    [
        ("joined", {"seat": 0, "name": "Zed"}, "bad-request"),  # Ann is already seated
        ("joined", {"seat": 1, "name": "Eve"}, "forbidden"),  # a bot's seat
        ("joined", {"seat": 9, "name": "Eve"}, "bad-request"),
        ("round", {"k": 0, "hands": [], "talon": []}, "bad-request"),  # not started
        ("action", {"seat": 0, "action": "7D", "by": "person"}, "not-your-turn"),
        ("mystery", {}, "bad-request"),
    ],
)
def test_bad_entries_are_refused_with_a_code(kind: str, data: dict[str, Any], code: str) -> None:
    seats = (SeatSpec("person", name="Ann"), SeatSpec("bot", "easy"))
    drv = Driver(TableConfig(rules=Rules(), seats=seats, seed=1))
    with pytest.raises(TableError) as refused:
        drv.table.check(kind, data)
    assert refused.value.code == code and drv.table.seq == 1


def fresh_frame(
    table: NainJauneTable, seat: int | None, present: set[int], deadline: dict[str, Any] | None
) -> dict[str, Any]:
    table._forget_frame_parts()  # what the frame would be if nothing were kept between calls
    return table.frame(seat, None, present, deadline)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5))
def test_the_shared_frame_parts_follow_every_change_presence_and_deadline(
    seed: int, players: int
) -> None:
    rng = random.Random(seed)
    seats = (SeatSpec("person", name="Ann"), *(SeatSpec("bot", "easy") for _ in range(players - 1)))
    rules = Rules().with_options({"end": "rounds:2"})
    drv = Driver(TableConfig(rules=rules, seats=seats, seed=seed))
    table = drv.table
    assert drv.propose("started", {"filled": [], "dealer": 0})
    variants: list[tuple[set[int], dict[str, Any] | None]] = [
        (set(), None),
        ({0}, None),
        ({0}, {"kind": "takeover", "seat": 0, "at": 5.0}),
        ({0}, {"kind": "takeover", "seat": 0, "at": 6.0}),
    ]
    for _ in range(120):
        if table.status == "over":
            break
        if table.round is None or table.status == "round-over":
            assert drv.propose("round", table.deal())
        else:
            turn, rnd = table.turn(), table.round
            assert turn is not None and rnd is not None
            action = action_text(rng.choice(rnd.legal_actions()))
            by = "bot" if turn.bot else "person"
            assert drv.propose("action", {"seat": turn.seat, "action": action, "by": by})
        for present, deadline in rng.sample(variants, len(variants)):
            for seat in [None, *range(players)]:
                kept = table.frame(seat, None, present, deadline)
                assert kept == fresh_frame(table, seat, present, deadline)
                assert kept["seats"][0]["present"] == (0 in present)
                assert kept["deadline"] == deadline and kept["you"] == seat


def test_a_frames_played_cards_and_passes_are_its_own_and_stay_as_sent() -> None:
    """The round's played cards and passes are grown once per entry, not rebuilt per frame:
    every frame still lists exactly the round's so far, and a frame kept (a slow connection's
    queue) is not changed by later actions."""
    rng = random.Random(7)
    rules = Rules().with_options({"end": "rounds:3"})
    seats = (SeatSpec("person", name="Ann"), *(SeatSpec("bot", "easy") for _ in range(3)))
    drv = Driver(TableConfig(rules=rules, seats=seats, seed=7))
    table = drv.table
    assert drv.propose("started", {"filled": [], "dealer": 0})
    kept: list[tuple[dict[str, Any], str]] = []
    rounds_seen = set()
    while table.status != "over":
        if table.round is None or table.status == "round-over":
            assert drv.propose("round", table.deal())
            continue
        rnd, turn = table.round, table.turn()
        assert rnd is not None and turn is not None
        rounds_seen.add(id(rnd))
        frame = table.frame(None)
        seats_now = table.round_seats
        assert frame["round"]["played"] == [[seats_now[p], c.code] for p, c in rnd.played]
        assert frame["round"]["passes"] == [[seats_now[p], r] for p, r in rnd.passes]
        kept.append((frame, json.dumps(frame["round"])))
        action = rng.choice(rnd.legal_actions())
        by = "bot" if turn.bot else "person"
        assert drv.propose("action", {"seat": turn.seat, "action": action_text(action), "by": by})
    assert len(rounds_seen) >= 3 and any(f["round"]["passes"] for f, _ in kept)
    for frame, text in kept:
        assert json.dumps(frame["round"]) == text


def test_a_card_play_is_parsed_to_the_engines_shared_play() -> None:
    # Round.apply checks a shared Play inline; a new instance took the slow second check
    from cardroom.games.nain_jaune.engine import _SHARED_PLAY, Play

    seven = parse_action(" 7d ")
    assert isinstance(seven, Play) and seven.card.code == "7D"
    assert seven is parse_action("7D")
    assert id(seven) in _SHARED_PLAY
    assert parse_action("QH") is not seven


@pytest.mark.parametrize(
    ("lang", "shown"),
    [("en", "Bot (for Ann)"), ("fr", "Robot (pour Ann)"), ("cy", "Bot (ar ran Ann)")],
)
def test_a_bot_in_a_taken_seat_plays_under_its_own_name(lang: str, shown: str) -> None:
    from cardroom.i18n.words import localize_frame

    seats = (SeatSpec("person", name="Ann"), SeatSpec("person"))
    drv = Driver(TableConfig(rules=Rules(), seats=seats, seed=3))
    table = drv.table
    assert drv.propose("joined", {"seat": 1, "name": "Bob"})
    assert drv.propose("started", {"filled": [], "dealer": 1})
    assert drv.propose("round", table.deal())
    turn = table.turn()
    assert turn is not None and turn.bot is None
    person = turn.seat
    other = 1 - person
    name = ("Ann", "Bob")[person]
    assert drv.propose("takeover", {"seat": person, "level": "easy"})
    turn = table.turn()
    assert turn is not None and turn.bot is not None
    rnd = table.round
    assert rnd is not None
    action = action_text(rnd.legal_actions()[0])
    assert drv.propose("action", {"seat": person, "action": action, "by": "bot"})
    events = localize_frame(table.frame(other), translator(lang))["events"]
    texts = [ev["text"] for ev in events]
    acted = [ev["text"] for ev in events if ev["kind"] in ("play", "takes", "without")]
    assert acted and all(t.startswith(shown.replace("Ann", name)) for t in acted), texts
