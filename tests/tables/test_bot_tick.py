"""Bots' moves on a shared tick (``tables/subscription.py``'s ``sleep`` with ``tick``): a sleeper
wakes at the first multiple of the tick after its delay, so sleepers due within one tick of
each other wake in one loop turn (and the bots' entries share one commit)."""

from __future__ import annotations

import asyncio
import math

from hypothesis import given
from hypothesis import strategies as st

from cardroom.tables.subscription import on_tick, sleep


@given(
    at=st.floats(min_value=0, max_value=1e7, allow_nan=False),
    tick=st.sampled_from([0.001, 0.00625, 0.05, 0.1]),
)
def test_a_tick_puts_a_time_off_to_its_next_multiple_and_never_by_a_whole_tick(
    at: float, tick: float
) -> None:
    woke = on_tick(at, tick)
    assert woke >= at
    assert woke - at < tick + 1e-9 * max(1.0, at)
    assert math.isclose(woke / tick, round(woke / tick), abs_tol=1e-6)


def test_no_tick_leaves_the_time_as_it_is() -> None:
    assert on_tick(12.3456, 0.0) == 12.3456


async def test_sleepers_due_within_one_tick_wake_together() -> None:
    loop = asyncio.get_running_loop()
    tick = 0.2
    # start just after a tick, so that both delays end well inside the same tick
    await asyncio.sleep(on_tick(loop.time(), tick) + 0.005 - loop.time())
    woke: dict[str, float] = {}

    async def sleeper(name: str, delay: float) -> None:
        await sleep(loop, delay, tick)
        woke[name] = loop.time()

    first = asyncio.create_task(sleeper("first", 0.02))
    await asyncio.sleep(0.03)
    second = asyncio.create_task(sleeper("second", 0.02))
    started = loop.time()
    await asyncio.gather(first, second)
    # without the tick they would wake 30 ms apart
    assert abs(woke["first"] - woke["second"]) < 0.01
    assert woke["second"] >= started + 0.02


async def test_without_a_tick_sleepers_keep_their_own_times() -> None:
    loop = asyncio.get_running_loop()
    woke: dict[str, float] = {}

    async def sleeper(name: str, delay: float) -> None:
        await sleep(loop, delay)
        woke[name] = loop.time()

    first = asyncio.create_task(sleeper("first", 0.02))
    await asyncio.sleep(0.06)
    second = asyncio.create_task(sleeper("second", 0.02))
    await asyncio.gather(first, second)
    assert woke["second"] - woke["first"] > 0.03
