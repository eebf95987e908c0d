"""The random bot: uniform over the legal actions, and no draw when there is only one."""

from __future__ import annotations

import random

from cardroom.bots import make_bot
from cardroom.games.nain_jaune import Rules, view_of
from cardroom.games.nain_jaune.engine import Pass
from tests.bots.test_heuristic import SEAT0, SEAT1, TALON_OF_SEVENS
from tests.nain_jaune.deals import new_round, play


def test_a_forced_pass_takes_no_draw() -> None:
    rnd = new_round(Rules(), 3, {0: SEAT0, 1: SEAT1}, TALON_OF_SEVENS, dealer=2)
    play(rnd, "5C", "6C")  # every 7 is in the talon: the seat to act can only say "without 7"
    view = view_of(rnd, rnd.to_act)
    assert view.legal_actions == (Pass(),)
    rng = random.Random(7)
    before = rng.getstate()
    assert isinstance(make_bot("random").act(view, rng), Pass)
    assert rng.getstate() == before


def test_a_choice_draws_one_uniform_index() -> None:
    rnd = new_round(Rules(), 3, {0: SEAT0, 1: SEAT1}, TALON_OF_SEVENS, dealer=2)
    view = view_of(rnd, 0)  # seat 0 leads: any of its 15 cards
    assert len(view.legal_actions) == 15
    for seed in range(20):
        expected = view.legal_actions[random.Random(seed).randrange(15)]
        assert make_bot("random").act(view, random.Random(seed)) == expected
