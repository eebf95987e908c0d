"""Each Nain Jaune level's chance of finishing a 10-round game ahead of the expert.

A game is heads-up (2 seats), ``end=rounds:10``, 60 chips each, played twice with the seats
swapped on the same deals (round ``k`` of game ``g`` is dealt from the same seed in both), so
the cards cancel as in a duplicate tournament. A level is *ahead* when it ends the game with
more chips than the expert (a tie counts one half). Per level: the share of games it finished
ahead, with a normal 95 % interval over the game pairs (the sample unit, each pair's score 0,
½ or 1 averaged over its two seatings).

    PYTHONPATH=src python benchmarks/level_ahead.py [--games 40] [--seed 1] \
        [--expert "expert:ms=30,clock=cpu"] \
        [--levels "easy;medium;hard;expert:ms=30,clock=cpu;expert:ms=30,clock=cpu,policy=learned"]

``--levels`` takes specs separated by ``;`` (a spec may hold commas); the default names the
four levels (the expert level at the same budget as the opponent) and the learned variant.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

from cardroom.bots import make_bot
from cardroom.games.nain_jaune.engine import Game
from cardroom.games.nain_jaune.rules import EndCondition, Rules
from cardroom.games.nain_jaune.sim.play import play_game

LEVEL_SPECS = {"easy": "random", "medium": "greedy", "hard": "heuristic"}


def ahead(level: str, expert: str, seed: int, rounds: int) -> tuple[float, int, int]:
    """The level's score over the two seatings of game ``seed`` (0, ½ or 1) and its chips and
    the expert's summed over both."""
    rules = Rules(end=EndCondition("rounds", rounds))
    score = 0.0
    mine = theirs = 0
    for flip in (False, True):
        bots = [make_bot(level), make_bot(expert)]
        if flip:
            bots.reverse()
        game = play_game(Game(rules, ["a", "b"]), bots, seed)
        assert game.result is not None
        chips = list(game.result.chips)
        if flip:
            chips.reverse()
        score += 0.5 if chips[0] > chips[1] else 0.25 if chips[0] == chips[1] else 0.0
        mine += chips[0]
        theirs += chips[1]
    return score, mine, theirs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="game pairs per level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--expert", default="expert:ms=30,clock=cpu")
    parser.add_argument(
        "--levels",
        default="easy;medium;hard;expert:ms=30,clock=cpu;expert:ms=30,clock=cpu,policy=learned",
    )
    args = parser.parse_args()
    levels = args.levels.split(";")
    for spec in [args.expert, *levels]:
        make_bot(LEVEL_SPECS.get(spec, spec))
    print(f"heads-up, {args.rounds} rounds, against {args.expert}; {args.games} game pairs "
          f"a level (game seeds {args.seed}00000 + g), seats swapped on the same deals")
    print("| level | bot | finishes ahead [95 % CI] | its chips / expert's, per game | CPU |")
    print("|---|---|---|---|---|")
    for level in levels:
        spec = LEVEL_SPECS.get(level, level)
        c0 = time.process_time()
        scores: list[float] = []
        mine = theirs = 0
        for g in range(args.games):
            s, m, t = ahead(spec, args.expert, args.seed * 100_000 + g, args.rounds)
            scores.append(s)
            mine += m
            theirs += t
        p = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0
        n = 2 * len(scores)
        print(f"| {level} | `{spec}` | {100 * p:.1f} % [{100 * max(0, p - half):.1f}, "
              f"{100 * min(1, p + half):.1f}] | {mine / n:.1f} / {theirs / n:.1f} | "
              f"{time.process_time() - c0:.0f} s |", flush=True)
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
