"""How strong each Nain Jaune level is, on one scale, and how accurately it plays.

Plain data that the lobby and the analysis read (no bot is loaded to read it). The figures were
measured by ``benchmarks/level_strength.py`` (its docstring gives the exact command and the
machine's load): the ``rating`` is the openskill rating (μ − 3σ, the scale of
``cardroom tournament``) of the level in one tournament of all four levels, ``chips`` its mean
chips won per round there, and ``accuracy`` the mean accuracy the game analysis
(:mod:`cardroom.games.nain_jaune.analysis`) gives the level over bot games. That ``rating`` is the
benchmark's own scale: the rating a person reads beside a level, on the scale of people's
ratings, is :func:`cardroom.web.ratings.bot_rating`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Strength:
    """One level's measured strength."""

    rating: float
    """Openskill rating (μ − 3σ) in a tournament of all the levels."""
    chips: float
    """Mean chips won per round in that tournament."""
    accuracy: float
    """Mean accuracy (percent) of the level's choices in the game analysis."""


LEVEL_STRENGTH: dict[str, Strength] = {
    "easy": Strength(rating=10.79, chips=-8.69, accuracy=37.8),
    "medium": Strength(rating=12.23, chips=-7.39, accuracy=56.1),
    "hard": Strength(rating=19.32, chips=-0.07, accuracy=72.7),
    "expert": Strength(rating=30.66, chips=8.69, accuracy=99.9),
}
"""Level -> its measured strength: ``benchmarks/level_strength.py`` with its defaults (200 deals,
seed 22; the expert level as ``expert:ms=30`` in the tournament, load average 9 on 2 cores)."""


def level_like(accuracy: float) -> str:
    """The level whose accuracy is closest to ``accuracy`` (percent)."""
    return min(LEVEL_STRENGTH, key=lambda level: abs(LEVEL_STRENGTH[level].accuracy - accuracy))


def rating_of(accuracy: float) -> float:
    """The rating (the scale of :data:`LEVEL_STRENGTH`) an accuracy corresponds to: linear
    between the levels' measured (accuracy, rating) points, held at the ends."""
    points = sorted((s.accuracy, s.rating) for s in LEVEL_STRENGTH.values())
    if accuracy <= points[0][0]:
        return points[0][1]
    for (a0, r0), (a1, r1) in itertools.pairwise(points):
        if accuracy <= a1:
            return r0 + (r1 - r0) * (accuracy - a0) / (a1 - a0)
    return points[-1][1]
