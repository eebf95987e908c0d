"""Make records with the code of an earlier commit, for the corpus of ``tests/data/records/``.

Run it with that commit's code first on the path (a temporary worktree at the commit):

    git worktree add --detach /tmp/rec-<commit> <commit>
    PYTHONPATH=/tmp/rec-<commit>/src python <this file> <commit> tests/data/records

It plays seeded games with that commit's own engines and bots and saves each record as the
commit's terminal saved it: a Nain Jaune game (its rounds), a Speed game whose countdowns run
out, a Speed match to a target score and, where the commit has Spit, a Spit game. Beside each
``<game>-<commit>.json`` it writes what that code said of the game in ``outcomes.json``
(merged with what is there), for the test to compare with today's replay.

``spit-api-a0f2019.json`` was made at a0f2019 (Spit and the arbiter before a6487c5, but no
Spit bot nor terminal yet) by that commit's ``Arbiter``, ``SpitGame`` and ``record_header``
driven by random legal actions (``random.Random(39)``, a step of 0.1-1.5 s, deal seed 5039);
``speed-countdown-380ca22.json`` is game seed 1051, countdown 3, of this script's
``realtime_game`` at 380ca22 (one of 8 in 120 that replay only under Speed's rules version 1).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any, cast

from cardroom.games.nain_jaune.table import NainJauneTable


def _module(*names: str) -> Any:
    for name in names:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def nain_jaune(seed: int, options: dict[str, str] | None = None) -> tuple[Any, dict[str, Any]]:
    from cardroom.games.nain_jaune.engine import Game
    from cardroom.games.nain_jaune.rules import Rules

    rules = Rules.from_options("classic", {"end": "rounds:3", **(options or {})})
    game = Game(rules=rules, names=["Ann", "Bob", "Cleo", "Dai"])
    rng = random.Random(seed)
    while not game.over:
        rnd = game.start_round(rng)
        while not rnd.over:
            rnd.apply(rng.choice(rnd.legal_actions()))
        game.finish_round()
    result = game.result
    outcome = {
        "chips": list(game.chips),
        "winners": list(result.winners) if result is not None else None,
        "rounds": game.rounds_played,
    }
    return list(game.records), outcome


def _sim() -> Any:
    return _module("cardroom.sim.realtime", "cardroom.sim.realtime")


def _result(engine: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"winner": engine.winner, "over": bool(engine.over)}
    result = getattr(engine, "result", None)
    if result is not None and hasattr(result, "points"):
        out["points"] = result.points
        out["blocked"] = bool(getattr(result, "blocked", False))
    return out


def realtime_game(game: str, seed: int, options: dict[str, str]) -> tuple[Any, dict[str, Any]]:
    from cardroom.games.registry import new_engine

    sim = _sim()
    record_module = importlib.import_module(f"cardroom.games.{game}.record")
    engine = new_engine(game, options, seed)
    names = ["Ann", "Bot"]
    rngs = [random.Random(f"{seed}/{s}") for s in (0, 1)]
    table = sim.new_table(engine, ["medium", "easy"], rngs, names)
    sim.run_table(table)
    header = record_module.record_header(engine, names)
    out = _result(engine)
    out["timeouts"] = table.arbiter.timeouts
    return table.arbiter.record(header), out


def speed_match(seed: int, options: dict[str, str]) -> tuple[Any, dict[str, Any]]:
    sim = _sim()
    from cardroom.games.speed import SpeedMatch, SpeedRules
    from cardroom.games.speed.record import record_header

    match = SpeedMatch(SpeedRules.from_options(dict(options)), seed)
    engine = match.game
    names = ["Ann", "Bot"]
    records = []
    games = []
    for number in range(20):
        rngs = [random.Random(f"{seed}/{number}/{s}") for s in (0, 1)]
        table = sim.new_table(engine, ["medium", "easy"], rngs, names)
        finished = sim.run_table(table)
        records.append(table.arbiter.record(record_header(engine, names, match)))
        games.append(_result(engine))
        if not finished or match.over:
            break
        engine = match.next_game()
    outcome = {"games": games, "scores": list(match.scores), "winner": match.winner}
    return records, outcome


def web_tables(folder: Path) -> dict[str, tuple[Any, dict[str, Any]]]:
    """A Nain Jaune, a Spit and a Speed table of bots played to the end through the commit's
    table service (as ``cardroom serve`` plays them); their records as the web hands them out."""
    import asyncio
    import tempfile

    from cardroom.games.nain_jaune import Rules
    from cardroom.store import EventStore
    from cardroom.tables import SeatSpec, TableConfig, TableService

    realtime = _module("cardroom.tables.realtime", "cardroom.tables.realtime")

    async def until(condition: Any) -> None:
        for _ in range(60000):
            if condition():
                return
            await asyncio.sleep(0.002)
        raise AssertionError("the table never ended")

    async def play() -> dict[str, tuple[Any, dict[str, Any]]]:
        out: dict[str, tuple[Any, dict[str, Any]]] = {}
        with tempfile.TemporaryDirectory() as tmp:
            store = await EventStore.open(str(Path(tmp) / "web.db"))
            service = TableService(store)
            rules = Rules.from_options("classic", {"end": "rounds:2"})
            seats = (SeatSpec("person"), SeatSpec("bot", "easy"), SeatSpec("bot", "medium"))
            config = TableConfig(
                rules=rules, seats=seats, seed=21, level="easy", bot_delay=0, takeover_after=0
            )
            created = await service.create(config)
            await service.start_now(created.table_id, 0)
            await until(lambda: service.table(created.table_id).status == "over")
            table = cast(NainJauneTable, service.table(created.table_id))
            assert table.game is not None
            out["nain-jaune"] = (
                await service.record(created.table_id),
                {"chips": list(table.game.chips), "rounds": table.game.rounds_played},
            )
            for n, game in enumerate(("spit", "speed")):
                for level in ("reaction:min=0.004,max=0.012", "expert"):  # older: names only
                    bot = SeatSpec("bot", level)
                    rt = realtime.RealtimeConfig(
                        game=game, options={"countdown": "0.1"}, seats=(bot, bot), seed=22 + n
                    )
                    try:
                        made = await service.create_realtime(rt)
                        break
                    except ValueError:
                        continue
                tid = made.table_id
                await until(lambda: service.realtime.frame_for(tid, None)["status"] == "over")  # noqa: B023
                engine = service.realtime._live[tid].table.engine
                out[game] = (await service.record(tid), _result(engine))
            await service.stop()
            await store.close()
        return out

    return asyncio.run(play())


def main(commit: str, folder: Path) -> None:
    made: dict[str, Any] = {}
    if _module("cardroom.store") is not None:
        for game, value in web_tables(folder).items():
            made[f"web-{game}-{commit}.json"] = value
    made[f"nain-jaune-{commit}.json"] = nain_jaune(11)
    # announcements made by hand, stopping allowed: where the commit has these options
    with contextlib.suppress(ValueError):
        made[f"nain-jaune-manual-{commit}.json"] = nain_jaune(
            15, {"announce": "manual", "may_stop": "true"}
        )
    made[f"speed-{commit}.json"] = realtime_game("speed", 12, {"countdown": "1"})
    made[f"speed-match-{commit}.json"] = speed_match(13, {"countdown": "1", "target": "12"})
    if _module("cardroom.games.spit") is not None:
        made[f"spit-{commit}.json"] = realtime_game("spit", 14, {"countdown": "1"})
    outcomes_path = folder / "outcomes.json"
    outcomes = json.loads(outcomes_path.read_text()) if outcomes_path.exists() else {}
    for name, (record, outcome) in made.items():
        (folder / name).write_text(json.dumps(record, separators=(",", ":")) + "\n")
        outcomes[name] = {"commit": commit, **outcome}
    outcomes_path.write_text(json.dumps(outcomes, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
