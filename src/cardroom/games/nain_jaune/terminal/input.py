"""The terminal's Nain Jaune controller and what the person types.

The controller itself, :class:`Table`, lives in :mod:`cardroom.games.nain_jaune.terminal.game` (on
the same table state machine as the web tables); this module reads the person's commands for
both terminal UIs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from cardroom.cards import Card, CardError, Rank, parse_card
from cardroom.games.messages import message_of
from cardroom.games.nain_jaune.engine import CLAIM, PASS, Action, Play
from cardroom.games.nain_jaune.terminal.game import InputError, Phase, Table
from cardroom.i18n import Translator
from cardroom.i18n.grammar import rank_phrase
from cardroom.i18n.messages import words
from cardroom.i18n.words import tr_of

__all__ = ["HELP_LINES", "Command", "InputError", "Phase", "Table", "help_lines", "parse_input"]


@dataclass(frozen=True, slots=True)
class Command:
    """A non-game command typed or pressed by the person."""

    name: Literal["help", "quit", "next", "state", "hand"]


# -- reading what the person types -------------------------------------------------

def help_lines(lang: str | Translator | None = None) -> list[str]:
    """The commands, in ``lang``."""
    tr = tr_of(lang)
    return [
        tr._("Commands: a card (7D, 10♦, td, qs; or just the rank, 7, when you hold one card "
             "of it),"),
        tr._('pass (or p: say "without X"), claim (or c: "… who takes", with announce=manual),'),
        tr._("next (or n, or an empty line: the next round), state (or s), hand (or h), help "
             "(or ?),"),
        tr._("quit or exit (the game is saved). q is the queen, like k the king and j the jack."),
    ]


HELP_LINES = tuple(help_lines("en"))

_WORDS: dict[str, Action | Command] = {
    "pass": PASS,
    "p": PASS,
    "without": PASS,
    "claim": CLAIM,
    "c": CLAIM,
    "take": CLAIM,
    "help": Command("help"),
    "?": Command("help"),
    "h": Command("hand"),
    "hand": Command("hand"),
    "s": Command("state"),
    "state": Command("state"),
    "board": Command("state"),
    "quit": Command("quit"),
    "exit": Command("quit"),
    "n": Command("next"),
    "next": Command("next"),
    "": Command("next"),
    # French and Welsh words for the same commands
    "sans": PASS,
    "passe": PASS,
    "heb": PASS,
    "prend": CLAIM,
    "cymryd": CLAIM,
    "aide": Command("help"),
    "cymorth": Command("help"),
    "main": Command("hand"),
    "llaw": Command("hand"),
    "plateau": Command("state"),
    "bwrdd": Command("state"),
    "quitter": Command("quit"),
    "gadael": Command("quit"),
    "suivant": Command("next"),
    "nesaf": Command("next"),
}


def parse_input(
    text: str, hand: Sequence[Card], need: int | None = None,
    lang: str | Translator | None = None,
) -> Action | Command:
    """Read one line: a card, a rank, or a command word; raises :class:`InputError`.

    A bare rank stands for the card of that rank in ``hand``; when several could be played now
    (``need`` is the rank wanted, None for any), the person is asked which.
    """
    tr = tr_of(lang)
    word = text.strip().lower()
    if word in _WORDS:
        return _WORDS[word]
    try:
        return Play(parse_card(text.strip()))
    except CardError as exc:
        try:
            rank = Rank.parse(word)
        except CardError:
            if exc.near:
                raise InputError(words(message_of(exc), tr)) from None
            raise InputError(tr._(
                "cannot read {text}: not a card nor a command (cards: 7D, 10H, QS…); "
                "type help for the commands",
                text=repr(text.strip()),
            )) from None
    held = [c for c in hand if c.rank == rank]
    if not held:
        if word == "q":
            raise InputError(tr._("you hold no queen (q is the queen: type quit to stop)"))
        raise InputError(tr._("you hold no {rank}", rank=rank_phrase(rank, tr.lang)))
    if len(held) == 1 or (need is not None and need != rank):
        return Play(held[0])
    options = tr._("{first} or {last}", first=", ".join(c.code for c in held[:-1]),
                   last=held[-1].code)
    raise InputError(tr.ngettext(
        "you hold {n} card of rank {rank}: type {options}",
        "you hold {n} cards of rank {rank}: type {options}",
        len(held), rank=rank.symbol, options=options,
    ))
