"""How close bulk simulation comes to the machine's limit: ``cardroom simulate nain-jaune``
beside a plain C loop of random rounds, measured in the same run.

    python benchmarks/bulk_limit.py [--rounds N] [--tries K]

The C loop (compiled here with ``cc -O3 -march=native``) plays random 4-player rounds of the
classic rules the way the fast path does (52-bit hands, SplitMix64, ``random.shuffle``'s
order, a forced pass taken without a draw, a uniform draw among the legal actions otherwise)
but keeps no statistics and does not settle: it only counts rounds, cards and actions, so
the true limit of a simulation that settles and reports is lower. The simulation is
``cardroom.sim.simulate.run`` on one worker (what the command runs once compiled), random bots
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

C_LOOP = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define GOLDEN 0x9E3779B97F4A7C15ULL
static inline uint64_t next(uint64_t *s) {
    uint64_t z = (*s += GOLDEN);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline int bitlen(unsigned n) { return 32 - __builtin_clz(n); }
static inline int randbelow(uint64_t *s, int n) {
    int shift = 64 - bitlen((unsigned)n);
    for (;;) {
        uint64_t x = next(s) >> shift;
        if (x < (uint64_t)n) return (int)x;
    }
}

int main(int argc, char **argv) {
    long rounds = atol(argv[1]);
    uint64_t deal_rng = 12345, seat_rng[4] = {1, 2, 3, 4};
    long cards = 0, actions = 0;
    int deck[52];
    clock_t start = clock();
    int dealer = 0;
    for (long k = 0; k < rounds; k++) {
        for (int i = 0; i < 52; i++) deck[i] = (i % 13) * 4 + i / 13;
        for (int i = 51; i > 0; i--) {
            int j = randbelow(&deal_rng, i + 1);
            int t = deck[i]; deck[i] = deck[j]; deck[j] = t;
        }
        uint64_t hands[4] = {0, 0, 0, 0};
        int pos = 0;
        for (int got = 0; got < 12; got += 3) {
            int seat = dealer;
            for (int p = 0; p < 4; p++) {
                seat = seat == 3 ? 0 : seat + 1;
                for (int t = 0; t < 3; t++) hands[seat] |= 1ULL << deck[pos++];
            }
        }
        int to_act = (dealer + 1) % 4, need = 0, leader = -1, in_row = 0, done = 0;
        while (!done) {
            int seat = to_act;
            uint64_t hand = hands[seat];
            uint64_t bits = need ? hand & (15ULL << (4 * need - 4)) : hand;
            actions++;
            if (!bits) {  /* "without": forced, no draw */
                if (++in_row == 4) {
                    to_act = leader; in_row = 0; need = need == 13 ? 0 : need + 1;
                } else {
                    to_act = seat == 3 ? 0 : seat + 1;
                }
                continue;
            }
            int m = __builtin_popcountll(bits);
            if (m > 1) {
                int i = randbelow(&seat_rng[seat], m);
                while (i--) bits &= bits - 1;
            }
            uint64_t bit = bits & -bits;
            int c = __builtin_ctzll(bit);
            hands[seat] = hand & ~bit;
            cards++;
            leader = seat; in_row = 0;
            if (!hands[seat]) { done = 1; dealer = seat; break; }
            int rank = (c >> 2) + 1;
            need = rank == 13 ? 0 : rank + 1;
        }
    }
    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("%ld %ld %ld %.6f\n", rounds, cards, actions, secs);
    return 0;
}
"""


def build_c_loop(folder: Path) -> Path:
    """Compile the C loop; returns the executable."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        raise SystemExit("no C compiler (cc, gcc or clang) on the PATH: install one")
    source = folder / "random_rounds.c"
    source.write_text(C_LOOP)
    exe = folder / "random_rounds"
    subprocess.run([compiler, "-O3", "-march=native", "-o", str(exe), str(source)], check=True)
    return exe


def c_loop(exe: Path, rounds: int) -> tuple[float, float]:
    """Rounds/s and cards per round of the C loop."""
    out = subprocess.run([str(exe), str(rounds)], check=True, capture_output=True, text=True)
    n, cards, _, secs = out.stdout.split()
    return int(n) / float(secs), int(cards) / int(n)


def simulation(rounds: int) -> tuple[float, float]:
    """Rounds/s and cards per round of ``cardroom simulate nain-jaune`` (random 4p, classic)."""
    from cardroom.kernels import nain_jaune as fast
    from cardroom.sim.simulate import Simulation, run

    sim = Simulation.build(rounds, players=4, bots=["random"], seed=0)
    start = time.thread_time()
    stats, _ = run(sim, workers=1)
    elapsed = time.thread_time() - start
    return rounds / elapsed, int(stats[fast.ST_CARDS]) / rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--tries", type=int, default=3)
    args = parser.parse_args()
    simulation(10_000)  # compile or load the cache
    with tempfile.TemporaryDirectory() as tmp:
        exe = build_c_loop(Path(tmp))
        c_best = ours_best = 0.0
        c_cards = ours_cards = 0.0
        for _ in range(args.tries):
            rate, c_cards = c_loop(exe, args.rounds)
            c_best = max(c_best, rate)
            rate, ours_cards = simulation(args.rounds)
            ours_best = max(ours_best, rate)
    print(f"{'':52} {'rounds/s':>11} {'cards/round':>12}")
    c_name = "plain C loop, random 4p (no settlement, no stats)"
    print(f"{c_name:52} {c_best:11,.0f} {c_cards:12.2f}")
    print(f"{'cardroom simulate nain-jaune, random 4p, 1 worker':52} {ours_best:11,.0f} "
          f"{ours_cards:12.2f}")
    print(f"ratio: {ours_best / c_best:.2f} of the C loop")


if __name__ == "__main__":
    main()
