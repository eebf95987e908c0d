"""A Nain Jaune seat's frame, as sent over the websocket, read back into the view a bot decides
on: for random games it equals the engine's own view of that seat in every field, and a
research policy's action read from it is the same legal action."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.research.encoding import (
    action_from_id,
    action_id,
    action_mask,
    encode_view,
)
from cardroom.games.nain_jaune.table import NainJauneTable, action_text, parse_action
from cardroom.games.nain_jaune.view import view_of
from cardroom.games.nain_jaune.wire import (
    FrameError,
    Reader,
    act_message,
    action_of,
    view_from_frame,
)
from cardroom.store import LogEntry
from cardroom.tables import SeatSpec, TableConfig
from cardroom.web.routes.ws import render_frame


def wire(table: NainJauneTable, seat: int) -> dict[str, Any]:
    """The frame exactly as the seat's websocket carries it (English words)."""
    loaded: dict[str, Any] = json.loads(render_frame(table.frame(seat), "en"))
    return loaded


class Seat:
    """One seat's connection: frames as the service sends them (the first whole, then only
    the events since the last frame; now and then a whole ``resync`` frame)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.cursor: int | None = None
        self.reader = Reader()

    def frame(self, table: NainJauneTable, resync: bool = False) -> dict[str, Any]:
        frame = table.frame(self.seat, None if resync else self.cursor)
        if resync:
            frame["resync"] = True
        self.cursor = len(table.events)
        loaded: dict[str, Any] = json.loads(render_frame(frame, "en"))
        return loaded


def check_views(table: NainJauneTable, seats: list[Seat], rng: random.Random) -> int:
    """Every seat's view read from its frames equals the engine's; returns how many were read."""
    rnd = table.round
    read = 0
    for seat, conn in enumerate(seats):
        got = conn.reader.view(conn.frame(table, resync=rng.random() < 0.05))
        assert got == view_from_frame(wire(table, seat))  # (a whole frame reads the same)
        if rnd is None or seat not in table.round_seats:
            assert got is None
            continue
        want = view_of(rnd, table.round_seats.index(seat))
        assert got is not None
        assert got == want, (got, want)
        assert np.array_equal(encode_view(got), encode_view(want))
        assert np.array_equal(action_mask(got), action_mask(want))
        read += 1
    return read


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    manual=st.booleans(),
    may_stop=st.booleans(),
    chips=st.sampled_from([15, 20, 40, 60]),
    moves=st.integers(20, 300),
)
def test_a_seats_frame_reads_back_into_its_engine_view(
    seed: int, players: int, manual: bool, may_stop: bool, chips: int, moves: int
) -> None:
    rng = random.Random(seed)
    rules = Rules(
        announce="manual" if manual else "auto", may_stop=may_stop, starting_chips=chips
    ).with_options({"end": "rounds:4"})
    seats = (SeatSpec("person", name="P0"), *(SeatSpec("person") for _ in range(1, players)))
    table = NainJauneTable("t")
    log: list[LogEntry] = []

    def propose(kind: str, data: dict[str, Any]) -> None:
        entry = table.entry(kind, data, float(len(log)))
        table.apply(entry)
        log.append(entry)

    propose("created", {"config": TableConfig(rules=rules, seats=seats, seed=seed).to_json(),
                        "tokens": {"0": "h"}})  # fmt: skip
    for s in range(1, players):
        propose("joined", {"seat": s, "name": f"P{s}"})
    propose("started", {"filled": [], "dealer": rng.randrange(players)})
    read = 0
    conns = [Seat(s) for s in range(players)]
    for _ in range(moves):
        if table.status == "over":
            break
        if table.round is None or table.status == "round-over":
            propose("round", table.deal())
            read += check_views(table, conns, rng)
            continue
        turn = table.turn()
        rnd = table.round
        assert turn is not None
        mine = view_from_frame(wire(table, turn.seat))
        assert mine is not None and mine.my_turn
        # a policy over the research encoding picks an id; the client sends its wire form
        ids = np.flatnonzero(action_mask(mine))
        chosen = action_from_id(int(rng.choice(list(ids))))
        assert chosen in rnd.legal_actions()
        message = act_message(chosen, wire(table, turn.seat))
        assert message == {"type": "act", "action": action_text(chosen), "seq": table.seq}
        assert parse_action(message["action"]) == chosen
        assert action_id(action_of(message["action"])) == action_id(chosen)
        propose("action", {"seat": turn.seat, "action": message["action"], "by": "person"})
        read += check_views(table, conns, rng)
    assert read > 0


def test_a_spectators_frame_and_a_frame_between_rounds_have_no_view() -> None:
    seats = (SeatSpec("person", name="Ann"), SeatSpec("person"))
    table = NainJauneTable("t")
    n = 0
    steps: list[tuple[str, dict[str, Any]]] = [
        ("created", {"config": TableConfig(rules=Rules(), seats=seats, seed=3).to_json(),
                     "tokens": {"0": "h"}}),
        ("joined", {"seat": 1, "name": "Bob"}),
        ("started", {"filled": [], "dealer": 0}),
    ]  # fmt: skip
    for kind, data in steps:
        table.apply(table.entry(kind, data, float(n)))
        n += 1
    assert view_from_frame(wire(table, 0)) is None  # started, no round dealt yet
    table.apply(table.entry("round", table.deal(), float(n)))
    watcher = json.loads(render_frame(table.frame(None), "en"))
    assert view_from_frame(watcher) is None
    assert view_from_frame(wire(table, 0)) is not None


def test_a_frame_that_is_not_a_state_frame_is_refused_in_words() -> None:
    with pytest.raises(FrameError, match="state frame was expected"):
        view_from_frame({"type": "error"})
    with pytest.raises(FrameError, match="not a Nain Jaune state frame"):
        view_from_frame(
            {
                "type": "state",
                "you": 0,
                "round": {"hand": []},
                "seats": [{"seat": 0, "in_round": 1}],
            }
        )
