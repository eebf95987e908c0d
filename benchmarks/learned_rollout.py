"""Rollout cost of the learned Nain Jaune policy against the heuristic's (issue 31: ≤ ~20x).

The same freshly dealt rounds (4 seats, default rules) played to the end by the compiled
kernel with every seat ``heuristic``, then ``learned``, then ``greedy``; CPU time per rollout
and the ratio to the heuristic, best of ``--repeat`` passes.

    PYTHONPATH=src python benchmarks/learned_rollout.py [--rounds 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from cardroom.games.nain_jaune import kernel as fast
from cardroom.games.nain_jaune.engine import Round
from cardroom.games.nain_jaune.rules import Rules
from cardroom.kernels.streams import derive


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rules = Rules()
    r = fast.encode_rules(rules)
    states = [
        fast.encode_round(Round.deal(rules, [60] * 4, [0] * 5, 0, random.Random(i)))
        for i in range(args.rounds)
    ]
    rngs = [np.array([derive(i, p) for p in range(4)], np.uint64) for i in range(args.rounds)]
    times: dict[str, float] = {}
    for name in ("heuristic", "learned", "greedy"):
        pol = fast.encode_policies([name] * 4)
        fast._rollout(states[0].copy(), r, pol.copy(), rngs[0].copy())  # compile
        best = float("inf")
        for _ in range(args.repeat):
            work = [(s.copy(), g.copy()) for s, g in zip(states, rngs, strict=True)]
            t0 = time.process_time()
            for s, g in work:
                fast._rollout(s, r, pol.copy(), g)
            best = min(best, time.process_time() - t0)
        times[name] = best / args.rounds
    print(f"{'policy':<10} {'µs/rollout':>11} {'x heuristic':>12}")
    for name, t in times.items():
        print(f"{name:<10} {t * 1e6:>11.2f} {t / times['heuristic']:>12.2f}")


if __name__ == "__main__":
    main()
