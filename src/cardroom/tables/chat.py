"""The table chat, for turn-based and real-time tables alike: seated players talk, everyone
at the table (players and spectators) reads.

``TableChat.say`` cleans the text (control characters out, blanks trimmed, 1 to 300
characters), applies the seat's own rate limit, stores the line (``store/chat.py``; never in the
event log, so a table's ``seq`` and replay do not move) and only then hands it to every
:class:`ChatFeed` of the table in this process. With PostgreSQL each line is also told on
``cardroom_chat`` in its transaction; every process listens there (its own connection) and
hands the lines of other processes to its feeds. A feed yields the last 50 lines first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from cardroom.games.messages import Message
from cardroom.i18n import translator
from cardroom.i18n.words import N_
from cardroom.store import CHAT_CHANNEL, ChatLine, ChatStore, EventStore, StoreError, pgconn
from cardroom.store.chat import read_notice
from cardroom.tables.config import TableError

TEXT_MAX = 300
"""Characters a chat line may have once cleaned."""
RATE = 1.0
"""Chat lines a seat may say per second, on average…"""
BURST = 5
"""…and at once."""
FEED_SIZE = 100
"""Lines a feed holds for a slow connection before it starts again from the history."""
_CONTROL = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]"
)
_BLANKS = re.compile(r"[\t\n\r]+")
logger = logging.getLogger(__name__)

Frame = dict[str, Any]


class ChatError(ValueError):
    """A chat line refused (nothing stored): ``code`` is the error frame's (``forbidden``,
    ``bad-request``, ``rate-limited``); :meth:`words` gives the reason in a language."""

    def __init__(self, code: str, message: str, **fields: object) -> None:
        super().__init__(message.format(**fields))
        self.code = code
        self.message = message.format(**fields)
        self.msgid = message
        self.fields = fields

    def words(self, lang: str | None) -> str:
        """The reason in ``lang``."""
        return translator(lang)._(self.msgid, **self.fields)


def clean_text(text: str) -> str:
    """A chat text without control characters nor invisible direction or spacing marks (the
    joiners of emoji and scripts stay), blanks trimmed, tabs and line breaks made spaces;
    raises :class:`ChatError` if it is empty or too long."""
    cleaned = _CONTROL.sub("", _BLANKS.sub(" ", text)).strip()
    if not cleaned:
        raise ChatError("bad-request", N_("a chat message needs some text"))
    if len(cleaned) > TEXT_MAX:
        raise ChatError(
            "bad-request",
            N_("a chat message has at most {max} characters, not {n}: make it shorter"),
            max=TEXT_MAX,
            n=len(cleaned),
        )
    return cleaned


class TokenBucket:
    """``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, now: float | None = None) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> bool:
        """Spend one token; False if none is left."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def full(self, now: float | None = None) -> bool:
        """Whether the bucket has refilled (forgetting it then changes nothing)."""
        now = time.monotonic() if now is None else now
        return self.tokens + (now - self.last) * self.rate >= self.burst


class SeatFrames(Protocol):
    """What the chat needs of a table service: a seat's ``state`` frame (for its name)."""

    def frame_for(self, table_id: str, seat: int | None) -> Frame: ...


_HISTORY = object()


class ChatFeed:
    """One connection's chat frames for one table: ``chat-history`` (the last lines, if any)
    first, then a ``chat`` frame per line said; ``async for frame in feed``."""

    def __init__(self, chat: TableChat, table_id: str) -> None:
        self.chat = chat
        self.table_id = table_id
        self.queue: asyncio.Queue[Any] = asyncio.Queue(FEED_SIZE)
        self._started = False
        self._shown: set[int] = set()

    def __aiter__(self) -> ChatFeed:
        return self

    async def __anext__(self) -> Frame:
        if not self._started:
            self._started = True
            history = await self._history()
            if history is not None:
                return history
        while True:
            item = await self.queue.get()
            if item is None:
                raise StopAsyncIteration
            if item is _HISTORY:
                history = await self._history()
                if history is not None:
                    return history
                continue
            if item["n"] in self._shown:  # already in the history sent
                self._shown.discard(item["n"])
                continue
            frame: Frame = item
            return frame

    async def _history(self) -> Frame | None:
        try:
            lines = await self.chat.store.recent(self.table_id)
        except StoreError as exc:
            logger.info("chat history of %s not read: %s", self.table_id, exc)
            return None
        self._shown = {line.n for line in lines}
        if not lines:
            return None
        return {
            "type": "chat-history",
            "lines": [{k: v for k, v in ln.frame().items() if k != "type"} for ln in lines],
        }

    def put(self, frame: Frame | None) -> None:
        """Queue a frame (None ends the feed); a full queue starts again from the history."""
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(_HISTORY if frame is not None else None)


