"""The Spit and Speed engines' refusals (English, with card codes) in the person's language.

English keeps the engine's own words; French and Welsh get the reasons a person can meet at the
table, with cards shown as ``9♦``. A reason not listed here (a malformed action, which no key or
typed line can send) stays in English.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from cardroom.cards import Card
from cardroom.i18n import Translator
from cardroom.i18n.words import N_, tr_of

_CARD = r"(10|[2-9AJQKT])([CDHS])"
_NOT_NOW_WHAT = {
    "play": N_("play"),
    "turn up a card": N_("turn up a card"),
    "move a card": N_("move a card"),
    'call "Spit!"': N_('call "Spit!"'),
    "slap a pile": N_("slap a pile"),
    "choose a pile": N_("choose a pile"),
}
_FIXED = {
    "the game is over": N_("the game is over"),
    'you have already called "Spit!"': N_('you have already called "Spit!"'),
    "you have already called: waiting for the other player or the countdown": N_(
        "you have already called: waiting for the other player or the countdown"
    ),
    "the middle cards are not turned yet: call for the flip first": N_(
        "the middle cards are not turned yet: call for the flip first"
    ),
    "stale: the other player slapped first and the piles are shared": N_(
        "too late: the other player slapped first and the piles are shared"
    ),
}
_MOVES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"turn up stock pile (?P<number>\d+)"), N_("turn up stock pile {number}")),
    (re.compile(rf"play (?P<card>{_CARD}) on pile (?P<number>\d+)"),
     N_("play {card} on pile {number}")),
    (
        re.compile(
            rf"move (?P<card>{_CARD}) from stock pile (?P<number>\d+) into the empty "
            r"stock pile (?P<space>\d+), uncovering a card"
        ),
        N_("move {card} from stock pile {number} into the empty stock pile {space}, "
           "uncovering a card"),
    ),
]
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"stale: pile (?P<number>\d+) now shows (?P<card>{_CARD}), not (?P<seen>\S+)"),
     N_("too late: pile {number} now shows {card}, not {seen}")),
    (re.compile(rf"(?P<card>{_CARD}) is not one rank above or below (?P<top>{_CARD})"),
     N_("{card} is not one rank above or below {top}")),
    (
        re.compile(
            rf"(?P<card>{_CARD}) cannot go on (?P<top>{_CARD}): it must be one rank above or "
            r"below \(K-A-2 wraps\)"
        ),
        N_("{card} cannot go on {top}: it must be one rank above or below (K-A-2 wraps)"),
    ),
    (re.compile(rf"(?P<card>{_CARD}) must be the other colour to (?P<top>{_CARD}) "
                r"\(alternate colours\)"),
     N_("{card} must be the other colour to {top} (alternate colours)")),
    (re.compile(rf"(?P<card>{_CARD}|\S+) is not a face-up top card of your stock"),
     N_("{card} is not a face-up top card of your stock")),
    (re.compile(rf"(?P<card>{_CARD}) is not in your hand"), N_("{card} is not in your hand")),
    (re.compile(r"there is only one spit pile now: play on pile (?P<number>\d+)"),
     N_("there is only one spit pile now: play on pile {number}")),
    (re.compile(r"pile (?P<number>\d+) is empty"), N_("pile {number} is empty")),
    (re.compile(r"stock pile (?P<number>\d+) is empty"), N_("stock pile {number} is empty")),
    (re.compile(r"the top card of stock pile (?P<number>\d+) is already face up"),
     N_("the top card of stock pile {number} is already face up")),
    (re.compile(r"stock pile (?P<number>\d+) is not an empty space"),
     N_("stock pile {number} is not an empty space")),
    (re.compile(rf"no stalemate: you can still play (?P<card>{_CARD}) on pile (?P<number>\d+), "
                r"so there is nothing to flip"),
     N_("no stalemate: you can still play {card} on pile {number}, so there is nothing to flip")),
    (re.compile(r"seat (?P<seat>\d+) cleared the stock and chooses the pile"),
     N_("{name} cleared the stock and chooses the pile")),
]
_NOT_NOW: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r'cannot (?P<what>.+) before "Spit!": call it to start'),
     N_('cannot {what} before "Spit!": call it to start')),
    (re.compile(r"cannot (?P<what>.+) now: slap a centre pile for the new layout"),
     N_("cannot {what} now: slap a centre pile for the new layout")),
    (re.compile(r"cannot (?P<what>.+) now: seat (?P<seat>\d+) is choosing a pile"),
     N_("cannot {what} now: {name} is choosing a pile")),
    (re.compile(r"cannot (?P<what>.+) now"), N_("cannot {what} now")),
]
_NO_STALEMATE = re.compile(r'not a stalemate: (?P<left>.+) \("Spit!" is only called when nobody '
                           r"can move\)")


def _pretty(code: str) -> str:
    try:
        return Card.parse(code).pretty
    except ValueError:
        return code


def _fields(m: re.Match[str], names: Sequence[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in m.groupdict().items():
        if key in ("card", "top", "seen"):
            out[key] = _pretty(value)
        elif key == "seat":
            seat = int(value)
            out["name"] = names[seat] if names and seat < len(names) else f"{seat}"
        elif value is not None:
            out[key] = value
    return out


def _match(
    text: str, table: list[tuple[re.Pattern[str], str]], tr: Translator,
    names: Sequence[str] | None, extra: Callable[[dict[str, Any]], None] | None = None,
) -> str | None:
    for pattern, message in table:
        m = pattern.fullmatch(text)
        if m:
            fields = _fields(m, names)
            if extra is not None:
                extra(fields)
            return tr._(message, **fields)
    return None


def move_words(move: str, lang: str | Translator | None = None) -> str:
    """A move left (``turn up stock pile 2``, ``play 9D on pile 1``…) in ``lang``."""
    tr = tr_of(lang)
    return _match(move, _MOVES, tr, None) or move


def realtime_reason(
    reason: str, lang: str | Translator | None = None, names: Sequence[str] | None = None
) -> str:
    """A Spit or Speed refusal in ``lang`` (English: the engine's words, unchanged).

    ``names`` (by seat) names the seat a reason mentions ("seat 1 is choosing a pile").
    """
    tr = tr_of(lang)
    if tr.lang == "en":
        return reason
    if reason in _FIXED:
        return tr._(_FIXED[reason])
    m = _NO_STALEMATE.fullmatch(reason)
    if m:
        left = m.group("left")
        if left == "nobody is stuck yet":
            return tr._('not a stalemate: nobody is stuck yet ("Spit!" is only called when '
                        "nobody can move)")
        if left.startswith("you can still "):
            return tr._('not a stalemate: you can still {move} ("Spit!" is only called when '
                        "nobody can move)", move=move_words(left[len("you can still "):], tr))
        if left.startswith("the other player can still "):
            move = move_words(left[len("the other player can still "):], tr)
            return tr._('not a stalemate: the other player can still {move} ("Spit!" is only '
                        "called when nobody can move)", move=move)
    said = _match(reason, _PATTERNS, tr, names)
    if said is not None:
        return said

    def what(fields: dict[str, Any]) -> None:
        fields["what"] = tr._(_NOT_NOW_WHAT.get(fields["what"], fields["what"]))

    return _match(reason, _NOT_NOW, tr, names, what) or reason


def action_words(action: Any, lang: str | Translator | None = None) -> str:
    """One of a person's Spit or Speed actions in words (``play 9♦ on pile 1``)."""
    tr = tr_of(lang)
    kind = type(action).__name__
    pile = getattr(action, "pile", None)
    number = pile + 1 if isinstance(pile, int) else pile
    card = getattr(action, "card", None)
    pretty = card.pretty if card is not None else "?"
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
