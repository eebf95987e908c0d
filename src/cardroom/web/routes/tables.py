"""A table's pages: the invitation link, the table, watching it, its record."""

from __future__ import annotations

import time
from http import HTTPStatus

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

import cardroom.web.faces as faces
from cardroom.games.messages import Message
from cardroom.games.registry import REALTIME, names
from cardroom.i18n import translator
from cardroom.i18n.reasons import message_id, table_error_text
from cardroom.i18n.words import N_
from cardroom.store import PlayerError
from cardroom.tables import TableError
from cardroom.tables.config import PLAYERS_ONLY, REMATCH_PLAYERS
from cardroom.web.guard import cross_site
from cardroom.web.identity import (
    current_player,
    player_or_new,
    players_of,
    seat_for,
    set_player_cookie,
)
from cardroom.web.ratings import NO_BOT_HANDOVER, SAME_PLAYER, is_rated, second_seat
from cardroom.web.routes.common import (
    TABLE_ID,
    check_table_id,
    connection_lang,
    cookie_name,
    error_json,
    message_page,
    page,
    service_of,
    set_seat_cookie,
    settings_of,
    table_error_json,
)

router = APIRouter()

SEAT_IN_PLAY = Message(
    "table.seat-in-play",
    "this seat's player is in play: a new link for it can be made once they have been away "
    "past the limit (a bot then plays for them) or when the game is over",
)


def split_invite(invite: str) -> tuple[str, str] | None:
    """``<table id>.<seat token>`` -> (table id, token), or None if it has not that form."""
    table_id, sep, token = invite.partition(".")
    if not sep or not TABLE_ID.fullmatch(table_id) or not 1 <= len(token) <= 200:
        return None
    return table_id, token


def _bad_invite(request: Request) -> Response:
    return message_page(
        request,
        HTTPStatus.FORBIDDEN,
        N_("This invitation link does not work"),
        N_(
            "Check that you copied the whole link, or ask the person who invited you for a new one."
        ),
    )


def _seat_taken(request: Request) -> Response:
    return message_page(
        request,
        HTTPStatus.CONFLICT,
        N_("This seat is taken"),
        N_(
            "Someone already opened this invitation link and sits in this seat. If the seat was "
            "meant for you, ask the person who made the table for a new link: they can send you "
            "one from their table page, and the old link then stops working."
        ),
    )


def _second_seat(request: Request, key: str | None) -> Response:
    response = message_page(
        request,
        HTTPStatus.CONFLICT,
        N_("You already sit at this table"),
        N_(
            "A game is under way and you already hold another seat at this table: nobody holds "
            "two seats of a game in play. Send this link to the person it is meant for."
        ),
    )
    if key is not None:
        set_player_cookie(response, request, key)
    return response


@router.get("/j/{invite}")
async def accept_invite(request: Request, invite: str) -> Response:
    """An invitation link: the first browser that opens it holds the seat (its player claims
    it); the same link opened by anyone else says the seat is taken."""
    parts = split_invite(invite)
    if parts is None:
        return _bad_invite(request)
    table_id, token = parts
    if settings_of(request).identity == "required" and await current_player(request) is None:
        return RedirectResponse(f"/me?next=/j/{invite}", status_code=HTTPStatus.SEE_OTHER)
    reissued_seat, _, reissued_secret = token.partition(".")
    now = time.time()
    players = players_of(request)
    try:
        if reissued_secret:  # <table>.<seat>.<secret>: a link the creator issued again
            if not reissued_seat.isdigit() or int(reissued_seat) > 16:
                return _bad_invite(request)
            seat: int | None = int(reissued_seat)
            await service_of(request).seat_of(table_id, None)
        else:
            seat = await service_of(request).seat_of(table_id, token)
    except TableError as exc:
        if exc.code == "not-found":
            return _no_table(request)
        return _bad_invite(request)
    if seat is None:
        return _bad_invite(request)
    player, key = await player_or_new(request)
    if await second_seat(service_of(request).store, table_id, seat, player.id):
        return _rated_second_seat(request, key)  # a rated game is between different people
    try:
        if reissued_secret:
            other = await players.seat_of_player(table_id, player.id)
            if other is not None and other != seat:
                state = await service_of(request).seat_state(table_id, seat)
                if state in ("playing", "away"):  # a second seat would show another's hand
                    return _second_seat(request, key)
            claim = await players.claim_reissued(table_id, seat, reissued_secret, player.id, now)
        else:
            claim = await players.claim_of(table_id, seat) or await players.claim(
                table_id, seat, player.id, now
            )
    except PlayerError:
        return _bad_invite(request)
    if claim.player_id != player.id:
        response = _seat_taken(request)
    else:
        response = RedirectResponse(f"/t/{table_id}", status_code=HTTPStatus.SEE_OTHER)
        if not reissued_secret:
            set_seat_cookie(response, request, table_id, token)
    if key is not None:
        set_player_cookie(response, request, key)
    return response


