"""Make a database with the code of an earlier release, for the upgrade tests.

Run it with that release's code first on the path (a temporary worktree at its commit):

    git worktree add --detach /tmp/old <commit>
    cd /tmp/old && PYTHONPATH=/tmp/old/src python <this file> OUT.db OUT.json

Through that release's table service, bots and people play: a Nain Jaune table of bots to its
end, one where Ann (a person) is to play after a few moves; a Spit and a Speed table of bots
to their end, and one each where two people made a few moves. ``OUT.json`` is what that code
saw of every table (its status, number of entries, record or views) for the test to compare.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any, cast

from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.table import NainJauneTable, action_text
from cardroom.store import EventStore
from cardroom.tables import SeatSpec, TableConfig, TableService
from cardroom.tables.realtime import RealtimeConfig, RealtimeTable

FAST = "reaction:min=0.004,max=0.012"


async def until(condition: Any, steps: int = 60000) -> None:
    for _ in range(steps):
        if condition():
            return
        await asyncio.sleep(0.002)
    raise AssertionError("never")


async def nain_jaune(service: TableService, seed: int, person: bool) -> str:
    rules = Rules.from_options("classic", {"end": "rounds:2" if person else "rounds:1"})
    first = SeatSpec("person", name="Ann") if person else SeatSpec("person")
    config = TableConfig(
        rules=rules,
        seats=(first, SeatSpec("bot", "easy"), SeatSpec("bot", "medium")),
        seed=seed,
        level="easy",
        bot_delay=0,
        takeover_after=0,
    )
    created = await service.create(config)
    table_id = created.table_id
    if not person:
        await service.start_now(table_id, 0)
        await until(lambda: service.table(table_id).status == "over")
        return table_id
    rng = random.Random(seed)
    for _ in range(6):  # Ann plays six times, then it is her turn again and she waits
        table = cast(NainJauneTable, service.table(table_id))
        await until(lambda: (t := service.table(table_id).turn()) is not None and t.seat == 0)
        table = cast(NainJauneTable, service.table(table_id))
        assert table.round is not None
        action = rng.choice(table.round.legal_actions())
        await service.act(table_id, 0, action_text(action), table.seq)
    await until(lambda: (t := service.table(table_id).turn()) is not None and t.seat == 0)
    return table_id


async def realtime(service: TableService, game: str, seed: int, people: bool) -> str:
    if not people:
        bot = SeatSpec("bot", FAST)
        options = {"countdown": "0.1"}
        config = RealtimeConfig(game=game, options=options, seats=(bot, bot), seed=seed)
        created = await service.create_realtime(config)
        table_id = created.table_id
        await until(lambda: service.realtime.frame_for(table_id, None)["status"] == "over")
        return table_id
    config = RealtimeConfig(
        game=game,
        options={"countdown": "0"},
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
        seed=seed,
    )
    created = await service.create_realtime(config)
    table_id = created.table_id
    await service.join(table_id, 1, "Bob")
    rng = random.Random(seed)
    made = 0
    for _ in range(200):
        if made >= 6:
            break
        table = service.realtime._live[table_id].table
        engine = table.engine
        seat = rng.randrange(2)
        legal = engine.legal_actions(seat)
        if not legal:
            continue
        action = rng.choice(legal)
        data = engine.action_to_json(action)
        if data["type"] == "play" and data.get("seen") is None:
            top = engine.view(seat).centre[data["pile"]]
            data["seen"] = top.code if top is not None else None
        try:
            await service.act_realtime(table_id, seat, data)
            made += 1
        except Exception as exc:  # a refusal is logged too: go on
            print(f"refused: {exc}", file=sys.stderr)
    return table_id


def seen(table_id: str, entries: list[Any]) -> dict[str, Any]:
    created = entries[0].data
    if created["config"].get("game", "nain-jaune") == "nain-jaune":
        nj = NainJauneTable.replay(table_id, entries)
        turn = nj.turn()
        return {
            "game": "nain-jaune",
            "status": nj.status,
            "entries": len(entries),
            "record": nj.record(),
            "chips": list(nj.game.chips) if nj.game is not None else None,
            "turn": None if turn is None else turn.seat,
        }
    rt = RealtimeTable.replay(table_id, entries)
    record = rt.record()
    return {
        "game": record["game"],
        "status": rt.status,
        "entries": len(entries),
        "actions": record["actions"],
        "start": record["start"],
        "views": [rt.frame(s)["table_view"] for s in (0, 1)],
    }


async def main(out: Path, expected: Path) -> None:
    store = await EventStore.open(str(out))
    service = TableService(store)
    ids = [
        await nain_jaune(service, 1, person=False),
        await nain_jaune(service, 2, person=True),
        await realtime(service, "spit", 3, people=False),
        await realtime(service, "speed", 4, people=False),
        await realtime(service, "spit", 5, people=True),
        await realtime(service, "speed", 6, people=True),
    ]
    await service.stop()
    tables = {tid: seen(tid, await store.entries(tid)) for tid in ids}
    await store.close()
    with sqlite3.connect(out) as conn:  # one small self-contained file
        conn.execute("PRAGMA journal_mode=DELETE")
    with sqlite3.connect(out) as conn:
        conn.execute("VACUUM")
    expected.write_text(json.dumps(tables, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2])))
