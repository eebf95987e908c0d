"""OpenSpiel's ISMCTS as the tournament peer ``ismcts`` (only with the research extra)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from cardroom.bots import BotError, make_bot
from cardroom.games.nain_jaune import Round, Rules, view_of
from cardroom.games.nain_jaune.research.encoding import action_id
from cardroom.games.nain_jaune.research.openspiel_bot import ISMCTSPeer
from cardroom.games.nain_jaune.research.openspiel_game import NainJauneGame
from cardroom.games.nain_jaune.sim.tournament import Setup, play_deal


def test_the_state_built_from_a_view_is_in_the_true_information_set() -> None:
    """The OpenSpiel state the peer builds from a seat's view (hidden cards dealt at random)
    gives that seat the same information state string as the true deal does."""
    rules = Rules()
    rnd = Round.deal(rules, [60] * 3, [0] * 5, 2, random.Random(8))
    heuristic = make_bot("heuristic")
    moves = []
    for _ in range(14):
        action = heuristic.act(view_of(rnd, rnd.to_act), random.Random(0))
        moves.append(action_id(action))
        rnd.apply(action)
    game = NainJauneGame({"players": 3, "dealer": 2})
    game.rules = rules
    true_state = game.new_initial_state()
    queues = [list(reversed(h)) for h in rnd.hands]
    for seat, card in rnd.played:
        queues[seat].insert(0, card)
    for k in range(game.cards_dealt):
        true_state.apply_action(queues[game.seat_of_deal(k)].pop().index)
    for move in moves:
        true_state.apply_action(move)
    peer = ISMCTSPeer(simulations=2)
    for seat in range(3):
        built = peer.state_of(view_of(rnd, seat), random.Random(seat))
        assert built.information_state_string(seat) == true_state.information_state_string(seat)
        assert built.round is not None and built.round.hands[seat] == rnd.hands[seat]


def test_the_peer_plays_tournament_deals_and_refuses_other_positions() -> None:
    setup = Setup(("ismcts:simulations=3", "heuristic"), 1, 3, Rules(), seed=2)
    result = play_deal(setup, 0)
    assert result.appearances == [6, 3]  # 3 rotations, the peer at two seats of each
    rnd = Round.deal(Rules(), [60] * 3, [4, 0, 0, 0, 0], 0, random.Random(1))  # a carried box
    view = view_of(rnd, rnd.to_act)
    with pytest.raises(BotError, match="empty board"):
        make_bot("ismcts:simulations=2").act(view, random.Random(0))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:simulations=1", "≥ 2"),
        ("ismcts:ms=10,simulations=3", "not both"),
        ("ismcts:uct=high", "uct='high'"),
        ("ismcts:depth=2", "has no option depth"),
        ("ismcts:clock=moon", "clock='moon'"),
    ],
)
def test_bad_peer_specs(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        make_bot(spec)


def test_a_cpu_clock_budget_plays_a_deal_with_at_least_two_simulations() -> None:
    """``clock=cpu``: the deadline counts the thinking thread's CPU time; the peer still runs
    its two simulations at least and plays a legal round to the end."""
    import time

    bot = make_bot("ismcts:ms=5,clock=cpu")
    assert isinstance(bot, ISMCTSPeer) and bot.clock is time.thread_time
    wall = make_bot("ismcts:ms=5")
    assert isinstance(wall, ISMCTSPeer) and wall.clock is time.perf_counter
    rnd = Round.deal(Rules(), [60] * 3, [0] * 5, 2, random.Random(3))
    while rnd.result is None:
        view = view_of(rnd, rnd.to_act)
        action = bot.act(view, random.Random(0))
        assert action in view.legal_actions
        if len(view.legal_actions) > 1:
            assert bot.last_iterations >= 2
        rnd.apply(action)