def _rated_second_seat(request: Request, key: str | None) -> Response:
    response = message_page(
        request, HTTPStatus.CONFLICT, N_("You already sit at this table"), SAME_PLAYER
    )
    if key is not None:
        set_player_cookie(response, request, key)
    return response


async def _exists(request: Request, table_id: str) -> bool:
    try:
        await service_of(request).seat_of(table_id, None)
    except TableError as exc:
        if exc.code == "not-found":
            return False
        raise
    return True


def _no_table(request: Request) -> Response:
    return message_page(
        request,
        HTTPStatus.NOT_FOUND,
        N_("There is no such table"),
        N_("The link may be mistyped, or the table belongs to another server."),
    )


@router.get("/t/{table_id}")
async def table_page(request: Request, table_id: str) -> Response:
    """The table page (its script opens ``/ws/<id>``; the seat cookie says who you are)."""
    check_table_id(table_id)
    if not await _exists(request, table_id):
        return _no_table(request)
    return await _table_page(request, table_id)


async def _table_page(request: Request, table_id: str) -> Response:
    """The page of the table's game: its web face's ``TABLE_PAGE``, else ``realtime.html``
    for a real-time game and ``table.html`` for a turn-based one (``{{game}}``: its name)."""
    game = await service_of(request).game_of(table_id)
    default = "realtime.html" if game in names(REALTIME) else "table.html"
    return page(request, faces.part(game, "TABLE_PAGE", default), fill={"game": game})


async def _acting_seat(request: Request, table_id: str, refusal: Message = PLAYERS_ONLY) -> int:
    """The seat this browser acts for at ``table_id``, checked as the socket checks it: its
    seat cookie's seat while this browser's player holds the seat's claim (or nobody claimed
    it yet), or the seat its player claimed; ``forbidden`` for a copied token, one whose seat
    was re-issued, or no seat at all."""
    try:
        seat = await seat_for(
            request, table_id, request.cookies.get(cookie_name(table_id)), watch=False
        )
    except TableError as exc:
        if exc.code != "forbidden":
            raise
        seat = None
    if seat is None:
        raise TableError("forbidden", refusal)
    return seat


@router.post("/t/{table_id}/rematch")
async def rematch(request: Request, table_id: str) -> Response:
    """Play again once the game is over (any game): the same seats and options at a new table
    made by the first to ask. Answers ``{"table", "url", "seat"}`` and sets the cookie of the
    asker's seat there (a fresh token; ``seat`` null: a bot plays it, watch)."""
    check_table_id(table_id)
    lang = connection_lang(request)  # (the guard refused other sites' pages and non-JSON)
    try:
        seat = await _acting_seat(request, table_id, REMATCH_PLAYERS)
        new_id, mine = await service_of(request).rematch(table_id, seat)
    except TableError as exc:
        return table_error_json(exc, lang)
    response = JSONResponse(
        {
            "table": new_id,
            "url": f"/t/{new_id}" if mine else f"/t/{new_id}/watch",
            "seat": seat if mine else None,
        }
    )
    if mine:
        set_seat_cookie(response, request, new_id, mine)
    return response


