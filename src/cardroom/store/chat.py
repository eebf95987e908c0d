"""The chat of the tables: one row per line in ``chat``, beside the event log, never in it.

A chat line is stored before anyone is told of it, numbered ``n`` = 1, 2, … per table (unique
``(table_id, n)``: two processes writing at once are told apart by the database and the loser
takes the next number). It is no log entry, so it never moves a table's ``seq`` nor its replay.
On PostgreSQL the line is also told on ``cardroom_chat`` in the transaction that writes it.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from cardroom.store.events import EventStore, StoreError, _guard, metadata

CHAT_CHANNEL = "cardroom_chat"
"""PostgreSQL channel told every chat line (JSON, or ``"<table> <n>"`` if it is too long)."""
NOTICE_LIMIT = 7000
"""Bytes a notice may carry (PostgreSQL's limit is 8000)."""
HISTORY = 50
"""Lines a (re)connecting client is sent."""

chat_t = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.UniqueConstraint("table_id", "n", name="chat_table_n"),
)


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line said at a table: its number ``n`` there, the seat and name, the text, the time."""

    table_id: str
    n: int
    seat: int
    name: str
    text: str
    at: float

    def frame(self) -> dict[str, Any]:
        """The ``chat`` frame every subscriber of the table is sent."""
        return {
            "type": "chat",
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "at": self.at,
            "n": self.n,
        }

    def notice(self) -> str:
        """The PostgreSQL notice of this line (its number alone if the line is too long)."""
        payload = json.dumps(
            [self.table_id, self.n, self.seat, self.name, self.text, self.at], ensure_ascii=False
        )
        if len(payload.encode()) > NOTICE_LIMIT:
            return f"{self.table_id} {self.n}"
        return payload


def read_notice(payload: str) -> ChatLine | tuple[str, int] | None:
    """A notice back as its line, or ``(table_id, n)`` to read, or None if it is not one."""
    if payload.startswith("["):
        with contextlib.suppress(ValueError, TypeError):
            table_id, n, seat, name, text, at = json.loads(payload)
            return ChatLine(str(table_id), int(n), int(seat), str(name), str(text), float(at))
        return None
    table_id, _, n = payload.partition(" ")
    return (table_id, int(n)) if n.isdigit() else None


class ChatStore:
    """Chat lines in the database of an :class:`EventStore` (its engine and schema)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.engine = store.engine
        self.notifies = store.engine.dialect.name == "postgresql"

    async def add(self, table_id: str, seat: int, name: str, text: str, at: float) -> ChatLine:
        """Store a line as the table's next one and return it.

        Raises :class:`StoreUnavailable` if the database does not answer (nothing is stored).
        """
        # SQLite has one writer: queue behind the event log's writers of this process.
        lock = getattr(self.store, "_write_lock", contextlib.nullcontext())
        for _attempt in range(20):
            try:
                async with _guard(), lock, self.engine.begin() as conn:
                    last = (
                        await conn.execute(
                            sa.select(sa.func.max(chat_t.c.n)).where(chat_t.c.table_id == table_id)
                        )
                    ).scalar()
                    line = ChatLine(table_id, int(last or 0) + 1, seat, name, text, at)
                    await conn.execute(
                        chat_t.insert().values(
                            table_id=table_id, n=line.n, seat=seat, name=name, text=text, at=at
                        )
                    )
                    if self.notifies:
                        await conn.execute(
                            sa.select(sa.func.pg_notify(CHAT_CHANNEL, line.notice()))
                        )
                return line
            except IntegrityError:  # another process took this number meanwhile
                continue
        raise StoreError(f"table {table_id}: no free chat line number, try again")

    async def recent(self, table_id: str, limit: int = HISTORY, after: int = 0) -> list[ChatLine]:
        """The last ``limit`` lines of a table (after number ``after``), oldest first."""
        query = (
            sa.select(chat_t.c.n, chat_t.c.seat, chat_t.c.name, chat_t.c.text, chat_t.c.at)
            .where(chat_t.c.table_id == table_id, chat_t.c.n > after)
            .order_by(chat_t.c.n.desc())
            .limit(limit)
        )
        async with _guard(), self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [ChatLine(table_id, r.n, r.seat, r.name, r.text, r.at) for r in reversed(rows)]

    async def line(self, table_id: str, n: int) -> ChatLine | None:
        """Line ``n`` of a table, if it is there."""
        query = sa.select(
            chat_t.c.n, chat_t.c.seat, chat_t.c.name, chat_t.c.text, chat_t.c.at
        ).where(chat_t.c.table_id == table_id, chat_t.c.n == n)
        async with _guard(), self.engine.connect() as conn:
            r = (await conn.execute(query)).first()
        return None if r is None else ChatLine(table_id, r.n, r.seat, r.name, r.text, r.at)
