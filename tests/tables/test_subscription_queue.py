"""The loop-bound primitives of tables/subscription.py behave as the asyncio ones they replace:
a connection's bounded frame queue (``asyncio.Queue``), the bots' wake-up flag
(``asyncio.Event``) and ``sleep`` (``asyncio.sleep``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cardroom.tables.subscription import FrameQueue, Subscription, Wake, sleep


def frame(n: int) -> dict[str, int]:
    return {"seq": n}


async def test_frames_come_out_in_order_and_a_full_queue_refuses_the_next() -> None:
    queue = FrameQueue(3)
    assert queue.empty() and queue.qsize() == 0 and not queue.full()
    for n in range(3):
        queue.put_nowait(frame(n))
    assert queue.full() and queue.qsize() == 3
    with pytest.raises(asyncio.QueueFull):
        queue.put_nowait(frame(3))
    assert queue.qsize() == 3  # the refused frame is not in
    assert [await queue.get(), queue.get_nowait(), await queue.get()] == [
        frame(0), frame(1), frame(2)
    ]
    with pytest.raises(asyncio.QueueEmpty):
        queue.get_nowait()


async def test_an_unbounded_queue_takes_any_number() -> None:
    queue = FrameQueue()
    for n in range(1000):
        queue.put_nowait(frame(n))
    assert queue.qsize() == 1000 and not queue.full()


async def test_a_subscription_that_falls_behind_is_emptied_and_told_so() -> None:
    sub = Subscription("t", 0, maxsize=2)
    assert sub._put(frame(0)) and sub._put(frame(1))
    assert not sub._put(frame(2))  # as with asyncio.Queue: full, so emptied, the frame dropped
    assert sub.queue.empty()
    assert sub._put({"resync": True})
    assert await sub.get() == {"resync": True}


async def test_a_waiting_reader_gets_the_next_frame_and_none_ends_the_stream() -> None:
    sub = Subscription("t", None)
    got: list[dict[str, int]] = []

    async def read() -> None:
        async for f in sub:
            got.append(f)

    reader = asyncio.get_running_loop().create_task(read())
    await asyncio.sleep(0)
    assert not reader.done() and got == []  # it waits on an empty queue
    sub._put(frame(1))
    await asyncio.sleep(0)
    assert got == [frame(1)]
    sub._put(frame(2))
    sub._put(None)
    await asyncio.wait_for(reader, 5)
    assert got == [frame(1), frame(2)]


async def test_a_cancelled_reader_takes_nothing_and_the_next_reader_gets_the_frame() -> None:
    queue = FrameQueue(4)
    loop = asyncio.get_running_loop()
    first = loop.create_task(queue.get())
    second = loop.create_task(queue.get())
    await asyncio.sleep(0)
    queue.put_nowait(frame(1))  # wakes the first reader...
    first.cancel()  # ...cancelled before it runs: its wake-up passes to the second
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert first.cancelled()
    assert await asyncio.wait_for(second, 5) == frame(1)
    assert queue.empty()
    # a reader cancelled while waiting leaves no waiter behind
    third = loop.create_task(queue.get())
    await asyncio.sleep(0)
    third.cancel()
    await asyncio.sleep(0)
    assert third.cancelled() and not queue._getters
    queue.put_nowait(frame(2))
    assert queue.get_nowait() == frame(2)


def test_a_queue_waits_on_each_running_loop_in_turn() -> None:
    queue = FrameQueue(4)

    async def put_later_and_get(n: int) -> dict[str, int] | None:
        asyncio.get_running_loop().call_soon(queue.put_nowait, frame(n))
        return await queue.get()

    assert asyncio.run(put_later_and_get(1)) == frame(1)
    assert asyncio.run(put_later_and_get(2)) == frame(2)  # a new loop: looked up again


async def test_wake_is_set_and_cleared_and_wakes_every_waiter() -> None:
    loop = asyncio.get_running_loop()
    wake = Wake()
    assert not wake.is_set()
    waiters = [loop.create_task(wake.wait(loop)) for _ in range(2)]
    await asyncio.sleep(0)
    assert not any(w.done() for w in waiters)
    wake.set()
    await asyncio.wait_for(asyncio.gather(*waiters), 5)
    assert wake.is_set() and not wake._waiters
    await asyncio.wait_for(wake.wait(loop), 5)  # set: returns at once
    wake.clear()
    late = loop.create_task(wake.wait(loop))
    await asyncio.sleep(0)
    assert not late.done()
    late.cancel()
    await asyncio.sleep(0)
    assert late.cancelled() and not wake._waiters  # a cancelled waiter is forgotten
    wake.set()
    assert wake.is_set()


async def test_sleep_resumes_after_its_delay_and_a_cancelled_one_leaves_no_timer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop = asyncio.get_running_loop()
    order: list[str] = []

    async def nap(name: str, delay: float) -> None:
        await sleep(loop, delay)
        order.append(name)

    await asyncio.wait_for(asyncio.gather(nap("long", 0.05), nap("short", 0.0)), 5)
    assert order == ["short", "long"]
    handles: list[asyncio.TimerHandle] = []
    call_later = loop.call_later

    def recording(delay: float, *args: Any) -> asyncio.TimerHandle:
        handles.append(call_later(delay, *args))
        return handles[-1]

    with monkeypatch.context() as patched:  # the running loop notes the timers sleep asks for
        patched.setattr(loop, "call_later", recording)
        task = loop.create_task(sleep(loop, 3600))
        await asyncio.sleep(0)
    assert len(handles) == 1 and not handles[0].cancelled()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert handles[0].cancelled()


async def test_the_end_reaches_a_subscriber_whose_queue_is_full() -> None:
    sub = Subscription("t", 0, maxsize=2)
    assert sub._put(frame(0)) and sub._put(frame(1))
    assert not sub._put(None)  # full: the backlog goes, the end gets in
    assert await asyncio.wait_for(sub.get(), 1) is None
    again = Subscription("t", 0, maxsize=2)
    assert again._put(frame(0)) and again._put(frame(1)) and not again._put(frame(2))
    assert again.queue.empty()  # a frame past a full queue: the backlog goes (a resync follows)
