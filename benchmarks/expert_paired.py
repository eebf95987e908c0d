"""Two Nain Jaune bots side by side on the same duplicate deals: the paired difference per round.

``--bots "A;B"`` at 4 seats (``A B A B``), every deal played once per rotation (the tournament's
``play_deal``: each bot holds every hand from every seat). Per deal, A's mean chips per round
minus B's; the mean of those differences over the deals with a normal 95 % interval. Every deal's
result is appended to ``--out`` (JSON lines) as it finishes, so a run cut short still reports the
deals it played, and ``--resume`` goes on from there. A bot given ``clock=cpu`` counts its ``ms=N``
in CPU time of its thread (this one-thread process's), so the result does not depend on the
machine's load; ``--games N --resume`` with N deals already in ``--out`` only prints their summary.

    PYTHONPATH=src python benchmarks/expert_paired.py \
        --bots "expert:ms=30,clock=cpu;expert:ms=30,clock=cpu,lookahead=off" \
        --games 100 [--first 0] [--seed 1] [--out FILE.jsonl] [--resume]

``--first F --games N`` plays deals F .. N-1 only (deal i is the same whatever process plays
it): two processes with the same ``--seed`` and slices 0..199 and 200..399 together play the
400 deals; pool their ``--out`` files with ``--merge A.jsonl B.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from pathlib import Path

from cardroom.bots import make_bot
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.tournament import Setup, check_setup, play_deal


def summary(diffs: list[float]) -> str:
    """Mean and 95 % interval of the per-deal differences."""
    n = len(diffs)
    if n < 2:
        return f"{n} deals"
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n)
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] over {n} deals"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", help="A;B")
    parser.add_argument(
        "--merge", type=Path, nargs="+", metavar="JSONL",
        help="print the pooled summary of these --out files (no play)",
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--first", type=int, default=0,
        help="the first deal index to play (deals --first .. --games-1): split one pairing "
        "over processes by giving each its own slice and --out, the same --seed",
    )
    parser.add_argument("--out", type=Path)
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()
    if args.merge:
        rows = {}
        for path in args.merge:
            for line in path.read_text().splitlines():
                row = json.loads(line)
                if row["deal"] in rows:
                    parser.error(f"deal {row['deal']} is in more than one file")
                rows[row["deal"]] = row
        print(f"{len(rows)} deals from {len(args.merge)} files")
        print(f"A - B per round: {summary([r['a'] - r['b'] for r in rows.values()])}")
        return
    if not args.bots:
        parser.error("--bots is required (unless --merge)")
    specs = tuple(args.bots.split(";"))
    if len(specs) != 2:
        parser.error("--bots takes two bot specs separated by ';' (a spec may hold commas)")
    setup = Setup(specs, args.games, args.players, Rules(), args.seed)
    check_setup(setup)
    bots = [make_bot(s) for s in specs]
    diffs: list[float] = []
    a_means: list[float] = []
    b_means: list[float] = []
    start_index = args.first
    if args.out and args.resume and args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            diffs.append(row["a"] - row["b"])
            a_means.append(row["a"])
            b_means.append(row["b"])
            start_index = row["deal"] + 1
    elif args.out:
        args.out.write_text("")
    if args.first and not 0 <= args.first < args.games:
        parser.error("--first must lie in [0, --games)")
    c0, t0 = time.process_time(), time.perf_counter()
    for i in range(start_index, args.games):
        deal = play_deal(setup, i, bots)
        a, b = deal.means
        diffs.append(a - b)
        a_means.append(a)
        b_means.append(b)
        if args.out:
            with args.out.open("a") as f:
                f.write(json.dumps({"deal": i, "a": a, "b": b}) + "\n")
        if len(diffs) % 10 == 0:
            print(f"  {i + 1} deals: A - B {summary(diffs)}; "
                  f"{time.process_time() - c0:.0f} s CPU", flush=True)
    load = os.getloadavg()
    print(f"A = {specs[0]}, B = {specs[1]}: {args.players} seats, seed {args.seed}; "
          f"{time.perf_counter() - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU; "
          f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"A chips/round: {statistics.fmean(a_means):+.2f}, B: {statistics.fmean(b_means):+.2f}")
    print(f"A - B per round: {summary(diffs)}")


if __name__ == "__main__":
    main()