class TableChat:
    """The chat of every table of one process (one per server, beside the table service)."""

    def __init__(
        self,
        store: EventStore,
        tables: SeatFrames,
        *,
        clock: Callable[[], float] = time.time,
        rate: float = RATE,
        burst: int = BURST,
        listen: bool | None = None,
    ) -> None:
        """``listen`` (default: on PostgreSQL): hear the lines other processes store."""
        self.store = ChatStore(store)
        self.tables = tables
        self.clock = clock
        self.rate = rate
        self.burst = burst
        self._feeds: dict[str, list[ChatFeed]] = {}
        self._buckets: dict[tuple[str, int], TokenBucket] = {}
        self._told: dict[str, deque[int]] = {}
        self._listen = self.store.notifies if listen is None else listen
        self._url = store.url
        self._conn: Any = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    # -- saying and hearing -------------------------------------------------------------------

    async def say(self, table_id: str, seat: int | None, text: str) -> ChatLine:
        """Store what ``seat`` says at ``table_id`` and tell every feed of the table.

        Raises :class:`ChatError` (``forbidden``, ``bad-request``, ``rate-limited``) or
        ``TableError`` (``unavailable``, ``not-found``); nothing is stored then.
        """
        if seat is None:
            raise ChatError(
                "forbidden", N_("spectators read the chat: open an invitation link to take a seat")
            )
        cleaned = clean_text(text)
        seats = self.tables.frame_for(table_id, seat).get("seats") or []
        info = seats[seat] if 0 <= seat < len(seats) else {}
        name = str(info.get("name") or "")
        if not name or info.get("joined") is False:
            raise ChatError("forbidden", N_("sit down first (choose your name), then chat"))
        now = self.clock()
        bucket = self._buckets.setdefault(
            (table_id, seat), TokenBucket(self.rate, self.burst)
        )
        if not bucket.take():
            raise ChatError(
                "rate-limited", N_("you are chatting too fast: wait a second and send it again")
            )
        try:
            line = await self.store.add(table_id, seat, name, cleaned, now)
        except StoreError as exc:
            raise TableError(
                "unavailable",
                Message(
                    "chat.db-down",
                    "the database is not answering: nothing was said, try again in a moment",
                ),
            ) from exc
        self._tell(line)
        return line

    def _tell(self, line: ChatLine) -> None:
        if line.table_id not in self._feeds:
            return
        told = self._told.setdefault(line.table_id, deque(maxlen=256))
        if line.n in told:
            return
        told.append(line.n)
        for feed in self._feeds.get(line.table_id, []):
            feed.put(line.frame())

    def feed(self, table_id: str) -> ChatFeed:
        """A new feed of the table's chat (end it with :meth:`drop`)."""
        feed = ChatFeed(self, table_id)
        self._feeds.setdefault(table_id, []).append(feed)
        return feed

    def drop(self, feed: ChatFeed) -> None:
        """End a feed."""
        feeds = self._feeds.get(feed.table_id, [])
        if feed in feeds:
            feeds.remove(feed)
        if not feeds:
            self._feeds.pop(feed.table_id, None)
            self._told.pop(feed.table_id, None)
            # a seat that reconnects keeps its bucket until it has refilled
            for key in [k for k, bucket in self._buckets.items() if bucket.full()]:
                del self._buckets[key]
        feed.put(None)

    # -- other processes (PostgreSQL) -----------------------------------------------------------

    async def start(self) -> None:
        """Listen for the lines of other processes (PostgreSQL; nothing to do on SQLite)."""
        if self._listen and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._listen_loop())

    async def stop(self) -> None:
        """Stop listening and end every feed."""
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        await self._close()
        for feeds in list(self._feeds.values()):
            for feed in list(feeds):
                self.drop(feed)

    async def _close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._conn.close(), 5)
            self._conn = None

    async def _listen_loop(self) -> None:
        from cardroom.tables.cluster import asyncpg_dsn

        first = True
        while not self._stopping:
            if self._conn is None or self._conn.is_closed():
                try:
                    self._conn = await pgconn.connect(asyncpg_dsn(self._url))
                    await self._conn.add_listener(CHAT_CHANNEL, self._heard)
                except Exception as exc:
                    logger.warning("chat: cannot listen to other processes yet: %s", exc)
                    await self._close()
                    await asyncio.sleep(1.0)
                    continue
                if not first:  # lines may have been said elsewhere meanwhile
                    for table_id in list(self._feeds):
                        await self._read_missed(table_id)
                first = False
            await asyncio.sleep(1.0)

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        notice = read_notice(payload)
        if isinstance(notice, ChatLine):
            if notice.table_id in self._feeds:
                self._tell(notice)
        elif notice is not None and notice[0] in self._feeds:
            asyncio.get_running_loop().create_task(self._read_line(*notice))

    async def _read_line(self, table_id: str, n: int) -> None:
        with contextlib.suppress(StoreError):
            line = await self.store.line(table_id, n)
            if line is not None:
                self._tell(line)

    async def _read_missed(self, table_id: str) -> None:
        told = self._told.get(table_id)
        after = max(told) if told else 0
        with contextlib.suppress(StoreError):
            for line in await self.store.recent(table_id, after=after):
                self._tell(line)
