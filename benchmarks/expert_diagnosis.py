"""Why more worlds stop helping the expert: a small, bounded diagnosis (issue 22, item 4).

The decisions of ``--games`` 4-player games (classic, ``end=rounds:2``; seats heuristic, expert,
greedy, expert with ``expert:iterations=1000``) are valued from the deciding seat's view by the
expert's search (:func:`cardroom.games.nain_jaune.analysis.value_choices`, the lead and follow
model,
heuristic rollouts) at several numbers of worlds, with two independent seeds each, against a
reference of ``--reference`` worlds. Per number of worlds:

- ``spread``: the standard deviation of one candidate's chips across worlds (median over the
  decisions; from the 8 batches: sd of the batch means × √(worlds / 8));
- ``gap``: the best candidate's value minus the second best's, at the reference (median);
- ``flip``: how often the two seeds choose differently;
- ``≠ ref``: how often the choice differs from the reference's;
- ``regret``: the reference's value of its best choice minus its value of this choice, in chips,
  mean over the decisions: what choosing with fewer worlds costs (by the expert's own
  measure, so it says nothing of what the model or the rollouts get wrong).

    PYTHONPATH=src python benchmarks/expert_diagnosis.py [--games 3] [--reference 16000]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

from cardroom.bots.base import make_bot
from cardroom.games.nain_jaune.analysis import BATCHES, moments, read_game, value_choices
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import game_record

WORLDS = (250, 1000, 4000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--reference", type=int, default=16000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules.from_options("classic", {"end": "rounds:2"})
    specs = ["heuristic", "expert:iterations=1000", "greedy", "expert:iterations=1000"]
    views = []
    for g in range(args.games):
        record = game_record(rules, ["A", "B", "C", "D"], [make_bot(s) for s in specs],
                             args.seed * 1000 + g)
        views += [m.view for r in read_game(record) for m in moments(r)[0]]
    t0 = time.process_time()
    ref = [value_choices(v, args.reference, 99) for v in views]
    best_ref = [max(range(len(r.values)), key=lambda i: r.values[i]) for r in ref]
    gaps = []
    for r in ref:
        top = sorted(r.values, reverse=True)
        gaps.append(top[0] - top[1])
    rows = []
    for worlds in WORLDS:
        flips = differ = 0
        regret = 0.0
        spreads = []
        for v, r, b in zip(views, ref, best_ref, strict=True):
            one, two = value_choices(v, worlds, 1), value_choices(v, worlds, 2)
            c1 = max(range(len(one.values)), key=lambda i: one.values[i])
            c2 = max(range(len(two.values)), key=lambda i: two.values[i])
            flips += c1 != c2
            differ += c1 != b
            regret += r.values[b] - r.values[c1]
            means = [batch[c1] for batch in one.batches]
            spreads.append(statistics.stdev(means) * math.sqrt(worlds / BATCHES))
        n = len(views)
        rows.append((worlds, statistics.median(spreads), flips / n, differ / n, regret / n))
    cpu = time.process_time() - t0
    load = os.getloadavg()
    print(f"{len(views)} decisions from {args.games} games (4 players, 2 rounds), reference "
          f"{args.reference} worlds; {cpu:.0f} s CPU; load average {load[0]:.1f}")
    print(f"median gap best - second best at the reference: {statistics.median(gaps):.2f} chips")
    print(f"{'worlds':>7} {'spread':>7} {'flip':>6} {'≠ ref':>6} {'regret':>8}")
    for worlds, spread, flip, diff, reg in rows:
        print(f"{worlds:7d} {spread:7.1f} {100 * flip:5.1f}% {100 * diff:5.1f}% {reg:8.3f}")


if __name__ == "__main__":
    main()
