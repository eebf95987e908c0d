"""Analysis of finished games: what they share, the reaction times of the real-time games, and
the web's queue; a game's own analysis is its registry piece ``analysis``.

Below the front ends (``cli``, ``web``), above ``games``, ``bots`` and ``kernels``: it turns a
record into plain data; the words are chosen by whoever shows it.
"""

from typing import Any

from cardroom.games.registry import TURN_BASED, games
from cardroom.i18n.words import N_


class AnalysisError(ValueError):
    """A record cannot be analysed; ``code`` says why (a key of :data:`REFUSALS`, or
    ``bad-worlds``). Every game's analysis error is one of these."""

    code = "bad-record"


REFUSALS = {
    "unfinished": N_("Only a finished game can be analysed."),
    "too-long": N_("This game is too long to be analysed here."),
    "bad-record": N_("This game's record could not be read, so it cannot be analysed."),
}
"""Why an analysis was refused, by analysis error's ``code``
(English msgids: the front ends say them in the person's language)."""


def turn_based_analysis() -> Any:
    """The analysis module of the turn-based game that has one (its ``analyse(data, worlds=,
    hindsight=)`` and ``DEFAULT_WORLDS``), imported now."""
    for entry in games(TURN_BASED):
        if entry.analysis is not None:
            return entry.load("analysis")
    raise LookupError("no turn-based game has an analysis")
