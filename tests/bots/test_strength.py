"""The levels' measured strength: one scale, read by the lobby and the analysis."""

from __future__ import annotations

import itertools

from cardroom.bots.base import LEVELS
from cardroom.games.nain_jaune.bots.strength import LEVEL_STRENGTH, level_like


def test_every_level_is_measured_and_stronger_than_the_one_below() -> None:
    order = ["easy", "medium", "hard", "expert"]
    assert list(LEVEL_STRENGTH) == order and set(order) <= set(LEVELS)
    for low, high in itertools.pairwise(order):
        a, b = LEVEL_STRENGTH[low], LEVEL_STRENGTH[high]
        assert a.rating < b.rating and a.chips < b.chips and a.accuracy < b.accuracy


def test_an_accuracy_is_like_the_nearest_level() -> None:
    assert level_like(0.0) == "easy" and level_like(100.0) == "expert"
    for level, strength in LEVEL_STRENGTH.items():
        assert level_like(strength.accuracy) == level
