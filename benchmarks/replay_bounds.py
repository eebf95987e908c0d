"""What a replay upload costs the server, a page of rounds at a time.

Generates a whole game of ``--rounds`` rounds between four random bots (a valid record),
uploads it (compact JSON) to ``POST /api/replay`` of an app in this process: its first page
(the record checked by the engine, then 20 rounds of frames), its second page (the record
recognised, only the page computed), its last page, the first page again (kept), and the same
game cut to 10 rounds (the peer: an ordinary evening's game). Prints one table: answer status,
answer size, CPU and wall time of each request (CPU of this process: the app and the client
share it).

    PYTHONPATH=src:. python benchmarks/replay_bounds.py [--rounds 2100]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from typing import Any

from fastapi.testclient import TestClient

from cardroom.bots import make_bot
from cardroom.games.nain_jaune.engine import Game
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import play_game
from cardroom.web import Settings, create_app

JSON_TYPE = {"Content-Type": "application/json"}


def game_record(rounds: int) -> list[dict[str, Any]]:
    rules = Rules.from_options(None, {"end": f"rounds:{rounds}", "starting_chips": 100_000})
    game = Game(rules, ["Ann", "Bob", "Cy", "Di"], [100_000] * 4)
    game = play_game(game, [make_bot("random")] * 4, seed=1, max_rounds=rounds)
    return list(game.records)


def timed(call: Any) -> tuple[Any, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    answer = call()
    return answer, 1000 * (time.process_time() - cpu), 1000 * (time.perf_counter() - wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2100, help="rounds of the long record")
    args = parser.parse_args()
    record = game_record(args.rounds)
    long_body = json.dumps(record, separators=(",", ":")).encode()
    last = (args.rounds - 1) // 20
    cases = [
        (f"{args.rounds} rounds, page 0 (checked, then 20 rounds)", long_body, 0),
        (f"{args.rounds} rounds, page 1 (recognised)", long_body, 1),
        (f"{args.rounds} rounds, page {last} (the last)", long_body, last),
        (f"{args.rounds} rounds, page 0 again (kept)", long_body, 0),
        ("10 rounds, page 0 (peer)", json.dumps(record[:10], separators=(",", ":")).encode(), 0),
    ]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            db_url=f"sqlite+aiosqlite:///{folder}/b.db", bot_delay=0.0, replay_page_rounds=20
        )
        with TestClient(create_app(settings)) as client:
            for label, body, page in cases:
                answer, cpu, wall = timed(
                    lambda body=body, page=page: client.post(
                        f"/api/replay?page={page}", content=body, headers=JSON_TYPE
                    )
                )
                rows.append((label, len(body), answer.status_code, len(answer.content), cpu, wall))
    load = os.getloadavg()[0]
    print(f"POST /api/replay, CPU of this process (app + client); load avg {load:.1f}")
    print("| upload | bytes in | status | bytes out | CPU ms | wall ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, size, status, out, cpu, wall in rows:
        print(f"| {label} | {size:,} | {status} | {out:,} | {cpu:.0f} | {wall:.0f} |")


if __name__ == "__main__":
    main()
