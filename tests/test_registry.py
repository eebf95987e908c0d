"""The registry of games: every game and its pieces from one place, loaded only when asked."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardroom.games.registry import (
    GAMES,
    REALTIME,
    TURN_BASED,
    Game,
    UnknownGame,
    game,
    names,
    new_engine,
    register,
    unregister,
)

PIECES = ("rules", "engine", "view", "record", "table", "rules_version")


def test_the_games_in_menu_order_and_by_kind() -> None:
    assert names() == ("nain-jaune", "spit", "speed")
    assert names(REALTIME) == ("spit", "speed")
    assert names(TURN_BASED) == ("nain-jaune",)
    assert list(GAMES) == list(names())
    assert game("spit").realtime and not game("nain-jaune").realtime


@pytest.mark.parametrize("name", list(GAMES))
def test_every_piece_of_every_game_loads(name: str) -> None:
    entry = game(name)
    for piece in PIECES:
        assert entry.load(piece) is not None
    assert isinstance(entry.load("rules_version"), int)
    assert entry.load("table").__name__ in ("NainJauneTable", "RealtimeTable")


def test_an_unknown_game_is_refused_with_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match="unknown game 'chess': choose one of nain-jaune, spit"):
        game("chess")
    with pytest.raises(ValueError, match="choose one of spit, speed"):
        new_engine("nain-jaune", {}, 1)
    with pytest.raises(LookupError, match="spit has no target_match"):
        game("spit").load("target_match")


def test_a_real_time_engine_is_dealt_by_its_seed_under_its_rules() -> None:
    one, two = new_engine("speed", {"countdown": "2"}, 7), new_engine("speed", {}, 7)
    assert one.game == "speed" and one.rules.countdown == 2.0
    assert one.seed == two.seed == 7 and one.deal == two.deal
    assert new_engine("speed", {}, 8).deal != two.deal


def test_a_game_registered_later_is_listed_and_a_taken_name_is_refused() -> None:
    entry = Game("snap", "Snap", REALTIME, (2, 2), "m:R", "m:E", "m:V", "m", "m:T", "m:V1")
    register(entry)
    try:
        assert names()[-1] == "snap" and GAMES["snap"] is entry
        with pytest.raises(ValueError, match="'snap' is registered already"):
            register(entry)
    finally:
        unregister("snap")
    assert "snap" not in GAMES


def test_importing_the_registry_imports_no_engine_numba_web_or_terminal() -> None:
    code = (
        "import sys, cardroom.games.registry as r; r.game('spit'); "
        "print(sorted(m for m in sys.modules if m.startswith(('numba', 'fastapi', 'textual', "
        "'cardroom.games.spit', 'cardroom.tables', 'cardroom.web'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_games_title_is_its_name_for_people_and_an_unknown_name_stays_as_it_is() -> None:
    from cardroom.games.registry import title
    from cardroom.i18n import translator

    assert [title(n) for n in names()] == ["Nain Jaune", "Spit", "Speed"]
    assert title("chess") == "chess"
    assert translator("cy")._(title("spit")) == "Tafod"


def test_a_speed_match_to_a_target_comes_from_the_registry_and_spit_has_none() -> None:
    from cardroom.games.speed import SpeedMatch

    speed = game("speed")
    to_five = speed.rules_from({"target": "5"})
    match = speed.match_for(to_five, 3)
    assert isinstance(match, SpeedMatch) and match.rules.target == 5 and match.seed == 3
    assert speed.match_for(speed.rules_from({}), 3) is None  # a single game
    assert game("spit").match_for(game("spit").rules_from({}), 3) is None
