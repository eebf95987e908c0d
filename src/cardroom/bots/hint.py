"""Hints for people: the expert bot's suggestion for a seat's own move, from that seat's view.

:func:`suggest` is given one seat's :class:`RoundView` and nothing else, so a hint can only use
what the person at that seat may see. A table should offer hints only when its settings allow
them (never in rated games).
"""

from __future__ import annotations

import random

from cardroom.bots.expert import ExpertBot
from cardroom.games.nain_jaune.engine import Action, Claim, Pass, Play
from cardroom.games.nain_jaune.view import RoundView


class HintError(ValueError):
    """No hint can be given for this view (it is not the seat's turn)."""


def describe(action: Action) -> str:
    """An action in words: ``play 7♥``, ``pass``, ``claim``."""
    if isinstance(action, Play):
        return f"play {action.card.pretty}"
    if isinstance(action, Claim):
        return "claim"
    assert isinstance(action, Pass)
    return "pass"


def _signed(x: float) -> str:
    return f"{x:+.1f}"


def suggest(view: RoundView, *, ms: int = 100, seed: int = 0) -> tuple[Action, str]:
    """The expert's move for ``view.seat`` and a short reason in words.

    Thinks for about ``ms`` milliseconds; ``seed`` seeds its sampling of the hidden cards.
    Raises :class:`HintError` when the seat has no move to make.
    """
    if not view.my_turn or not view.legal_actions:
        raise HintError("no hint: it is not your turn")
    if ms < 1:
        raise HintError(f"no hint: ms={ms} must be at least 1")
    legal = view.legal_actions
    if len(legal) == 1:
        only = legal[0]
        return only, f"{describe(only)}: it is your only legal move"
    bot = ExpertBot(ms=ms)
    action = bot.act(view, random.Random(seed))
    scores = bot.last_scores
    if len(scores) == 1:
        return action, f"{describe(action)}: your other moves come to the same"
    now = view.chips[view.seat]
    ranked = sorted(scores, key=lambda s: -s[1])
    best = next(score for a, score in scores if a == action)
    runner_up = next((a, score) for a, score in ranked if a != action)
    return action, (
        f"{describe(action)}: about {_signed(best - now)} chips by the end of the round "
        f"over {bot.last_iterations:,} likely deals of the hidden cards "
        f"(next best, {describe(runner_up[0])}: {_signed(runner_up[1] - now)})"
    )
