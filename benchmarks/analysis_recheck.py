"""The independent check of chosen marks again, over more worlds (issue 31, docs/bots.md).

Reads a JSON list of marks (``seed``, ``game``, ``round``, ``step``, ``pair``: the chosen and the
best action's labels, and ``check``: the first check's mean and standard error over
``--first-worlds`` worlds), replays each game of ``benchmarks/analysis_check.py`` (same seeds),
finds the decision and judges it again as the check does over ``--worlds`` fresh worlds (other
random numbers), then prints both checks pooled (the worlds' mean and its standard error) and
whether the mark holds up (95 % interval above 0, mean at least 1 chip).

    PYTHONPATH=src flock /work/bench.lock python benchmarks/analysis_recheck.py MARKS.json \\
        [--worlds 1200] [--first-worlds 400] [--rounds 5] [--budget 540]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

from cardroom.bots.base import make_bot
from cardroom.games.nain_jaune.analysis import action_label, moments, read_game
from cardroom.games.nain_jaune.bots.search import candidates
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import game_record

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from analysis_check import OTHERS, PLAYERS, judge


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("marks")
    parser.add_argument("--worlds", type=int, default=1200)
    parser.add_argument("--first-worlds", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--judge", default="expert:iterations=100")
    parser.add_argument("--player", default=PLAYERS[0])
    parser.add_argument("--budget", type=float, default=0.0)
    args = parser.parse_args()
    rules = Rules.from_options("classic", {"end": f"rounds:{args.rounds}"})
    wall = time.monotonic()
    with open(args.marks) as f:
        marks = json.load(f)
    for mark in marks:
        if args.budget and time.monotonic() - wall > args.budget:
            print("# budget reached", flush=True)
            break
        g = mark["game"]
        bots = [make_bot(args.player)] + [make_bot(OTHERS) for _ in range(4)]
        data = game_record(rules, ["T", "O1", "O2", "O3", "O4"], bots, mark["seed"] * 1000 + g)
        record = read_game(data)[mark["round"] - 1]
        moment = moments(record)[0][mark["step"] - 1]
        cands = candidates(moment.view)
        chosen, best = (next(a for a in cands if action_label(a) == x) for x in mark["pair"])
        seed = hash((g, mark["round"], mark["step"], 1)) & 0xFFFF
        mean, se = judge(moment.view, chosen, best, args.judge, args.worlds, seed)
        m1, s1 = mark["check"]
        n1, n2 = args.first_worlds, args.worlds
        pooled = (n1 * m1 + n2 * mean) / (n1 + n2)
        pse = math.sqrt((n1 * s1) ** 2 + (n2 * se) ** 2) / (n1 + n2)
        up = pooled - 1.96 * pse > 0 and pooled >= 1
        mark.update(recheck=[mean, se], pooled=[pooled, pse], holds=up)
        print(json.dumps(mark), flush=True)


if __name__ == "__main__":
    main()
