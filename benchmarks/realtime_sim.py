"""Throughput of the real-time simulation: reaction bots on the virtual clock, in games/s.

The peer, measured in the same run, is the same discrete-event loop with ``random`` bots (a
uniformly random legal action 0.05 s after every change, no strategy): what the engine, the
arbiter and the views cost without the human-like bots' planning.

    PYTHONPATH=src python benchmarks/realtime_sim.py [--games 300]
"""

from __future__ import annotations

import argparse
import importlib.util
import time

from cardroom.sim.realtime import play_one

CONFIGS = [("random", "random"), ("expert", "easy"), ("hard", "hard"), ("medium", "medium")]


def measure(game: str, bots: tuple[str, str], games: int) -> tuple[float, float, float]:
    """(games per wall second, games per CPU second, mean actions per game) for ``games`` games
    from seed 1. CPU seconds are what the machine's other load does not change."""
    start, cpu = time.perf_counter(), time.process_time()
    actions = 0
    for n in range(games):
        actions += play_one(game, list(bots), {}, 1, n).actions
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    return games / elapsed, games / used, actions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    print(f"{'game':<6} {'bots':<16} {'games/s':>8} {'games/cpu-s':>12} {'actions/game':>13} "
          f"{'vs random':>10} {'1000 games':>11}")
    for game in ("speed", "spit"):
        if importlib.util.find_spec(f"cardroom.games.{game}") is None:
            print(f"{game:<6} (engine not installed)")
            continue
        peer = None
        for bots in CONFIGS:
            rate, cpu_rate, per_game = measure(game, bots, args.games)
            peer = peer or cpu_rate
            print(f"{game:<6} {','.join(bots):<16} {rate:8.1f} {cpu_rate:12.1f} {per_game:13.1f} "
                  f"{cpu_rate / peer:10.2f} {1000 / rate:10.1f}s")


if __name__ == "__main__":
    main()