@router.post("/t/{table_id}/leave")
async def leave(request: Request, table_id: str) -> Response:
    """Leave a turn-based game: a bot plays the seat to the end (logged). The seat's cookie
    goes (the page then watches or goes to the lobby). Answers ``{"ok": true}``."""
    check_table_id(table_id)
    lang = connection_lang(request)  # (the guard refused other sites' pages and non-JSON)
    try:
        seat = await _acting_seat(request, table_id)
        await service_of(request).leave(table_id, seat)
    except TableError as exc:
        return table_error_json(exc, lang)
    response = JSONResponse({"ok": True})
    response.delete_cookie(cookie_name(table_id), path="/")
    return response


@router.get("/t/{table_id}/watch")
async def watch_page(request: Request, table_id: str) -> Response:
    """The table page for a spectator (no seat, no hand)."""
    check_table_id(table_id)
    if not await _exists(request, table_id):
        return _no_table(request)
    return await _table_page(request, table_id)


@router.get("/t/{table_id}/record")
async def table_record(request: Request, table_id: str) -> Response:
    """The game record (JSON, the replay format) once the game is over; 403 before."""
    check_table_id(table_id)
    try:
        game = await service_of(request).game_of(table_id)
        record: object = await service_of(request).record(table_id)
    except TableError as exc:
        if exc.code == "forbidden":
            return error_json(
                HTTPStatus.FORBIDDEN,
                "forbidden",
                translator(connection_lang(request))._(
                    "the record is published when the game is over: "
                    "come back after the last round"
                ),
                id=message_id(exc.code, exc.message),
            )
        return table_error_json(exc, connection_lang(request))
    return JSONResponse(
        record,
        headers={"Content-Disposition": f'attachment; filename="{game}-{table_id}.json"'},
    )


@router.post("/api/tables/{table_id}/seats/{seat}/{what}")
async def reissue_seat(request: Request, table_id: str, seat: int, what: str) -> Response:
    """The table's creator takes a seat back from whoever holds it: ``link`` gives a new
    invitation link for it (the old one stops working), ``bot`` leaves it to the bots."""
    check_table_id(table_id)
    lang = connection_lang(request)
    tr = translator(lang)
    if what not in ("link", "bot") or cross_site(request):
        return error_json(
            HTTPStatus.FORBIDDEN,
            "forbidden",
            tr._("this request does not come from this site's pages"),
        )
    try:
        mine = await seat_for(
            request, table_id, request.cookies.get(cookie_name(table_id)), watch=False
        )
        if mine != 0:
            raise TableError(
                "forbidden", Message("table.creator-only", "only the table's creator can do this")
            )
        people = await service_of(request).store.token_hashes(table_id)
        if seat == 0 or seat not in people:
            raise TableError(
                "bad-request", Message("table.not-person-seat", "this seat is not a person's seat")
            )
        if what == "bot" and await is_rated(service_of(request).store, table_id):
            raise TableError("forbidden", NO_BOT_HANDOVER)
        claim = await players_of(request).claim_of(table_id, seat)
        held = what == "link" and claim is not None and claim.player_id is not None
        in_play = held and await service_of(request).seat_state(table_id, seat) == "playing"
    except TableError as exc:
        return table_error_json(exc, lang)
    if in_play:  # whoever opened a new link would read the hand of the person playing it
        return error_json(
            HTTPStatus.CONFLICT,
            "in-play",
            table_error_text("bad-request", SEAT_IN_PLAY, translator(lang)),
            id=SEAT_IN_PLAY.id,
        )
    secret = await players_of(request).reissue(table_id, seat, time.time(), link=what == "link")
    service_of(request).end_connections(table_id, seat)  # its holder's pages close here
    return JSONResponse({"seat": seat, "url": f"/j/{table_id}.{seat}.{secret}" if secret else None})
