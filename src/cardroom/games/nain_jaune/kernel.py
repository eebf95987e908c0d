"""The fast path: Nain Jaune rounds and games compiled with numba, for bulk simulation.

It plays exactly the rules of :mod:`cardroom.games.nain_jaune.engine` (every option) with the
``random``, ``greedy`` and ``heuristic`` policies of :mod:`cardroom.bots`, on a compact state:

* a card is its *fast index* ``(rank - 1) * 4 + suit`` (0..51), so a hand is a 52-bit mask whose
  set bits, low to high, are the hand in the readable engine's sorted order, and the cards of
  rank ``r`` are the four bits at ``4 * (r - 1)``;
* a round is one ``int64`` array (offsets ``S_*``), the rules another (offsets ``R_*``);
* randomness comes from SplitMix64 streams (:mod:`cardroom.kernels.streams`).

The differential tests (``tests/sim/test_differential.py``) play the same games through the
readable engine and bots and require identical traces. Python entry points:
:func:`encode_rules`, :func:`encode_round` / :func:`rollout` (finish a round from any state),
:func:`search_worlds` (the ``expert`` bot's compiled search, see its section below),
:func:`trace_game` and :func:`run_chunk` (bulk statistics).

One concern: Nain Jaune compiled for numba (its state layout, deal, policies, play-out,
rollouts and the expert's search). It stays one module because numba's on-disk cache
(``cache=True``) is invalidated only by a change to the file that defines the cached function:
a jitted function calling one in another file would keep its stale machine code when the callee
changed. The ``_inline`` helpers are compiled into their callers, and every function shares the
``S_*``/``R_*`` offsets of the one state layout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from llvmlite.binding import get_host_cpu_features  # type: ignore[import-untyped]
from numba.core import cgutils
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from cardroom.games.nain_jaune.engine import Round
from cardroom.games.nain_jaune.rules import HAND_SIZES, STAKES, Rules, card_value, choice_code
from cardroom.kernels.streams import (
    CLAIM_CODE,
    DEAL_TAG,
    GOLDEN,
    MAX_GAME_ROUNDS,
    MIX1,
    MIX2,
    PASS_CODE,
    fast_index,
)

F = TypeVar("F", bound=Callable[..., Any])
I64Array = npt.NDArray[np.int64]
U64Array = npt.NDArray[np.uint64]


def _jit(func: F) -> F:
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy")(func))


def _inline(func: F) -> F:
    """Compiled into its callers (no call overhead, no reference counting of the arrays)."""
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")(func))


POLICIES: dict[str, int] = {"random": 0, "greedy": 1, "heuristic": 2, "learned": 12}
"""Bot name -> the fast path's policy code (the bots it can play)."""
PAUSE = 3
GUESS = 4
"""``GUESS + k - 1`` (``k`` from 1 to ``MAX_GUESSES``): like ``PAUSE``, but each choice is
tried in ``k`` worlds re-dealt from the seat's own view (the other hands and the talon
shuffled together, hand sizes kept, passes ignored), one rollout each, and the best total
played: a model of a searcher that does not see the cards (issue 22's ``lookahead=guess``)."""
MAX_GUESSES = 8
"""Policy code for search: :func:`_play_out` stops at this seat's next real choice (more than
one legal action), saves the state and returns; ``(p + 1) << 6 | action`` plays ``action``
once, then policy ``p``."""

# --- the round state: one int64 array -------------------------------------------------------
S_N, S_DEALER, S_TO_ACT, S_NEED, S_LEADER, S_PASSES_IN_ROW = 0, 1, 2, 3, 4, 5
S_PENDING, S_AWAIT, S_PLAYED, S_FIRST, S_RUN_SEAT, S_RUN_LEN = 6, 7, 8, 9, 10, 11
S_NFORGOT, S_WINNER, S_OPERA, S_SHORT, S_HAND_SIZE, S_PLAYED_MASK, S_NPASSES, S_SWEPT = (
    12, 13, 14, 15, 16, 17, 18, 19,
)
S_HANDS, S_CHIPS, S_BOARD, S_FORGOT_SEAT, S_FORGOT_BOX, S_LACKS = 20, 28, 36, 41, 46, 51
S_SIZE = 64

# --- the rules: one int64 array -------------------------------------------------------------
R_WHEN, R_PAY, R_FORGOT, R_ANNOUNCE, R_OPERA, R_MAY_STOP = 0, 1, 2, 3, 4, 5
R_END_KIND, R_END_N, R_START = 6, 7, 8
R_BOX_OF, R_VALUE, R_BOARD_CARD, R_BOARD_MASK = 16, 68, 120, 125
R_VALUE_BITS = 128  # 4 masks: the cards whose value has bit k set
R_SIZE = 132
# The choice options' codes are their index in the rules' CHOICES (no second list of values).
FREE_RESTART = choice_code("when_blocked", "free-restart")
DOUBLE_BOX = choice_code("forgotten_announcement", "double-box")
ANNOUNCE_AUTO = choice_code("announce", "auto")
OPERA_ONE_TURN = choice_code("grand_opera", "one-turn")
OPERA_NO_ONE_ELSE = choice_code("grand_opera", "no-one-else-played")

END_KINDS = {"broke": 0, "last-standing": 1, "rounds": 2, "target": 3}
REASONS: dict[int, str] = {
    0: "unfinished",
    1: "a player could not pay in full",
    2: "a player cannot stake for the next round",
    3: "only one player can still stake",
    4: "nobody can stake",
    5: "rounds played",
    6: "reached the target",
    7: "round limit",
}
"""End reason codes; 7: a game still going after ``MAX_GAME_ROUNDS`` rounds is stopped."""
N_REASONS = 8

# --- statistics: one int64 array that chunks add up (ST_BOX_MAX: take the maximum) ----------
ST_ROUNDS, ST_CARDS, ST_PASSES, ST_OPERA, ST_OPERA_CHIPS, ST_SHORT_ROUNDS = 0, 1, 2, 3, 4, 5
ST_GAMES, ST_GAME_ROUNDS, ST_CUT, ST_CUT_ROUNDS, ST_ACTIONS = 6, 7, 8, 9, 10
ST_ROUND_WINS, ST_NET, ST_GAME_WINS, ST_SEAT_ROUNDS = 16, 24, 32, 40
ST_REASON, ST_BOX_SUM, ST_BOX_MAX = 48, 56, 61
ST_CARDS_HIST = 66  # 53 bins: cards played in a round
ST_GAME_LEN_HIST = 119  # MAX_GAME_ROUNDS + 1 bins: rounds in a finished game
ST_BOARD_HIST = ST_GAME_LEN_HIST + MAX_GAME_ROUNDS + 1  # board total after a round, bins of 10
BOARD_BINS = 100
ST_SIZE = ST_BOARD_HIST + BOARD_BINS

