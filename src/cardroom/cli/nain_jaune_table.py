"""The terminal's Nain Jaune controller and what the person types.

The controller itself, :class:`Table`, lives in :mod:`cardroom.tables.terminal` (on the same
table state machine as the web tables); this module reads the person's commands for both
terminal UIs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from cardroom.cards import Card, CardError, Rank, parse_card
from cardroom.games.nain_jaune.engine import CLAIM, PASS, Action, Play
from cardroom.tables.terminal import InputError, Phase, Table

__all__ = ["HELP_LINES", "Command", "InputError", "Phase", "Table", "parse_input"]


@dataclass(frozen=True, slots=True)
class Command:
    """A non-game command typed or pressed by the person."""

    name: Literal["help", "quit", "next", "state", "hand"]


# -- reading what the person types -------------------------------------------------

HELP_LINES = (
    "Commands: a card (7D, 10♦, td, qs; or just the rank, 7, when you hold one card of it),",
    'pass (or p: say "without X"), claim (or c: "… who takes", with announce=manual),',
    "next (or n, or an empty line: the next round), state (or s), hand (or h), help (or ?),",
    "quit or exit (the game is saved). q is the queen, like k the king and j the jack.",
)

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
}


def parse_input(text: str, hand: Sequence[Card], need: int | None = None) -> Action | Command:
    """Read one line: a card, a rank, or a command word; raises :class:`InputError`.

    A bare rank stands for the card of that rank in ``hand``; when several could be played now
    (``need`` is the rank wanted, None for any), the person is asked which.
    """
    word = text.strip().lower()
    if word in _WORDS:
        return _WORDS[word]
    try:
        return Play(parse_card(word))
    except CardError as card_error:
        try:
            rank = Rank.parse(word)
        except CardError:
            raise InputError(
                f"cannot read {text.strip()!r}: {card_error}; type help for the commands"
            ) from None
    held = [c for c in hand if c.rank == rank]
    if not held:
        if word == "q":
            raise InputError("you hold no queen (q is the queen: type quit to stop)")
        raise InputError(f"you hold no {rank.label}")
    if len(held) == 1 or (need is not None and need != rank):
        return Play(held[0])
    options = " or ".join(c.code for c in held)
    raise InputError(f"you hold {len(held)} cards of rank {rank.symbol}: type {options}")
