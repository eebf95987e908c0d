"""Spit's words: the English msgids of its messages (ids ``spit.*, rec.spit.*``),
said in every language by :mod:`cardroom.i18n.messages`, which finds this
module through the registry's ``words`` piece.
It also holds the words of the phase a refusal depends on (:data:`WHAT`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardroom.cards import Card
from cardroom.i18n import N_, Translator

MESSAGES: dict[str, str | tuple[str, str, str]] = {
    # refusals of a Spit action
    "spit.same-colour": N_("{card.the} must be the other colour from {top.the}"),
    "spit.not-up": N_("{card.the} is not a face-up top card of your stock"),
    "spit.no-stock": N_("there is no such stock pile: use 1 to {count}"),
    "spit.stock-empty": N_("stock pile {number} is empty"),
    "spit.already-up": N_("the top card of stock pile {number} is already face up"),
    "spit.not-empty": N_("stock pile {number} is not an empty space"),
    "spit.one-pile": N_("there is only one spit pile now: play on pile {number}"),
    "spit.not-stalemate": N_(
        'not a stalemate: {move} ("Spit!" is only called when nobody can move)'
    ),
    "spit.you-can-still": N_("you can still {move}"),
    "spit.they-can-still": N_("the other player can still {move}"),
    "spit.nobody-stuck": N_("nobody is stuck yet"),
    "spit.move.turn-up": N_("turn up stock pile {number}"),
    "spit.move.play": N_("play {card.the} on pile {number}"),
    "spit.move.move": N_(
        "move {card.the} from stock pile {number} into the empty stock pile {target}, "
        "uncovering a card"
    ),
    "spit.already-called": N_('you have already called "Spit!"'),
    "spit.stale-slap": N_("too late: the other player slapped first and the piles are shared"),
    "spit.other-chooses": N_("the other player cleared the stock and chooses the pile"),
    "spit.not-before-spit": N_('you cannot {what} before "Spit!": call it to start'),
    "spit.not-now-slap": N_("you cannot {what} now: slap a centre pile for the new layout"),
    "spit.not-now-choosing": N_("you cannot {what} now: a pile is being chosen"),
    "spit.not-now": N_("you cannot {what} now"),
    "spit.not-due": N_('no stalemate: "Spit!" is not due'),
    # a Spit record (games/spit/record.py, the arbiter's replay, the engine's action_from_json)
    "rec.rt.unknown-game": N_("this record's game {value} is not Spit or Speed"),
    "rec.rt.not-object": N_("a Spit or Speed record is a JSON object with a {field} field"),
    "rec.spit.deal-twice": N_("{card.the} is twice in the deal: each card once"),
    "rec.spit.action-object": N_('a Spit action must be a JSON object with a "type", not {value}'),
    "rec.spit.action-type": N_("unknown Spit action type {value}: the types are {choices}"),
    "rec.spit.not-object": N_("a Spit record must be a JSON object"),
}
"""Message id -> its English text."""

FIXED: dict[str, str] = {
    "a Spit or Speed table is left by closing the page": N_(
        "a Spit or Speed table is left by closing the page"
    ),
    "this is a Spit or Speed table": N_("this is a Spit or Speed table"),
    "this is not a Spit or Speed table": N_("this is not a Spit or Speed table"),
    "a Spit or Speed table has no rounds": N_("a Spit or Speed table has no rounds"),
    "at a Spit or Speed table an action is an object": N_(
        "at a Spit or Speed table an action is an object"
    ),
}
"""The real-time tables' fixed refusals that name the games: each sentence is its own msgid."""

WHAT: dict[str, str] = {
    "play": N_("play"),
    "turn-up": N_("turn up a card"),
    "move": N_("move a card"),
    "call": N_('call "Spit!"'),
    "slap": N_("slap a pile"),
    "choose": N_("choose a pile"),
}
"""The ``what`` of a refusal that depends on the phase of the game."""


EARLIER_RULES: dict[int, str] = {
    1: N_(
        "Played under the earlier rules of Spit (version 1, before 23 November 2026): when "
        "neither player could move again right after a “Spit!” both had called, the countdown "
        "went on from before instead of starting again."
    ),
}
"""What was different under each earlier version of the rules (``rules.py``'s ``RULES_VERSION``
says when it changed); a record played under one of them is replayed under it."""


