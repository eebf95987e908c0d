"""Hints for people: the expert bot's suggestion for a seat's own move, from that seat's view.

:func:`suggest` is given one seat's :class:`RoundView` and nothing else, so a hint can only use
what the person at that seat may see. A table should offer hints only when its settings allow
them (never in rated games).
"""

from __future__ import annotations

import random

from cardroom.games.nain_jaune.bots.expert import ExpertBot
from cardroom.games.nain_jaune.engine import Action, Claim, Pass, Play, action_text
from cardroom.games.nain_jaune.view import RoundView
from cardroom.i18n import ENGLISH, Translator
from cardroom.i18n.numbers import decimal
from cardroom.i18n.words import pretty, tr_of, without_call


class HintError(ValueError):
    """No hint can be given for this view (it is not the seat's turn)."""


def describe(
    action: Action, lang: str | Translator | None = None, need: int | None = None, *,
    letters: bool = True,
) -> str:
    """An action in words: ``play 7♥``, ``claim`` (« jouer D♠ »), and a pass as the page's
    button says it when a rank is wanted (``need``): ``without 5`` (« sans 5 »), else ``pass``;
    the card with the letters of the language's packs, or with ``letters=False`` those typed
    in the terminal (``Q♠``)."""
    tr = tr_of(lang)
    if isinstance(action, Play):
        return tr._("play {card}", card=pretty(action.card, tr if letters else ENGLISH))
    if isinstance(action, Claim):
        return tr._("claim")
    assert isinstance(action, Pass)
    return without_call(need, tr) if need else tr._("pass")


def _signed(x: float, tr: Translator) -> str:
    """``+16.6`` / ``+16,6`` (never ``-0.0``)."""
    value = round(x, 1)
    return decimal(value if value else 0.0, 1, tr, sign=True)


def suggest(
    view: RoundView,
    *,
    ms: int = 100,
    seed: int = 0,
    lang: str | Translator | None = None,
    letters: bool = True,
) -> tuple[Action, str]:
    """The expert's move for ``view.seat`` and a short reason in words, in ``lang`` (cards with
    the language's letters, or with ``letters=False`` the terminal's typed ones).

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
        said = describe(only, tr, view.need, letters=letters)
        return only, tr._("{action}: it is your only legal move", action=said)
    bot = ExpertBot(ms=ms)
    action = bot.act(view, random.Random(seed))
    scores = bot.last_scores
    if len(scores) == 1:
        return action, tr._(
            "{action}: your other moves come to the same",
            action=describe(action, tr, view.need, letters=letters),
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
        action=describe(action, tr, view.need, letters=letters),
        gain=_signed(best - now, tr),
        count=f"{deals:,}".replace(",", "\u202f" if tr.lang == "fr" else ","),
        other=describe(runner_up[0], tr, view.need, letters=letters),
        other_gain=_signed(runner_up[1] - now, tr),
    )


def hint(view: RoundView, *, seed: int, lang: str | Translator | None = None) -> tuple[str, str]:
    """The table service's hint (the registry's ``hints`` piece): :func:`suggest` thinking for
    100 ms, the action as the table's text (``"7D"``, ``"pass"``, ``"claim"``) and the reason;
    :class:`HintError` when the seat has no move to make."""
    action, reason = suggest(view, ms=100, seed=seed, lang=lang)
    return action_text(action), reason
