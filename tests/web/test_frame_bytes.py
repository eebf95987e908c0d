"""Every Nain Jaune frame, as the text a connection sends, byte for byte as recorded.

Three tables are played to their end (bots of the service's kind and scripted people: takeovers,
a return, a person who leaves, presence and deadlines changing, a rematch), and after every
change the frames of both people, a spectator and now and then a full frame (a resync) are
rendered as ``web/routes/ws.py`` does, in English, French and Welsh; now and then the frames
are made again with a person away and another deadline, as when a connection ends (no entry).
Each change's texts are hashed into one line of ``tests/data/frames/nain_jaune.txt``, written
by main f78c9b3's code, before the frame build was made incremental: any byte of any frame
that differs fails the test, which names the first change that differs.

Regenerate only for a deliberate change of the frame contract::

    PYTHONPATH=src python tests/web/test_frame_bytes.py --write
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path
from typing import Any

from cardroom.bots import make_bot
from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.table import NainJauneTable, action_text
from cardroom.games.nain_jaune.view import view_of
from cardroom.tables import SeatSpec
from cardroom.web.routes.ws import render_frame

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "frames" / "nain_jaune.txt"
LANGS = ("en", "fr", "cy")


def _config(seed: int) -> TableConfig:
    seats: tuple[SeatSpec, ...]
    if seed == 3:  # four seats, the classic rules
        rules = Rules.from_options("classic", {"end": "rounds:3"})
        seats = (SeatSpec("person"), SeatSpec("person", name="Zoë"), SeatSpec("bot", "easy"),
                 SeatSpec("bot"))  # fmt: skip
    elif seed == 11:  # boards announced by hand (claims and forgotten boxes), may stop
        rules = Rules.from_options("count", {"end": "rounds:3", "announce": "manual",
                                             "may_stop": "true"})  # fmt: skip
        seats = (SeatSpec("person"), SeatSpec("person"), SeatSpec("bot", "easy"))
    else:  # five seats, a free restart when blocked
        rules = Rules.from_options("ace-high", {"end": "rounds:2"})
        seats = (SeatSpec("person"), SeatSpec("person"), SeatSpec("bot", "easy"),
                 SeatSpec("bot", "medium"), SeatSpec("person"))  # fmt: skip
    return TableConfig(rules=rules, seats=seats, seed=seed, level="easy", bot_delay=0,
                       takeover_after=0)  # fmt: skip


def play(seed: int, limit: int = 2000) -> list[str]:
    """One line per change: its seq and a digest of every frame rendered after it."""
    cfg = _config(seed)
    table = NainJauneTable(f"golden{seed}")
    cursors: dict[int | None, int] = {0: 0, 1: 0, None: 0}
    present: set[int] = set()
    lines: list[str] = []
    frames: dict[int | None, dict[str, Any]] = {}

    def commit(kind: str, data: dict[str, Any]) -> None:
        table.apply(table.entry(kind, data, 1000.0 + table.seq))
        end = len(table.events)
        deadline: dict[str, Any] | None = None
        if table.status == "round-over":
            deadline = {"kind": "next-round", "seat": None, "at": 2000.5 + table.seq}
        elif table.seq % 7 == 0:
            deadline = {"kind": "takeover", "seat": 1, "at": 1500.25}
        texts: list[str] = []
        for seat in (0, 1, None):
            frame = frames[seat] = table.frame(seat, cursors[seat], present, deadline)
            cursors[seat] = end
            texts.extend(render_frame(frame, lang) for lang in LANGS)
        if table.seq % 10 == 0:  # a connection's first frame (or a resync): the whole round
            full = table.frame(0, None, present, deadline)
            texts.extend(render_frame(full, lang) for lang in LANGS)
        if table.seq % 5 == 0:  # then someone's connection ends (no entry): Ann is away
            away = present - {0}
            for seat in (1, None):
                frame = table.frame(seat, cursors[seat], away, {"kind": "takeover", "seat": 0,
                                                                 "at": 1700.0})  # fmt: skip
                texts.extend(render_frame(frame, lang) for lang in LANGS)
        digest = hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest()[:32]
        lines.append(f"{seed} {table.seq} {digest}")

    commit("created", {"config": cfg.to_json()})
    present.add(0)
    commit("joined", {"seat": 0, "name": "Ann"})
    present.add(1)
    if table.joined[1]:
        commit("seat-token", {"seat": 1, "hash": "0" * 64})
    else:
        commit("joined", {"seat": 1, "name": "Bob"})
    people = [g for g, spec in enumerate(cfg.seats) if spec.kind == "person"]
    filled = [g for g in people if not table.joined[g]]
    commit("started", {"filled": filled, "dealer": seed % table.n})
    commit("round", table.deal())
    while table.status != "over" and len(lines) < limit:
        if table.status == "round-over":
            for g in table.waiting_for_ready():
                commit("ready", {"seat": g})
            commit("round", table.deal())
            continue
        turn = table.turn()
        rnd = table.round
        assert turn is not None and rnd is not None
        if turn.bot is not None:  # as TableService._bots_play
            bot = make_bot(turn.bot)
            rng = random.Random(f"{cfg.seed}/seat/{turn.seat}/{table.seq}")
            action = bot.act(view_of(rnd, table.round_seats.index(turn.seat)), rng)
            commit("action", {"seat": turn.seat, "action": action_text(action), "by": "bot"})
            continue
        legal = frames[turn.seat]["round"]["legal"]
        commit("action", {"seat": turn.seat, "action": legal[table.seq * 7 % len(legal)],
                          "by": "person"})  # fmt: skip
        if table.summary()["winners"] is not None:  # that action ended the game
            break
        if table.seq % 41 == 0 and 1 not in table.taken_over:
            present.discard(1)
            commit("takeover", {"seat": 1, "level": "medium"})
        elif 1 in table.taken_over and 1 not in table.left and table.seq % 9 == 0:
            if seed == 11 and table.seq > 150:
                commit("left", {"seat": 1, "level": "easy"})
            else:
                present.add(1)
                commit("returned", {"seat": 1})
    commit("rematch", {"table": f"golden{seed}r"})
    return lines


def all_lines() -> list[str]:
    return [line for seed in (3, 11, 29) for line in play(seed)]


def test_every_frame_is_byte_for_byte_the_recorded_one() -> None:
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    got = all_lines()
    for want, have in zip(expected, got, strict=False):
        assert have == want, f"the frames after change '{want}' differ: got '{have}'"
    assert len(got) == len(expected)
    assert len(expected) > 600  # three whole games: the recording is not empty


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text("\n".join(all_lines()) + "\n", encoding="utf-8")
