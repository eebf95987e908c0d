"""Speed's words: the English msgids of its messages (ids ``speed.*, rec.speed.*``),
said in every language by :mod:`cardroom.i18n.messages`, which finds this
module through the registry's ``words`` piece.
"""

from __future__ import annotations

from cardroom.i18n import N_

MESSAGES: dict[str, str | tuple[str, str, str]] = {
    # refusals of a Speed action
    "speed.not-turned": N_("the middle cards are not turned yet: call for the flip first"),
    "speed.not-in-hand": N_("{card.the} is not in your hand"),
    "speed.not-stuck": N_("no stalemate: a card can still be played, so there is nothing to flip"),
    "speed.already-called": N_(
        "you have already called: waiting for the other player or the countdown"
    ),
    "speed.can-play": N_(
        "no stalemate: you can still play {card.the} on pile {number}, so there is nothing to flip"
    ),
    # a Speed record and a match (games/speed/record.py, the engine's action_from_json, replay)
    "rec.list-not-speed": N_("only Speed records come as a list (a match to a target score)"),
    "rec.speed.action-object": N_(
        'a Speed action must be a JSON object with a "type", not {value}'
    ),
    "rec.speed.call-fields": N_("a call action has no other fields: {value}"),
    "rec.speed.pile": N_("{field} must be 0 or 1, not {value}"),
    "rec.speed.play-card": N_("play action: a card cannot be read"),
    "rec.speed.card": N_("play action: {detail}"),
    "rec.speed.action-type": N_(
        'unknown Speed action type {value}: the types are "play" and "call"'
    ),
    "rec.speed.match-object": N_(
        "{field} must be an object with the match's seed, game and scores"
    ),
    "rec.speed.scores": N_("{field} must be a list of two numbers"),
    "rec.speed.seed": N_(
        "seed {seed} is not the seed of game {game} of match {match} ({expected})"
    ),
    "rec.speed.no-match": N_("a game of a match needs its {field} object"),
    "rec.speed.match-seed": N_("its match seed differs from game 1's"),
    "rec.speed.game-number": N_("it says it is game {value}"),
    "rec.speed.players": N_("the players differ from game 1's"),
    "rec.speed.rules": N_("the rules differ from game 1's"),
    "rec.speed.start-scores": N_(
        "it starts from scores {value}, but the games before leave {scores}"
    ),
    "rec.speed.already-won": N_("the match was already won in game {before}"),
    "rec.speed.unfinished": N_("it never ended, yet another game follows"),
    "rec.speed.single-game": N_("the target is 0 (a single game), yet another game follows"),
}
"""Message id -> its English text."""

FIXED: dict[str, str] = {
    "a Speed match to a target is not offered here": N_(
        "a Speed match to a target is not offered here"
    ),
}
"""The fixed refusals that name Speed: each sentence is its own msgid."""
