"""How close bulk simulation comes to the machine's limit: ``cardroom simulate nain-jaune``
beside a plain C loop of random rounds, measured in the same run.

    python benchmarks/bulk_limit.py [--rounds N] [--tries K]

The C loop (compiled here with ``cc -O3 -march=native``) plays random 4-player rounds of the
classic rules the way the fast path does (52-bit hands, SplitMix64, ``random.shuffle``'s
order, a forced pass taken without a draw, a uniform draw among the legal actions otherwise)
but keeps no statistics and does not settle: it only counts rounds, cards and actions, so
the true limit of a simulation that settles and reports is lower. The simulation is
``cardroom.games.nain_jaune.sim.simulate.run`` on one worker (what the command runs once compiled),
random bots
at 4 seats, classic rules. Both are timed with CPU time (the C loop by ``clock()``, ours by
``time.thread_time``), alternately ``--tries`` times; the best of each is kept (other work on
a shared machine only slows a run down). Prints one table and the ratio.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

SEED = 0

C_LOOP = r"""
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GOLDEN 0x9E3779B97F4A7C15ULL
static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline uint64_t derive(uint64_t key, uint64_t tag) {
    return mix64(key ^ mix64((tag + 1) * GOLDEN));
}
/* random.Random._randbelow_with_getrandbits on a SplitMix64 counter: the next two outputs
   are computed side by side, so only two misses in a row take the loop's branch again */
static inline uint32_t randbelow(uint64_t *s, uint32_t n) {
    int shift = __builtin_clzll(n);
    uint64_t st = *s;
    for (;;) {
        uint64_t x1 = mix64(st + GOLDEN) >> shift, x2 = mix64(st + 2 * GOLDEN) >> shift;
        if (x1 < n) { *s = st + GOLDEN; return (uint32_t)x1; }
        st += 2 * GOLDEN;
        if (x2 < n) { *s = st; return (uint32_t)x2; }
    }
}
#define RANK_LOW_BITS 0x1111111111111ULL
#define PC(x) __builtin_popcountll(x)
/* what a hand owes: the card values' binary digits, one popcount each */
static inline int64_t owed_of(uint64_t h) {
    return PC(h & VALUE_BIT0) + 2 * PC(h & VALUE_BIT1) + 4 * PC(h & VALUE_BIT2)
        + 8 * PC(h & VALUE_BIT3);
}

