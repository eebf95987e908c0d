"""Spit's words: the English msgids of its messages (ids ``spit.*, rec.spit.*``),
said in every language by :mod:`cardroom.i18n.messages`, which finds this
module through the registry's ``words`` piece.
It also holds the words of the real-time tables' refusals that name the real-time games
(``table.is-realtime`` …) and of the phase a refusal depends on (:data:`WHAT`).
"""

from __future__ import annotations

from cardroom.i18n import N_

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
    "table.is-realtime": N_("this is a Spit or Speed table"),
    "table.not-realtime": N_("this is not a Spit or Speed table"),
    "table.realtime-action": N_("at a Spit or Speed table an action is an object"),
    "table.no-rounds": N_("a Spit or Speed table has no rounds"),
    "table.left-by-closing": N_("a Spit or Speed table is left by closing the page"),
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
