"""The lobby: its page, creating a table, listing tables, the health check."""

from __future__ import annotations

import secrets
from http import HTTPStatus
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from cardroom.games.nain_jaune.rules import Rules, RulesError
from cardroom.tables import SeatSpec, TableConfig, TableError
from cardroom.web.protocol import CreateTable, ProtocolError, clean_name, decode_create
from cardroom.web.routes.common import (
    error_json,
    page,
    read_limited,
    seat_cookies,
    service_of,
    set_seat_cookie,
    settings_of,
    table_error_json,
)

router = APIRouter()

MAX_CREATE_BYTES = 16 * 1024


@router.get("/", response_class=HTMLResponse)
async def lobby_page(request: Request) -> Response:
    """The lobby: create a table, my tables, open tables."""
    return page(request, "lobby.html")


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    """Alive, and how many tables are open."""
    rows = await service_of(request).list_tables(status={"waiting", "playing"})
    return {"ok": True, "open_tables": len(rows)}


def config_from(body: CreateTable, name: str, bot_delay: float) -> TableConfig:
    """The table a create request asks for; ``ProtocolError`` names what is wrong."""
    options: dict[str, Any] = dict(body.options)
    if body.starting_chips is not None:
        options["starting_chips"] = body.starting_chips
    if body.end is not None:
        options["end"] = body.end
    try:
        rules = Rules.from_options(body.preset, options)
    except RulesError as exc:
        raise ProtocolError("bad-request", str(exc)) from None
    if body.seats is None:
        seats = [SeatSpec("bot", body.level)] * body.players
    else:
        if len(body.seats) != body.players:
            raise ProtocolError(
                "bad-request",
                f"seats lists {len(body.seats)} seats for {body.players} players: give one each",
            )
        if body.seats[0].kind != "person":
            raise ProtocolError("bad-request", "seat 0 is yours: it must be a person")
        seats = [
            SeatSpec(s.kind, (s.level or body.level) if s.kind == "bot" else None)
            for s in body.seats
        ]
    seats[0] = SeatSpec("person", name=name)  # named: the creator has joined
    title = " ".join(body.title.split())[:60]
    try:
        return TableConfig(
            rules=rules,
            seats=tuple(seats),
            seed=secrets.randbits(63),
            title=title,
            public=body.public,
            level=body.level,
            takeover_after=body.takeover_after,
            bot_delay=bot_delay,
        )
    except TableError as exc:
        raise ProtocolError("bad-request", exc.message) from None


@router.post("/api/tables")
async def create_table(request: Request) -> Response:
    """Create a table; the creator gets seat 0 (cookie) and one invitation link per person seat."""
    body_bytes = await read_limited(request, MAX_CREATE_BYTES)
    if body_bytes is None:
        return error_json(
            HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
            "too-large",
            f"a table request is at most {MAX_CREATE_BYTES // 1024} KB",
        )
    try:
        body = decode_create(body_bytes)
        name = clean_name(body.name)
        config = config_from(body, name, settings_of(request).bot_delay)
    except ProtocolError as exc:
        return error_json(HTTPStatus.BAD_REQUEST, exc.code, exc.message)
    service = service_of(request)
    try:
        created = await service.create(config)
    except TableError as exc:
        return table_error_json(exc)
    table_id = created.table_id
    response = JSONResponse(
        {
            "table": table_id,
            "url": f"/t/{table_id}",
            "invites": [
                {"seat": seat, "url": f"/j/{table_id}.{token}"}
                for seat, token in sorted(created.invites.items())
            ],
            "watch": f"/t/{table_id}/watch",
        },
        status_code=HTTPStatus.CREATED,
    )
    set_seat_cookie(response, request, table_id, created.creator_token)
    return response


@router.get("/api/tables")
async def list_tables(request: Request) -> dict[str, Any]:
    """``{"open": [...], "mine": [...]}``: public tables not over, and the tables of my cookies."""
    service = service_of(request)
    open_rows = await service.list_tables(status={"waiting", "playing"}, public=True)
    mine: list[dict[str, Any]] = []
    cookies = seat_cookies(request)
    if cookies:
        rows = await service.list_tables(limit=500)
        for row in rows:
            token = cookies.get(str(row.get("id")))
            if token is None:
                continue
            try:
                seat = await service.seat_of(str(row["id"]), token)
            except TableError:
                continue
            mine.append({**row, "you": seat})
    return {"open": open_rows, "mine": mine}
