"""Throughput of cardroom's Nain Jaune beside OpenSpiel and RLCard, all measured in this run.

    python benchmarks/throughput.py [--seconds S] [--slices K] [--bulk-rounds N]

Prints one table. Every figure is on one core (one process, one thread) and is timed with the
thread's CPU clock (``time.thread_time``), so other work on a shared machine is not counted:

* bulk: the numba fast path (``cardroom.games.nain_jaune.kernel.run_chunk``) playing random
  4-player rounds of the classic rules as games back to back (what ``cardroom simulate
  nain-jaune`` runs);
* step API: a Python loop over the readable engine, ``Round.legal_actions()`` then
  ``Round.apply()`` with a uniformly random legal action, dealing a new round when one ends;
* OpenSpiel ``crazy_eights`` and RLCard ``uno``: the same kind of loop over their Python APIs
  (legal actions, then apply a uniformly random one; chance outcomes sampled the same way).

The step loops run in turns (``--slices``, each loop ``--seconds`` in all), so a change of load
on a shared machine hits them alike.

Every loop, ours and the peers', takes a single legal action (or chance outcome) without
drawing from its generator, as ``RandomBot`` does.

``x step API`` is each row's actions per second divided by our step API's.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

Row = tuple[str, float | None, float | None, float | None, str]
"""(name, actions/s, rounds/s, cards/s, note)"""


Loop = Callable[[float], tuple[int, int, int]]
"""Plays whole rounds for about the given CPU seconds; returns actions, rounds, cards."""


def interleaved(loops: list[Loop], seconds: float, slices: int) -> list[tuple[float, ...]]:
    """Run each loop for about ``seconds`` in all, in ``slices`` turns taken in rotation (so a
    change of load on a shared machine hits every loop alike); returns for each loop its
    actions/s, rounds/s and cards/s."""
    for loop in loops:
        loop(min(0.2, seconds / 5))  # warm up
    totals = [[0.0, 0, 0, 0] for _ in loops]
    for _ in range(slices):
        for loop, total in zip(loops, totals, strict=True):
            start = time.thread_time()
            actions, rounds, cards = loop(seconds / slices)
            total[0] += time.thread_time() - start
            total[1] += actions
            total[2] += rounds
            total[3] += cards
    return [(a / t, r / t, c / t) for t, a, r, c in totals]


def bulk(rounds: int) -> Row:
    import numpy as np

    from cardroom.games.nain_jaune import Rules
    from cardroom.games.nain_jaune import kernel as fast
    from cardroom.kernels.streams import derive_seed

    r = fast.encode_rules(Rules())
    policies = fast.encode_policies(["random"] * 4)
    fast.run_chunk(r, policies, derive_seed(0), 0, 1000)  # compile or load the cache
    best: Any = None
    for attempt in range(3):  # the best of three: other work on the machine only slows us
        start = time.thread_time()
        stats = fast.run_chunk(r, policies, derive_seed(attempt), 0, rounds)
        elapsed = time.thread_time() - start
        if best is None or elapsed < best[0]:
            best = (elapsed, stats)
    elapsed, stats = best
    assert int(np.int64(stats[fast.ST_ROUNDS])) == rounds
    return (
        "cardroom bulk (numba fast path), random 4p",
        stats[fast.ST_ACTIONS] / elapsed,
        rounds / elapsed,
        stats[fast.ST_CARDS] / elapsed,
        f"{stats[fast.ST_CARDS] / rounds:.1f} cards, {stats[fast.ST_ACTIONS] / rounds:.1f} "
        "actions a round",
    )


def step_api() -> tuple[str, Loop | None, str]:
    from cardroom.games.nain_jaune import Round, Rules

    rules = Rules()
    rng = random.Random(1)

    def loop(budget: float) -> tuple[int, int, int]:
        actions = rounds = cards = 0
        end = time.thread_time() + budget
        while time.thread_time() < end:
            rnd = Round.deal(rules, [60] * 4, [0] * 5, rounds % 4, rng)
            while rnd.result is None:
                legal = rnd.legal_actions()
                n = len(legal)
                rnd.apply(legal[0] if n == 1 else legal[rng.randrange(n)])
                actions += 1
            rounds += 1
            cards += len(rnd.played)
        return actions, rounds, cards

    return ("cardroom step API (readable Round), random 4p", loop, "")


def openspiel() -> tuple[str, Loop | None, str]:
    try:
        import pyspiel
    except ImportError as exc:
        return ("OpenSpiel crazy_eights", None, f"not installed: {exc}")
    game = pyspiel.load_game("crazy_eights")
    rng = random.Random(2)

    def loop(budget: float) -> tuple[int, int, int]:
        actions = rounds = 0
        end = time.thread_time() + budget
        while time.thread_time() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    n = len(outcomes)
                    state.apply_action(outcomes[0 if n == 1 else rng.randrange(n)][0])
                else:
                    legal = state.legal_actions()
                    n = len(legal)
                    state.apply_action(legal[0] if n == 1 else legal[rng.randrange(n)])
                    actions += 1
            rounds += 1
        return actions, rounds, 0

    return ("OpenSpiel crazy_eights (C++ via pyspiel)", loop, "player actions only")


def rlcard_uno() -> tuple[str, Loop | None, str]:
    try:
        import rlcard
    except ImportError as exc:
        return ("RLCard uno", None, f"not installed ({exc}): pip install rlcard")
    env = rlcard.make("uno", config={"seed": 3})
    rng = random.Random(3)

    def loop(budget: float) -> tuple[int, int, int]:
        actions = rounds = 0
        end = time.thread_time() + budget
        while time.thread_time() < end:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                n = len(legal)
                state, _ = env.step(legal[0] if n == 1 else legal[rng.randrange(n)])
                actions += 1
            rounds += 1
        return actions, rounds, 0

    return ("RLCard uno (Python)", loop, "")


def fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per step-loop row")
    parser.add_argument("--slices", type=int, default=10, help="turns the step loops take")
    parser.add_argument("--bulk-rounds", type=int, default=1_000_000, help="rounds per bulk try")
    args = parser.parse_args()
    rows = [bulk(args.bulk_rounds)]
    steps = [step_api(), openspiel(), rlcard_uno()]
    ready = [loop for _, loop, _ in steps if loop is not None]
    rates = iter(interleaved(ready, args.seconds, args.slices))
    for name, loop, note in steps:
        if loop is None:
            rows.append((name, None, None, None, note))
        else:
            a, r, c = next(rates)
            rows.append((name, a, r, c or None, note))
    ours = rows[1][1]
    head = f"{'':48} {'actions/s':>12} {'x step API':>10} {'rounds/s':>11} {'cards/s':>12}  note"
    print(head)
    print("-" * len(head))
    for name, actions, rounds, cards, note in rows:
        ratio = "-" if actions is None or not ours else f"{actions / ours:.2f}"
        figures = f"{fmt(actions):>12} {ratio:>10} {fmt(rounds):>11} {fmt(cards):>12}"
        print(f"{name:48} {figures}  {note}")


if __name__ == "__main__":
    main()
