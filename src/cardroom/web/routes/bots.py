"""The bot API (docs/bots-api.md): bots people bring, their tokens, events and invitations.

A request of a bot carries ``Authorization: Bearer crb_…``; cookies are not read on it, and
the token is read nowhere else (a bot token never opens a person, a person's cookie never
acts as a bot). A revoked token is refused at once: its next request gets 401, and the
websockets and event streams it opened are closed within :data:`TOKEN_CHECK_EVERY`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, TypeVar

import msgspec
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.requests import HTTPConnection

from cardroom.games import registry
from cardroom.games.messages import Message
from cardroom.i18n import translator
from cardroom.i18n.reasons import message_id, table_error_text
from cardroom.store import PlayerError, StoreUnavailable
from cardroom.store.bots import BOT_TABLES, LISTEN_FOR, LISTENING, Accepts, Bot, BotStore
from cardroom.store.bounds import BoundStore
from cardroom.store.players import key_hash
from cardroom.tables import TableError
from cardroom.tables.chat import TokenBucket
from cardroom.web.guard import cross_site
from cardroom.web.identity import current_player, players_of
from cardroom.web.limits import retry_after
from cardroom.web.ratings import is_rated
from cardroom.web.routes.common import (
    TABLE_ID,
    connection_lang,
    cookie_name,
    error_json,
    read_limited,
    service_of,
)

router = APIRouter()
_T = TypeVar("_T")

TOKEN_CHECK_EVERY = 1.0
"""Seconds between two checks, by an open stream or websocket, that its token still stands."""
KEEP_ALIVE = 10.0
"""Seconds of silence after which the event stream sends an empty line."""
EVENTS_POLL = 0.5
"""Seconds between two looks at the bot's invitations and tables by its event stream."""
BOT_CONNECTIONS = 16
"""Websockets one token may have open at once (per server process)."""
BOT_STREAMS = 2
"""Event streams one token may have open at once (per server process)."""
BOT_SILENT = 10.0
"""Seconds a bot's websocket may say nothing (no ping, no action) before it is closed: the bot
is then away, as a person whose page went quiet (pause, then the table's takeover or forfeit).
A bot is held to this from its first moment (a page only once it has pinged)."""
BOT_REQUESTS_PER_MINUTE = 60
MAX_BODY = 2048

NO_TOKEN = Message("bot.no-token", "this needs a bot's token: Authorization: Bearer <token>")
BAD_TOKEN = Message("bot.bad-token", "this bot token is unknown or was revoked")
TOKEN_REVOKED = Message("bot.token-revoked", "this bot token was revoked: the connection closes")
NOT_INVITED = Message("bot.not-invited", "this bot was not invited to this table")
INVITE_GONE = Message(
    "bot.invite-gone", "this invitation is no longer open (expired, withdrawn or seat taken)"
)
REFUSES = Message("bot.refuses", "this bot does not accept this kind of game")
NO_SUCH_BOT = Message("bot.no-such-bot", "there is no bot of this name")
NO_BOT_FREE = Message("bot.none-free", "no bot that plays this game is connected and free now")
TOO_MANY_TABLES = Message(
    "bot.too-many-tables", "this bot already holds its most tables at once: finish one first"
)
TOO_MANY_STREAMS = Message(
    "bot.too-many-streams", "this bot token has too many event streams open: close one"
)
TOO_MANY_SOCKETS = Message(
    "bot.too-many-connections", "this bot token has too many connections open: close some"
)
TOO_FAST = Message("bot.too-fast", "this bot token sends too many requests: wait a moment")
NO_SEAT = Message("bot.no-seat", "this bot holds no seat at this table")
NOT_YOURS = Message("bot.not-yours", "this is not one of your bots")
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


NOT_PERSON = Message("table.not-person-seat", "this seat is not a person's seat")
CREATOR_ONLY = Message("table.creator-only", "only the table's creator can do this")
SEAT_HELD = Message("bot.seat-held", "somebody already holds this seat")
PLAYER_WORDS = {
    "name-taken": Message("bot.name-taken", "another player signs in with this name"),
    "bad-name": Message("bot.bad-name", "a name has 1 to 24 characters"),
    "too-many-bots": Message("bot.too-many-bots", "you have made the most bots (10)"),
    "too-many-tokens": Message("bot.too-many-tokens", "this bot has the most tokens (5)"),
    "invite-gone": INVITE_GONE,
}


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


