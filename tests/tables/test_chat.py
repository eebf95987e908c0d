"""TableChat and ChatStore without a server: numbering, the log left alone, feeds (history
first, a line told twice shown once, a slow feed starting again from the history), notices."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cardroom.store import ChatLine, ChatStore, EventStore, LogEntry
from cardroom.store.chat import NOTICE_LIMIT, read_notice
from cardroom.tables.chat import FEED_SIZE, ChatError, TableChat

SEATS = [
    {"seat": 0, "kind": "person", "name": "Ann", "joined": True},
    {"seat": 1, "kind": "person", "name": "", "joined": False},
]


class Seats:
    """A table service's ``frame_for``: Ann sat down at seat 0, seat 1 is empty."""

    def frame_for(self, table_id: str, seat: int | None) -> dict[str, Any]:
        return {"seats": [{"name": "Ann", "joined": True}, {"name": "Seat 2", "joined": False}]}


async def open_store(tmp_path: Path) -> EventStore:
    store = await EventStore.open(str(tmp_path / "chat.db"))
    await store.create_table("t1", "nain-jaune", LogEntry(1, "created", {}, 1.0), "", True, SEATS)
    return store


async def test_lines_are_numbered_per_table_and_the_log_is_untouched(tmp_path: Path) -> None:
    store = await open_store(tmp_path)
    try:
        await store.create_table("t2", "spit", LogEntry(1, "created", {}, 1.0), "", True, SEATS)
        chats = ChatStore(store)
        said = await asyncio.gather(*(chats.add("t1", 0, "Ann", f"l{i}", 2.0) for i in range(6)))
        other = await chats.add("t2", 1, "Bob", "hi", 3.0)
        assert sorted(line.n for line in said) == [1, 2, 3, 4, 5, 6] and other.n == 1
        assert [line.n for line in await chats.recent("t1", limit=4)] == [3, 4, 5, 6]
        assert await chats.line("t1", 2) is not None and await chats.line("t1", 7) is None
        assert [(e.seq, e.kind) for e in await store.entries("t1")] == [(1, "created")]
    finally:
        await store.close()


async def test_a_feed_gets_history_then_lines_each_once(tmp_path: Path) -> None:
    store = await open_store(tmp_path)
    chat = TableChat(store, Seats(), burst=100)
    try:
        await chat.say("t1", 0, "before")
        feed = chat.feed("t1")
        await chat.say("t1", 0, "meanwhile")  # queued and also in the history: shown once
        history = await anext(feed)
        assert history["type"] == "chat-history"
        assert [line["text"] for line in history["lines"]] == ["before", "meanwhile"]
        line = await chat.say("t1", 0, "after")
        chat._tell(line)  # the same line heard again (its PostgreSQL notice): told once
        got = await anext(feed)
        assert (got["type"], got["n"], got["text"]) == ("chat", 3, "after")
        assert feed.queue.empty()
        with pytest.raises(ChatError) as refused:
            await chat.say("t1", 1, "me?")  # the seat's person has not sat down
        assert refused.value.code == "forbidden"
        with pytest.raises(ChatError) as refused:
            await chat.say("t1", None, "me?")
        assert refused.value.code == "forbidden"
        chat.drop(feed)
        with pytest.raises(StopAsyncIteration):
            await anext(feed)
    finally:
        await chat.stop()
        await store.close()


async def test_a_feed_too_slow_for_its_queue_starts_again_from_the_history(
    tmp_path: Path,
) -> None:
    store = await open_store(tmp_path)
    chat = TableChat(store, Seats(), burst=10_000)
    try:
        feed = chat.feed("t1")
        await chat.say("t1", 0, "first")
        assert [ln["n"] for ln in (await anext(feed))["lines"]] == [1]
        assert feed.queue.qsize() == 1  # line 1 is queued as well: skipped, being in the history
        for i in range(FEED_SIZE + 20):  # nobody reads meanwhile
            await chat.say("t1", 0, f"line {i}")
        # 100 lines queued, the 101st overflowed: the queue was emptied for a history instead
        resync = await anext(feed)
        assert resync["type"] == "chat-history"
        assert [ln["n"] for ln in resync["lines"]] == list(range(72, 122))  # the last 50
        assert feed.queue.qsize() == 20  # the lines said after the overflow, all in the history
    finally:
        await chat.stop()
        await store.close()


def test_a_notice_carries_the_line_or_only_its_number_when_it_is_too_long() -> None:
    line = ChatLine("t1", 7, 2, "Siân", "Bore da 🌞 <b>", 12.5)
    assert read_notice(line.notice()) == line
    long = ChatLine("t1", 8, 2, "Siân", "\U0001f600" * 2000, 12.5)
    assert len(long.notice().encode()) <= NOTICE_LIMIT
    assert read_notice(long.notice()) == ("t1", 8)
    assert read_notice("[1, 2") is None and read_notice("t1 x") is None
