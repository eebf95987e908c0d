"""CPU time to analyse a 10-round 5-player Nain Jaune game, beside the expert deciding the same
moves at the same budget.

A game of 10 rounds (``end=rounds:10``, classic, 5 players: heuristic, greedy, random, greedy,
random, seed ``--seed``) is played once; then, in this process after a warm-up (numba's cache
loaded):

- ``analyse``: :func:`cardroom.games.nain_jaune.analysis.analyse` with ``--worlds`` worlds per
  decision
  (and again with ``--hindsight``);
- ``expert``: the expert bot (``expert:iterations=WORLDS``) choosing a move at every one of the
  same decisions, from the same views: the peer, the same search at the same budget;
- ``heuristic``: the heuristic bot at the same decisions (what a decision costs without search).

CPU time is ``time.process_time()`` of this process (numba runs in it); the load average is
printed beside it.

    PYTHONPATH=src python benchmarks/analysis_time.py [--worlds 4000] [--seed 7] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

from cardroom.bots.base import make_bot
from cardroom.games.nain_jaune.analysis import analyse, moments, read_game
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import game_record


def cpu(f: Callable[[], object], repeat: int) -> float:
    """The least CPU seconds of ``repeat`` runs of ``f``."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        f()
        best = min(best, time.process_time() - t)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rules = Rules.from_options("classic", {"end": "rounds:10"})
    names = ["heuristic", "greedy", "random", "greedy", "random"]
    record = game_record(rules, [f"P{i}" for i in range(5)], [make_bot(b) for b in names],
                         args.seed)
    analyse(record[:1], worlds=16)  # warm-up: numba's compiled code loaded
    views = [m.view for r in read_game(record) for m in moments(r)[0]]
    expert = make_bot(f"expert:iterations={args.worlds}")
    heuristic = make_bot("heuristic")

    def decide(bot: object) -> None:
        rng = random.Random(0)
        for view in views:
            bot.act(view, rng)  # type: ignore[attr-defined]

    rows = [
        ("analyse", cpu(lambda: analyse(record, worlds=args.worlds), args.repeat)),
        ("analyse --hindsight",
         cpu(lambda: analyse(record, worlds=args.worlds, hindsight=True), args.repeat)),
        (f"expert:iterations={args.worlds}", cpu(lambda: decide(expert), args.repeat)),
        ("heuristic", cpu(lambda: decide(heuristic), args.repeat)),
    ]
    load = os.getloadavg()
    print(f"10 rounds, 5 players, {len(record)} rounds recorded, {len(views)} decisions, "
          f"{args.worlds} worlds each; best of {args.repeat}; load average "
          f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"{'what':28} {'CPU s':>8} {'ms/decision':>12}")
    for what, seconds in rows:
        print(f"{what:28} {seconds:8.2f} {1000 * seconds / max(1, len(views)):12.2f}")


if __name__ == "__main__":
    main()