/* One game of classic rules at 4 seats, random players; returns the rounds played. */
static int play_game(uint64_t key, int max_rounds, int64_t *st, int *reason_out, int *mask_out) {
    int64_t chips[4] = {START, START, START, START};
    int64_t board[6] = {0, 0, 0, 0, 0, 0};
    uint64_t rng[4];
    for (int i = 0; i < 4; i++) rng[i] = derive(key, i);
    int dealer = 0, rounds = 0;
    while (rounds < max_rounds) {
        /* shuffle (random.shuffle's order) and deal three at a time as the positions settle */
        uint64_t ds = derive(key, DEAL_TAG + rounds);
        uint8_t deck[52];
        memcpy(deck, FAST_OF_DECK, 52);
        uint64_t hands[4] = {0, 0, 0, 0};
        for (int i = 51; i > 0; i--) {
            uint32_t j = randbelow(&ds, i + 1);
            uint8_t d = deck[j];
            deck[j] = deck[i];
            if (i < 48) hands[(dealer + SEAT_OF_POS[i]) & 3] |= 1ULL << d;
        }
        hands[(dealer + 1) & 3] |= 1ULL << deck[0];
        /* stakes: under "broke" every player starts a round with at least 15 chips */
        for (int p = 0; p < 4; p++) chips[p] -= 15;
        for (int b = 0; b < 5; b++) board[b] += 4 * (b + 1);
        /* play */
        int seat = (dealer + 1) & 3, need = 0, first = seat;
        int run_seat = -1, run_len = 0, winner;
        int64_t played = 0, passes = 0;
        uint64_t held = hands[0] | hands[1] | hands[2] | hands[3];
        for (;;) {
            uint64_t bits;
            if (need) {  /* a lap from the leader: skip the ranks nobody holds */
                uint64_t avail = ((held | held >> 1 | held >> 2 | held >> 3) & RANK_LOW_BITS)
                    >> (4 * need - 4);
                if (!(avail & 1)) {
                    if (!avail) {
                        passes += 4 * (14 - need);
                        need = 0;
                    } else {
                        int k = __builtin_ctzll(avail) >> 2;
                        passes += 4 * k;
                        need += k;
                    }
                }
            }
            if (need) {  /* the seats before the first that holds the rank pass */
                int shift = 4 * need - 4;
                while (!((hands[seat] >> shift) & 15)) {
                    passes++;
                    seat = (seat + 1) & 3;
                }
                bits = hands[seat] & (15ULL << shift);
            } else {
                bits = hands[seat];
            }
            uint64_t bit = bits;
            if (PC(bits) > 1) bit = _pdep_u64(1ULL << randbelow(&rng[seat], PC(bits)), bits);
            int c = __builtin_ctzll(bit);
            uint64_t hand = hands[seat] ^ bit;
            hands[seat] = hand;
            held ^= bit;
            played++;
            run_len = run_seat == seat ? run_len + 1 : 1;
            run_seat = seat;
            {  /* auto announce: a board card takes its box at once (box 5: no box) */
                int b = BOX_OF[c];
                chips[seat] += board[b];
                board[b] = 0;
            }
            if (!hand) { winner = seat; break; }
            need = (c >> 2) == 12 ? 0 : (c >> 2) + 2;  /* the same seat goes on */
        }
        /* settle */
        int shortmask = 0;
        for (int off = 1; off < 4; off++) {
            int p = (winner + off) & 3;
            int64_t owed = owed_of(hands[p]);
            int64_t paid = owed < chips[p] ? owed : chips[p];
            chips[p] -= paid;
            chips[winner] += paid;
            if (paid < owed) shortmask |= 1 << p;
        }
        uint64_t left = (hands[0] | hands[1] | hands[2] | hands[3]) & BOARD_MASK;
        if (left) {
            for (int b = 0; b < 5; b++) {
                uint64_t cb = 1ULL << BOARD_CARD[b];
                if (!(left & cb)) continue;
                int p = hands[0] & cb ? 0 : hands[1] & cb ? 1 : hands[2] & cb ? 2 : 3;
                int64_t owed = board[b];
                int64_t paid = owed < chips[p] ? owed : chips[p];
                chips[p] -= paid;
                board[b] += paid;
                if (paid < owed) shortmask |= 1 << p;
            }
        }
        if (run_seat == winner && run_len == 12) {  /* grand opera (one turn) */
            int64_t swept = board[0] + board[1] + board[2] + board[3] + board[4];
            board[0] = board[1] = board[2] = board[3] = board[4] = 0;
            chips[winner] += swept;
            st[ST_OPERA]++;
            st[ST_OPERA_CHIPS] += swept;
        }
        rounds++;
        /* statistics of the round (per-seat sums are added per game) */
        st[ST_ACTIONS] += played + passes;
        st[ST_CARDS] += played;
        st[ST_CARDS_HIST + played]++;
        st[ST_PASSES] += passes;
        if (shortmask) st[ST_SHORT_ROUNDS]++;
        st[ST_ROUND_WINS + winner]++;
        int64_t total = 0;
        for (int b = 0; b < 5; b++) {
            total += board[b];
            st[ST_BOX_SUM + b] += board[b];
            if (board[b] > st[ST_BOX_MAX + b]) st[ST_BOX_MAX + b] = board[b];
        }
        st[ST_BOARD_HIST + (total / 10 < BOARD_BINS - 1 ? total / 10 : BOARD_BINS - 1)]++;
        /* the end ("broke") */
        int reason = 0;
        if (shortmask) reason = 1;
        else if (chips[0] < 15 || chips[1] < 15 || chips[2] < 15 || chips[3] < 15) reason = 2;
        if (reason || rounds == max_rounds) {
            for (int p = 0; p < 4; p++) {
                st[ST_NET + p] += chips[p] - START;
                st[ST_SEAT_ROUNDS + p] += rounds;
            }
            st[ST_ROUNDS] += rounds;
        }
        if (reason) {
            int64_t best = chips[0];
            for (int p = 1; p < 4; p++) best = chips[p] > best ? chips[p] : best;
            int mask = 0;
            for (int p = 0; p < 4; p++) mask |= (chips[p] == best) << p;
            *reason_out = reason;
            *mask_out = mask;
            return rounds;
        }
        dealer = first;
    }
    *reason_out = 0;
    *mask_out = 0;
    return rounds;
}

