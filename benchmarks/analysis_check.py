"""An independent check of the Nain Jaune analysis's marks.

Games of ``--rounds`` rounds (classic, 5 players) are played with the player under test in
seat 0 and ``expert:iterations=200`` in the other seats, then analysed
(:func:`cardroom.games.nain_jaune.analysis.analyse`, ``--worlds`` worlds). Each decision of seat 0
whose first valuation found a loss of at least 1 chip (every mark comes from these) is then
re-valued from outside the analysis: ``--check`` worlds dealt consistently with the player's
view (:func:`cardroom.games.nain_jaune.bots.search.sample_hidden`), in each the chosen and the
analysis's best
action applied to the same world, and the round finished by ``--judge`` at **every** seat (the
same random numbers for both). The paired difference (best minus chosen) and its standard error
give a verdict:

- **holds up**: the difference's 95 % interval is above 0 and (for a mark) the mean is at least
  1 chip;
- **reversed**: the interval is below 0;
- **unclear**: otherwise.

Printed per player: the marks given and how many hold up (the share: the goal is >= 80 % for a
player stronger than the expert, ``expert:iterations=200,lookahead=guess``), and the **real
blunders** (re-valued loss >= 6 chips, holding up) among the checked decisions and the share of
them the analysis marked (any mark). Only decisions with a first loss of at least 1 chip are
checked, so a blunder the first valuation missed entirely is not counted.

    PYTHONPATH=src flock /work/bench.lock python benchmarks/analysis_check.py \\
        [--games 2] [--first 0] [--rounds 3] [--worlds 1000] [--check 24] [--check-marks 0]
        [--seed 1]
        [--players ...] [--budget 900]
"""

from __future__ import annotations

import argparse
import math
import random
import time

from cardroom.bots.base import make_bot
from cardroom.games.nain_jaune.analysis import (
    MARKS,
    action_label,
    analyse,
    mark_of,
    moments,
    read_game,
)
from cardroom.games.nain_jaune.bots.search import candidates, rebuild, sample_hidden
from cardroom.games.nain_jaune.engine import Action
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import game_record, play_round

PLAYERS = ("expert:iterations=200,lookahead=guess", "heuristic", "greedy", "random")
OTHERS = "expert:iterations=200"


def judge(
    view: object, chosen: Action, best: Action, judge_bot: str, n: int, seed: int
) -> tuple[float, float]:
    """Mean and standard error of (best - chosen) final chips of the view's seat over ``n``
    worlds consistent with the view, every seat played by ``judge_bot``."""
    from cardroom.games.nain_jaune.view import RoundView

    assert isinstance(view, RoundView)
    rng = random.Random(seed)
    diffs = []
    for w in range(n):
        hidden = sample_hidden(view, rng)
        finals = []
        for action in (best, chosen):
            rnd = rebuild(view, hidden)
            rnd.apply(action)
            bots = [make_bot(judge_bot) for _ in range(view.players)]
            rngs = [random.Random(f"{seed}:{w}:{p}") for p in range(view.players)]
            play_round(rnd, bots, rngs)
            finals.append(rnd.chips[view.seat])
        diffs.append(finals[0] - finals[1])
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="the first game's number (games --first to --first + --games - 1: a seed's games "
        "can be run in parts, each game the same as in one run)",
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=1000)
    parser.add_argument("--check", type=int, default=24)
    parser.add_argument(
        "--check-marks",
        type=int,
        default=0,
        help="check worlds for a decision the analysis marked (0: --check); a mark of 1-3 "
        "chips needs a check far more precise than 80 worlds give to hold up",
    )
    parser.add_argument("--judge", default="expert:iterations=60")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", nargs="*", default=list(PLAYERS))
    parser.add_argument(
        "--budget",
        type=float,
        default=0.0,
        help="wall seconds per player after which no new game is started (0: no bound)",
    )
    args = parser.parse_args()
    rules = Rules.from_options("classic", {"end": f"rounds:{args.rounds}"})
    print(
        f"classic, 5 players, {args.games} games x {args.rounds} rounds per player, "
        f"analysis {args.worlds} worlds, check {args.check} worlds "
        f"({args.check_marks or args.check} for a mark) judged by {args.judge}"
    )
    print(
        f"{'player':42} {'dec':>4} {'chk':>4} {'marks':>5} {'hold':>4} {'rev':>4} "
        f"{'share':>6} {'realB':>5} {'found':>5} {'s':>5}"
    )
    least = MARKS[-1][1]
    for player in args.players:
        start = time.process_time()
        wall = time.monotonic()
        decisions = checked = marks = hold = rev = real = found = 0
        played = 0
        for g in range(args.first, args.first + args.games):
            if args.budget and time.monotonic() - wall > args.budget:
                break
            played += 1
            bots = [make_bot(player)] + [make_bot(OTHERS) for _ in range(4)]
            names = ["T", "O1", "O2", "O3", "O4"]
            data = game_record(rules, names, bots, args.seed * 1000 + g)
            result = analyse(data, worlds=args.worlds)
            rounds = read_game(data)
            for rec, ra in zip(rounds, result.rounds, strict=True):
                moms, _ = moments(rec)
                for moment, d in zip(moms, ra.decisions, strict=True):
                    if d.seat != 0:
                        continue
                    decisions += 1
                    first = max(c.value for c in d.choices) - next(
                        c.value for c in d.choices if c.action == d.choice
                    )
                    if first < least and d.mark is None:
                        continue
                    best_label = max(d.choices, key=lambda c: c.value).action

                    cands = candidates(moment.view)
                    chosen = next(a for a in cands if action_label(a) == d.choice)
                    best = next(
                        a
                        for a in cands
                        if action_label(a) == (d.best if d.best != d.choice else best_label)
                    )
                    if best == chosen:
                        continue
                    checked += 1
                    # the re-valuation alone would mark it (before any second opinion)
                    confirmed = d.mark is not None or (
                        d.deep is not None and mark_of(d.loss, d.noise) is not None
                    )
                    mean, se = judge(
                        moment.view,
                        chosen,
                        best,
                        args.judge,
                        args.check_marks if confirmed and args.check_marks else args.check,
                        hash((g, ra.number, d.step)) & 0xFFFF,
                    )
                    up = mean - 1.96 * se > 0
                    down = mean + 1.96 * se < 0
                    if d.mark is not None:
                        marks += 1
                        hold += up and mean >= least
                        rev += down
                    if up and mean >= 6:
                        real += 1
                        found += d.mark is not None
                    print(
                        f"  r{ra.number} d{d.step} {d.choice}->{d.best} first {first:.1f} "
                        f"analysis {d.loss:.1f}±{d.noise:.1f} {d.mark or '-'} "
                        f"check {mean:+.1f}±{se:.1f}"
                        + (
                            ""
                            if d.second is None
                            else f" second {d.second:.1f}±{d.second_noise:.1f}"
                        ),
                        flush=True,
                    )
            print(
                f"  game {g}: decisions {decisions} checked {checked} marks {marks} "
                f"hold {hold} reversed {rev}",
                flush=True,
            )
        share = f"{100 * hold / marks:.0f}%" if marks else "-"
        print(f"  {played} games played", flush=True)
        fshare = f"{found}/{real}" if real else "-"
        print(
            f"{player:42} {decisions:4} {checked:4} {marks:5} {hold:4} {rev:4} {share:>6} "
            f"{real:5} {fshare:>5} {time.process_time() - start:5.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
