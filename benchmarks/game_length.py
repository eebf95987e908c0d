"""How long a Nain Jaune game lasts at a web table: the figures behind the lobby's estimate.

For each number of players it simulates many rounds between medium bots (``greedy``, the
lobby's default level) with the fast path, counts the actions of a round (cards and "without"
passes: at a web table every bot action waits ``bot_delay``) and the rounds of a game for each
way of ending it, and turns them into minutes: ``rounds x (actions x bot_delay + pause)``,
where ``pause`` is the time between two rounds (a person pressing "Next round").

The peer, measured in the same run with ``--real``, is one real round at a real table
(``TableService`` on a temporary SQLite file, medium bots, the absent creator's seat taken
over by a bot at once, the default ``bot_delay``): its wall time beside the time the model
predicts for that very deal's actions.

    PYTHONPATH=src python benchmarks/game_length.py [--rounds 20000] [--real]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.simulate import Simulation, run, summarize
from cardroom.tables.config import TableConfig

PAUSE = 10.0
"""Seconds between two rounds: reading the settlement, then "Next round"."""
ENDS = ("broke", "last-standing", "target:120")


def simulate(players: int, end: str, rounds: int) -> tuple[float, float]:
    """(actions per round, rounds per game) of medium bots at classic rules ending by ``end``."""
    sim = Simulation.build(rounds, players, "classic", {"end": end}, ["greedy"], seed=1)
    stats, seconds = run(sim)
    summary = summarize(sim, stats, seconds)
    actions = summary["cards_per_round"] + summary["passes_per_round"]
    return actions, summary["games"]["rounds_per_game"]


async def real_round(players: int) -> tuple[float, int]:
    """Wall seconds of one round at a real table of medium bots, and its number of actions."""
    from cardroom.store import EventStore
    from cardroom.tables import SeatSpec, TableService

    with tempfile.TemporaryDirectory() as tmp:
        store = await EventStore.open(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}")
        service = TableService(store)
        await service.start()
        try:
            config = TableConfig(
                rules=Rules.from_options("classic", {"end": "rounds:1"}),
                seats=(
                    SeatSpec("person", name="Bench"),
                    *(SeatSpec("bot", "medium") for _ in range(players - 1)),
                ),
                seed=7,
                takeover_after=0.1,  # the absent creator's seat is played by a bot too
            )
            start = time.perf_counter()
            created = await service.create(config)
            while True:
                rows = await service.list_tables(limit=10)
                row = next(r for r in rows if r["id"] == created.table_id)
                if row["status"] in ("round-over", "over"):
                    break
                await asyncio.sleep(0.2)
            elapsed = time.perf_counter() - start
            entries = await store.entries(created.table_id)
            actions = sum(1 for e in entries if e.kind == "action")
        finally:
            await service.stop()
            await store.close()
    return elapsed, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--real", action="store_true", help="also time one real 4-player round")
    parser.add_argument("--only-real", action="store_true", help="only the real round")
    args = parser.parse_args()
    delay = TableConfig.__dataclass_fields__["bot_delay"].default
    assert isinstance(delay, float)
    print(f"bot_delay {delay} s, pause between rounds {PAUSE} s, classic rules, 60 chips")
    print(
        f"{'players':>7} {'actions/round':>13} {'min/round':>9} "
        + " ".join(f"{e + ' rounds':>20} {'min':>5}" for e in ENDS)
    )
    for players in range(2, 9) if not args.only_real else ():
        cells = []
        per_round = 0.0
        for end in ENDS:
            actions, rounds = simulate(players, end, args.rounds)
            per_round = (actions * delay + PAUSE) / 60
            cells.append(f"{rounds:>20.2f} {rounds * per_round:>5.1f}")
        print(f"{players:>7} {actions:>13.1f} {per_round:>9.2f} " + " ".join(cells))
    if args.real or args.only_real:
        seconds, actions = asyncio.run(real_round(4))
        print(
            f"real 4-player round: {seconds:.1f} s wall for {actions} actions; "
            f"the model says {actions * delay:.1f} s"
        )


if __name__ == "__main__":
    main()