def _refused(request: Request, status: int, code: str, message: Message) -> JSONResponse:
    tr = translator(connection_lang(request))
    return error_json(
        status, code, table_error_text(code, message, tr), id=message_id(code, message)
    )


async def _bot_of(request: Request) -> Bot | JSONResponse:
    """The bot of the request's token, counted in its bucket; else the refusal."""
    token = bearer(request)
    if token is None:
        return _refused(request, HTTPStatus.UNAUTHORIZED, "unauthorized", NO_TOKEN)
    bot = await bots_of(request).by_token(token)
    if bot is None:
        return _refused(request, HTTPStatus.UNAUTHORIZED, "unauthorized", BAD_TOKEN)
    buckets = sessions_of(request).buckets
    digest = key_hash(token)
    bucket = buckets.get(digest)
    if bucket is None:
        if len(buckets) > 10_000:
            buckets.clear()
        bucket = buckets[digest] = TokenBucket(
            BOT_REQUESTS_PER_MINUTE / 60, BOT_REQUESTS_PER_MINUTE
        )
    if not bucket.take():
        response = _refused(request, HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", TOO_FAST)
        response.headers["Retry-After"] = retry_after(1.0)
        return response
    return bot


async def _held(request: HTTPConnection, bot: Bot) -> list[dict[str, Any]]:
    """The tables the bot holds a seat at, with where each stands."""
    players = players_of(request)
    seats = await players.tables_of(bot.id)
    rows = {row.id: row for row in await players.table_rows([t for t, _ in seats])}
    held = []
    for table_id, seat in seats:
        row = rows.get(table_id)
        if row is None:
            continue
        rated = await is_rated(service_of(request).store, table_id)
        held.append(
            {"table": table_id, "game": row.game, "seat": seat, "rated": rated,
             "status": row.status, "winner": row.summary.get("winner")}
        )  # fmt: skip
    return held


@router.get("/api/bot/account")
async def account(request: Request) -> Response:
    """Who the token plays for, what it accepts and the tables it holds."""
    bot = await _bot_of(request)
    if isinstance(bot, JSONResponse):
        return bot
    owner = None
    if bot.owner_id is not None:
        found = await players_of(request).get(bot.owner_id)
        owner = found.name if found is not None else None
    held = [
        {k: t[k] for k in ("table", "game", "seat", "status")}
        for t in await _held(request, bot)
        if t["status"] != "over"
    ]
    return JSONResponse(
        {"id": bot.id, "name": bot.name, "bot": True, "owner": owner,
         "accepts": bot.accepts.to_json(), "tables": held}
    )  # fmt: skip


def _line(event: dict[str, Any]) -> bytes:
    return (json.dumps(event, separators=(",", ":")) + "\n").encode()


async def _invite_event(request: HTTPConnection, invite: Any) -> dict[str, Any]:
    rows = await players_of(request).table_rows([invite.table_id])
    row = rows[0] if rows else None
    inviter = None
    if invite.inviter_id is not None:
        found = await players_of(request).get(invite.inviter_id)
        inviter = found.name if found is not None else None
    return {
        "type": "invite", "table": invite.table_id, "game": row.game if row else None,
        "seat": invite.seat, "rated": await is_rated(service_of(request).store, invite.table_id),
        "players": len(row.seats) if row else None, "from": inviter,
        "expires_at": invite.expires_at,
    }  # fmt: skip


async def _events(request: Request, bot: Bot, token: str) -> AsyncIterator[bytes]:
    """The bot's events, in order: waiting invitations and held tables first, then news."""
    sessions = sessions_of(request)
    digest = key_hash(token)
    revoked = sessions.opened(digest)
    watcher = asyncio.create_task(watch_token(request, token, revoked))
    sessions.listening[bot.id] = sessions.listening.get(bot.id, 0) + 1
    listen_key = LISTENING + bot.id
    marked_at = 0.0
    told_invites: dict[tuple[str, int, float], str] = {}
    """What the stream told of each invitation (a seat invited again is a new invitation)."""
    started: set[str] = set()
    ended: set[str] = set()
    last = time.monotonic()
    try:
        first = True
        while not revoked.is_set():
            out: list[dict[str, Any]] = []
            now = time.time()
            if now - marked_at >= LISTEN_FOR / 3:  # "any bot" finds it from every process
                with contextlib.suppress(StoreUnavailable):
                    await bounds_of(request).extend(listen_key, LISTEN_FOR)
                    marked_at = now
            invites = await bots_of(request).invites_of(bot.id)
            invited = {invite.table_id for invite in invites}
            for invite in invites:
                key = (invite.table_id, invite.seat, invite.at)
                state = invite.state
                if state == "waiting" and invite.expires_at <= now:
                    state = "expired"
                before = told_invites.get(key)
                if state == "waiting" and before is None:
                    out.append(await _invite_event(request, invite))
                    told_invites[key] = state
                elif before == "waiting" and state in ("expired", "withdrawn", "declined"):
                    reason = "expired" if state == "declined" else state
                    if state != "declined":
                        out.append(
                            {"type": "invite-gone", "table": invite.table_id,
                             "seat": invite.seat, "reason": reason}
                        )  # fmt: skip
                    told_invites[key] = state
            for held in await _held(request, bot):
                table_id = held["table"]
                if table_id in ended:
                    continue
                if first and held["status"] == "over":
                    ended.add(table_id)  # over before this stream: old news
                    continue
                base = {k: held[k] for k in ("table", "game", "seat", "rated")}
                if table_id not in started:
                    started.add(table_id)
                    if table_id not in invited:  # no invitation: Play now seated it
                        out.append({"type": "match", **base, "ws": f"/ws/{table_id}"})
                    out.append({"type": "start", **base, "ws": f"/ws/{table_id}"})
                if held["status"] == "over":
                    ended.add(table_id)
                    out.append(
                        {"type": "end", **base, "winner": held["winner"],
                         "record": f"/t/{table_id}/record"}
                    )  # fmt: skip
            first = False
            if out:
                yield b"".join(_line(e) for e in out)
                last = time.monotonic()
            elif time.monotonic() - last >= KEEP_ALIVE:
                yield b"\n"
                last = time.monotonic()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(revoked.wait(), EVENTS_POLL)
    finally:
        watcher.cancel()
        sessions.closed(digest, revoked)
        sessions.streams[digest] = sessions.streams.get(digest, 1) - 1
        if sessions.streams[digest] <= 0:
            sessions.streams.pop(digest, None)
        sessions.listening[bot.id] = sessions.listening.get(bot.id, 1) - 1
        if sessions.listening[bot.id] <= 0:
            sessions.listening.pop(bot.id, None)
            with contextlib.suppress(Exception):  # (else its mark lapses by itself)
                await bounds_of(request).forget([listen_key])


@router.get("/api/bot/events")
async def events(request: Request) -> Response:
    """The bot's event stream (NDJSON, an empty line every 10 s of silence)."""
    bot = await _bot_of(request)
    if isinstance(bot, JSONResponse):
        return bot
    token = bearer(request) or ""
    sessions = sessions_of(request)
    digest = key_hash(token)
    if sessions.streams.get(digest, 0) >= BOT_STREAMS:
        response = _refused(request, HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", TOO_MANY_STREAMS)
        response.headers["Retry-After"] = retry_after(KEEP_ALIVE)
        return response
    sessions.streams[digest] = sessions.streams.get(digest, 0) + 1
    return StreamingResponse(
        _events(request, bot, token),
        media_type="application/x-ndjson",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _table_refused(request: Request, exc: TableError) -> JSONResponse:
    status = {"not-found": HTTPStatus.NOT_FOUND, "forbidden": HTTPStatus.FORBIDDEN}.get(
        exc.code, HTTPStatus.BAD_REQUEST
    )
    return _refused(request, status, exc.code, exc.message)  # type: ignore[arg-type]


@router.post("/api/bot/tables/{table_id}/{answer}")
async def answer_invite(request: Request, table_id: str, answer: str) -> Response:
    """Accept (take the seat) or decline the bot's invitation to a table."""
    bot = await _bot_of(request)
    if isinstance(bot, JSONResponse):
        return bot
    if answer not in ("accept", "decline") or not TABLE_ID.fullmatch(table_id):
        return _refused(request, HTTPStatus.NOT_FOUND, "not-found", NOT_INVITED)
    bots = bots_of(request)
    invite = await bots.invite_of(table_id, bot.id)
    if invite is None:
        return _refused(request, HTTPStatus.FORBIDDEN, "forbidden", NOT_INVITED)
    now = time.time()
    if answer == "decline":
        if not await bots.answer(table_id, invite.seat, bot.id, "declined", now):
            return _refused(request, HTTPStatus.CONFLICT, "gone", INVITE_GONE)
        return JSONResponse({"declined": True})
    busy = [t for t in await _held(request, bot) if t["status"] != "over"]
    if len(busy) >= BOT_TABLES:
        response = _refused(request, HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", TOO_MANY_TABLES)
        response.headers["Retry-After"] = retry_after(60.0)
        return response
    players = players_of(request)
    claim = await players.claim_of(table_id, invite.seat)
    if claim is not None and claim.player_id not in (None, bot.id):
        await bots.answer(table_id, invite.seat, bot.id, "withdrawn", now)
        return _refused(request, HTTPStatus.CONFLICT, "gone", INVITE_GONE)
    if not await bots.answer(table_id, invite.seat, bot.id, "accepted", now):
        return _refused(request, HTTPStatus.CONFLICT, "gone", INVITE_GONE)
    if await bots.claim_seat(table_id, invite.seat, bot.id, now) != bot.id:
        return _refused(request, HTTPStatus.CONFLICT, "gone", INVITE_GONE)  # a link won it
    await load_bot_seats(request, table_id)
    return JSONResponse({"table": table_id, "seat": invite.seat, "ws": f"/ws/{table_id}"})


# -- people: their bots and tokens, inviting bots ----------------------------------------------


class BotIn(msgspec.Struct, forbid_unknown_fields=True):
    name: str


class AcceptsIn(msgspec.Struct, forbid_unknown_fields=True):
    invitations: bool = True
    play_now: bool = True
    rated: bool = False
    friendly: bool = True
    games: list[str] = msgspec.field(default_factory=list)


class TokenIn(msgspec.Struct, forbid_unknown_fields=True):
    label: str = ""


class RevokeIn(msgspec.Struct, forbid_unknown_fields=True):
    token: str


class InviteIn(msgspec.Struct, forbid_unknown_fields=True):
    bot: str


FORBIDDEN_SITE = Message("bot.cross-site", "this request does not come from this site's pages")
BAD_BODY = Message("bot.bad-request", "this request's body is not what this call reads")
NO_PLAYER = Message("bot.no-player", "choose a name on your player page first")


async def _body(request: Request, kind: type[_T]) -> _T | JSONResponse:
    if cross_site(request):
        return _refused(request, HTTPStatus.FORBIDDEN, "forbidden", FORBIDDEN_SITE)
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return _refused(request, HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "bad-request", BAD_BODY)
    raw = await read_limited(request, MAX_BODY)
    if raw is None:
        return _refused(request, HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "bad-request", BAD_BODY)
    try:
        return msgspec.json.decode(raw, type=kind, strict=True)
    except (msgspec.DecodeError, RecursionError):
        return _refused(request, HTTPStatus.BAD_REQUEST, "bad-request", BAD_BODY)


async def _owner(request: Request) -> Any:
    if bearer(request) is not None:  # a bot's token never acts for a person
        return _refused(request, HTTPStatus.FORBIDDEN, "forbidden", NOT_YOURS)
    player = await current_player(request)
    if player is None or not player.name:
        return _refused(request, HTTPStatus.UNAUTHORIZED, "no-player", NO_PLAYER)
    return player


async def _my_bot(request: Request, bot_id: str) -> Bot | JSONResponse:
    player = await _owner(request)
    if isinstance(player, JSONResponse):
        return player
    bot = await bots_of(request).get(bot_id)
    if bot is None or bot.owner_id != player.id:
        return _refused(request, HTTPStatus.NOT_FOUND, "not-found", NOT_YOURS)
    return bot


def _player_refused(request: Request, exc: PlayerError) -> JSONResponse:
    message = PLAYER_WORDS.get(exc.code, BAD_BODY)
    status = HTTPStatus.BAD_REQUEST if exc.code == "bad-name" else HTTPStatus.CONFLICT
    return _refused(request, status, exc.code, message)


@router.get("/api/me/bots")
async def my_bots(request: Request) -> Response:
    """The bots this person made, with their tokens' ids (never the tokens)."""
    player = await _owner(request)
    if isinstance(player, JSONResponse):
        return player
    bots = bots_of(request)
    out = []
    for bot in await bots.of_owner(player.id):
        tokens = [
            {"id": t.id, "label": t.label, "created_at": t.created_at, "last_used": t.last_used}
            for t in await bots.tokens_of(bot.id)
        ]
        out.append(
            {"id": bot.id, "name": bot.name, "accepts": bot.accepts.to_json(), "tokens": tokens}
        )
    return JSONResponse({"bots": out})


@router.post("/api/me/bots")
async def make_bot(request: Request) -> Response:
    """Make a bot of this person's."""
    body = await _body(request, BotIn)
    if isinstance(body, JSONResponse):
        return body
    player = await _owner(request)
    if isinstance(player, JSONResponse):
        return player
    try:
        bot = await bots_of(request).create(player.id, body.name, time.time())
    except PlayerError as exc:
        return _player_refused(request, exc)
    return JSONResponse(
        {"id": bot.id, "name": bot.name, "accepts": bot.accepts.to_json()},
        status_code=HTTPStatus.CREATED,
    )


@router.post("/api/me/bots/{bot_id}/accepts")
async def set_accepts(request: Request, bot_id: str) -> Response:
    """Choose what the bot accepts."""
    body = await _body(request, AcceptsIn)
    if isinstance(body, JSONResponse):
        return body
    bot = await _my_bot(request, bot_id)
    if isinstance(bot, JSONResponse):
        return bot
    unknown = sorted(set(body.games) - set(registry.names()))
    if unknown:
        words = Message(
            "bot.unknown-game", f"no game here is called {unknown[0]}", game=unknown[0]
        )
        return _refused(request, HTTPStatus.BAD_REQUEST, "bad-request", words)
    accepts = Accepts.from_json(msgspec.to_builtins(body))
    await bots_of(request).set_accepts(bot.id, accepts)
    return JSONResponse({"accepts": accepts.to_json()})


@router.post("/api/me/bots/{bot_id}/tokens")
async def make_token(request: Request, bot_id: str) -> Response:
    """A new token for the bot, shown this once."""
    body = await _body(request, TokenIn)
    if isinstance(body, JSONResponse):
        return body
    bot = await _my_bot(request, bot_id)
    if isinstance(bot, JSONResponse):
        return bot
    try:
        public, token = await bots_of(request).new_token(bot.id, body.label, time.time())
    except PlayerError as exc:
        return _player_refused(request, exc)
    return JSONResponse({"id": public, "token": token}, status_code=HTTPStatus.CREATED)


@router.post("/api/me/bots/{bot_id}/tokens/revoke")
async def revoke_token(request: Request, bot_id: str) -> Response:
    """Revoke one of the bot's tokens: refused from now on, its connections closed."""
    body = await _body(request, RevokeIn)
    if isinstance(body, JSONResponse):
        return body
    bot = await _my_bot(request, bot_id)
    if isinstance(bot, JSONResponse):
        return bot
    digests = await bots_of(request).revoke(body.token, bot.id)
    if not digests:
        return _refused(request, HTTPStatus.NOT_FOUND, "not-found", BAD_TOKEN)
    sessions_of(request).revoke_all(digests)
    return JSONResponse({"revoked": True})


def invite_words(state: str, bot: str, seat: int) -> Message:
    """What the inviter reads of an invitation (``seat`` as people count: from 1)."""
    texts = {
        "waiting": f"{bot} has not answered yet (seat {seat})",
        "accepted": f"{bot} accepted: it takes seat {seat}",
        "declined": f"{bot} declined the invitation to seat {seat}",
        "withdrawn": f"the invitation of {bot} to seat {seat} is withdrawn: the seat was taken",
        "expired": f"{bot} did not answer the invitation to seat {seat} in time",
    }
    return Message(f"bot.invite-{state}", texts[state], bot=bot, seat=seat)


async def _creator(request: Request, table_id: str) -> Any:
    """The table's creator (seat 0, signed in) asking; else a :class:`TableError`."""
    from cardroom.web.identity import seat_for  # (identity imports this module's users)

    player = await current_player(request)
    mine = await seat_for(
        request, table_id, request.cookies.get(cookie_name(table_id)), watch=False
    )
    if mine != 0 or player is None:
        raise TableError("forbidden", CREATOR_ONLY)
    return player


async def _free_seats(request: Request, table_id: str) -> list[int]:
    """The person seats of a table a bot may be invited to: nobody holds them, not begun."""
    service = service_of(request)
    free = []
    for seat in sorted(await service.store.token_hashes(table_id)):
        if seat == 0:
            continue
        claim = await players_of(request).claim_of(table_id, seat)
        if claim is not None and claim.player_id is not None:
            continue
        if await service.seat_state(table_id, seat) == "waiting":
            free.append(seat)
    return free


@router.get("/api/tables/{table_id}/invites")
async def table_invites(request: Request, table_id: str) -> Response:
    """The creator's view of the table's invitations of bots: each bot's answer in words (the
    request's language), and the seats a bot may still be invited to; to anybody else (not a
    bot's token: 403), nothing."""
    if bearer(request) is not None or not TABLE_ID.fullmatch(table_id):
        return _refused(request, HTTPStatus.FORBIDDEN, "forbidden", CREATOR_ONLY)
    try:
        await _creator(request, table_id)
    except TableError as exc:
        if exc.code != "forbidden":
            return _table_refused(request, exc)
        # anybody else's page reads nothing (and its console shows no refusal)
        return JSONResponse({"creator": False, "free": [], "invites": []})
    try:
        free = await _free_seats(request, table_id)
    except TableError as exc:
        return _table_refused(request, exc)
    tr = translator(connection_lang(request))
    now = time.time()
    out = []
    for invite, bot in await bots_of(request).invites_at(table_id):
        state = invite.state
        if state == "waiting" and invite.expires_at <= now:
            state = "expired"
        words = invite_words(state, bot, invite.seat + 1)
        out.append(
            {"seat": invite.seat, "bot": bot, "state": state,
             "text": table_error_text(state, words, tr), "id": words.id}
        )  # fmt: skip
    return JSONResponse(
        {"creator": True, "free": free, "invites": out}, headers={"Cache-Control": "no-store"}
    )


@router.post("/api/tables/{table_id}/seats/{seat}/invite")
async def invite_bot(request: Request, table_id: str, seat: int) -> Response:
    """The table's creator offers a person seat nobody holds to a named bot, or to any bot
    (``"*"``) that plays this game and listens now."""
    body = await _body(request, InviteIn)
    if isinstance(body, JSONResponse):
        return body
    if not TABLE_ID.fullmatch(table_id):
        return _refused(request, HTTPStatus.NOT_FOUND, "not-found", NO_SUCH_BOT)
    try:
        player = await _creator(request, table_id)
        service = service_of(request)
        people = await service.store.token_hashes(table_id)
        if seat == 0 or seat not in people:
            raise TableError("bad-request", NOT_PERSON)
        claim = await players_of(request).claim_of(table_id, seat)
        held = claim is not None and claim.player_id is not None
        if held or await service.seat_state(table_id, seat) != "waiting":
            return _refused(request, HTTPStatus.CONFLICT, "conflict", SEAT_HELD)
    except TableError as exc:
        return _table_refused(request, exc)
    rows = await players_of(request).table_rows([table_id])
    game = rows[0].game if rows else ""
    rated = await is_rated(service_of(request).store, table_id)
    bots = bots_of(request)
    if body.bot == "*":
        chosen = None
        for candidate in await listening_bots(request):
            if (
                candidate.accepts.invitations
                and candidate.accepts.plays(game, rated)
                and await bots.busy(candidate.id) < BOT_TABLES
            ):
                chosen = candidate
                break
        if chosen is None:
            return _refused(request, HTTPStatus.CONFLICT, "conflict", NO_BOT_FREE)
        bot = chosen
    else:
        found = await bots.by_name(body.bot)
        if found is None:
            return _refused(request, HTTPStatus.NOT_FOUND, "not-found", NO_SUCH_BOT)
        bot = found
        if not bot.accepts.invitations or not bot.accepts.plays(game, rated):
            return _refused(request, HTTPStatus.CONFLICT, "conflict", REFUSES)
    try:
        invite = await bots.invite(table_id, seat, bot.id, player.id, time.time())
    except PlayerError as exc:
        return _player_refused(request, exc)
    return JSONResponse({"bot": bot.name, "seat": seat, "expires_at": invite.expires_at})
