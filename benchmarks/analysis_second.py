"""The marks the re-valuation confirms, their second opinions and the independent check's verdict.

A tuning aid for the second opinion of the Nain Jaune analysis (issue 31, docs/bots.md). The
games of ``benchmarks/analysis_check.py`` (the same seeds: the player under test in seat 0,
``expert:iterations=200`` elsewhere) are analysed with ``--worlds`` worlds and **without** the
second opinion; for every decision of seat 0 that the re-valuation marks, it prints one JSON
line with the re-valued loss and its noise, the check's verdict (``--check`` worlds judged by
``--judge`` at every seat, the same worlds and numbers as ``analysis_check.py --check-marks``
uses) and a second opinion under each of several settings (``--second W:K``: W worlds, every
seat searching from its own view with K re-dealt worlds a choice), each with its standard
error. Rules for keeping a mark can then be compared on the same marks. ``--check 0`` leaves
the check out (its verdicts can be read from a run of ``analysis_check.py`` on the same seed).

    PYTHONPATH=src flock /work/bench.lock python benchmarks/analysis_second.py --seed 2 \\
        [--games 200] [--rounds 5] [--worlds 1000] [--check 400] [--second 1000:4 4000:4]
        [--budget 400] > marks.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import cardroom.games.nain_jaune.analysis as analysis
from cardroom.bots.base import make_bot
from cardroom.games.nain_jaune.bots.expert import GUESS
from cardroom.games.nain_jaune.bots.search import candidates
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import game_record

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from analysis_check import OTHERS, judge


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--worlds", type=int, default=1000)
    parser.add_argument("--check", type=int, default=400)
    parser.add_argument("--judge", default="expert:iterations=100")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--player", default="expert:iterations=200,lookahead=guess")
    parser.add_argument("--second", nargs="*", default=["1000:4", "4000:4", "4000:8"])
    parser.add_argument("--budget", type=float, default=0.0)
    args = parser.parse_args()
    analysis.SECOND_OPINION = False
    rules = Rules.from_options("classic", {"end": f"rounds:{args.rounds}"})
    wall = time.monotonic()
    spent = {s: 0.0 for s in args.second}
    for g in range(args.games):
        if args.budget and time.monotonic() - wall > args.budget:
            break
        bots = [make_bot(args.player)] + [make_bot(OTHERS) for _ in range(4)]
        data = game_record(rules, ["T", "O1", "O2", "O3", "O4"], bots, args.seed * 1000 + g)
        result = analysis.analyse(data, worlds=args.worlds)
        seed = analysis.record_seed(data)
        for rec, ra in zip(analysis.read_game(data), result.rounds, strict=True):
            moms, _ = analysis.moments(rec)
            for moment, d in zip(moms, ra.decisions, strict=True):
                if d.seat != 0 or d.mark is None or d.deep is None:
                    continue
                cands = candidates(moment.view)
                chosen = next(a for a in cands if analysis.action_label(a) == d.choice)
                best = next(a for a in cands if analysis.action_label(a) == d.best)
                sub = random.Random(f"{seed}:{ra.number}:{d.step}").getrandbits(63)
                row: dict[str, object] = {
                    "seed": args.seed,
                    "game": g,
                    "round": ra.number,
                    "step": d.step,
                    "pair": [d.choice, d.best],
                    "loss": d.loss,
                    "noise": d.noise,
                    "mark": d.mark,
                }
                for spec in args.second:
                    w, k = (int(x) for x in spec.split(":"))
                    t = time.process_time()
                    mine, top, se = analysis.revalue(
                        moment.view, (chosen, best), w, sub ^ 0x5EC0, GUESS + k - 1
                    )
                    spent[spec] += time.process_time() - t
                    row[spec] = [top - mine, se]
                if args.check:
                    row["check"] = list(
                        judge(
                            moment.view,
                            chosen,
                            best,
                            args.judge,
                            args.check,
                            hash((g, ra.number, d.step)) & 0xFFFF,
                        )
                    )
                print(json.dumps(row), flush=True)
        print(f"# game {g} done, {time.monotonic() - wall:.0f} s", file=sys.stderr, flush=True)
    print(f"# second opinions' CPU s: {spent}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