def event_text(
    kind: str,
    f: Mapping[str, Any],
    who: str,
    card: object,
    number: object,
    names: Sequence[str],
    show: Callable[[Card, Translator], object],
    tr: Translator,
) -> str | None:
    """One of Spit's engine events in words from its kind and fields (``who`` its seat's name,
    ``card`` its card as shown, ``number`` its centre pile counted from 1); None for a kind
    that is not Spit's own."""
    if kind == "Called":
        return tr._('{name} calls "Spit!"', name=who)
    if kind == "Spat":
        return tr._("{name} spits {card} onto pile {number}", name=who, card=card, number=number)
    if kind == "TurnedUp":
        return tr._(
            "{name} turns up {card} on stock pile {number}",
            name=who,
            card=card,
            number=int(f["stock"]) + 1,
        )
    if kind == "Moved":
        return tr._(
            "{name} moves {card} from stock pile {source} to the empty stock pile {target}",
            name=who,
            card=card,
            source=int(f["from_stock"]) + 1,
            target=int(f["to_stock"]) + 1,
        )
    if kind == "Stalemate":
        return tr._('stalemate: nobody can play, "Spit!" is due')
    if kind == "NewLayout":
        if f.get("seat") is None:
            return tr._("both players are out of spit cards: a new layout")
        return tr._("{name} has cleared the stock: a new layout", name=who)
    if kind == "Slapped":
        return tr._("{name} slaps pile {number} first", name=who, number=number)
    if kind == "Chose":
        return tr._("{name} chooses pile {number}", name=who, number=number)
    if kind == "Took":
        if f.get("pile") is None:
            return tr._("{name} takes nothing from the middle", name=who)
        return tr.ngettext(
            "{name} takes pile {number} ({n} card)",
            "{name} takes pile {number} ({n} cards)",
            int(f["cards"]),
            name=who,
            number=number,
        )
    if kind == "Dealt":
        layout = "-".join(str(n) for n in f["piles"] if n)
        return tr.ngettext(
            "{name} lays out {layout} with {n} spit card",
            "{name} lays out {layout} with {n} spit cards",
            int(f["spit"]),
            name=who,
            layout=layout,
        )
    if kind == "OnePile":
        return tr._("only one spit pile from now on: pile {number}", number=number)
    if kind == "Won":
        return tr._("{name} has no cards left and wins!", name=who)
    return None


def action_text(
    kind: str, action: Mapping[str, Any], card: object, number: object, tr: Translator
) -> str | None:
    """One of Spit's actions in record form, in words (``card`` as a noun phrase, ``number`` its
    centre pile from 1); None for an action type that is not Spit's own."""
    if kind == "turn-up":
        return tr._("turn up stock pile {number}", number=int(action.get("stock") or 0) + 1)
    if kind == "move":
        return tr._(
            "move {card.the} to stock pile {number}",
            card=card,
            number=int(action.get("to_stock") or 0) + 1,
        )
    if kind == "spit":
        return tr._('call "Spit!"')
    if kind == "slap":
        return tr._("slap pile {number}", number=number)
    if kind == "choose":
        return tr._("choose pile {number}", number=number)
    return None


PUBLIC_WHAT: dict[str, str] = {
    "move": N_("a move refused"),
    "turnup": N_("a turn-up refused"),
    "callspit": N_('a "Spit!" refused'),
    "slap": N_("a slap refused"),
    "choose": N_("a choice refused"),
}
"""A refused action as everyone may know it, by its class name in lower case (a play is said
by every game alike)."""


def action_json(action: Any) -> dict[str, Any] | None:
    """A Spit action in record form (None: not one of Spit's)."""
    from cardroom.games.spit.engine import action_to_json

    try:
        return dict(action_to_json(action))
    except TypeError:
        return None


PLAY_KEYS = N_(
    "t turns up the picked pile's face-down card (picking a face-down pile does it too), "
    "m moves the picked card into an empty space, z / x slap pile 1 / 2 when a "
    "new layout is due (or choose it, in the chooser variant); "
)
"""The keys of ``cardroom play spit --help`` beyond those every real-time game shares."""
PLAY_CALL_WHEN = N_('"Spit!" at the start and at a stalemate')
"""When the call is made, as ``cardroom play spit --help`` says it (``space calls …``)."""

ANALYSIS_TITLE = N_("Spit: reaction times and missed plays")
"""The title of ``cardroom analyse``'s table for a Spit game."""
ANALYSIS_SLAPS = True
"""A Spit game's analysis counts the slaps won and lost (a new layout is raced for)."""


HELP_EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    # ``cardroom GROUP --help``'s examples of this game: (command line, what it does or "")
    "cardroom": (
        ("cardroom play spit --bot medium", N_("real-time Spit against a bot")),
        ("cardroom simulate spit --games 1000 --bots easy,expert", ""),
    ),
    "play": (("cardroom play spit --bot hard", N_("Spit in real time (keys in its --help)")),),
    "simulate": (("cardroom simulate spit --games 1000 --bots easy,expert --seed 1", ""),),
    "analyse": (("cardroom analyse spit.json", N_("reaction times in a Spit game")),),
}
"""The command line's help examples for this game, by command group (``cardroom`` itself,
``play``, ``simulate`` …), shown in the registry's order among the other games'."""
