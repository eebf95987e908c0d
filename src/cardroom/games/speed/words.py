"""Speed's words: the English msgids of its messages (ids ``speed.*, rec.speed.*``),
said in every language by :mod:`cardroom.i18n.messages`, which finds this
module through the registry's ``words`` piece.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardroom.cards import Card
from cardroom.i18n import N_, Translator
from cardroom.i18n.messages import card_of

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


EARLIER_RULES: dict[int, str] = {
    1: N_(
        "Played under the earliest rules of Speed (version 1, before 23 November 2026): as "
        "under version 2, the flip came as soon as neither player could play and its countdown "
        "ran from that moment, a game nobody could finish ended at once, and the winner scored "
        "the cards left in the loser's hand and draw pile; besides, when neither could play "
        "again right after a flip both had called, the countdown went on from before instead "
        "of starting again."
    ),
    2: N_(
        "Played under the earlier rules of Speed (version 2, before 23 November 2026): the flip "
        "came as soon as neither player could play and its countdown ran from that moment, a "
        "game nobody could finish ended at once, and the winner scored the cards left in the "
        "loser's hand and draw pile."
    ),
    3: N_(
        "Played under the earlier rules of Speed (version 3, before 28 November 2026): a game "
        "won when the loser's draw pile was empty scored no points (the cards in his hand "
        "did not count)."
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
    """One of Speed's engine events in words from its kind and fields (``who`` its seat's name,
    ``show`` how a card is shown); None for a kind that is not Speed's own."""
    if kind == "Called":
        return tr._("{name} calls for the flip", name=who)
    if kind == "Flipped":
        shown = tr.join(str(show(c, tr)) for c in (card_of(x) for x in f["cards"]) if c is not None)
        if f.get("start"):
            if f.get("timeout"):
                return tr._("the middle cards are turned (countdown): {cards}", cards=shown)
            return tr._("the middle cards are turned: {cards}", cards=shown)
        if f.get("timeout"):
            return tr._("stalemate: the side piles flip (countdown): {cards}", cards=shown)
        return tr._("stalemate: the side piles flip: {cards}", cards=shown)
    if kind == "Rebuilt":
        sizes = f["sizes"]
        return tr._(
            "the side piles are used up: the centre piles are shuffled into new side piles "
            "of {first} and {second}",
            first=sizes[0],
            second=sizes[1],
        )
    if kind == "Drew":
        return tr.ngettext(
            "{name} draws {n} card", "{name} draws {n} cards", int(f["count"]), name=who
        )
    if kind == "GameWon":
        return tr.ngettext(
            "{name} has played every card and wins ({n} point)",
            "{name} has played every card and wins ({n} points)",
            int(f["points"]),
            name=who,
        )
    if kind == "Blocked":
        left = f["cards_left"]
        winner = f.get("winner")
        if winner is None:
            return tr._(
                "the game is blocked: nobody can ever play again; cards left: {first} to "
                "{second}, a draw",
                first=left[0],
                second=left[1],
            )
        return tr.ngettext(
            "the game is blocked: nobody can ever play again; cards left: {first} to {second}: "
            "{name} wins ({n} point)",
            "the game is blocked: nobody can ever play again; cards left: {first} to {second}: "
            "{name} wins ({n} points)",
            int(f["points"]),
            first=left[0],
            second=left[1],
            name=names[winner] if 0 <= winner < len(names) else "",
        )
    return None


def action_text(
    kind: str, action: Mapping[str, Any], card: object, number: object, tr: Translator
) -> str | None:
    """One of Speed's actions in record form, in words; None for an action type that is not
    Speed's own."""
    if kind == "call":
        return tr._("call for the flip")
    return None


PUBLIC_WHAT: dict[str, str] = {"callflip": N_("a call refused")}
"""A refused action as everyone may know it, by its class name in lower case (a play is said
by every game alike)."""


def action_json(action: Any) -> dict[str, Any] | None:
    """A Speed action in record form (None: not one of Speed's)."""
    from cardroom.games.speed.engine import action_to_json

    try:
        return dict(action_to_json(action))
    except TypeError:
        return None


PLAY_KEYS = N_("n deals the next game of a match (--option target=N); ")
"""The keys of ``cardroom play speed --help`` beyond those every real-time game shares."""
PLAY_CALL_WHEN = N_("for the flip at the start and when you cannot play")
"""When the call is made, as ``cardroom play speed --help`` says it (``space calls …``)."""

ANALYSIS_TITLE = N_("Speed: reaction times and missed plays")
"""The title of ``cardroom analyse``'s table for a Speed game."""


HELP_EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    # ``cardroom GROUP --help``'s examples of this game: (command line, what it does or "")
    "cardroom": (("cardroom play speed --bot expert", N_("real-time Speed against a bot")),),
    "play": (("cardroom play speed --option side_piles=5", N_("Speed with side piles of five")),),
    "simulate": (("cardroom simulate speed --games 1000 --bots hard,hard --json", ""),),
}
"""The command line's help examples for this game, by command group (``cardroom`` itself,
``play``, ``simulate`` …), shown in the registry's order among the other games'."""