int main(int argc, char **argv) {
    uint64_t root = strtoull(argv[1], NULL, 10);
    long n_rounds = atol(argv[2]), chunk_rounds = atol(argv[3]);
    static int64_t st[ST_SIZE];
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long chunk = 0; chunk * chunk_rounds < n_rounds; chunk++) {
        long todo = n_rounds - chunk * chunk_rounds;
        if (todo > chunk_rounds) todo = chunk_rounds;
        uint64_t chunk_key = derive(root, chunk);
        long done = 0;
        for (uint64_t g = 0; done < todo; g++) {
            int cap = todo - done < MAX_GAME_ROUNDS ? (int)(todo - done) : MAX_GAME_ROUNDS;
            int reason, mask;
            int rounds = play_game(derive(chunk_key, g), cap, st, &reason, &mask);
            done += rounds;
            if (reason == 0 && rounds == MAX_GAME_ROUNDS) reason = 7;
            if (reason == 0) {
                st[ST_CUT]++;
                st[ST_CUT_ROUNDS] += rounds;
                continue;
            }
            st[ST_GAMES]++;
            st[ST_GAME_ROUNDS] += rounds;
            st[ST_GAME_LEN_HIST + rounds]++;
            st[ST_REASON + reason]++;
            for (int p = 0; p < 4; p++) st[ST_GAME_WINS + p] += (mask >> p) & 1;
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("%.9f", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    for (int i = 0; i < ST_SIZE; i++) printf(" %lld", (long long)st[i]);
    printf("\n");
    return 0;
}
"""


def c_header() -> str:
    """The tables and offsets the C loop is compiled with, taken from the fast path (so both
    play the same rules and fill the same statistics array)."""
    from cardroom.games.nain_jaune import kernel as fast
    from cardroom.games.nain_jaune.rules import Rules
    from cardroom.kernels.streams import DEAL_TAG, MAX_GAME_ROUNDS

    r = fast.encode_rules(Rules())
    lines = [f"#define {k} {getattr(fast, k)}" for k in dir(fast) if k.startswith("ST_")]
    lines += [
        f"#define BOARD_BINS {fast.BOARD_BINS}",
        f"#define MAX_GAME_ROUNDS {MAX_GAME_ROUNDS}",
        f"#define DEAL_TAG {DEAL_TAG}",
        f"#define START {int(r[fast.R_START])}",
        f"#define BOARD_MASK 0x{int(r[fast.R_BOARD_MASK]):x}ULL",
    ]
    values = [int(v) for v in r[fast.R_VALUE : fast.R_VALUE + 52]]
    assert max(values) < 16
    for k in range(4):
        mask = sum(1 << c for c in range(52) if (values[c] >> k) & 1)
        lines.append(f"#define VALUE_BIT{k} 0x{mask:x}ULL")

    def table(xs: Any) -> str:
        return ", ".join(str(int(x)) for x in xs)

    boxes = (5 if b < 0 else b for b in r[fast.R_BOX_OF : fast.R_BOX_OF + 52])
    lines += [
        f"static const uint8_t FAST_OF_DECK[52] = {{{table(fast._FAST_OF_DECK)}}};",
        f"static const int8_t BOX_OF[52] = {{{table(boxes)}}};",
        f"static const uint8_t BOARD_CARD[5] = "
        f"{{{table(r[fast.R_BOARD_CARD : fast.R_BOARD_CARD + 5])}}};",
        f"static const uint8_t SEAT_OF_POS[48] = {{{table(1 + p % 12 // 3 for p in range(48))}}};",
    ]
    return "#include <stdint.h>\n" + "\n".join(lines) + "\n"


def build_c_loop(folder: Path, opt: str) -> Path:
    """Compile the C loop with ``cc -<opt> -march=native``; returns the executable."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        raise SystemExit("no C compiler (cc, gcc or clang) on the PATH: install one")
    source = folder / "random_rounds.c"
    source.write_text(c_header() + C_LOOP)
    exe = folder / f"random_rounds{opt}"
    subprocess.run(
        [compiler, f"-{opt}", "-march=native", "-o", str(exe), str(source)], check=True
    )
    return exe


def c_loop(exe: Path, rounds: int) -> tuple[float, npt.NDArray[np.int64]]:
    """Rounds/s (CPU time) and the statistics array of the C loop."""
    from cardroom.games.nain_jaune.sim.simulate import CHUNK_ROUNDS
    from cardroom.kernels.streams import derive_seed

    out = subprocess.run(
        [str(exe), str(derive_seed(SEED)), str(rounds), str(CHUNK_ROUNDS)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return rounds / float(out[0]), np.array([int(x) for x in out[1:]], np.int64)


def simulation(rounds: int) -> tuple[float, npt.NDArray[np.int64]]:
    """Rounds/s (CPU time) and statistics of ``cardroom simulate nain-jaune`` (random 4p,
    classic, one worker)."""
    from cardroom.games.nain_jaune.sim.simulate import Simulation, run

    sim = Simulation.build(rounds, players=4, bots=["random"], seed=SEED)
    start = time.thread_time()
    stats, _ = run(sim, workers=1)
    elapsed = time.thread_time() - start
    return rounds / elapsed, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--tries", type=int, default=3)
    args = parser.parse_args()
    from cardroom.games.nain_jaune import kernel as fast

    print(f"load average before: {Path('/proc/loadavg').read_text().split()[:3]}")
    simulation(10_000)  # compile or load the cache
    with tempfile.TemporaryDirectory() as tmp:
        exes = {opt: build_c_loop(Path(tmp), opt) for opt in ("O2", "O3")}
        best = dict.fromkeys([*exes, "sim"], 0.0)
        stats: dict[str, npt.NDArray[np.int64]] = {}
        for _ in range(args.tries):
            for name, exe in exes.items():
                rate, stats[name] = c_loop(exe, args.rounds)
                best[name] = max(best[name], rate)
            rate, stats["sim"] = simulation(args.rounds)
            best["sim"] = max(best["sim"], rate)
    for name in exes:
        if not np.array_equal(stats[name], stats["sim"]):
            differ = np.nonzero(stats[name] != stats["sim"])[0]
            raise SystemExit(f"the C loop ({name}) and simulate disagree at offsets {differ[:10]}")
    cards = int(stats["sim"][fast.ST_CARDS]) / args.rounds
    actions = int(stats["sim"][fast.ST_ACTIONS]) / args.rounds
    c_best = max(best[name] for name in exes)
    print(f"{args.rounds:,} rounds (seed {SEED}), best of {args.tries}, CPU time; "
          f"{cards:.2f} cards and {actions:.2f} actions a round, statistics identical")
    print(f"{'':50} {'rounds/s':>11}")
    for name in exes:
        print(f"{'plain C loop, cc -' + name + ' -march=native':50} {best[name]:11,.0f}")
    print(f"{'cardroom simulate nain-jaune, random 4p, 1 worker':50} {best['sim']:11,.0f}")
    print(f"ratio: {best['sim'] / c_best:.2f} of the faster C loop")
    print(f"load average after: {Path('/proc/loadavg').read_text().split()[:3]}")


if __name__ == "__main__":
    main()
