"""Measure the fixed ratings the web leaderboards give the bots (``web/ratings.py``).

Nain Jaune: ``cardroom tournament nain-jaune --bots easy,medium,hard,expert --games 100
--players 4 --seed 21 --json`` (every deal once per rotation of the bots over the seats; its
OpenSkill Plackett-Luce mu and sigma). Spit and Speed: every pair of levels plays GAMES simulated
games (``sim.spit_speed.play_one``, seats alternating), and the games, shuffled with a fixed seed,
are fed one by one to the same OpenSkill model. Prints one line per game and level.

    PYTHONPATH=src python tools/bot_ratings.py --games 100
"""

from __future__ import annotations

import argparse
import itertools
import random
import time

from openskill.models import PlackettLuce

from cardroom.sim.spit_speed import play_one

LEVELS = ("easy", "medium", "hard", "expert")


def measure(game: str, games: int, seed: int) -> dict[str, tuple[float, float]]:
    """(mu, sigma) per level after every pair's games, in a shuffled order."""
    results: list[tuple[str, str]] = []  # (winner, loser)
    for a, b in itertools.combinations(LEVELS, 2):
        for number in range(games):
            res = play_one(game, [a, b], {}, seed, number)
            if res.winner is not None:
                results.append((a, b) if res.winner == 0 else (b, a))
    random.Random(seed).shuffle(results)
    model = PlackettLuce()
    ratings = {lv: model.rating() for lv in LEVELS}
    for winner, loser in results:
        [[w], [lo]] = model.rate([[ratings[winner]], [ratings[loser]]], ranks=[1, 2])
        ratings[winner], ratings[loser] = w, lo
    return {lv: (float(r.mu), float(r.sigma)) for lv, r in ratings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pair of levels")
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    for game in ("speed", "spit"):
        started = time.process_time()
        got = measure(game, args.games, args.seed)
        took = time.process_time() - started
        for level, (mu, sigma) in got.items():
            print(f"{game:6} {level:7} mu {mu:6.2f} sigma {sigma:5.2f}")
        print(f"{game}: {args.games} games per pair, {took:.1f} s CPU")


if __name__ == "__main__":
    main()
