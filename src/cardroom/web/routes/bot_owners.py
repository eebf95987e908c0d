"""The bot API's calls a person makes from this site's pages (their ``cr_player`` cookie,
never a bot's token): the bots they made and what each accepts, its tokens (made, shown once,
revoked), and, as a table's creator, inviting a bot to a free seat and reading its answer.
"""

from __future__ import annotations

import time
from http import HTTPStatus
from typing import Any, TypeVar

import msgspec
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from cardroom.games import registry
from cardroom.games.messages import Message
from cardroom.i18n import translator
from cardroom.i18n.reasons import table_error_text
from cardroom.store import PlayerError
from cardroom.store.bots import BOT_TABLES, Accepts, Bot
from cardroom.tables import TableError
from cardroom.web.guard import cross_site
from cardroom.web.identity import current_player, players_of
from cardroom.web.ratings import is_rated
from cardroom.web.routes.bot_access import (
    BAD_TOKEN,
    INVITE_GONE,
    bearer,
    bots_of,
    listening_bots,
    refuse,
    sessions_of,
)
from cardroom.web.routes.common import (
    TABLE_ID,
    connection_lang,
    cookie_name,
    read_limited,
    service_of,
)

router = APIRouter()
_T = TypeVar("_T")

MAX_BODY = 2048

REFUSES = Message("bot.refuses", "this bot does not accept this kind of game")
NO_SUCH_BOT = Message("bot.no-such-bot", "there is no bot of this name")
NO_BOT_FREE = Message("bot.none-free", "no bot that plays this game is connected and free now")
NOT_YOURS = Message("bot.not-yours", "this is not one of your bots")
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
        return refuse(request, HTTPStatus.FORBIDDEN, "forbidden", FORBIDDEN_SITE)
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return refuse(request, HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "bad-request", BAD_BODY)
    raw = await read_limited(request, MAX_BODY)
    if raw is None:
        return refuse(request, HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "bad-request", BAD_BODY)
    try:
        return msgspec.json.decode(raw, type=kind, strict=True)
    except (msgspec.DecodeError, RecursionError):
        return refuse(request, HTTPStatus.BAD_REQUEST, "bad-request", BAD_BODY)


async def _owner(request: Request) -> Any:
    if bearer(request) is not None:  # a bot's token never acts for a person
        return refuse(request, HTTPStatus.FORBIDDEN, "forbidden", NOT_YOURS)
    player = await current_player(request)
    if player is None or not player.name:
        return refuse(request, HTTPStatus.UNAUTHORIZED, "no-player", NO_PLAYER)
    return player


async def _my_bot(request: Request, bot_id: str) -> Bot | JSONResponse:
    player = await _owner(request)
    if isinstance(player, JSONResponse):
        return player
    bot = await bots_of(request).get(bot_id)
    if bot is None or bot.owner_id != player.id:
        return refuse(request, HTTPStatus.NOT_FOUND, "not-found", NOT_YOURS)
    return bot


def _player_refused(request: Request, exc: PlayerError) -> JSONResponse:
    message = PLAYER_WORDS.get(exc.code, BAD_BODY)
    status = HTTPStatus.BAD_REQUEST if exc.code == "bad-name" else HTTPStatus.CONFLICT
    return refuse(request, status, exc.code, message)


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
        return refuse(request, HTTPStatus.BAD_REQUEST, "bad-request", words)
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
        return refuse(request, HTTPStatus.NOT_FOUND, "not-found", BAD_TOKEN)
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


def _table_refused(request: Request, exc: TableError) -> JSONResponse:
    status = {"not-found": HTTPStatus.NOT_FOUND, "forbidden": HTTPStatus.FORBIDDEN}.get(
        exc.code, HTTPStatus.BAD_REQUEST
    )
    return refuse(request, status, exc.code, exc.message)  # type: ignore[arg-type]


@router.get("/api/tables/{table_id}/invites")
async def table_invites(request: Request, table_id: str) -> Response:
    """The creator's view of the table's invitations of bots: each bot's answer in words (the
    request's language), and the seats a bot may still be invited to; to anybody else (not a
    bot's token: 403), nothing."""
    if bearer(request) is not None or not TABLE_ID.fullmatch(table_id):
        return refuse(request, HTTPStatus.FORBIDDEN, "forbidden", CREATOR_ONLY)
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
        return refuse(request, HTTPStatus.NOT_FOUND, "not-found", NO_SUCH_BOT)
    try:
        player = await _creator(request, table_id)
        service = service_of(request)
        people = await service.store.token_hashes(table_id)
        if seat == 0 or seat not in people:
            raise TableError("bad-request", NOT_PERSON)
        claim = await players_of(request).claim_of(table_id, seat)
        held = claim is not None and claim.player_id is not None
        if held or await service.seat_state(table_id, seat) != "waiting":
            return refuse(request, HTTPStatus.CONFLICT, "conflict", SEAT_HELD)
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
            return refuse(request, HTTPStatus.CONFLICT, "conflict", NO_BOT_FREE)
        bot = chosen
    else:
        found = await bots.by_name(body.bot)
        if found is None:
            return refuse(request, HTTPStatus.NOT_FOUND, "not-found", NO_SUCH_BOT)
        bot = found
        if not bot.accepts.invitations or not bot.accepts.plays(game, rated):
            return refuse(request, HTTPStatus.CONFLICT, "conflict", REFUSES)
    try:
        invite = await bots.invite(table_id, seat, bot.id, player.id, time.time())
    except PlayerError as exc:
        return _player_refused(request, exc)
    return JSONResponse({"bot": bot.name, "seat": seat, "expires_at": invite.expires_at})