_GOLDEN = np.uint64(GOLDEN)
_GOLDEN2 = np.uint64((2 * GOLDEN) % (1 << 64))
_MIX1 = np.uint64(MIX1)
_MIX2 = np.uint64(MIX2)
_RANK_LOW_BITS = np.int64(sum(1 << (4 * k) for k in range(13)))
_FAST_OF_DECK = np.array([(d % 13) * 4 + d // 13 for d in range(52)], np.int64)


def _ctpop_typing(typingctx: Any, src: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return src(src), codegen


_ctpop = cast(Callable[[Any], Any], intrinsic(_ctpop_typing))
"""The number of set bits of an integer (LLVM ``ctpop``: one instruction)."""


def _pdep_typing(typingctx: Any, src: Any, mask: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i64 = ir.IntType(64)
        fn = cast(Any, cgutils).get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64"
        )
        return builder.call(fn, args)

    return numba.int64(numba.int64, numba.int64), codegen


_pdep = cast(Callable[[Any, Any], Any], intrinsic(_pdep_typing))
"""BMI2 ``pdep``: the bits of ``src`` deposited at the set bits of ``mask`` (one instruction;
``_pdep(1 << i, bits)`` is the ``i``-th set bit of ``bits``). Only where :data:`_HAS_PDEP`."""
_HAS_PDEP = bool(
    getattr(numba.config, "CPU_NAME", None) is None and get_host_cpu_features().get("bmi2", False)
)
"""Whether the machine code is compiled for this machine and it has BMI2 (else a loop)."""
_cttz = cast(Callable[[Any], Any], trailing_zeros)
_ctlz = cast(Callable[[Any], Any], leading_zeros)


@_inline
def _u(i: Any) -> Any:
    """An array index as unsigned: numba then skips the negative-index test on every access
    (a compare and a select each, which the hot loop felt)."""
    return np.uint64(i)


@_inline
def _ctz(x: Any) -> Any:
    """The index of the lowest set bit of ``x`` (non-zero): one instruction (LLVM ``cttz``)."""
    return _cttz(np.int64(x))


# --- SplitMix64 ------------------------------------------------------------------------------


@_inline
def _mix64(z: Any) -> Any:
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@_jit
def _derive(key: Any, tag: int) -> Any:
    return _mix64(key ^ _mix64(np.uint64(tag + 1) * _GOLDEN))


@_inline
def _randbelow(state: Any, n: int) -> Any:
    """``random.Random._randbelow_with_getrandbits(n)`` on the counter ``state``: returns
    ``(new counter, draw)``. Scalars only, so the hot loop does no reference counting.

    The next two outputs are computed side by side (independent multiplications), so the
    loop's branch is taken again only when both miss (a miss is one draw in four on average
    for a shuffle's sizes; each mispredicted branch cost more than the second output)."""
    shift = np.uint64(_ctlz(np.int64(n)))
    while True:
        x1 = np.int64(_mix64(state + _GOLDEN) >> shift)
        x2 = np.int64(_mix64(state + _GOLDEN2) >> shift)
        if x1 < n:
            return state + _GOLDEN, x1
        state = state + _GOLDEN2
        if x2 < n:
            return state, x2


# --- one round -------------------------------------------------------------------------------


def _seat_offsets() -> I64Array:
    """``[n * 52 + p]``: who gets pack position ``p`` when ``n`` play, as ``1..n`` seats after
    the dealer (three at a time round the table), 0 for the talon; ``[n * 52 + 52]``: the
    hand size."""
    table = np.zeros(9 * 53, np.int64)
    for n, size in HAND_SIZES.items():
        pos = got = 0
        while got < size:
            take = min(3, size - got)
            for offset in range(1, n + 1):
                for _ in range(take):
                    table[n * 53 + pos] = offset
                    pos += 1
            got += take
        table[n * 53 + 52] = size
    return table


_SEAT_OF_POS = _seat_offsets()


@_inline
def _deal(
    s: Any, n: int, dealer: int, rng: Any, chips: Any, board: Any, deck: Any
) -> None:
    """Shuffle (``random.shuffle`` order), deal three at a time, stake: a fresh round in ``s``.

    The shuffle settles the pack from its top position down, so each card is dealt as soon as
    its position is settled (one pass over the pack)."""
    for i in range(52):
        deck[_u(i)] = _FAST_OF_DECK[_u(i)]  # the pack in deck order, as fast indices
    s[:] = 0
    row = n * 53
    state = rng[0]
    for i in range(51, -1, -1):
        if i > 0:
            state, j = _randbelow(state, i + 1)
            d = deck[_u(j)]
            deck[_u(j)] = deck[_u(i)]
        else:
            d = deck[0]
        offset = _SEAT_OF_POS[_u(row + i)]
        if offset != 0:
            seat = dealer + offset
            if seat >= n:
                seat -= n
            s[_u(S_HANDS + seat)] |= np.int64(1) << d
    rng[0] = state
    size = _SEAT_OF_POS[_u(row + 52)]
    s[S_N] = n
    s[S_DEALER] = dealer
    s[S_TO_ACT] = (dealer + 1) % n
    s[S_LEADER] = -1
    s[S_PENDING] = -1
    s[S_FIRST] = -1
    s[S_RUN_SEAT] = -1
    s[S_WINNER] = -1
    s[S_HAND_SIZE] = size
    for box in range(5):
        s[_u(S_BOARD + box)] = board[_u(box)]
    full = 0  # the players who can stake in full (1 to 5 chips: 15)
    for seat in range(n):
        c = chips[_u(seat)]
        if c >= 15:
            full += 1
            c -= 15
        else:
            for box in range(5):
                amount = min(box + 1, c)
                c -= amount
                s[_u(S_BOARD + box)] += amount
        s[_u(S_CHIPS + seat)] = c
    for box in range(5):
        s[_u(S_BOARD + box)] += full * (box + 1)


@_inline
def _finish(s: Any, r: Any, winner: int) -> None:
    """Settle the round won by ``winner`` (``Round._finish``, in the documented order)."""
    s[S_AWAIT] = 0
    n = s[S_N]
    short = 0
    for off in range(1, n):
        seat = (winner + off) % n
        hand = s[_u(S_HANDS + seat)]
        owed = (
            _ctpop(hand & r[R_VALUE_BITS])
            + 2 * _ctpop(hand & r[R_VALUE_BITS + 1])
            + 4 * _ctpop(hand & r[R_VALUE_BITS + 2])
            + 8 * _ctpop(hand & r[R_VALUE_BITS + 3])
        )
        paid = min(owed, s[_u(S_CHIPS + seat)])
        s[_u(S_CHIPS + seat)] -= paid
        if paid < owed:
            short |= 1 << seat
        s[_u(S_CHIPS + winner)] += paid
    left = np.int64(0)
    for seat in range(n):
        left |= s[_u(S_HANDS + seat)]
    for seat in range(n if left & r[R_BOARD_MASK] != 0 else 0):
        hand = s[_u(S_HANDS + seat)]
        for box in range(5):
            if (hand >> r[_u(R_BOARD_CARD + box)]) & 1:
                owed = s[_u(S_BOARD + box)]
                paid = min(owed, s[_u(S_CHIPS + seat)])
                s[_u(S_CHIPS + seat)] -= paid
                if paid < owed:
                    short |= 1 << seat
                s[_u(S_BOARD + box)] += paid
    if r[R_FORGOT] == DOUBLE_BOX:
        for i in range(s[S_NFORGOT]):
            seat = s[_u(S_FORGOT_SEAT + i)]
            box = s[_u(S_FORGOT_BOX + i)]
            owed = s[_u(S_BOARD + box)]
            paid = min(owed, s[_u(S_CHIPS + seat)])
            s[_u(S_CHIPS + seat)] -= paid
            if paid < owed:
                short |= 1 << seat
            s[_u(S_BOARD + box)] += paid
    opera = False
    if r[R_OPERA] == OPERA_ONE_TURN:
        opera = s[S_RUN_SEAT] == winner and s[S_RUN_LEN] == s[S_HAND_SIZE]
    elif r[R_OPERA] == OPERA_NO_ONE_ELSE:
        opera = s[S_PLAYED] == s[S_HAND_SIZE]
    if opera:
        swept = 0
        for box in range(5):
            swept += s[_u(S_BOARD + box)]
            s[_u(S_BOARD + box)] = 0
        s[_u(S_CHIPS + winner)] += swept
        s[S_OPERA] = 1
        s[S_SWEPT] = swept
    s[S_SHORT] = short
    s[S_WINNER] = winner


@_inline
def _preferred(bits: Any, r: Any) -> Any:
    """Among cards of one rank: the board card if any, else the lowest card index."""
    on_board = bits & r[R_BOARD_MASK]
    return _ctz(on_board) if on_board != 0 else _ctz(bits)


@_inline
def _deck_index(c: int) -> int:
    return (c & 3) * 13 + (c >> 2)


@_jit
def _greedy_lead(s: Any, r: Any, hand: int) -> int:
    """``GreedyBot`` leading: the card whose run in our hand grabs the most chips, then sheds
    the most points, then has the lowest rank, then the lowest card index."""
    best = -1
    best_key = -1
    bits = hand
    while bits != 0:
        c = _ctz(bits)
        bits &= bits - 1
        box = r[R_BOX_OF + c]
        chips = 0 if box < 0 else s[S_BOARD + box] + 1
        points = r[R_VALUE + c]
        rank = (c >> 2) + 2
        while rank <= 13:
            of_rank = (hand >> (4 * rank - 4)) & 15
            if of_rank == 0:
                break
            b = _preferred(of_rank << (4 * rank - 4), r)
            if r[R_BOX_OF + b] >= 0:
                chips += s[S_BOARD + r[R_BOX_OF + b]]
            points += r[R_VALUE + b]
            rank += 1
        key = ((chips * 2048 + points) * 16 + 12 - (c >> 2)) * 64 + 63 - _deck_index(c)
        if key > best_key:
            best_key = key
            best = c
    return best


@_jit
def _heuristic_lead(s: Any, r: Any, seat: int, hand: int, played_mask: int) -> int:
    """``HeuristicBot`` leading (see :mod:`cardroom.games.nain_jaune.bots.heuristic`): the best
    planned run."""
    held = np.zeros(14, np.int64)
    dead = np.zeros(14, np.bool_)
    box_of_rank = np.zeros(14, np.int64)
    card_of_rank = np.full(14, -1, np.int64)
    size = 0
    lacked = np.int64(-1)
    n = s[S_N]
    for p in range(n):
        if p != seat and s[S_HANDS + p] != 0:
            lacked &= s[S_LACKS + p] if r[R_MAY_STOP] == 0 else 0
    for k in range(1, 14):
        mine = (hand >> (4 * k - 4)) & 15
        gone = (played_mask >> (4 * k - 4)) & 15
        held[k] = (mine & 1) + ((mine >> 1) & 1) + ((mine >> 2) & 1) + (mine >> 3)
        size += held[k]
        unseen = 4 - held[k] - ((gone & 1) + ((gone >> 1) & 1) + ((gone >> 2) & 1) + (gone >> 3))
        dead[k] = unseen <= 0 or (lacked >> k) & 1 == 1
    for box in range(5):
        c = r[R_BOARD_CARD + box]
        if (hand >> c) & 1 and c > card_of_rank[(c >> 2) + 1]:
            card_of_rank[(c >> 2) + 1] = c
            box_of_rank[(c >> 2) + 1] = s[S_BOARD + box]
    h = np.zeros(14, np.int64)
    best = -1
    best_score = 0
    for rank in range(1, 14):
        if held[rank] == 0:
            continue
        card = _preferred(hand & (np.int64(15) << (4 * rank - 4)), r)
        h[:] = held
        n_cards = 0
        pts = 0
        box = 0
        out = False
        k = rank
        while True:
            if h[k] > 0:
                h[k] -= 1
                n_cards += 1
                pts += r[R_VALUE + 4 * k - 4]
                box += box_of_rank[k]
                if n_cards == size:
                    out = True
                    break
                if k == 13:
                    break
                k += 1
            elif dead[k]:
                if r[R_WHEN] == FREE_RESTART or k == 13:
                    break
                k += 1
            else:
                break
        if out:
            score = 1_000_000
        elif n_cards == 1 and rank == 13:
            score = 10 * box
        else:
            score = 100 * n_cards + pts + 2 * box + (150 if rank == 1 else 0)
        if best < 0 or score > best_score or (
            score == best_score and _deck_index(card) < _deck_index(best)
        ):
            best = card
            best_score = score
    return best


# --- the learned lead policy (issue 31) ------------------------------------------------------
LEARNED = 12
"""Policy code of the learned policy: claims and follows as the heuristic; leads the rank whose
features (:func:`lead_features`) score highest under the shipped weights (``POLICY_FILE``)."""
N_FEATURES = 27
POLICY_FILE = "policy_v1.npz"
"""The shipped weights, in ``cardroom.games.nain_jaune``; the version is in the name, so new
weights change this source and so the compiled cache."""


def _load_policy() -> npt.NDArray[np.float64]:
    from importlib.resources import files

    with (files("cardroom.games.nain_jaune") / POLICY_FILE).open("rb") as fh:
        w = np.load(fh)["weights"].astype(np.float64)
    if w.shape != (N_FEATURES,):
        raise ValueError(f"{POLICY_FILE}: weights of shape {w.shape}, expected ({N_FEATURES},)")
    return cast(npt.NDArray[np.float64], w)


POLICY_WEIGHTS = _load_policy()


def lead_features(s: Any, r: Any, seat: int, hand: int, played_mask: int, out: Any) -> int:
    """Fill ``out[k]`` (shape ``(14, N_FEATURES)``) with the features of leading rank ``k`` for
    every rank ``k`` in ``hand``; returns the mask of those ranks (bit ``k``). Only what the
    seat sees enters: its hand, the cards played, the board, hand sizes and "without X".

    The features follow the heuristic's run simulation (:func:`_heuristic_lead`): 0 the run
    empties the hand, 1 cards in it / 4, 2 points shed / 10, 3 chips taken / 10, 4 an ace,
    5 a king alone, 6 the run passes the king (the lead comes back), 7 cards left / 10, 8 cards
    held of the rank, 9 unseen cards of the rank that stops the run / 4, 10 cards in the run
    when an opponent holds 3 cards or fewer, 11 the heuristic's score / 100 (0 when it goes
    out), 12 the led card is a board card, 13-25 the rank (one-hot), 26 a king kept after."""
    held = np.zeros(14, np.int64)
    unseen = np.zeros(14, np.int64)
    dead = np.zeros(14, np.bool_)
    box_of_rank = np.zeros(14, np.int64)
    card_of_rank = np.full(14, -1, np.int64)
    size = 0
    lacked = np.int64(-1)
    n = s[S_N]
    least = 99
    for p in range(n):
        if p != seat and s[S_HANDS + p] != 0:
            lacked &= s[S_LACKS + p] if r[R_MAY_STOP] == 0 else 0
            left = 0
            cards = s[S_HANDS + p]
            while cards != 0:
                cards &= cards - 1
                left += 1
            least = min(least, left)
    danger = 1.0 if least <= 3 else 0.0
    for k in range(1, 14):
        mine = (hand >> (4 * k - 4)) & 15
        gone = (played_mask >> (4 * k - 4)) & 15
        held[k] = (mine & 1) + ((mine >> 1) & 1) + ((mine >> 2) & 1) + (mine >> 3)
        size += held[k]
        unseen[k] = 4 - held[k] - (
            (gone & 1) + ((gone >> 1) & 1) + ((gone >> 2) & 1) + (gone >> 3)
        )
        dead[k] = unseen[k] <= 0 or (lacked >> k) & 1 == 1
    for box in range(5):
        c = r[R_BOARD_CARD + box]
        if (hand >> c) & 1 and c > card_of_rank[(c >> 2) + 1]:
            card_of_rank[(c >> 2) + 1] = c
            box_of_rank[(c >> 2) + 1] = s[S_BOARD + box]
    h = np.zeros(14, np.int64)
    ranks = 0
    for rank in range(1, 14):
        if held[rank] == 0:
            continue
        ranks |= 1 << rank
        card = _preferred(hand & (np.int64(15) << (4 * rank - 4)), r)
        h[:] = held
        n_cards = 0
        pts = 0
        box = 0
        went_out = False
        past_king = False
        blocker = 0
        k = rank
        while True:
            if h[k] > 0:
                h[k] -= 1
                n_cards += 1
                pts += r[R_VALUE + 4 * k - 4]
                box += box_of_rank[k]
                if n_cards == size:
                    went_out = True
                    break
                if k == 13:
                    past_king = True
                    break
                k += 1
            elif dead[k]:
                if r[R_WHEN] == FREE_RESTART or k == 13:
                    break
                k += 1
            else:
                blocker = unseen[k]
                break
        if went_out:
            score = 0
        elif n_cards == 1 and rank == 13:
            score = 10 * box
        else:
            score = 100 * n_cards + pts + 2 * box + (150 if rank == 1 else 0)
        for j in range(N_FEATURES):
            out[rank, j] = 0.0
        out[rank, 0] = 1.0 if went_out else 0.0
        out[rank, 1] = n_cards / 4.0
        out[rank, 2] = pts / 10.0
        out[rank, 3] = box / 10.0
        out[rank, 4] = 1.0 if rank == 1 else 0.0
        out[rank, 5] = 1.0 if n_cards == 1 and rank == 13 else 0.0
        out[rank, 6] = 1.0 if past_king else 0.0
        out[rank, 7] = (size - n_cards) / 10.0
        out[rank, 8] = float(held[rank])
        out[rank, 9] = blocker / 4.0
        out[rank, 10] = n_cards * danger
        out[rank, 11] = score / 100.0
        out[rank, 12] = 1.0 if r[R_BOX_OF + card] >= 0 else 0.0
        out[rank, 12 + rank] = 1.0
        out[rank, 26] = 1.0 if h[13] > 0 else 0.0
    return ranks


_lead_features = _jit(lead_features)


def learned_choice(s: Any, r: Any, seat: int, hand: int, played_mask: int, w: Any) -> int:
    """The learned lead (a card's fast index): the held rank with the highest ``w`` · features,
    its preferred card (board card first); ties to the lowest card index (deck order)."""
    f = np.zeros((14, N_FEATURES), np.float64)
    ranks = _lead_features(s, r, seat, hand, played_mask, f)
    best = -1
    best_score = 0.0
    for rank in range(1, 14):
        if (ranks >> rank) & 1 == 0:
            continue
        score = 0.0
        for j in range(N_FEATURES):
            score += f[rank, j] * w[j]
        card = _preferred(hand & (np.int64(15) << (4 * rank - 4)), r)
        if best < 0 or score > best_score or (
            score == best_score and _deck_index(card) < _deck_index(best)
        ):
            best = card
            best_score = score
    return best


_learned_lead = _jit(learned_choice)


@_inline
def _play_out(
    s: Any, r: Any, policies: Any, rng: Any, seats: Any, trace: Any, tpos: Any
) -> int:
    """Play the round in ``s`` to its end and settle it; ``seats[p]`` is the game seat (its
    policy and random stream) of round position ``p``. Returns the number of actions.

    This is ``Round.legal_actions`` + a policy + ``Round.apply`` in one loop over local
    variables (calls that pass arrays would cost two atomic reference counts each).
    """
    if s[S_WINNER] >= 0:
        return 0
    tracing = trace.shape[0] > 0
    n = s[S_N]
    to_act = s[S_TO_ACT]
    need = s[S_NEED]
    leader = s[S_LEADER]
    in_row = s[S_PASSES_IN_ROW]
    pending = s[S_PENDING]
    waiting = s[S_AWAIT] != 0
    played = s[S_PLAYED]
    first = s[S_FIRST]
    run_seat = s[S_RUN_SEAT]
    run_len = s[S_RUN_LEN]
    npasses = s[S_NPASSES]
    played_mask = s[S_PLAYED_MASK]
    may_stop = r[R_MAY_STOP] != 0
    auto = r[R_ANNOUNCE] == ANNOUNCE_AUTO
    free_restart = r[R_WHEN] == FREE_RESTART
    winner = -1
    actions = 0
    while winner < 0:
        seat = to_act
        hand = s[_u(S_HANDS + seat)]
        if need != 0 and pending < 0 and not waiting and (hand >> (4 * need - 4)) & 15 == 0:
            # a forced pass ("without"): the only legal action, which no policy draws for; the
            # next seats pass too while they hold no card of the rank
            shift = 4 * need - 4
            lack = np.int64(1) << need
            while True:
                if tracing:
                    if tpos[0] < trace.shape[0] - 64:
                        trace[_u(tpos[0])] = (seat * 16 + need) * 64 + PASS_CODE
                        tpos[0] += 1
                    else:
                        tpos[1] = 1
                actions += 1
                npasses += 1
                s[_u(S_LACKS + seat)] |= lack
                in_row += 1
                if in_row == n:
                    to_act = leader
                    in_row = 0
                    need = 0 if free_restart or need == 13 else need + 1
                    break
                seat = seat + 1 if seat + 1 < n else 0
                if (s[_u(S_HANDS + seat)] >> shift) & 15 != 0:
                    to_act = seat
                    break
            continue
        gseat = seats[_u(seat)]
        # the legal actions, in Round.legal_actions order: the plays (the set bits of
        # ``bits``, low to high), then claim, then pass; counted, not listed
        if waiting:
            bits = np.int64(0)
            plays = 0
            has_claim = True
            has_pass = True
        else:
            bits = hand if need == 0 else hand & (np.int64(15) << (4 * need - 4))
            plays = _ctpop(bits)
            has_claim = pending >= 0
            has_pass = need != 0 and (plays == 0 or may_stop)
        m = plays + (1 if has_claim else 0) + (1 if has_pass else 0)
        # the policy
        policy = policies[_u(gseat)]
        if m == 1:
            a = _ctz(bits) if plays == 1 else (CLAIM_CODE if has_claim else PASS_CODE)
        elif policy == 0:
            state, i = _randbelow(rng[_u(gseat)], m)
            rng[_u(gseat)] = state
            if i < plays:
                for _ in range(i):
                    bits &= bits - 1
                a = _ctz(bits)
            elif i == plays and has_claim:
                a = CLAIM_CODE
            else:
                a = PASS_CODE
        elif PAUSE <= policy < LEARNED:
            break  # hand this decision back to the caller (search); the state is saved below
        elif policy >= 64:
            # a scripted first move (search tries a candidate): the action, then the policy
            # ``(code >> 6) - 1`` for the rest of the round
            a = policy & 63
            policies[_u(gseat)] = (policy >> 6) - 1
        elif has_claim:
            a = CLAIM_CODE  # greedy and heuristic claim every box
        elif need != 0:
            # following: the preferred card of the rank asked (pass only when forced)
            a = _preferred(bits, r) if plays > 0 else PASS_CODE
        elif policy == 1:
            a = _greedy_lead(s, r, hand)
        elif policy == LEARNED:
            a = _learned_lead(s, r, seat, hand, played_mask, POLICY_WEIGHTS)
        else:
            a = _heuristic_lead(s, r, seat, hand, played_mask)
        if tracing:
            if tpos[0] < trace.shape[0] - 64:
                trace[_u(tpos[0])] = (seat * 16 + need) * 64 + a
                tpos[0] += 1
            else:
                tpos[1] = 1  # overflow: the caller retries with a larger buffer
        actions += 1
        # Round.apply
        if a == CLAIM_CODE:
            box = r[_u(R_BOX_OF + pending)]
            s[_u(S_CHIPS + seat)] += s[_u(S_BOARD + box)]
            s[_u(S_BOARD + box)] = 0
            pending = -1
            if waiting:
                winner = seat
            continue
        if pending >= 0:  # the claim lapses: a forgotten announcement
            k = s[S_NFORGOT]
            s[_u(S_FORGOT_SEAT + k)] = seat
            s[_u(S_FORGOT_BOX + k)] = r[_u(R_BOX_OF + pending)]
            s[S_NFORGOT] = k + 1
            pending = -1
        if a == PASS_CODE:
            if waiting:
                winner = seat
                continue
            npasses += 1
            s[_u(S_LACKS + seat)] |= np.int64(1) << need
            in_row += 1
            if in_row < n:
                to_act = seat + 1 if seat + 1 < n else 0
                continue
            to_act = leader
            in_row = 0
            need = 0 if free_restart or need == 13 else need + 1
            continue
        bit = np.int64(1) << a
        hand &= ~bit
        s[_u(S_HANDS + seat)] = hand
        played_mask |= bit
        played += 1
        if first < 0:
            first = seat
        if run_seat == seat:
            run_len += 1
        else:
            run_seat = seat
            run_len = 1
        if r[_u(R_BOX_OF + a)] >= 0:
            if auto:
                box = r[_u(R_BOX_OF + a)]
                s[_u(S_CHIPS + seat)] += s[_u(S_BOARD + box)]
                s[_u(S_BOARD + box)] = 0
            else:
                pending = a
        leader = seat
        in_row = 0
        if hand == 0:
            if pending >= 0:
                waiting = True
            else:
                winner = seat
            continue
        rank = (a >> 2) + 1
        need = 0 if rank == 13 else rank + 1
    s[S_TO_ACT] = to_act
    s[S_NEED] = need
    s[S_LEADER] = leader
    s[S_PASSES_IN_ROW] = in_row
    s[S_PENDING] = pending
    s[S_PLAYED] = played
    s[S_FIRST] = first
    s[S_RUN_SEAT] = run_seat
    s[S_RUN_LEN] = run_len
    s[S_NPASSES] = npasses
    s[S_PLAYED_MASK] = played_mask
    if winner < 0:  # paused
        s[S_AWAIT] = 1 if waiting else 0
        return actions
    _finish(s, r, winner)
    return actions


@_inline
def _play_out_random(s: Any, r: Any, rng: Any, seats: Any) -> int:
    """:func:`_play_out` of a freshly dealt round when every seat plays ``random``, boxes are
    taken at once (``announce=auto``) and nobody may stop (``may_stop`` off), without a
    trace: then the only choices are the plays, and a seat without the rank asked passes.

    The same round (the same draws from the same streams, the same final state for
    :func:`_play_game`'s statistics; ``tests/sim/test_differential.py`` compares the two), in
    fewer steps: the forced passes are not taken one by one but counted, from a mask of the
    seats that hold the rank asked (a whole lap when nobody does). The "without X" facts of
    ``S_LACKS`` are not recorded: only the heuristic reads them.
    """
    n = s[S_N]
    seat = s[S_TO_ACT]
    need = s[S_NEED]
    leader = seat
    played = 0
    played_mask = s[S_PLAYED_MASK]
    npasses = 0
    run_seat = -1
    run_len = 0
    free_restart = r[R_WHEN] == FREE_RESTART
    held = np.int64(0)  # every card in a hand
    for p in range(n):
        held |= s[_u(S_HANDS + p)]
    while True:
        if need != 0:
            # a new lap from the leader (``seat``): skip the ranks nobody holds, n passes each
            avail = (held | (held >> 1) | (held >> 2) | (held >> 3)) & _RANK_LOW_BITS
            avail >>= 4 * need - 4
            if avail & 1 == 0:
                if free_restart or avail == 0:
                    npasses += n * (1 if free_restart else 14 - need)
                    need = 0
                else:
                    k = _ctz(avail) >> 2
                    npasses += n * k
                    need += k
        if need == 0:
            hand = s[_u(S_HANDS + seat)]
            bits = hand
        else:
            # someone holds the rank asked: the seats before the first of them pass
            shift = 4 * need - 4
            hand = s[_u(S_HANDS + seat)]
            while (hand >> shift) & 15 == 0:
                npasses += 1
                seat += 1
                if seat == n:
                    seat = 0
                hand = s[_u(S_HANDS + seat)]
            bits = hand & (np.int64(15) << shift)
        m = _ctpop(bits)
        if m > 1:
            gseat = seats[_u(seat)]
            state, i = _randbelow(rng[_u(gseat)], m)
            rng[_u(gseat)] = state
            if _HAS_PDEP:
                bits = _pdep(np.int64(1) << i, bits)
            else:
                for _ in range(i):
                    bits &= bits - 1
        a = _ctz(bits)
        bit = np.int64(1) << a
        hand &= ~bit
        s[_u(S_HANDS + seat)] = hand
        played_mask |= bit
        held &= ~bit
        played += 1
        if run_seat == seat:
            run_len += 1
        else:
            run_seat = seat
            run_len = 1
        box = r[_u(R_BOX_OF + a)]
        if box >= 0:
            s[_u(S_CHIPS + seat)] += s[_u(S_BOARD + box)]
            s[_u(S_BOARD + box)] = 0
        leader = seat
        if hand == 0:
            break
        need = 0 if a >= 48 else (a >> 2) + 2
    s[S_FIRST] = s[S_TO_ACT]
    s[S_TO_ACT] = seat
    s[S_NEED] = need
    s[S_PLAYED_MASK] = played_mask
    s[S_LEADER] = leader
    s[S_PLAYED] = played
    s[S_RUN_SEAT] = run_seat
    s[S_RUN_LEN] = run_len
    s[S_NPASSES] = npasses
    _finish(s, r, seat)
    return played + npasses


# --- one game --------------------------------------------------------------------------------


@_jit
def _buffers(nseats: int) -> Any:
    """The work arrays of :func:`_play_game`, allocated once per chunk (allocating them per
    game cost about a tenth of a random round)."""
    return (
        np.empty(nseats, np.int64),
        np.empty(5, np.int64),
        np.empty(nseats, np.bool_),
        np.empty(nseats, np.uint64),
        np.empty(1, np.uint64),
        np.zeros(S_SIZE, np.int64),
        np.empty(52, np.int64),
        np.empty(nseats, np.int64),
        np.empty(nseats, np.int64),
        np.empty(nseats, np.bool_),
    )


@_inline
def _play_game(
    key: Any,
    r: Any,
    nseats: int,
    policies: Any,
    max_rounds: int,
    stats: Any,
    trace: Any,
    tpos: Any,
    buffers: Any,
    specialize: bool,
) -> Any:
    """Play one game (key ``key``) for at most ``max_rounds`` rounds; returns
    ``(rounds played, reason code, winners mask)``, reason 0 if it did not end.

    With ``specialize``, a game that :func:`_play_out_random` can play (no trace, random
    players only, ``announce=auto``, ``may_stop`` off) is played by it."""
    tracing = trace.shape[0] > 0
    only_random = (
        specialize and not tracing and r[R_ANNOUNCE] == ANNOUNCE_AUTO and r[R_MAY_STOP] == 0
    )
    for i in range(nseats):
        if policies[_u(i)] != 0:
            only_random = False
    chips, board, active, rng, deal_rng, s, deck, seats, round_chips, among = buffers
    chips[:] = r[R_START]
    board[:] = 0
    active[:] = True
    for i in range(nseats):
        rng[_u(i)] = _derive(key, i)
    dealer = 0
    rounds = 0
    while rounds < max_rounds:
        n = 0
        dpos = 0
        for seat in range(nseats):
            if active[_u(seat)]:
                if seat == dealer:
                    dpos = n
                seats[_u(n)] = seat
                round_chips[_u(n)] = chips[_u(seat)]
                n += 1
        deal_rng[0] = _derive(key, DEAL_TAG + rounds)
        _deal(s, n, dpos, deal_rng, round_chips, board, deck)
        if only_random:
            actions = _play_out_random(s, r, rng, seats)
        else:
            actions = _play_out(s, r, policies, rng, seats, trace, tpos)
        rounds += 1
        winner = s[S_WINNER]
        # statistics of the round
        stats[ST_ROUNDS] += 1
        stats[ST_ACTIONS] += actions
        stats[ST_CARDS] += s[S_PLAYED]
        stats[ST_CARDS_HIST + s[S_PLAYED]] += 1
        stats[ST_PASSES] += s[S_NPASSES]
        if s[S_OPERA]:
            stats[ST_OPERA] += 1
            stats[ST_OPERA_CHIPS] += s[S_SWEPT]
        if s[S_SHORT] != 0:
            stats[ST_SHORT_ROUNDS] += 1
        stats[ST_ROUND_WINS + seats[_u(winner)]] += 1
        total = 0
        for box in range(5):
            b = s[_u(S_BOARD + box)]
            board[_u(box)] = b
            total += b
            stats[_u(ST_BOX_SUM + box)] += b
            if b > stats[_u(ST_BOX_MAX + box)]:
                stats[_u(ST_BOX_MAX + box)] = b
        stats[_u(ST_BOARD_HIST + min(total // 10, BOARD_BINS - 1))] += 1
        for p in range(n):
            seat = seats[_u(p)]
            stats[_u(ST_NET + seat)] += s[_u(S_CHIPS + p)] - chips[_u(seat)]
            stats[_u(ST_SEAT_ROUNDS + seat)] += 1
            chips[_u(seat)] = s[_u(S_CHIPS + p)]
        first = seats[s[S_FIRST]]
        if tracing and tpos[1] == 0:
            t = tpos[0]
            trace[_u(t)] = -1
            trace[_u(t + 1)] = dealer
            trace[_u(t + 2)] = n
            trace[_u(t + 3)] = winner
            trace[_u(t + 4)] = s[S_FIRST]
            trace[_u(t + 5)] = s[S_OPERA]
            t += 6
            for box in range(5):
                trace[_u(t)] = board[_u(box)]
                t += 1
            for seat in range(nseats):
                trace[_u(t)] = chips[_u(seat)]
                t += 1
            trace[_u(t)] = s[S_SHORT]
            tpos[0] = t + 1
        # the end condition (Game._check_end)
        reason = 0
        among[:] = active
        kind = r[R_END_KIND]
        if kind == 0:
            if s[S_SHORT] != 0:
                reason = 1
            else:
                for seat in range(nseats):
                    if active[_u(seat)] and chips[_u(seat)] < 15:
                        reason = 2
        elif kind == 1:
            left = 0
            for seat in range(nseats):
                if active[_u(seat)] and chips[_u(seat)] >= 15:
                    left += 1
            if left <= 1:
                reason = 3 if left == 1 else 4
            if left >= 1:
                for seat in range(nseats):
                    if active[_u(seat)] and chips[_u(seat)] < 15:
                        active[_u(seat)] = False
                among[:] = active
        elif kind == 2:
            if rounds >= r[R_END_N]:
                reason = 5
        else:
            reached = 0
            for seat in range(nseats):
                among[_u(seat)] = active[_u(seat)] and chips[_u(seat)] >= r[R_END_N]
                if among[_u(seat)]:
                    reached += 1
            if reached > 0:
                reason = 6
        if reason != 0:
            best = -1
            for seat in range(nseats):
                if among[_u(seat)] and chips[_u(seat)] > best:
                    best = chips[_u(seat)]
            mask = 0
            for seat in range(nseats):
                if among[_u(seat)] and chips[_u(seat)] == best:
                    mask |= 1 << seat
            return rounds, reason, mask
        if active[_u(first)]:
            dealer = first
        else:
            for step in range(1, nseats + 1):
                if active[_u((first + step) % nseats)]:
                    dealer = (first + step) % nseats
                    break
    return rounds, 0, 0


@_jit
def _run_chunk(
    root: Any,
    chunk: int,
    n_rounds: int,
    r: Any,
    nseats: int,
    policies: Any,
    stats: Any,
    specialize: bool,
) -> None:
    """Play ``n_rounds`` rounds as games back to back (game ``g`` keyed by
    ``derive(derive(root, chunk), g)``); the game still going at the end is cut."""
    chunk_key = _derive(root, chunk)
    trace = np.empty(0, np.int64)
    tpos = np.zeros(2, np.int64)
    buffers = _buffers(nseats)
    done = 0
    g = 0
    while done < n_rounds:
        cap = min(MAX_GAME_ROUNDS, n_rounds - done)
        rounds, reason, mask = _play_game(
            _derive(chunk_key, g), r, nseats, policies, cap, stats, trace, tpos, buffers,
            specialize,
        )
        done += rounds
        g += 1
        if reason == 0 and rounds == MAX_GAME_ROUNDS:
            reason = 7
        if reason == 0:
            stats[ST_CUT] += 1
            stats[ST_CUT_ROUNDS] += rounds
            continue
        stats[ST_GAMES] += 1
        stats[ST_GAME_ROUNDS] += rounds
        stats[ST_GAME_LEN_HIST + rounds] += 1
        stats[ST_REASON + reason] += 1
        for seat in range(nseats):
            if (mask >> seat) & 1:
                stats[ST_GAME_WINS + seat] += 1


@_jit
def _trace_game(
    key: Any, r: Any, nseats: int, policies: Any, max_rounds: int, trace: Any
) -> int:
    stats = np.zeros(ST_SIZE, np.int64)
    tpos = np.zeros(2, np.int64)
    rounds, reason, mask = _play_game(
        key, r, nseats, policies, max_rounds, stats, trace, tpos, _buffers(nseats), False
    )
    if tpos[1] != 0:
        return -1
    t = tpos[0]
    trace[t] = -2
    trace[t + 1] = reason
    trace[t + 2] = rounds
    trace[t + 3] = mask
    return int(t + 4)


@_jit
def _rollout(s: Any, r: Any, policies: Any, rng: Any) -> int:
    n = s[S_N]
    seats = np.arange(n)
    trace = np.empty(0, np.int64)
    return _play_out(s, r, policies, rng, seats, trace, np.zeros(2, np.int64))


@_jit
def _random_round(
    key: Any, r: Any, n: int, dealer: int, chips: Any, board: Any, specialize: bool
) -> Any:
    s = np.zeros(S_SIZE, np.int64)
    deal_rng = np.empty(1, np.uint64)
    deal_rng[0] = _derive(key, DEAL_TAG)
    _deal(s, n, dealer, deal_rng, chips, board, np.empty(52, np.int64))
    rng = np.empty(n, np.uint64)
    for i in range(n):
        rng[i] = _derive(key, i)
    seats = np.arange(n)
    if specialize:
        actions = _play_out_random(s, r, rng, seats)
    else:
        policies = np.zeros(n, np.int64)
        trace = np.empty(0, np.int64)
        actions = _play_out(s, r, policies, rng, seats, trace, np.zeros(2, np.int64))
    return s, actions


# --- the expert's search --------------------------------------------------------------------
# One call of search_worlds does, for each of n worlds and with no Python in between:
# 1. deal the unseen cards to the other hands and the talon, respecting every hand size, the
#    talon size and every known "without X" (rejection sampling of a shuffled deal, exact and
#    uniform; when that keeps failing under many constraints, a random walk of card swaps that
#    keep the deal consistent, started from the last consistent deal);
# 2. weigh the world by `mismatch` to the power of the opponents' free leads and follows that
#    the compiled heuristic, holding that world's cards at the time, would not have made;
# 3. for every candidate action, copy the position, give it the world's hands, play the
#    candidate and play the round out (_play_out, the differentially tested fast path) with
#    the rollout policy of every seat, and add the weight times the searcher's final chips to
#    that candidate's total.
# The arrays are prepared once per decision by cardroom.games.nain_jaune.bots.expert. (These
# functions live
# in this file because numba's cache notices changes to a file only in its own functions.)

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
def _nested_rollout(
    s: Any, r: Any, seat: int, pol: Any, policy: int, rng: Any, depth: int
) -> None:
    """Play ``s`` out; at each real choice of a seat whose ``pol`` pauses there (``PAUSE``:
    ``seat``'s own later choices with ``lookahead=on``, or every seat's with ``all``), try
    every distinct choice by a rollout with ``policy`` for everyone in this world and play the
    best one for that seat; with ``GUESS + k - 1`` the rollouts are played in ``k`` worlds
    re-dealt from that seat's view instead (it does not see the cards), summed. With
    ``depth`` > 0 only the first ``depth`` such choices are made so; every later choice of
    the round is ``policy``'s."""
    n = s[S_N]
    made = 0
    seats = np.arange(n)
    trace = np.empty(0, np.int64)
    tpos = np.zeros(2, np.int64)
    s2 = np.empty(S_SIZE, np.int64)
    s3 = np.empty(S_SIZE, np.int64)
    pol2 = np.empty(n, np.int64)
    sub = np.empty(64, np.int64)
    pool = np.empty(52, np.int64)
    vals = np.zeros(64, np.int64)
    while True:
        _play_out(s, r, pol, rng, seats, trace, tpos)
        if s[S_WINNER] >= 0:
            return
        who = s[S_TO_ACT]
        mode = pol[who]
        m = _distinct(s, r, sub)
        best = sub[0]
        best_value = np.int64(-1) << 40
        guess = mode - GUESS + 1 if mode >= GUESS and s[S_AWAIT] == 0 else 0
        for i in range(m):
            vals[i] = 0
        for _ in range(max(guess, 1)):
            s3[:] = s
            if guess > 0:
                # re-deal what ``who`` cannot see: the other hands and the talon
                hidden = ~s[S_PLAYED_MASK] & ((np.int64(1) << 52) - 1)
                hidden &= ~s[S_HANDS + who]
                k = 0
                while hidden != 0:
                    pool[k] = _ctz(hidden)
                    hidden &= hidden - 1
                    k += 1
                state = rng[who]
                for i in range(k - 1, 0, -1):
                    state, j = _randbelow(state, i + 1)
                    c = pool[i]
                    pool[i] = pool[j]
                    pool[j] = c
                rng[who] = state
                at = 0
                for p in range(n):
                    if p != who:
                        size = _ctpop(s[S_HANDS + p])
                        h = np.int64(0)
                        for _ in range(size):
                            h |= np.int64(1) << pool[at]
                            at += 1
                        s3[S_HANDS + p] = h
            for i in range(m):
                s2[:] = s3
                for p in range(n):
                    pol2[p] = policy
                pol2[who] = ((policy + 1) << 6) | sub[i]
                _play_out(s2, r, pol2, rng, seats, trace, tpos)
                vals[i] += s2[S_CHIPS + who]
        for i in range(m):
            if vals[i] > best_value:
                best_value = vals[i]
                best = sub[i]
        pol[who] = ((mode + 1) << 6) | best
        made += 1
        if depth > 0 and made >= depth:
            # the rest of the round with the plain policy: no seat pauses any more
            for p in range(n):
                if PAUSE <= pol[p] < LEARNED:
                    pol[p] = policy
                elif pol[p] >= 64 and PAUSE <= (pol[p] >> 6) - 1 < LEARNED:
                    pol[p] = ((policy + 1) << 6) | (pol[p] & 63)


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
    depth: int,
    sub: int = -1,
) -> float:
    """Play ``n_worlds`` worlds (see the module docstring); returns the sum of their weights.

    ``cards``: the unseen cards (fast indices); ``holders[h]``: the seat of holder ``h`` (the
    last holder, -1, is the talon); ``forbid[h]``: bit ``rank`` set if holder ``h`` holds no
    card of that rank; ``assign``: a consistent holder per card (updated; used as is when
    ``sample`` is false); ``leads[l]``: seat, card, played mask, that seat's cards played
    from then on, and 0 for a free lead explained by the heuristic (2: by the learned policy,
    then columns ``5 + p`` hold seat ``p``'s hand size at that lead; 1 for a follow) for each
    opponent choice to explain,
    ``lead_lacks[l]`` and ``lead_boards[l]`` what was known then;
    ``cands``: the candidates' action codes; ``policies``: the rollout policy per seat
    (``PAUSE`` for the searcher: its later choices are made by one rollout per choice in
    the same world, with the next seat's policy for everyone); ``depth``: with pausing
    policies, how many of a rollout's choices are made so (0: all of them), the rest by the
    plain policy; ``sub``: the policy of those lookaheads' rollouts (-1: the policy of a seat
    that does not pause, the heuristic when every seat pauses).
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
    nested = False
    sub_policy = 2
    for p in range(n):
        if PAUSE <= policies[p] < LEARNED:
            nested = True
        elif p != seat:
            sub_policy = policies[p]
    if sub >= 0:
        sub_policy = sub
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
            if leads[li, 4] == 2:
                # explained by the learned policy: it also reads the hand sizes then
                for p in range(n):
                    t[S_HANDS + p] = (np.int64(1) << leads[li, 5 + p]) - 1
                choice = _learned_lead(t, r, who, then, leads[li, 2], POLICY_WEIGHTS)
                for p in range(n):
                    t[S_HANDS + p] = 1
            else:
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
            if nested:
                # every seat whose policy is PAUSE chooses by lookahead; the sub-rollouts
                # use the next seat's policy (heuristic when that one pauses too)
                _nested_rollout(s, r, seat, pol, sub_policy, rng, depth)
            else:
                _play_out(s, r, pol, rng, seats, trace, tpos)
            totals[ci] += weight * s[S_CHIPS + seat]
        state[K_RNG] = np.int64(np.uint64(state[K_RNG]) + np.uint64(0x9E3779B97F4A7C15))
    return weights


# --- Python entry points ---------------------------------------------------------------------


def encode_rules(rules: Rules) -> I64Array:
    """The rules as the fast path's int64 array."""
    r = np.zeros(R_SIZE, np.int64)
    r[R_WHEN] = choice_code("when_blocked", rules.when_blocked)
    r[R_PAY] = choice_code("payment", rules.payment)
    r[R_FORGOT] = choice_code("forgotten_announcement", rules.forgotten_announcement)
    r[R_ANNOUNCE] = choice_code("announce", rules.announce)
    r[R_OPERA] = choice_code("grand_opera", rules.grand_opera)
    r[R_MAY_STOP] = int(rules.may_stop)
    r[R_END_KIND] = END_KINDS[rules.end.kind]
    r[R_END_N] = rules.end.number
    r[R_START] = rules.starting_chips
    r[R_BOX_OF : R_BOX_OF + 52] = -1
    from cardroom.cards import DECK

    for card in DECK:
        value = card_value(card, rules.payment)
        assert 0 <= value < 16
        r[R_VALUE + fast_index(card.index)] = value
        for k in range(4):
            if (value >> k) & 1:
                r[R_VALUE_BITS + k] |= 1 << fast_index(card.index)
    for box, card in enumerate(rules.board_cards):
        r[R_BOX_OF + fast_index(card.index)] = box
        r[R_BOARD_CARD + box] = fast_index(card.index)
        r[R_BOARD_MASK] |= 1 << fast_index(card.index)
    assert STAKES == (1, 2, 3, 4, 5)
    return r


def encode_policies(bots: Sequence[str]) -> I64Array:
    """Policy codes for bot names (``random``, ``greedy``, ``heuristic``)."""
    unknown = [b for b in bots if b not in POLICIES]
    if unknown:
        raise ValueError(
            f"the fast path cannot play bot {unknown[0]!r}: use one of {', '.join(POLICIES)}"
        )
    return np.array([POLICIES[b] for b in bots], np.int64)


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << fast_index(c.index)
    return m


def encode_round(rnd: Round) -> I64Array:
    """The fast state of a readable round, at any point of play (for rollouts)."""
    s = np.zeros(S_SIZE, np.int64)
    rules = rnd.rules
    s[S_N] = rnd.n
    s[S_DEALER] = rnd.dealer
    s[S_TO_ACT] = rnd.to_act
    s[S_NEED] = rnd.need or 0
    s[S_LEADER] = -1 if rnd.leader is None else rnd.leader
    s[S_PASSES_IN_ROW] = rnd.passes_in_row
    s[S_PENDING] = -1 if rnd.pending_claim is None else fast_index(rnd.pending_claim.index)
    s[S_AWAIT] = int(rnd.awaiting_final_claim)
    s[S_PLAYED] = len(rnd.played)
    s[S_FIRST] = rnd.played[0][0] if rnd.played else -1
    run_seat, run_len = -1, 0
    for seat, _ in reversed(rnd.played):
        if run_seat not in (-1, seat):
            break
        run_seat, run_len = seat, run_len + 1
    s[S_RUN_SEAT], s[S_RUN_LEN] = run_seat, run_len
    s[S_NFORGOT] = len(rnd.forgotten)
    for i, (seat, card) in enumerate(rnd.forgotten):
        s[S_FORGOT_SEAT + i] = seat
        s[S_FORGOT_BOX + i] = rules.board_cards.index(card)
    s[S_WINNER] = -1 if rnd.result is None else rnd.result.winner
    s[S_HAND_SIZE] = HAND_SIZES[rnd.n]
    s[S_PLAYED_MASK] = _mask(c for _, c in rnd.played)
    s[S_NPASSES] = len(rnd.passes)
    if not rules.may_stop:
        for seat, rank in rnd.passes:
            s[S_LACKS + seat] |= 1 << rank
    for seat in range(rnd.n):
        s[S_HANDS + seat] = _mask(rnd.hands[seat])
        s[S_CHIPS + seat] = rnd.chips[seat]
    for box in range(5):
        s[S_BOARD + box] = rnd.board[box]
    return s


def rollout(state: I64Array, rules: I64Array, policies: I64Array, key: int) -> I64Array:
    """Play the round ``state`` (from :func:`encode_round`) to its end with ``policies[seat]``
    for each round position, drawing from SplitMix64 streams ``derive(key, seat)``.

    Returns the final state: ``S_WINNER``, ``S_CHIPS + seat``, ``S_BOARD + box``, ``S_OPERA``.
    The input is not changed.
    """
    from cardroom.kernels.streams import derive

    s = state.copy()
    rng = np.array([derive(key, i) for i in range(int(s[S_N]))], np.uint64)
    _rollout(s, rules, policies, rng)
    return s


def trace_game(
    rules: Rules, bots: Sequence[str], key: int, max_rounds: int = MAX_GAME_ROUNDS
) -> list[int]:
    """Play one game (key ``key``) on the fast path and return its trace (the format of
    :func:`cardroom.games.nain_jaune.sim.readable.readable_game`)."""
    r = encode_rules(rules)
    policies = encode_policies(bots)
    nseats = len(bots)
    size = max_rounds * (200 + nseats) + 1024
    while True:
        trace = np.zeros(size, np.int64)
        end = _trace_game(np.uint64(key), r, nseats, policies, max_rounds, trace)
        if end >= 0:
            return [int(x) for x in trace[:end]]
        size *= 4


def random_round(
    rules: Rules, n: int, key: int, dealer: int = 0, specialize: bool = True
) -> tuple[I64Array, int]:
    """One round of ``n`` random players, dealt and played on the streams of ``key``; returns
    the final state and the number of actions. ``specialize``: by :func:`_play_out_random`
    (which needs ``announce=auto`` and ``may_stop`` off), else by :func:`_play_out`."""
    if specialize and (rules.announce != "auto" or rules.may_stop):
        raise ValueError("random rounds are specialized for announce=auto, may_stop off")
    chips = np.full(n, rules.starting_chips, np.int64)
    s, actions = _random_round(
        np.uint64(key), encode_rules(rules), n, dealer, chips, np.zeros(5, np.int64), specialize
    )
    return s, int(actions)


def run_chunk(
    rules: I64Array,
    policies: I64Array,
    root: int,
    chunk: int,
    n_rounds: int,
    specialize: bool = True,
) -> I64Array:
    """Statistics (``ST_*`` offsets) of ``n_rounds`` rounds: chunk ``chunk`` of a simulation
    whose root key is ``root`` (:func:`cardroom.kernels.streams.derive_seed`).

    ``specialize=False`` plays every round with the general :func:`_play_out` (the tests
    compare the two)."""
    stats = np.zeros(ST_SIZE, np.int64)
    _run_chunk(
        np.uint64(root), chunk, n_rounds, rules, len(policies), policies, stats, specialize
    )
    return stats
