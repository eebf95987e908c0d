"""How fast the search bots decide, beside the heuristic bot and the readable engine's rollouts.

Plays a few 4-player classic rounds (heuristic at every seat) and times every decision of seats
0 and 2 that had more than one distinct choice: the compiled ``expert`` at its default budget,
at 30 ms and at a fixed number of worlds, and the readable ``search`` at its default budget
and at a fixed number of worlds, and OpenSpiel's ISMCTS (the ``ismcts`` peer, when the
research extra is installed) at 150 ms; on the same positions it times the heuristic bot's decision
and random rollouts through the readable engine. A rollout is one candidate played out in one
world (a world costs one rollout per candidate). Prints one table.

    PYTHONPATH=src python benchmarks/search_bot.py [--rounds 6]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from cardroom.bots import make_bot
from cardroom.games.nain_jaune import Round, Rules, view_of
from cardroom.games.nain_jaune.bots.expert import ExpertBot
from cardroom.games.nain_jaune.bots.search import SearchBot, candidates
from cardroom.games.nain_jaune.view import RoundView


def positions(rounds: int) -> list[RoundView]:
    """The search seats' views with more than one distinct choice, from heuristic-played rounds."""
    out = []
    bot = make_bot("heuristic")
    for d in range(rounds):
        rnd = Round.deal(Rules(), [60] * 4, [0] * 5, 0, random.Random(f"bench/{d}"))
        rng = random.Random(d)
        while rnd.result is None:
            view = view_of(rnd, rnd.to_act)
            if rnd.to_act % 2 == 0 and len(candidates(view)) > 1:
                out.append(view)
            rnd.apply(bot.act(view, rng))
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    views = positions(args.rounds)
    rows: list[tuple[str, float, float, str]] = []
    make_bot("expert:iterations=1").act(views[0], random.Random(0))  # compile or load the cache
    specs = ["expert", "expert:ms=30", "expert:iterations=2000", "search", "search:iterations=50"]
    try:  # OpenSpiel's ISMCTS, the tournament peer (research extra)
        import cardroom.games.nain_jaune.research.openspiel_bot  # noqa: F401

        specs.append("ismcts:ms=150")
    except ImportError:
        pass
    for spec in specs:
        bot = make_bot(spec)
        times, worlds, rollouts = [], 0, 0
        for i, view in enumerate(views):
            t = time.perf_counter()
            bot.act(view, random.Random(i))
            times.append(time.perf_counter() - t)
            worlds += getattr(bot, "last_iterations", 0)
            rollouts += getattr(bot, "last_iterations", 0) * len(candidates(view))
        per_s = worlds / sum(times)
        if isinstance(bot, SearchBot | ExpertBot):
            rates = f"{per_s:,.0f} worlds/s, {rollouts / sum(times):,.0f} rollouts/s"
        else:
            rates = f"{per_s:,.0f} simulations/s ({worlds / len(views):.0f} a move)"
        rows.append((spec, statistics.median(times), pct(times, 0.95), rates))
    heuristic = make_bot("heuristic")
    times = []
    for i, view in enumerate(views):
        t = time.perf_counter()
        heuristic.act(view, random.Random(i))
        times.append(time.perf_counter() - t)
    rows.append(("heuristic", statistics.median(times), pct(times, 0.95), "-"))
    # the readable engine: random rollouts from fresh 4-player deals
    rng = random.Random(0)
    t = time.perf_counter()
    rollouts = actions = 0
    while time.perf_counter() - t < 1.0:
        rnd = Round.deal(Rules(), [60] * 4, [0] * 5, 0, rng)
        while rnd.result is None:
            legal = rnd.legal_actions()
            rnd.apply(legal[rng.randrange(len(legal))])
            actions += 1
        rollouts += 1
    elapsed = time.perf_counter() - t
    rows.append(
        (
            "engine random rollouts",
            elapsed / rollouts,
            float("nan"),
            f"{rollouts / elapsed:,.0f} rollouts/s ({actions / elapsed:,.0f} actions/s)",
        )
    )
    print(f"{len(views)} decisions with more than one distinct choice, 4-player classic")
    print(f"{'who':<24} {'median ms':>10} {'p95 ms':>8}  throughput")
    for name, median, p95, extra in rows:
        p95_text = "-" if p95 != p95 else f"{1000 * p95:8.2f}"
        print(f"{name:<24} {1000 * median:10.2f} {p95_text:>8}  {extra}")


if __name__ == "__main__":
    main()
