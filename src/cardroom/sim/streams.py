"""The random streams of a simulated game, shared by the fast path and the readable engine.

A simulation draws every random number from SplitMix64, a small counter-based generator that
numba can reproduce bit for bit (Python's Mersenne Twister it cannot). Its keys are derived, not
chained: game ``g`` of chunk ``c`` of a simulation seeded ``s`` has the key
``derive(derive(derive_seed(s), c), g)``; in that game the deal of round ``k`` draws from
``derive(game_key, DEAL_TAG + k)`` and game seat ``i``'s bot from ``derive(game_key, i)``.

:class:`SplitMixRandom` is a ``random.Random`` whose every draw comes from that generator, so the
readable engine's own deal (``rng.shuffle``) and the readable bots (``rng.randrange``) consume
exactly the numbers the fast path consumes. :func:`readable_game` plays one game of a
simulation through the readable engine and bots; the differential tests compare it with the
fast path, and it turns any simulated game into records that ``cardroom replay`` reads.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardroom.bots.base import Bot
from cardroom.games.nain_jaune.engine import Claim, Game, Pass, Play
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.view import view_of

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


def readable_game(
    rules: Rules,
    bots: Sequence[Bot],
    key: int,
    max_rounds: int = MAX_GAME_ROUNDS,
) -> tuple[Game, list[int]]:
    """Play one simulated game (key ``key``) through the readable engine and bots.

    Returns the game (its ``records`` replay with ``cardroom replay``) and the same trace as
    :func:`cardroom.sim.fast.trace_game` writes: for each action ``(seat * 16 + need) * 64 +
    code`` (round position, the rank needed before it or 0, the fast action code); after each
    round ``-1``, the dealer (game seat), the players in the round, the winner and next dealer
    (round positions), grand opéra (0/1), the five boxes, every game seat's chips, the mask of
    short payers (round positions); at the end ``-2``, the end reason code (see
    :data:`cardroom.sim.fast.REASONS`), the rounds played and the mask of winners.
    """
    nseats = len(bots)
    game = Game(rules, [f"seat {i}" for i in range(nseats)])
    rngs = [SplitMixRandom(derive(key, i)) for i in range(nseats)]
    trace: list[int] = []
    while game.result is None and game.rounds_played < max_rounds:
        dealer = game.dealer
        rnd = game.start_round(SplitMixRandom(derive(key, DEAL_TAG + game.rounds_played)))
        seats = game.round_seats
        while rnd.result is None:
            pos = rnd.to_act
            need = rnd.need or 0
            action = bots[seats[pos]].act(view_of(rnd, pos), rngs[seats[pos]])
            if isinstance(action, Play):
                code = fast_index(action.card.index)
            elif isinstance(action, Claim):
                code = CLAIM_CODE
            else:
                assert isinstance(action, Pass)
                code = PASS_CODE
            trace.append((pos * 16 + need) * 64 + code)
            rnd.apply(action)
        res = game.finish_round()
        trace += [-1, dealer, rnd.n, res.winner, res.next_dealer, int(res.grand_opera)]
        trace += list(res.board) + list(game.chips)
        trace.append(sum(1 << s for s in res.short))
    result = game.result
    if result is None:
        trace += [-2, 0, game.rounds_played, 0]
    else:
        winners = sum(1 << s for s in result.winners)
        trace += [-2, reason_code(result.reason), result.rounds, winners]
    return game, trace


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
