"""The random streams of a simulated game, shared by the fast path and the readable engine.

A simulation draws every random number from SplitMix64, a small counter-based generator that
numba can reproduce bit for bit (Python's Mersenne Twister it cannot). Its keys are derived, not
chained: game ``g`` of chunk ``c`` of a simulation seeded ``s`` has the key
``derive(derive(derive_seed(s), c), g)``; in that game the deal of round ``k`` draws from
``derive(game_key, DEAL_TAG + k)`` and game seat ``i``'s bot from ``derive(game_key, i)``.

:class:`SplitMixRandom` is a ``random.Random`` whose every draw comes from that generator, so the
readable engine's own deal (``rng.shuffle``) and the readable bots (``rng.randrange``) consume
exactly the numbers the fast path consumes; a game's readable simulation plays one game of a
simulation through the readable engine and bots on these streams.
"""

from __future__ import annotations

import random
from typing import Any

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
DEAL_TAG = 16
"""Round ``k``'s deal uses tag ``DEAL_TAG + k``; seats use tags 0..7."""
MAX_GAME_ROUNDS = 1000
"""A simulated game that has not ended after this many rounds stops (reason ``round limit``)."""

# Action codes of the fast path: 0..51 play the card of that fast index, then claim and pass.
CLAIM_CODE = 52
PASS_CODE = 53


def mix64(z: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit words that scatters every bit."""
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return z ^ (z >> 31)


def derive(key: int, tag: int) -> int:
    """The key of the sub-stream ``tag`` of stream ``key`` (both 64-bit words)."""
    return mix64((key & MASK) ^ mix64(((tag + 1) * GOLDEN) & MASK))


def derive_seed(seed: int) -> int:
    """The root key of a simulation seeded ``seed`` (any integer)."""
    return mix64((seed & MASK) ^ GOLDEN)


def game_key(seed: int, chunk: int, game: int) -> int:
    """The key of game ``game`` of chunk ``chunk`` of a simulation seeded ``seed``."""
    return derive(derive(derive_seed(seed), chunk), game)


class SplitMixRandom(random.Random):
    """A ``random.Random`` drawing from SplitMix64 (state = one 64-bit counter).

    ``getrandbits(k)`` is the top ``k`` bits of the next output, so ``randrange`` and
    ``shuffle`` (which use ``getrandbits`` through ``_randbelow``) are reproducible in numba.
    """

    _state: int

    def __init__(self, key: int = 0) -> None:
        self._state = key & MASK
        super().__init__(key)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Reset the counter to ``a`` (an integer key)."""
        self._state = (a if isinstance(a, int) else hash(a)) & MASK

    def _next(self) -> int:
        self._state = (self._state + GOLDEN) & MASK
        return mix64(self._state)

    def getrandbits(self, k: int) -> int:
        """``k`` random bits: the top bits of as many 64-bit outputs as needed."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        out, have = 0, 0
        while have < k:
            take = min(64, k - have)
            out = (out << take) | (self._next() >> (64 - take))
            have += take
        return out

    def random(self) -> float:
        """A float in [0, 1) from the top 53 bits of the next output."""
        return (self._next() >> 11) * (1.0 / (1 << 53))

    def getstate(self) -> Any:
        """The counter."""
        return self._state

    def setstate(self, state: Any) -> None:
        """Restore a counter from :meth:`getstate`."""
        self._state = int(state) & MASK


def fast_index(card_index: int) -> int:
    """The fast path's index of a card (rank-major: ``(rank - 1) * 4 + suit``)."""
    return (card_index % 13) * 4 + card_index // 13


def reason_code(reason: str) -> int:
    """The fast path's code for one of the readable engine's end reasons."""
    fixed = {
        "a player could not pay in full": 1,
        "a player cannot stake for the next round": 2,
        "only one player can still stake": 3,
        "nobody can stake": 4,
    }
    if reason in fixed:
        return fixed[reason]
    if reason.endswith(" rounds played"):
        return 5
    if reason.startswith("reached "):
        return 6
    raise ValueError(f"unknown end reason {reason!r}")
