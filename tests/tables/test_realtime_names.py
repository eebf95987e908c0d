"""The real-time tier names no game: the table, its service and the arbiter ask the registry,
and each game's own part of a real-time table comes from its ``table_parts`` piece."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from cardroom.arbiter import Entry, entry_text
from cardroom.games.registry import GAMES, REALTIME, game, games, register, unregister
from cardroom.games.speed import table as speed_parts
from cardroom.tables.config import TableError
from cardroom.tables.realtime import (
    GameParts,
    RealtimeConfig,
    RealtimeSeat,
    RealtimeTable,
    game_parts,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "cardroom"
TIER = sorted(
    {"arbiter.py", "tables/realtime.py", "tables/realtime_service.py"}
    | {p.relative_to(SRC).as_posix() for p in SRC.glob("tables/realtime*.py")}
)
"""The real-time tier's modules outside ``games/`` (the table's and the service's parts
among them)."""


@dataclass(frozen=True)
class Log:
    """A stored log entry as the table reads it."""

    seq: int
    kind: str
    data: dict[str, Any]


def game_words() -> re.Pattern[str]:
    """Every registered game's name and title, and each word of them (``nain``, ``jaune``)."""
    words = {w for g in GAMES.values() for w in re.split(r"[-\s_]+", f"{g.name} {g.title}") if w}
    return re.compile("|".join(sorted(map(re.escape, words))), re.I)


def test_no_module_of_the_real_time_tier_names_a_game() -> None:
    spelled = game_words()
    assert spelled.search("a Spit!") and spelled.search("nain_jaune") and spelled.search("SPEED")
    found = {
        f"{name}:{number}: {line.strip()}"
        for name in TIER
        for number, line in enumerate((SRC / name).read_text(encoding="utf-8").splitlines(), 1)
        if spelled.search(line)
    }
    assert sorted(found) == []


def test_every_real_time_game_tells_its_table_all_it_asks() -> None:
    asked = {n for n in vars(GameParts) if not n.startswith("_")} | {"UNNAMED_VERSION"}
    assert asked >= {"new_match", "view_frame", "match_frame", "record_header", "check_games"}
    for entry in games(REALTIME):
        parts = game_parts(entry.name)
        assert all(hasattr(parts, name) for name in asked), entry.name
        version = parts.UNNAMED_VERSION
        assert version is None or 1 <= version <= entry.load("rules_version"), entry.name


class SwappedParts:
    """Speed's part of a table, changed where a test can see it was asked."""

    UNNAMED_VERSION = 2

    @staticmethod
    def check_games(games: int) -> None:
        """Any number of games (Speed's own piece refuses more than one)."""

    @staticmethod
    def check_rules(rules: Any, rules_version: int) -> None:
        """Any rules."""

    new_match = staticmethod(speed_parts.new_match)

    @staticmethod
    def match_frame(match: Any) -> dict[str, Any]:
        return {"unit": "laps", "target": 99}

    @staticmethod
    def view_frame(view: Any, seat: int | None) -> dict[str, Any]:
        return {"swapped": seat}

    @staticmethod
    def record_header(engine: Any, players: Sequence[str], match: Any) -> dict[str, Any]:
        return {**speed_parts.record_header(engine, players, match), "swapped": True}


@pytest.fixture
def swapped() -> Iterator[str]:
    """Speed registered again as ``swapped-speed``, with :class:`SwappedParts` for its table."""
    entry = replace(
        game("speed"),
        name="swapped-speed",
        title="Swapped",
        table_parts=f"{__name__}:SwappedParts",
    )
    register(entry)
    try:
        yield entry.name
    finally:
        unregister(entry.name)


def config(name: str, **fields: Any) -> dict[str, Any]:
    bot = RealtimeSeat("bot", "expert")
    return RealtimeConfig(game=name, seats=(bot, bot), seed=5, **fields).to_json()


def test_a_real_time_table_asks_its_games_own_part(swapped: str) -> None:
    unnamed = {k: v for k, v in config(swapped).items() if k != "rules_version"}
    assert RealtimeConfig.from_json(unnamed).rules_version == 2  # the piece's, not Speed's 3
    both = {k: v for k, v in config("speed").items() if k != "rules_version"}
    assert RealtimeConfig.from_json(both).rules_version == 3
    with pytest.raises(TableError, match="played to a target score"):
        RealtimeConfig.from_json(config("speed", games=2))
    assert RealtimeConfig.from_json(config(swapped, games=2)).games == 2

    table = RealtimeTable("t1")
    entries: list[tuple[str, dict[str, Any]]] = [
        ("created", {"config": config(swapped, options={"target": "5"})}),
        ("started", {"t": 10.0, "filled": []}),
    ]
    for seq, (kind, data) in enumerate(entries, 1):
        table.apply(Log(seq, kind, data))
    frame = table.frame(1)
    assert frame["game"] == swapped
    assert frame["match"]["unit"] == "laps" and frame["match"]["target"] == 99
    assert frame["table_view"]["swapped"] == 1
    assert table.frame(None)["table_view"]["swapped"] is None
    assert "hand" not in frame["table_view"]  # Speed's own fields come from its piece only
    records = table.records()
    assert isinstance(records, list) and records[0]["swapped"] is True
    assert records[0]["game"] == "speed" and records[0]["match"]["game"] == 1


@dataclass(frozen=True)
class Wave:
    """A game's own kind of action (its words: ``wave``)."""

    pile: int

    def __str__(self) -> str:
        return f"wave at pile {self.pile + 1}"


@dataclass(frozen=True)
class Play:
    """A play, which every game says alike."""

    pile: int


def test_the_other_seats_refused_action_is_told_in_its_games_words() -> None:
    refused = Entry(1.0, 0, Wave(1), False, "stale: it moved")
    names = ["Ann", "Bob"]
    said = {"wave": "a wave refused"}.get
    assert entry_text(refused, names, viewer=1, public=said) == (
        "Ann: a wave refused (stale: the pile had changed)"
    )
    assert entry_text(refused, names, viewer=1) == (
        "Ann: an action refused (stale: the pile had changed)"
    )
    play = Entry(1.0, 0, Play(1), False, "no")
    assert entry_text(play, names, viewer=1, public=said) == "Ann: a play on pile 2 refused"
    assert entry_text(refused, names, viewer=0) == "Ann: wave at pile 2 refused: stale: it moved"
