"""The compiled core of the ``expert`` bot: sample worlds, weigh them, roll candidates out.

One call of :func:`search_worlds` does, for each of ``n`` worlds and with no Python in between:

1. deal the unseen cards to the other hands and the talon, respecting every hand size, the
   talon size and every known "without X" (rejection sampling of a shuffled deal, exact and
   uniform; when that keeps failing under many constraints, a random walk of card swaps that
   keep the deal consistent, started from the last consistent deal);
2. weigh the world by ``mismatch`` to the power of the opponents' free leads that the compiled
   heuristic, holding that world's cards at the time, would not have made (the lead model);
3. for every candidate action, copy the position, give it the world's hands, play the
   candidate and play the round out (:func:`cardroom.sim.fast._play_out`, the differentially
   tested fast path) with the rollout policy of every seat, and add the weight times the
   searcher's final chips to that candidate's total.

Everything is arrays prepared once per decision by :mod:`cardroom.bots.expert`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardroom.sim.fast import (
    PAUSE,
    R_BOARD_MASK,
    R_MAY_STOP,
    S_AWAIT,
    S_BOARD,
    S_CHIPS,
    S_HANDS,
    S_LACKS,
    S_N,
    S_NEED,
    S_PENDING,
    S_SIZE,
    S_TO_ACT,
    S_WINNER,
    _ctz,
    _heuristic_lead,
    _jit,
    _play_out,
    _preferred,
    _randbelow,
)
from cardroom.sim.streams import CLAIM_CODE, PASS_CODE

# the sampler's state: rng counter, how many rejection rounds failed in a row
K_RNG, K_FAILS = 0, 1
REJECTION_TRIES = 30
GIVE_UP_AFTER = 3
"""After this many worlds whose rejection sampling failed, only the random walk is used."""
SWAPS_PER_CARD = 4


@_jit
def _sample(cards: Any, forbid: Any, assign: Any, slots: Any, state: Any) -> None:
    """A consistent deal of ``cards`` into ``assign`` (holder index per card)."""
    k = cards.shape[0]
    rng = np.uint64(state[K_RNG])
    if state[K_FAILS] < GIVE_UP_AFTER:
        for _ in range(REJECTION_TRIES):
            for i in range(k - 1, 0, -1):
                rng, j = _randbelow(rng, i + 1)
                t = slots[i]
                slots[i] = slots[j]
                slots[j] = t
            ok = True
            for i in range(k):
                if (forbid[slots[i]] >> ((cards[i] >> 2) + 1)) & 1:
                    ok = False
                    break
            if ok:
                assign[:] = slots
                state[K_RNG] = np.int64(rng)
                state[K_FAILS] = 0
                return
        state[K_FAILS] += 1
    if k > 1:
        for _ in range(SWAPS_PER_CARD * k):
            rng, i = _randbelow(rng, k)
            rng, j = _randbelow(rng, k)
            hi = assign[i]
            hj = assign[j]
            if (
                hi != hj
                and not (forbid[hj] >> ((cards[i] >> 2) + 1)) & 1
                and not (forbid[hi] >> ((cards[j] >> 2) + 1)) & 1
            ):
                assign[i] = hj
                assign[j] = hi
    state[K_RNG] = np.int64(rng)


@_jit
def _distinct(s: Any, r: Any, out: Any) -> int:
    """The distinct choices of the seat to act in ``s`` (as ``bots.search.candidates``: two
    plays of the same rank that are not board cards are one choice); returns how many."""
    if s[S_AWAIT] != 0:
        out[0] = CLAIM_CODE
        out[1] = PASS_CODE
        return 2
    seat = s[S_TO_ACT]
    hand = s[S_HANDS + seat]
    need = s[S_NEED]
    bits = hand if need == 0 else hand & (np.int64(15) << (4 * need - 4))
    m = 0
    ranks = 0
    while bits != 0:
        c = _ctz(bits)
        bits &= bits - 1
        if (r[R_BOARD_MASK] >> c) & 1:
            out[m] = c
            m += 1
        elif not (ranks >> (c >> 2)) & 1:
            ranks |= np.int64(1) << (c >> 2)
            out[m] = c
            m += 1
    plays = m
    if s[S_PENDING] >= 0:
        out[m] = CLAIM_CODE
        m += 1
    if need != 0 and (plays == 0 or r[R_MAY_STOP] != 0):
        out[m] = PASS_CODE
        m += 1
    return m


@_jit
def _nested_rollout(s: Any, r: Any, seat: int, pol: Any, policy: int, rng: Any) -> None:
    """Play ``s`` out; at each real choice of ``seat`` (``pol[seat]`` must pause there), try
    every distinct choice by a rollout with ``policy`` for everyone in this world and play
    the best one for ``seat``."""
    n = s[S_N]
    seats = np.arange(n)
    trace = np.empty(0, np.int64)
    tpos = np.zeros(2, np.int64)
    s2 = np.empty(S_SIZE, np.int64)
    pol2 = np.empty(n, np.int64)
    sub = np.empty(64, np.int64)
    while True:
        _play_out(s, r, pol, rng, seats, trace, tpos)
        if s[S_WINNER] >= 0:
            return
        m = _distinct(s, r, sub)
        best = sub[0]
        best_value = np.int64(-1) << 40
        for i in range(m):
            s2[:] = s
            for p in range(n):
                pol2[p] = policy
            pol2[seat] = ((policy + 1) << 6) | sub[i]
            _play_out(s2, r, pol2, rng, seats, trace, tpos)
            if s2[S_CHIPS + seat] > best_value:
                best_value = s2[S_CHIPS + seat]
                best = sub[i]
        pol[seat] = ((PAUSE + 1) << 6) | best


@_jit
def search_worlds(
    base: Any,
    r: Any,
    seat: int,
    cards: Any,
    holders: Any,
    forbid: Any,
    assign: Any,
    sample: bool,
    leads: Any,
    lead_lacks: Any,
    lead_boards: Any,
    mismatch: float,
    cands: Any,
    policies: Any,
    n_worlds: int,
    state: Any,
    totals: Any,
) -> float:
    """Play ``n_worlds`` worlds (see the module docstring); returns the sum of their weights.

    ``cards``: the unseen cards (fast indices); ``holders[h]``: the seat of holder ``h`` (the
    last holder, -1, is the talon); ``forbid[h]``: bit ``rank`` set if holder ``h`` holds no
    card of that rank; ``assign``: a consistent holder per card (updated; used as is when
    ``sample`` is false); ``leads[l]``: seat, card, played mask, that seat's cards played
    from then on, and 0 for a free lead (1 for a follow) for each opponent choice to explain,
    ``lead_lacks[l]`` and ``lead_boards[l]`` what was known then;
    ``cands``: the candidates' action codes; ``policies``: the rollout policy per seat
    (``PAUSE`` for the searcher: its later choices are made by one rollout per choice in
    the same world, with the next seat's policy for everyone).
    """
    n = base[S_N]
    k = cards.shape[0]
    slots = assign.copy()
    s = np.empty(S_SIZE, np.int64)
    t = np.zeros(S_SIZE, np.int64)
    pol = np.empty(n, np.int64)
    rng = np.empty(n, np.uint64)
    seats = np.arange(n)
    trace = np.empty(0, np.int64)
    tpos = np.zeros(2, np.int64)
    hands = np.empty(n, np.int64)
    weights = 0.0
    for _ in range(n_worlds):
        if sample:
            _sample(cards, forbid, assign, slots, state)
        for p in range(n):
            hands[p] = base[S_HANDS + p]
        for p in range(holders.shape[0] - 1):
            hands[holders[p]] = 0
        for i in range(k):
            h = holders[assign[i]]
            if h >= 0:
                hands[h] |= np.int64(1) << cards[i]
        weight = 1.0
        t[S_N] = n
        for p in range(n):
            t[S_HANDS + p] = 1
        for li in range(leads.shape[0]):
            who = leads[li, 0]
            card = leads[li, 1]
            then = hands[who] | leads[li, 3]
            if leads[li, 4] == 1:
                # a follow: the heuristic plays its board card of the rank, else its lowest
                if _preferred(then & (np.int64(15) << (card & ~3)), r) != card:
                    weight *= mismatch
                continue
            for p in range(n):
                t[S_LACKS + p] = lead_lacks[li, p]
            for b in range(5):
                t[S_BOARD + b] = lead_boards[li, b]
            choice = _heuristic_lead(t, r, who, then, leads[li, 2])
            board_mask = r[R_BOARD_MASK]
            if (choice >> 2) != (card >> 2) or ((board_mask >> choice) & 1) != (
                (board_mask >> card) & 1
            ):
                weight *= mismatch
        weights += weight
        for ci in range(cands.shape[0]):
            s[:] = base
            for p in range(n):
                s[S_HANDS + p] = hands[p]
                pol[p] = policies[p]
                rng[p] = np.uint64(state[K_RNG]) + np.uint64(p + 1) * np.uint64(0x9E3779B97F4A7C15)
            pol[seat] = ((policies[seat] + 1) << 6) | cands[ci]
            if policies[seat] == PAUSE:
                _nested_rollout(s, r, seat, pol, policies[(seat + 1) % n], rng)
            else:
                _play_out(s, r, pol, rng, seats, trace, tpos)
            totals[ci] += weight * s[S_CHIPS + seat]
        state[K_RNG] = np.int64(np.uint64(state[K_RNG]) + np.uint64(0x9E3779B97F4A7C15))
    return weights
