"""Each Nain Jaune level's strength on one scale, and the accuracy the game analysis gives it.

1. **Ratings**: one tournament of the four levels (``cardroom tournament nain-jaune``: every deal
   once per rotation of the levels over 4 seats, duplicate deals), the openskill rating μ − 3σ
   and the mean chips per round of each level. The expert level is played as
   ``expert:ms=EXPERT_MS`` (default 30: issue 22 measured 30 and 150 ms to play alike; the
   lobby's expert thinks 100 ms).
2. **Accuracy**: for each level, ``--games`` whole games of 4 players all of that level
   (``end=rounds:3``, classic) are played and analysed (``cardroom analyse``'s analysis,
   ``--worlds`` per decision); the level's accuracy is pooled over all its decisions (the chips
   lost over the chips at stake, so a game with more at stake counts more).

It prints a table and the ``LEVEL_STRENGTH`` literal of ``cardroom.games.nain_jaune.bots.strength``.

    PYTHONPATH=src python benchmarks/level_strength.py [--deals 200] [--games 6]
        [--worlds 4000] [--expert-ms 30] [--workers 1]
"""

from __future__ import annotations

import argparse
import os
import time

from cardroom.bots.base import LEVELS, make_bot
from cardroom.games.nain_jaune.analysis import accuracy, analyse
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import game_record
from cardroom.games.nain_jaune.sim.tournament import Setup, run_tournament

ORDER = ("easy", "medium", "hard", "expert")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--worlds", type=int, default=4000)
    parser.add_argument("--expert-ms", type=int, default=30)
    parser.add_argument("--expert-iterations", type=int, default=2000,
                        help="worlds per decision of the expert level in the analysed games")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()
    specs = {level: LEVELS[level] for level in ORDER}
    specs["expert"] = f"expert:ms={args.expert_ms}"
    t0, c0 = time.perf_counter(), time.process_time()
    result = run_tournament(
        Setup(tuple(specs[level] for level in ORDER), args.deals, 4, Rules(), args.seed),
        args.workers,
    )
    stats = {st.name: st for st in result.stats}
    t1, c1 = time.perf_counter(), time.process_time()
    acc: dict[str, float] = {}
    rules = Rules.from_options("classic", {"end": "rounds:3"})
    for level in ORDER:
        spec = specs[level] if level != "expert" else f"expert:iterations={args.expert_iterations}"
        decisions = []
        for g in range(args.games):
            bots = [make_bot(spec) for _ in range(4)]
            record = game_record(rules, ["A", "B", "C", "D"], bots, args.seed * 100 + g)
            analysed = analyse(record, worlds=args.worlds)
            decisions += [d for r in analysed.rounds for d in r.decisions]
        acc[level] = accuracy(decisions) or 0.0
    t2, c2 = time.perf_counter(), time.process_time()
    load = os.getloadavg()
    print(f"tournament: {args.deals} deals x 4 rotations, 4 seats, seed {args.seed}: "
          f"{t1 - t0:.0f} s wall, {c1 - c0:.0f} s CPU (this process)")
    print(f"analysis: {args.games} games x 3 rounds per level, {args.worlds} worlds: "
          f"{t2 - t1:.0f} s wall, {c2 - c1:.0f} s CPU; load average {load[0]:.1f}")
    print(f"{'level':8} {'bot':22} {'chips/round':>12} {'rating':>8} {'accuracy':>9}")
    for level in ORDER:
        st = stats[specs[level]]
        print(f"{level:8} {specs[level]:22} {st.mean_chips_per_round:+12.2f} {st.rating:8.2f} "
              f"{acc[level]:8.1f}%")
    print("LEVEL_STRENGTH = {")
    for level in ORDER:
        st = stats[specs[level]]
        print(f'    "{level}": Strength(rating={st.rating:.2f}, '
              f"chips={st.mean_chips_per_round:.2f}, accuracy={acc[level]:.1f}),")
    print("}")


if __name__ == "__main__":
    main()
