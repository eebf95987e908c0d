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


async def two_sleepers(gap: float, tick: float) -> tuple[float, float, float]:
    """Two 20 ms sleeps begun ``gap`` apart: when each woke, and when the second began."""
    loop = asyncio.get_running_loop()
    woke: dict[str, float] = {}

    async def sleeper(name: str) -> None:
        await sleep(loop, 0.02, tick)
        woke[name] = loop.time()

    first = asyncio.create_task(sleeper("first"))
    await asyncio.sleep(gap)
    second = asyncio.create_task(sleeper("second"))
    started = loop.time()
    await asyncio.gather(first, second)
    return woke["first"], woke["second"], started


async def test_sleepers_due_within_one_tick_wake_together() -> None:
    loop = asyncio.get_running_loop()
    tick = 0.2
    # start just after a tick, so that both delays end well inside the same tick
    await asyncio.sleep(on_tick(loop.time(), tick) + 0.005 - loop.time())
    first, second, started = await two_sleepers(0.03, tick)
    # without the tick they would wake 30 ms apart
    assert abs(first - second) < 0.01
    assert second >= started + 0.02


async def test_without_a_tick_sleepers_keep_their_own_times() -> None:
    first, second, _ = await two_sleepers(0.06, 0.0)
    assert second - first > 0.03
