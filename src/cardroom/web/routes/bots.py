"""The bot API's calls a bot makes with its token (docs/bots-api.md): who it plays for, its
event stream (invitations, matches, starts and ends of its tables) and its answers to
invitations. A bot plays its seats over the table's websocket (:mod:`.ws`); what its
connections share is :mod:`.bot_access`; a person's calls that make bots and tokens and invite
them are :mod:`.bot_owners`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from http import HTTPStatus
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.requests import HTTPConnection

from cardroom.games.messages import Message
from cardroom.store import StoreUnavailable
from cardroom.store.bots import BOT_TABLES, LISTEN_FOR, LISTENING, Bot
from cardroom.store.players import key_hash
from cardroom.tables.chat import TokenBucket
from cardroom.web.identity import players_of
from cardroom.web.limits import retry_after
from cardroom.web.ratings import is_rated
from cardroom.web.routes.bot_access import (
    BAD_TOKEN,
    BOT_CONNECTIONS,
    BOT_SILENT,
    BOT_TURN,
    INVITE_GONE,
    NO_HINTS,
    NO_SEAT,
    NO_TOKEN,
    TOKEN_CHECK_EVERY,
    TOKEN_REVOKED,
    TOO_MANY_SOCKETS,
    BotSessions,
    bearer,
    bots_of,
    bounds_of,
    listening_bots,
    load_bot_seats,
    mark_listed,
    mark_programs,
    refuse,
    sessions_of,
    silent_words,
    slow_words,
    watch_token,
)
from cardroom.web.routes.common import TABLE_ID, service_of

__all__ = [
    "BAD_TOKEN",
    "BOT_CONNECTIONS",
    "BOT_SILENT",
    "BOT_TURN",
    "NO_HINTS",
    "NO_SEAT",
    "TOKEN_CHECK_EVERY",
    "TOKEN_REVOKED",
    "TOO_MANY_SOCKETS",
    "BotSessions",
    "account",
    "answer_invite",
    "bearer",
    "bots_of",
    "bounds_of",
    "events",
    "listening_bots",
    "mark_listed",
    "mark_programs",
    "router",
    "sessions_of",
    "silent_words",
    "slow_words",
    "watch_token",
]
"""This module's calls, and the names of :mod:`.bot_access` it kept (read them, and patch them
in a test, in :mod:`.bot_access`, where they live)."""

router = APIRouter()

KEEP_ALIVE = 10.0
"""Seconds of silence after which the event stream sends an empty line."""
EVENTS_POLL = 0.5
"""Seconds between two looks at the bot's invitations and tables by its event stream."""
BOT_STREAMS = 2
"""Event streams one token may have open at once (per server process)."""
BOT_REQUESTS_PER_MINUTE = 60

NOT_INVITED = Message("bot.not-invited", "this bot was not invited to this table")
TOO_MANY_TABLES = Message(
    "bot.too-many-tables", "this bot already holds its most tables at once: finish one first"
)
TOO_MANY_STREAMS = Message(
    "bot.too-many-streams", "this bot token has too many event streams open: close one"
)
TOO_FAST = Message("bot.too-fast", "this bot token sends too many requests: wait a moment")


async def _bot_of(request: Request) -> Bot | JSONResponse:
    """The bot of the request's token, counted in its bucket; else the refusal."""
    token = bearer(request)
    if token is None:
        return refuse(request, HTTPStatus.UNAUTHORIZED, "unauthorized", NO_TOKEN)
    bot = await bots_of(request).by_token(token)
    if bot is None:
        return refuse(request, HTTPStatus.UNAUTHORIZED, "unauthorized", BAD_TOKEN)
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
        response = refuse(request, HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", TOO_FAST)
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


async def _events(
    request: Request, bot: Bot, token: str, marked_at: float
) -> AsyncIterator[bytes]:
    """The bot's events, in order: waiting invitations and held tables first, then news; its
    listening mark renewed from ``marked_at`` (when the request marked it; 0: not yet)."""
    sessions = sessions_of(request)
    digest = key_hash(token)
    revoked = sessions.opened(digest)
    watcher = asyncio.create_task(watch_token(request, token, revoked))
    sessions.listening[bot.id] = sessions.listening.get(bot.id, 0) + 1
    listen_key = LISTENING + bot.id
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
        response = refuse(request, HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", TOO_MANY_STREAMS)
        response.headers["Retry-After"] = retry_after(KEEP_ALIVE)
        return response
    sessions.streams[digest] = sessions.streams.get(digest, 0) + 1
    # marked listening before the answer starts: a client that has the stream's headers can
    # be found by "any bot" at once (the mark lapses by itself if the stream never runs)
    marked_at = 0.0
    with contextlib.suppress(StoreUnavailable):
        await bounds_of(request).extend(LISTENING + bot.id, LISTEN_FOR)
        marked_at = time.time()
    return StreamingResponse(
        _events(request, bot, token, marked_at),
        media_type="application/x-ndjson",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@router.post("/api/bot/tables/{table_id}/{answer}")
async def answer_invite(request: Request, table_id: str, answer: str) -> Response:
    """Accept (take the seat) or decline the bot's invitation to a table."""
    bot = await _bot_of(request)
    if isinstance(bot, JSONResponse):
        return bot
    if answer not in ("accept", "decline") or not TABLE_ID.fullmatch(table_id):
        return refuse(request, HTTPStatus.NOT_FOUND, "not-found", NOT_INVITED)
    bots = bots_of(request)
    invite = await bots.invite_of(table_id, bot.id)
    if invite is None:
        return refuse(request, HTTPStatus.FORBIDDEN, "forbidden", NOT_INVITED)
    now = time.time()
    if answer == "decline":
        if not await bots.answer(table_id, invite.seat, bot.id, "declined", now):
            return refuse(request, HTTPStatus.CONFLICT, "gone", INVITE_GONE)
        return JSONResponse({"declined": True})
    busy = [t for t in await _held(request, bot) if t["status"] != "over"]
    if len(busy) >= BOT_TABLES:
        response = refuse(request, HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", TOO_MANY_TABLES)
        response.headers["Retry-After"] = retry_after(60.0)
        return response
    players = players_of(request)
    claim = await players.claim_of(table_id, invite.seat)
    if claim is not None and claim.player_id not in (None, bot.id):
        await bots.answer(table_id, invite.seat, bot.id, "withdrawn", now)
        return refuse(request, HTTPStatus.CONFLICT, "gone", INVITE_GONE)
    if not await bots.answer(table_id, invite.seat, bot.id, "accepted", now):
        return refuse(request, HTTPStatus.CONFLICT, "gone", INVITE_GONE)
    if await bots.claim_seat(table_id, invite.seat, bot.id, now) != bot.id:
        return refuse(request, HTTPStatus.CONFLICT, "gone", INVITE_GONE)  # a link won it
    await load_bot_seats(request, table_id)
    return JSONResponse({"table": table_id, "seat": invite.seat, "ws": f"/ws/{table_id}"})
