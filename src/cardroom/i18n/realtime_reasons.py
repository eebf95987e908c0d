"""The Spit and Speed engines' refusals (English, with card codes) in the person's language.

English keeps the engine's own words (the terminal shows them as they are); French and Welsh get
the reasons a person can meet at the table, cards in words. A reason not listed here (a
malformed action, which no key or typed line can send) stays in English.

The web side (branch h-i18nweb) puts the same reasons into words with the same messages in
``realtime_words.reason_words``; once both are merged this module can give way to it.
"""

from __future__ import annotations

import re
from typing import Any

from cardroom.cards import Card
from cardroom.i18n import Translator
from cardroom.i18n.words import N_, card_name, tr_of

_CODE = r"(?:10|[2-9AJQKT])[CDHS]"
_WHAT = {
    "turn up a card": N_("turn up a card"),
    "move a card": N_("move a card"),
    'call "Spit!"': N_('call "Spit!"'),
    "slap a pile": N_("slap a pile"),
    "choose a pile": N_("choose a pile"),
    "play": N_("play"),
}
_FIXED = {
    "the game is over": N_("the game is over"),
    'you have already called "Spit!"': N_('you have already called "Spit!"'),
    "stale: the other player slapped first and the piles are shared": N_(
        "too late: the other player slapped first and the piles are shared"
    ),
    "the middle cards are not turned yet: call for the flip first": N_(
        "the middle cards are not turned yet: call for the flip first"
    ),
    "you have already called: waiting for the other player or the countdown": N_(
        "you have already called: waiting for the other player or the countdown"
    ),
    "nobody is stuck yet": N_("nobody is stuck yet"),
}
_STALE = re.compile(rf"stale: pile (\d) now shows ({_CODE}), not ({_CODE}|None|\S+)")
_NOT_NEXT = re.compile(rf"({_CODE}) is not one rank above or below ({_CODE})")
_CANNOT_GO = re.compile(
    rf"({_CODE}) cannot go on ({_CODE}): it must be one rank above or below \(K-A-2 wraps\)"
)
_COLOUR = re.compile(rf"({_CODE}) must be the other colour to ({_CODE}) \(alternate colours\)")
_NOT_UP = re.compile(rf"({_CODE}|\S+) is not a face-up top card of your stock")
_NOT_HAND = re.compile(rf"({_CODE}) is not in your hand")
_ONE_PILE = re.compile(r"there is only one spit pile now: play on pile (\d)")
_EMPTY = re.compile(r"pile (\d) is empty")
_STOCK_EMPTY = re.compile(r"stock pile (\d) is empty")
_ALREADY_UP = re.compile(r"the top card of stock pile (\d) is already face up")
_NOT_SPACE = re.compile(r"stock pile (\d) is not an empty space")
_CHOOSER = re.compile(r"seat (\d) cleared the stock and chooses the pile")
_NOT_NOW = re.compile(
    r'cannot (.+?)(?: (before "Spit!": call it to start)'
    r"| now: (slap a centre pile for the new layout)| now: seat (\d) is choosing a pile| now)"
)
_NO_SPEED_STALEMATE = re.compile(
    rf"no stalemate: you can still play ({_CODE}) on pile (\d), so there is nothing to flip"
)
_NO_SPIT_STALEMATE = re.compile(
    r'not a stalemate: (.+) \("Spit!" is only called when nobody can move\)'
)
_MOVE_LEFT = re.compile(r"(you|the other player) can still (.+)")
_PROGRESS_TURN = re.compile(r"turn up stock pile (\d)")
_PROGRESS_PLAY = re.compile(rf"play ({_CODE}) on pile (\d)")
_PROGRESS_MOVE = re.compile(
    rf"move ({_CODE}) from stock pile (\d) into the empty stock pile (\d), uncovering a card"
)


def _name(code: str, tr: Translator) -> str:
    try:
        return card_name(Card.parse(code), tr)
    except ValueError:
        return code


def _progress(text: str, tr: Translator) -> str | None:
    m = _PROGRESS_TURN.fullmatch(text)
    if m:
        return tr._("turn up stock pile {number}", number=m.group(1))
    m = _PROGRESS_PLAY.fullmatch(text)
    if m:
        return tr._("play {card} on pile {number}", card=_name(m.group(1), tr), number=m.group(2))
    m = _PROGRESS_MOVE.fullmatch(text)
    if m:
        return tr._(
            "move {card} from stock pile {source} into the empty stock pile {target}, "
            "uncovering a card",
            card=_name(m.group(1), tr),
            source=m.group(2),
            target=m.group(3),
        )
    return None


