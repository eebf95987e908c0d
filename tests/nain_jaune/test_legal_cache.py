"""The step API's shortcut (apply trusts the last legal_actions answer) changes nothing."""

from __future__ import annotations

import random

import pytest

from cardroom.cards import parse_card
from cardroom.games.nain_jaune import Round, Rules
from cardroom.games.nain_jaune.engine import PASS, IllegalAction, Play


def test_a_tampered_answer_does_not_make_an_illegal_action_legal() -> None:
    rnd = Round.deal(Rules(), [60] * 3, [0] * 5, 0, random.Random(4))
    legal = rnd.legal_actions()  # the opener: every card, no pass
    legal.append(PASS)
    with pytest.raises(IllegalAction, match="must play a card"):
        rnd.apply(PASS)
    other = next(c for c in rnd.hands[(rnd.to_act + 1) % 3])
    with pytest.raises(IllegalAction, match="does not hold"):
        rnd.apply(Play(other))


def test_a_stale_answer_is_not_trusted() -> None:
    rnd = Round.deal(Rules(), [60] * 4, [0] * 5, 0, random.Random(5))
    first = rnd.legal_actions()
    rnd.apply(first[0])
    # the old answer listed every card of the opener; none may be played again now
    with pytest.raises(IllegalAction):
        rnd.apply(first[0])
    assert rnd.legal_actions() != first


def test_a_clone_and_its_original_answer_for_themselves() -> None:
    rnd = Round.deal(Rules(), [60] * 2, [0] * 5, 1, random.Random(6))
    rnd.legal_actions()
    twin = rnd.clone()
    played = rnd.legal_actions()[0]
    rnd.apply(played)
    assert played in twin.legal_actions()
    twin.apply(played)
    assert [c for _, c in twin.played] == [c for _, c in rnd.played]


def test_unlisted_but_legal_actions_still_go_through_the_full_check() -> None:
    """Playing a board card unannounced is legal though never listed."""
    rnd = Round.deal(Rules(), [60] * 4, [0] * 5, 3, random.Random(7))
    seat = rnd.to_act
    board = [c for c in rnd.hands[seat] if c in Rules().board_cards]
    rnd.legal_actions()
    if board:
        rnd.apply(Play(board[0], forget=True))
        assert rnd.forgotten == [(seat, board[0])]
    else:
        with pytest.raises(IllegalAction, match="not a board card"):
            rnd.apply(Play(rnd.hands[seat][0], forget=True))
    assert parse_card("7D") in Rules().board_cards
