"""What a bot's connections share: its token read from a request or a handshake and watched
until it is revoked, this process's open streams and websockets per token, which seats of a
table bots hold (marked in frames and lobby rows), the timings a bot is held to, and the
refusals of the bot API in words.

A request of a bot carries ``Authorization: Bearer crb_…``; cookies are not read on it, and
the token is read nowhere else (a bot token never opens a person, a person's cookie never
acts as a bot). A revoked token is refused at once: its next request gets 401, and the
websockets and event streams it opened are closed within :data:`TOKEN_CHECK_EVERY`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from cardroom.games.messages import Message
from cardroom.i18n import translator
from cardroom.i18n.reasons import message_id, table_error_text
from cardroom.store.bots import LISTENING, Bot, BotStore
from cardroom.store.bounds import BoundStore
from cardroom.tables.chat import TokenBucket
from cardroom.web.routes.common import connection_lang, error_json

TOKEN_CHECK_EVERY = 1.0
"""Seconds between two checks, by an open stream or websocket, that its token still stands."""
BOT_CONNECTIONS = 16
"""Websockets one token may have open at once (per server process)."""
BOT_SILENT = 10.0
"""Seconds a bot's websocket may say nothing (no ping, no action) before it is closed: the bot
is then away, as a person whose page went quiet (pause, then the table's takeover or forfeit).
A bot is held to this from its first moment (a page only once it has pinged)."""


NO_TOKEN = Message("bot.no-token", "this needs a bot's token: Authorization: Bearer <token>")
BAD_TOKEN = Message("bot.bad-token", "this bot token is unknown or was revoked")
TOKEN_REVOKED = Message("bot.token-revoked", "this bot token was revoked: the connection closes")
INVITE_GONE = Message(
    "bot.invite-gone", "this invitation is no longer open (expired, withdrawn or seat taken)"
)
TOO_MANY_SOCKETS = Message(
    "bot.too-many-connections", "this bot token has too many connections open: close some"
)
NO_SEAT = Message("bot.no-seat", "this bot holds no seat at this table")
NO_HINTS = Message("bot.no-hints", "a bot plays on its own: no hints")


BOT_TURN = 30.0
"""Seconds a bot's seat may take to act once a turn-based game asks it to (its connection
alive or not): past them the connection is closed and the seat is away, so the table's bot
plays it after ``takeover_after`` until the bot comes back (a race's slow bot just loses it)."""


def slow_words() -> Message:
    """What a bot closed for not acting on its turn is told."""
    seconds = f"{BOT_TURN:g}"
    return Message(
        "bot.slow",
        f"this bot did not act within {seconds} s of its turn: it is away and the connection "
        "closes",
        seconds=seconds,
    )


def silent_words() -> Message:
    """What a bot closed for its silence is told."""
    seconds = f"{BOT_SILENT:g}"
    return Message(
        "bot.silent",
        f"this bot said nothing for {seconds} s: it is away and the connection closes "
        "(send a ping every few seconds)",
        seconds=seconds,
    )


@dataclass
class BotSessions:
    """This process's open streams and websockets per token hash (to close them on revoke)
    and the per-token request buckets."""

    open: dict[str, list[asyncio.Event]] = field(default_factory=dict)
    streams: dict[str, int] = field(default_factory=dict)
    buckets: dict[str, TokenBucket] = field(default_factory=dict)
    listening: dict[str, int] = field(default_factory=dict)
    """Bot id -> its event streams open in this process."""

    def opened(self, digest: str) -> asyncio.Event:
        """A new open connection of a token: set the event to close it."""
        revoked = asyncio.Event()
        self.open.setdefault(digest, []).append(revoked)
        return revoked

    def closed(self, digest: str, revoked: asyncio.Event) -> None:
        """An open connection of a token ended."""
        kept = [e for e in self.open.get(digest, []) if e is not revoked]
        if kept:
            self.open[digest] = kept
        else:
            self.open.pop(digest, None)

    def count(self, digest: str) -> int:
        """Open connections of a token in this process."""
        return len(self.open.get(digest, []))

    def revoke_all(self, digests: list[str]) -> None:
        """Close every open connection of these tokens (those of this process, at once)."""
        for digest in digests:
            for event in self.open.get(digest, []):
                event.set()


def bots_of(conn: HTTPConnection) -> BotStore:
    """The app's bot store (made on first use, on the app's event store)."""
    state = conn.app.state
    store: BotStore | None = getattr(state, "bots", None)
    if store is None:
        store = state.bots = BotStore(state.store)
    return store


def bounds_of(conn: HTTPConnection) -> BoundStore:
    """The shared counters' store (the database every server process shares)."""
    state = conn.app.state
    shared: BoundStore | None = getattr(state.limits, "shared", None)
    if shared is None:
        shared = state.limits.shared = BoundStore(state.store)
    return shared


async def listening_bots(conn: HTTPConnection) -> list[Bot]:
    """The bots with an event stream open on any server process, the longest listening
    first."""
    return await bots_of(conn).listening(await bounds_of(conn).keys_under(LISTENING, 10_000))


def sessions_of(conn: HTTPConnection) -> BotSessions:
    """The app's open bot connections."""
    state = conn.app.state
    sessions: BotSessions | None = getattr(state, "bot_sessions", None)
    if sessions is None:
        sessions = state.bot_sessions = BotSessions()
    return sessions


def _bot_seats(conn: HTTPConnection) -> dict[str, frozenset[int]]:
    state = conn.app.state
    seats: dict[str, frozenset[int]] | None = getattr(state, "bot_seats", None)
    if seats is None:
        seats = state.bot_seats = {}
    return seats


async def load_bot_seats(conn: HTTPConnection, table_id: str) -> None:
    """Read which seats of a table bots hold (a connection opens: this process then marks
    them in the table's frames)."""
    held = await bots_of(conn).seats_at(table_id)
    seats = _bot_seats(conn)
    if len(seats) > 10_000:
        seats.clear()
    if held:
        seats[table_id] = held
    else:
        seats.pop(table_id, None)


def mark_programs(conn: HTTPConnection, table_id: str, frame: dict[str, Any]) -> dict[str, Any]:
    """``frame`` with ``"program": true`` on each seat a bot people brought holds (a person
    sees that an opponent is a program); the frame itself is not changed."""
    if frame.get("type") != "state":
        return frame
    held = _bot_seats(conn).get(table_id)
    seats = frame.get("seats")
    if not held or not isinstance(seats, list):
        return frame
    marked = [
        {**seat, "program": i in held} if isinstance(seat, dict) else seat
        for i, seat in enumerate(seats)
    ]
    return {**frame, "seats": marked}


async def mark_listed(conn: HTTPConnection, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Listed tables' rows with ``"program"`` on each seat (true where a bot people brought
    holds it, named by the bot's name even before it sits down): the lobby tells a program
    apart before anyone sits down with it."""
    ids = [str(row.get("table", row.get("id"))) for row in rows]
    held = await bots_of(conn).seats_at_tables(ids) if ids else {}
    out = []
    for table_id, row in zip(ids, rows, strict=True):
        seats = row.get("seats")
        if isinstance(seats, list):
            programs = held.get(table_id, {})
            marked = []
            for i, seat in enumerate(seats):
                if isinstance(seat, dict):
                    bot = programs.get(seat.get("seat", i))
                    seat = {**seat, "program": bot is not None}
                    if bot is not None and not seat.get("name"):
                        seat["name"] = bot
                marked.append(seat)
            row = {**row, "seats": marked}
        out.append(row)
    return out


def bearer(conn: HTTPConnection) -> str | None:
    """The bearer token of a request or handshake (None: none)."""
    header = conn.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def watch_token(conn: HTTPConnection, token: str, revoked: asyncio.Event) -> None:
    """Set ``revoked`` as soon as ``token`` no longer stands (checked every second: a token
    revoked by another process is seen here too)."""
    bots = bots_of(conn)
    while not revoked.is_set():
        try:
            await asyncio.wait_for(revoked.wait(), TOKEN_CHECK_EVERY)
        except TimeoutError:
            if not await bots.token_alive(token):
                revoked.set()


def refuse(request: Request, status: int, code: str, message: Message) -> JSONResponse:
    """The JSON refusal of a bot API call: ``code``, ``message`` in the reader's language
    and its id."""
    tr = translator(connection_lang(request))
    return error_json(
        status, code, table_error_text(code, message, tr), id=message_id(code, message)
    )
