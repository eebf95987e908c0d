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
from cardroom.i18n import Translator
from cardroom.i18n.words import tr_of, without_call


class HintError(ValueError):
    """No hint can be given for this view (it is not the seat's turn)."""


def describe(
    action: Action, lang: str | Translator | None = None, need: int | None = None
) -> str:
    """An action in words: ``play 7♥``, ``claim``, and a pass as the page's button says it when
    a rank is wanted (``need``): ``without 5`` (« sans 5 »), else ``pass``."""
    tr = tr_of(lang)
    if isinstance(action, Play):
        return tr._("play {card}", card=action.card.pretty)
    if isinstance(action, Claim):
        return tr._("claim")
    assert isinstance(action, Pass)
    return without_call(need, tr) if need else tr._("pass")


def _signed(x: float) -> str:
    return f"{x:+.1f}"


def suggest(
    view: RoundView, *, ms: int = 100, seed: int = 0, lang: str | Translator | None = None
) -> tuple[Action, str]:
    """The expert's move for ``view.seat`` and a short reason in words, in ``lang``.

    Thinks for about ``ms`` milliseconds; ``seed`` seeds its sampling of the hidden cards.
    Raises :class:`HintError` when the seat has no move to make.
    """
    tr = tr_of(lang)
    if not view.my_turn or not view.legal_actions:
        raise HintError(tr._("no hint: it is not your turn"))
    if ms < 1:
        raise HintError(f"no hint: ms={ms} must be at least 1")
    legal = view.legal_actions
    if len(legal) == 1:
        only = legal[0]
        said = describe(only, tr, view.need)
        return only, tr._("{action}: it is your only legal move", action=said)
    bot = ExpertBot(ms=ms)
    action = bot.act(view, random.Random(seed))
    scores = bot.last_scores
    if len(scores) == 1:
        return action, tr._(
            "{action}: your other moves come to the same", action=describe(action, tr, view.need)
        )
    now = view.chips[view.seat]
    ranked = sorted(scores, key=lambda s: -s[1])
    best = next(score for a, score in scores if a == action)
    runner_up = next((a, score) for a, score in ranked if a != action)
    deals = bot.last_iterations
    return action, tr.ngettext(
        "{action}: about {gain} chips by the end of the round over {count} likely deal of the "
        "hidden cards (next best, {other}: {other_gain})",
        "{action}: about {gain} chips by the end of the round over {count} likely deals of the "
        "hidden cards (next best, {other}: {other_gain})",
        deals,
        action=describe(action, tr, view.need),
        gain=_signed(best - now),
        count=f"{deals:,}".replace(",", "\u202f" if tr.lang == "fr" else ","),
        other=describe(runner_up[0], tr, view.need),
        other_gain=_signed(runner_up[1] - now),
    )
