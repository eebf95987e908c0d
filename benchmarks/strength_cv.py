"""Two Nain Jaune bots on duplicate deals, measured with a twin control variate (less variance).

**Plain duplicate** (``expert_paired.py``): ``--bots "A;B"`` at 4 seats (``A B A B``), every deal
played once per rotation, so each bot holds every hand from every seat; per deal ``D`` = A's
mean chips per round minus B's; the estimate is the mean of ``D`` over the deals with a normal
95 % interval.

**Twin control variate** (this script). Each deal is also played, with the same deal and the
same per-seat random streams (``play_deal``'s seeds), by a cheap *twin* of each bot
(``--twins "A';B'"``, e.g. the same expert with ``iterations=2000`` for ``ms=150``); ``L`` is the
twins' difference on that deal. The expert draws its worlds from the seat's stream, so a twin
sees the first worlds its bot sees, chooses the same move whenever those worlds suffice, and
plays the same round until the first decision they see differently: ``L`` tracks ``D``. The
twins alone also play ``--extra`` further deals (indices from ``EXTRA_FIRST`` on, never in the
main sample) whose mean ``M`` of ``L`` estimates E[L]. The estimate is

    θ = mean(D) − β · (mean(L) − mean(M))

It is unbiased for any fixed β, because E[mean(L)] = E[mean(M)] (the same twins on
independent deals of the same distribution): the term subtracted has mean zero whatever A and
B are, and removes from ``D`` the part of the deal's outcome that the twins' play predicts
(the deal's and the bots' own luck, as far as the twins share it). β is the variance-minimising
``cov(D, L) / (var(L) · (1 + n / N))`` estimated on the same deals (a plug-in: bias of order
1/n, far inside the interval); its standard error is
``sqrt(var(D − βL) / n + β² var(M) / N)``, n main and N extra deals.

Why not AIVAT's own corrections: AIVAT subtracts, at every chance event and every decision of a
player whose action probabilities are known, the value of what happened minus the expected
value over what could have happened. In Nain Jaune the only chance event is the deal, whose
term any value function of (deal, seat) makes cancel exactly in a rotated duplicate (each bot
holds every seat's hand equally often); and the expert's action probabilities are not known
(it takes the argmax of a sampled search, so a term built from its own sampled values is
biased by the winner's curse). What is left of the variance is the bots' divergent play on
the same deal, which is what the twin measures.

    PYTHONPATH=src python benchmarks/strength_cv.py \
        --bots "expert:ms=150,clock=cpu,policy=learned;expert:ms=150,clock=cpu" \
        --twins "expert:iterations=2000,policy=learned;expert:iterations=2000" \
        --games 50 [--first 0] [--seed 1] [--out FILE.jsonl] [--resume]
    ... --twins "..." --extra 400 --out EXTRA.jsonl    # the twins alone, for E[L]
    ... --merge MAIN*.jsonl EXTRA*.jsonl               # pooled estimate

``--first F --games N`` plays deals F .. N-1 (two processes with the same seed and disjoint
slices together play one sample); ``--merge`` pools any number of files, main and extra. A bot
with ``clock=cpu`` counts its budget in CPU time, so load does not change its play.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from cardroom.bots import make_bot
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.tournament import Setup, check_setup, play_deal

EXTRA_FIRST = 1_000_000
"""Deal index of the first extra (twins-only) deal: extra deals never meet the main sample's."""
Z = 1.96


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95 % half-width."""

    mean: float
    half: float
    n: int

    def __str__(self) -> str:
        lo, hi = self.mean - self.half, self.mean + self.half
        return f"{self.mean:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def plain(d: list[float]) -> Estimate:
    """The plain duplicate estimate: the mean of the per-deal differences."""
    n = len(d)
    return Estimate(statistics.fmean(d), Z * statistics.stdev(d) / math.sqrt(n), n)


def twin_cv(d: list[float], lo: list[float], m: list[float]) -> tuple[Estimate, float, float]:
    """The twin control-variate estimate from the main deals' differences ``d`` and their
    twins' ``lo`` (paired), and the extra deals' twin differences ``m``; with β and the
    correlation of ``d`` and ``lo``."""
    n, big_n = len(d), len(m)
    var_l = statistics.variance(lo)
    cov = statistics.covariance(d, lo)
    rho = cov / math.sqrt(statistics.variance(d) * var_l) if var_l > 0 else 0.0
    beta = cov / (var_l * (1 + n / big_n)) if var_l > 0 else 0.0
    resid = [x - beta * y for x, y in zip(d, lo, strict=True)]
    mean = statistics.fmean(d) - beta * (statistics.fmean(lo) - statistics.fmean(m))
    se = math.sqrt(statistics.variance(resid) / n + beta**2 * statistics.variance(m) / big_n)
    return Estimate(mean, Z * se, n), beta, rho


def report(rows: list[dict[str, float]]) -> None:
    """Print both estimates (and what the twin saves) for pooled rows."""
    main = [r for r in rows if "a" in r]
    extra = [r for r in rows if "a" not in r]
    d = [r["a"] - r["b"] for r in main]
    if len(d) < 2:
        print(f"{len(d)} main deals: too few for an interval")
        return
    p = plain(d)
    print(f"plain duplicate, A - B per round: {p} over {p.n} deals")
    if len(extra) < 2 or any("ta" not in r for r in main):
        print(f"twin control variate: needs twins on every main deal and extra deals "
              f"({len(extra)} extra)")
        return
    lo = [r["ta"] - r["tb"] for r in main]
    m = [r["ta"] - r["tb"] for r in extra]
    est, beta, rho = twin_cv(d, lo, m)
    same = sum(1 for x, y in zip(d, lo, strict=True) if x == y)
    print(f"twin control variate, A - B per round: {est} over {est.n} deals "
          f"(+ {len(m)} twin-only deals; beta {beta:.3f}, corr(D, L) {rho:.3f}, "
          f"twin's D equal on {same} deals)")
    print(f"interval width: {est.half / p.half:.2f} of plain duplicate's at equal deals "
          f"(plain would need {p.n * (p.half / est.half) ** 2:.0f} deals for this width)")
    print(f"twins' mean on the extra deals: {plain(m)}; on the main deals: {plain(lo)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", help="A;B (the bots measured)")
    parser.add_argument("--twins", help="A';B' (their cheap twins)")
    parser.add_argument("--extra", type=int, default=0,
                        help="play only the twins on N extra deals (for E[L])")
    parser.add_argument("--merge", type=Path, nargs="+", metavar="JSONL",
                        help="print the pooled estimate of these --out files (no play)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()
    if args.merge:
        rows: dict[int, dict[str, float]] = {}
        for path in args.merge:
            for line in path.read_text().splitlines():
                rec = json.loads(line)
                if rec["deal"] in rows:
                    parser.error(f"deal {rec['deal']} is in more than one file")
                rows[rec["deal"]] = rec
        print(f"{len(rows)} deals from {len(args.merge)} files")
        report(list(rows.values()))
        return
    if not args.twins or (not args.bots and not args.extra):
        parser.error("--twins and --bots are required (--twins alone with --extra N)")
    twin_specs = tuple(args.twins.split(";"))
    specs = tuple(args.bots.split(";")) if args.bots and not args.extra else ()
    for s in (twin_specs, specs):
        if s and len(s) != 2:
            parser.error("--bots and --twins take two bot specs separated by ';'")
    if args.extra:
        first, last = EXTRA_FIRST + args.first, EXTRA_FIRST + args.first + args.extra
    else:
        first, last = args.first, args.games
        if not 0 <= first < last:
            parser.error("--first must lie in [0, --games)")
    twin_setup = Setup(twin_specs, last, args.players, Rules(), args.seed)
    check_setup(twin_setup)
    twins = [make_bot(s) for s in twin_specs]
    setup = Setup(specs, last, args.players, Rules(), args.seed) if specs else None
    bots = [make_bot(s) for s in specs]
    if setup:
        check_setup(setup)
    done: list[dict[str, float]] = []
    if args.out and args.resume and args.out.exists():
        done = [json.loads(line) for line in args.out.read_text().splitlines()]
        if done:
            first = int(done[-1]["deal"]) + 1
    elif args.out:
        args.out.write_text("")
    c0, t0 = time.process_time(), time.perf_counter()
    cpu_main = cpu_twin = 0.0
    for i in range(first, last):
        row: dict[str, float] = {"deal": i}
        if setup:
            c = time.process_time()
            row["a"], row["b"] = play_deal(setup, i, bots).means
            cpu_main += time.process_time() - c
        c = time.process_time()
        row["ta"], row["tb"] = play_deal(twin_setup, i, twins).means
        cpu_twin += time.process_time() - c
        done.append(row)
        if args.out:
            with args.out.open("a") as f:
                f.write(json.dumps(row) + "\n")
        if len(done) % 10 == 0:
            key = ("a", "b") if setup else ("ta", "tb")
            d = [r[key[0]] - r[key[1]] for r in done]
            print(f"  {i + 1 - (EXTRA_FIRST if args.extra else 0)} deals: "
                  f"{key[0]} - {key[1]} {plain(d)}; {time.process_time() - c0:.0f} s CPU",
                  flush=True)
    load = os.getloadavg()
    print(f"A = {specs or '-'}, twins = {twin_specs}: {args.players} seats, seed {args.seed}, "
          f"deals {first - (EXTRA_FIRST if args.extra else 0)}..; "
          f"{time.perf_counter() - t0:.0f} s wall, CPU {cpu_main:.0f} s bots + "
          f"{cpu_twin:.0f} s twins; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    if setup:
        report(done)
    elif len(done) >= 2:
        print(f"twins A' - B' per round: {plain([r['ta'] - r['tb'] for r in done])}")


if __name__ == "__main__":
    main()
