"""A bot has one name per language: the replay of a table names its bots as the table did."""

from __future__ import annotations

from typing import Any

from cardroom.i18n import translator
from cardroom.i18n.words import record_with_shown_names


def test_a_tables_record_names_its_bots_in_the_readers_language() -> None:
    rounds: list[dict[str, Any]] = [
        {"players": ["Ann", "Bot 2", "Bot 3"], "dealer": 0},
        {"players": ["Bot 2", "Bot 3"], "dealer": 1},  # Ann left: positions moved, names stay
    ]
    kinds = ["person", "person", "bot"]  # seat 1 is a person who named themself "Bot 2"
    french = record_with_shown_names(rounds, kinds, translator("fr"))
    assert [r["players"] for r in french] == [["Ann", "Bot 2", "Robot 3"], ["Bot 2", "Robot 3"]]
    assert french[0]["dealer"] == 0 and rounds[0]["players"][2] == "Bot 3"  # a copy
    welsh = record_with_shown_names(rounds[0], kinds, translator("cy"))  # one round: one round back
    assert welsh["players"] == ["Ann", "Bot 2", "Bot 3"]
    fr = translator("fr")
    assert record_with_shown_names(rounds, [], fr) == rounds  # not a table's: as recorded
