"""Leaving a Nain Jaune table, and Play again: the same seats at a new table with new tokens."""

from __future__ import annotations

from typing import cast

import pytest

from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.tables import SeatSpec, TableError, TableService
from tests.tables.helpers import until


def config() -> TableConfig:
    """Ann (seat 0) and Bea (seat 2), both named, and an easy bot; one round."""
    return TableConfig(
        rules=Rules.from_options("classic", {"end": "rounds:1"}),
        seats=(
            SeatSpec("person", name="Ann"),
            SeatSpec("bot", "easy"),
            SeatSpec("person", name="Bea"),
        ),
        seed=7,
        level="easy",
        bot_delay=0,
        takeover_after=0.01,
    )


async def test_leave_then_play_again_with_fresh_tokens(service: TableService) -> None:
    created = await service.create(config())
    tid, ann, bea = created.table_id, created.creator_token, created.invites[2]
    table = cast(NainJauneTable, service.table(tid))
    await until(lambda: table.status == "playing" and 2 in table.taken_over)  # Bea is away
    with pytest.raises(TableError) as refused:  # no rematch before the end
        await service.rematch(tid, 0)
    assert refused.value.code == "forbidden"
    await service.leave(tid, 0)
    assert 0 in table.left and table.taken_over[0] == "easy"
    with pytest.raises(TableError) as exc:  # a person who left cannot play again here
        await service.act(tid, 0, "pass", table.seq)
    assert exc.value.code in ("forbidden", "not-your-turn")
    sub = service.subscribe(tid, 0)  # coming back to the page does not take the seat back
    service.unsubscribe(sub)
    await until(lambda: table.status == "over")
    entries = await service.store.entries(tid)
    kinds = [e.kind for e in entries]
    assert kinds.count("left") == 1 and "returned" not in kinds
    left_at = kinds.index("left")
    after = [e for e in entries[left_at:] if e.kind == "action" and e.data["seat"] == 0]
    assert all(e.data["by"] == "bot" for e in after)
    assert any(ev.get("kind") == "left" and ev["seat"] == 0 for ev in table.events)

    new_id, ann_new = await service.rematch(tid, 0)
    again_id, bea_new = await service.rematch(tid, 2)
    assert again_id == new_id != tid
    assert ann_new and bea_new and len({ann, bea, ann_new, bea_new}) == 4  # fresh tokens
    assert await service.seat_of(new_id, ann_new) == 0
    assert await service.seat_of(new_id, bea_new) == 2
    for old in (ann, bea):
        with pytest.raises(TableError):
            await service.seat_of(new_id, old)
    assert [e.kind for e in await service.store.entries(tid)].count("rematch") == 1
    assert table.frame(2)["rematch"] == f"/t/{new_id}"
    rematch = cast(NainJauneTable, service.table(new_id))
    assert rematch.rematch_of == tid
    assert [(s.kind, s.name, s.level) for s in rematch.cfg.seats] == [
        ("person", "Ann", None),
        ("bot", None, "easy"),
        ("person", "Bea", None),
    ]
    assert rematch.cfg.rules == table.cfg.rules and rematch.cfg.seed != table.cfg.seed
    assert rematch.status != "waiting"  # every person is seated: it starts by itself
    # the new table's log replays (its seat-token entry included)
    replayed = NainJauneTable.replay(new_id, await service.store.entries(new_id))
    assert replayed.token_hashes == rematch.token_hashes
    # Bea asks again (a second tab): the same table, a newer token
    _, bea_newer = await service.rematch(tid, 2)
    assert await service.seat_of(new_id, bea_newer) == 2


async def test_chips_by_round_for_the_chart(service: TableService) -> None:
    created = await service.create(config())
    table = cast(NainJauneTable, service.table(created.table_id))
    await service.leave(created.table_id, 0)
    await until(lambda: table.status == "over")
    chart = table.frame(None)["chips_by_round"]
    assert chart[0] == [60, 60, 60] and len(chart) == 2
    assert table.game is not None and chart[-1] == list(table.game.chips)
