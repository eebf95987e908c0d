"""A table's pages: the invitation link, the table, watching it, its record."""

from __future__ import annotations

from http import HTTPStatus

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from cardroom.i18n import translator
from cardroom.i18n.words import N_
from cardroom.tables import TableError
from cardroom.web.routes.common import (
    TABLE_ID,
    check_table_id,
    connection_lang,
    cookie_name,
    message_page,
    page,
    service_of,
    set_seat_cookie,
    table_error_json,
)

router = APIRouter()


def split_invite(invite: str) -> tuple[str, str] | None:
    """``<table id>.<seat token>`` -> (table id, token), or None if it has not that form."""
    table_id, sep, token = invite.partition(".")
    if not sep or not TABLE_ID.fullmatch(table_id) or not 1 <= len(token) <= 200:
        return None
    return table_id, token


@router.get("/j/{invite}")
async def accept_invite(request: Request, invite: str) -> Response:
    """An invitation link: remember the seat (cookie) and go to the table."""
    parts = split_invite(invite)
    bad = message_page(
        request,
        HTTPStatus.FORBIDDEN,
        N_("This invitation link does not work"),
        N_(
            "Check that you copied the whole link, or ask the person who invited you for a new one."
        ),
    )
    if parts is None:
        return bad
    table_id, token = parts
    try:
        seat = await service_of(request).seat_of(table_id, token)
    except TableError as exc:
        if exc.code == "not-found":
            return _no_table(request)
        return bad
    if seat is None:
        return bad
    response = RedirectResponse(f"/t/{table_id}", status_code=HTTPStatus.SEE_OTHER)
    set_seat_cookie(response, request, table_id, token)
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
    return page(request, await _template(request, table_id))


async def _template(request: Request, table_id: str) -> str:
    """``realtime.html`` for Spit and Speed, ``table.html`` for Nain Jaune."""
    game = await service_of(request).game_of(table_id)
    return "realtime.html" if game in ("spit", "speed") else "table.html"


@router.get("/t/{table_id}/rematch")
async def rematch(request: Request, table_id: str) -> Response:
    """A finished Spit or Speed table's rematch (made by the first to ask): the same seats and
    options, a new deal; each player keeps their seat (cookie) and lands on the new table."""
    check_table_id(table_id)
    service = service_of(request)
    token = request.cookies.get(cookie_name(table_id))
    try:
        seat = await service.seat_of(table_id, token)
        if seat is None:
            raise TableError("forbidden", "only the players can ask for a rematch")
        new_id = await service.rematch(table_id, seat)
    except TableError as exc:
        if exc.code == "not-found":
            return _no_table(request)
        return message_page(request, HTTPStatus.FORBIDDEN, N_("No rematch"), exc.message)
    response = RedirectResponse(f"/t/{new_id}", status_code=HTTPStatus.SEE_OTHER)
    assert token is not None
    set_seat_cookie(response, request, new_id, token)
    return response


@router.get("/t/{table_id}/watch")
async def watch_page(request: Request, table_id: str) -> Response:
    """The table page for a spectator (no seat, no hand)."""
    check_table_id(table_id)
    if not await _exists(request, table_id):
        return _no_table(request)
    return page(request, await _template(request, table_id))


@router.get("/t/{table_id}/record")
async def table_record(request: Request, table_id: str) -> Response:
    """The game record (JSON, the replay format) once the game is over; 403 before."""
    check_table_id(table_id)
    try:
        game = await service_of(request).game_of(table_id)
        record: object
        if game in ("spit", "speed"):
            record = await service_of(request).realtime_record(table_id)
        else:
            record = await service_of(request).record(table_id)
    except TableError as exc:
        if exc.code == "forbidden":
            return JSONResponse(
                {
                    "error": "forbidden",
                    "message": translator(connection_lang(request))._(
                        "the record is published when the game is over: "
                        "come back after the last round"
                    ),
                },
                status_code=HTTPStatus.FORBIDDEN,
            )
        return table_error_json(exc, connection_lang(request))
    return JSONResponse(
        record,
        headers={"Content-Disposition": f'attachment; filename="{game}-{table_id}.json"'},
    )
