"""The rules engines' reasons for refusing an action (English), in the person's language."""

from __future__ import annotations

import re

from cardroom.i18n import Translator
from cardroom.i18n.words import N_, a_rank, card_name, tr_of

_FIXED = {
    "the round is over": N_("the round is over"),
    "there is no board card of yours to claim": N_("there is no board card of yours to claim"),
    "you have played your last card: claim its box or pass": N_(
        "you have played your last card: claim its box or pass"
    ),
    "you start a new sequence and must play a card": N_(
        "you start a new sequence and must play a card"
    ),
}
_RANKS = {"ace": 1, "jack": 11, "queen": 12, "king": 13} | {str(v): v for v in range(2, 11)}
_HOLD = re.compile(r"you hold an? (\w+) and must play it")
_NEXT = re.compile(r"the next card must be an? (\w+)")
_NOT_HELD = re.compile(r"seat \d+ does not hold (\w+)")
_NOT_BOARD = re.compile(r"(\w+) is not a board card: there is nothing to forget")


def illegal_reason(reason: str, lang: str | Translator | None = None) -> str:
    """A Nain Jaune engine's ``IllegalAction.reason`` in ``lang`` (as it is if unknown)."""
    tr = tr_of(lang)
    if reason in _FIXED:
        return tr._(_FIXED[reason])
    m = _HOLD.fullmatch(reason)
    if m and m.group(1) in _RANKS:
        return tr._("you hold {a_rank} and must play it", a_rank=a_rank(_RANKS[m.group(1)], tr))
    m = _NEXT.fullmatch(reason)
    if m and m.group(1) in _RANKS:
        return tr._("the next card must be {a_rank}", a_rank=a_rank(_RANKS[m.group(1)], tr))
    m = _NOT_HELD.fullmatch(reason)
    if m:
        return tr._("you do not hold the {card}", card=card_name(m.group(1), tr))
    m = _NOT_BOARD.fullmatch(reason)
    if m:
        return tr._("the {card} is not a board card", card=card_name(m.group(1), tr))
    return reason


_TABLE_FIXED = {
    "the round is over: wait for the next one": N_("the round is over: wait for the next one"),
    "no round is being played": N_("no round is being played"),
    "the game is over": N_("the game is over"),
    "the table has not started": N_("the table has not started"),
}
_TURN = re.compile(r"it is (.+)'s turn, not yours")


def table_error_text(code: str, message: str, lang: str | Translator | None = None) -> str:
    """A table's refusal (``TableError`` code and English message) in ``lang``."""
    tr = tr_of(lang)
    if code == "illegal":
        return illegal_reason(message, tr)
    if message in _TABLE_FIXED:
        return tr._(_TABLE_FIXED[message])
    m = _TURN.fullmatch(message)
    if m:
        return tr._("it is {name}'s turn, not yours", name=m.group(1))
    return message
