"""The oracle yardstick: the expert's search on the true deal, in simulations only."""

from __future__ import annotations

import random

import pytest

from cardroom.bots.base import BotError, make_bot
from cardroom.cards import Card, parse_cards
from cardroom.games.nain_jaune.engine import PASS, Play, Round
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.oracle import OracleBot
from cardroom.games.nain_jaune.sim.play import play_round
from cardroom.games.nain_jaune.view import view_of
from tests.analysis.test_nain_jaune_analysis import RUN, STOP


def test_the_oracle_is_refused_a_view() -> None:
    rnd = Round(Rules(), [100] * 8, [0] * 5, 0, *RUN)
    with pytest.raises(BotError, match="never at a table"):
        OracleBot().act(view_of(rnd, 1), random.Random(0))


def test_the_oracle_leads_the_run_that_plays_its_hand_out() -> None:
    rnd = Round(Rules(), [100] * 8, [0] * 5, 0, *RUN)
    bots = [make_bot("heuristic")] * 8
    bots[1] = make_bot("oracle")
    play_round(rnd, bots, [random.Random(i) for i in range(8)])
    assert rnd.played[0] == (1, RUN[0][1][0]) and rnd.result is not None
    assert rnd.result.winner == 1 and rnd.result.grand_opera


def test_the_oracle_plays_on_when_it_can_see_the_sixes_are_dead() -> None:
    """P2 asked for a five (STOP): from its view stopping is safer, but with every card known
    the sixes are in the talon, so playing 5♥ wins as surely and the oracle, first in order of
    the choices, plays it."""
    rules = Rules.from_options("classic", {"may_stop": "true", "when_blocked": "free-restart"})
    rnd = Round(rules, [100] * 8, [0] * 5, 0, *STOP)
    oracle = make_bot("oracle")
    bots = [make_bot("heuristic")] * 8
    bots[2] = oracle
    for card in parse_cards("5C 5D 5S 3D 4S"):
        while Play(card) not in rnd.legal_actions():
            rnd.apply(PASS)
        rnd.apply(Play(card))
    assert rnd.to_act == 2
    play_round(rnd, bots, [random.Random(i) for i in range(8)])
    assert rnd.played[5] == (2, Card.parse("5H"))
    assert rnd.result is not None and rnd.result.winner == 2