def _move_left(text: str, tr: Translator) -> str | None:
    if text in _FIXED:
        return tr._(_FIXED[text])
    m = _MOVE_LEFT.fullmatch(text)
    move = _progress(m.group(2), tr) if m else None
    if m is None or move is None:
        return None
    if m.group(1) == "you":
        return tr._("you can still {move}", move=move)
    return tr._("the other player can still {move}", move=move)


def _translated(reason: str, tr: Translator) -> str | None:
    if reason in _FIXED:
        return tr._(_FIXED[reason])
    m = _STALE.fullmatch(reason)
    if m:
        return tr._(
            "too late: the pile changed (pile {number} now shows {card}, not {seen})",
            number=m.group(1),
            card=_name(m.group(2), tr),
            seen=_name(m.group(3), tr),
        )
    m = _NOT_NEXT.fullmatch(reason) or _CANNOT_GO.fullmatch(reason)
    if m:
        return tr._("{card} is not next to {top}", card=_name(m.group(1), tr),
                    top=_name(m.group(2), tr))
    m = _COLOUR.fullmatch(reason)
    if m:
        return tr._("{card} must be the other colour from {top}", card=_name(m.group(1), tr),
                    top=_name(m.group(2), tr))
    m = _NOT_UP.fullmatch(reason)
    if m:
        return tr._("{card} is not a face-up top card of your stock", card=_name(m.group(1), tr))
    m = _NOT_HAND.fullmatch(reason)
    if m:
        return tr._("{card} is not in your hand", card=_name(m.group(1), tr))
    numbered = (
        (_ONE_PILE, N_("there is only one spit pile now: play on pile {number}")),
        (_STOCK_EMPTY, N_("stock pile {number} is empty")),
        (_EMPTY, N_("pile {number} is empty")),
        (_ALREADY_UP, N_("the top card of stock pile {number} is already face up")),
        (_NOT_SPACE, N_("stock pile {number} is not an empty space")),
    )
    for pattern, message in numbered:
        m = pattern.fullmatch(reason)
        if m:
            return tr._(message, number=m.group(1))
    if _CHOOSER.fullmatch(reason):
        return tr._("the other player cleared the stock and chooses the pile")
    m = _NOT_NOW.fullmatch(reason)
    if m and m.group(1) in _WHAT:
        what = tr._(_WHAT[m.group(1)])
        if m.group(2):
            return tr._('you cannot {what} before "Spit!": call it to start', what=what)
        if m.group(3):
            return tr._("you cannot {what} now: slap a centre pile for the new layout", what=what)
        if m.group(4):
            return tr._("you cannot {what} now: a pile is being chosen", what=what)
        return tr._("you cannot {what} now", what=what)
    m = _NO_SPEED_STALEMATE.fullmatch(reason)
    if m:
        return tr._(
            "no stalemate: you can still play {card} on pile {number}, so there is nothing to flip",
            card=_name(m.group(1), tr),
            number=m.group(2),
        )
    m = _NO_SPIT_STALEMATE.fullmatch(reason)
    left = _move_left(m.group(1), tr) if m else None
    if left is not None:
        return tr._('not a stalemate: {move} ("Spit!" is only called when nobody can move)',
                    move=left)
    return None


def realtime_reason(reason: str, lang: str | Translator | None = None) -> str:
    """A Spit or Speed refusal in ``lang``, cards in words (English: the engine's own words;
    a reason not listed here stays in English)."""
    tr = tr_of(lang)
    if tr.lang == "en":
        return reason
    text = _translated(reason, tr)
    return text if text is not None else reason


def action_words(action: Any, lang: str | Translator | None = None) -> str:
    """One of a person's Spit or Speed actions in words (``play 9♦ on pile 1``)."""
    tr = tr_of(lang)
    kind = type(action).__name__
    pile = getattr(action, "pile", None)
    number = pile + 1 if isinstance(pile, int) else pile
    card = getattr(action, "card", None)
    pretty = card_name(card, tr) if card is not None else "?"
    if kind == "Play":
        return tr._("play {card} on pile {number}", card=pretty, number=number)
    if kind == "TurnUp":
        return tr._("turn up stock pile {number}", number=action.stock + 1)
    if kind == "Move":
        return tr._("move {card} to stock pile {number}", card=pretty,
                    number=action.to_stock + 1)
    if kind == "CallSpit":
        return tr._('call "Spit!"')
    if kind == "CallFlip":
        return tr._("call for the flip")
    if kind == "Slap":
        return tr._("slap pile {number}", number=number)
    if kind == "Choose":
        return tr._("choose pile {number}", number=number)
    return str(action)
