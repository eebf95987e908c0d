"""What the table service keeps alive between changes: nothing of a change once its frames are
built, nothing of a bot's move through the next move's delay. Objects alive when the server's
GC keeper steps are walked by its collection (``web/gcpause.py``)."""

from __future__ import annotations

import dataclasses
from types import CoroutineType
from typing import Any, cast

from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.tables import SeatSpec, TableConfig, TableService
from tests.tables.helpers import bot_config, until


def _awaited_chain(coro: Any) -> list[Any]:
    """``coro`` and the coroutines it awaits, outermost first."""
    chain = []
    while isinstance(coro, CoroutineType):
        chain.append(coro)
        coro = coro.cr_await
    return chain


async def test_the_bots_loop_holds_nothing_of_a_move_through_the_next_delay(
    service: TableService,
) -> None:
    config = dataclasses.replace(bot_config(seed=5, players=3), bot_delay=0.05)
    created = await service.create(config)
    tid = created.table_id
    await service.start_now(tid, 0)
    live = service.turns._live[tid]
    first = service.table(tid).seq
    seen: list[dict[str, Any]] = []

    def in_a_delay_after_a_move() -> bool:
        task = live.bot_task
        if task is None or service.table(tid).seq < first + 3:
            return False
        chain = _awaited_chain(task.get_coro())
        names = [c.cr_code.co_name for c in chain]
        if "_bots_play" not in names or names[-1] != "sleep":
            return False
        seen.append(dict(chain[names.index("_bots_play")].cr_frame.f_locals))
        return len(seen) >= 3

    await until(in_a_delay_after_a_move)
    for local in seen:
        assert "seq" in local and "table" in local  # the loop's own state is there
        assert not {"turn", "rnd", "view", "rng", "action"} & set(local), sorted(local)


async def test_a_change_keeps_no_shared_frame_parts_once_its_frames_are_built(
    service: TableService,
) -> None:
    config = TableConfig(
        rules=Rules(),
        seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Cy")),
        seed=3,
        bot_delay=0,
    )
    created = await service.create(config)
    tid = created.table_id
    table = cast(NainJauneTable, service.table(tid))
    assert table.status == "playing" and table.round is not None  # both seats named: started
    subs = [service.subscribe(tid, 0)]
    subs.append(service.subscribe(tid, 1))  # a change: seat 0's page sees seat 1 present
    assert table._shared is None  # dropped once the change's frames were built
    assert subs[0].queue.qsize() == 2  # the full state, then seat 1 present
    last: list[dict[str, Any]] = []
    for sub in subs:
        frames = [sub.queue.get_nowait() for _ in range(sub.queue.qsize())]
        assert frames[-1] is not None
        last.append(frames[-1])
    assert [f["you"] for f in last] == [0, 1]
    # the two seats' frames still share the change's public parts (built once)
    assert last[0]["seats"] is last[1]["seats"]
    assert last[0]["round"]["board"] is last[1]["round"]["board"]
    assert last[0]["round"]["hand"] != last[1]["round"]["hand"]
    # and a frame built again is the same frame
    again = table.frame(0, None, {0, 1}, None)
    assert {k: v for k, v in again.items() if k != "events"} == {
        k: v for k, v in last[0].items() if k != "events"
    }
