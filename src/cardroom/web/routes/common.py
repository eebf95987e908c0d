"""What every router shares: the service on ``app.state``, pages, JSON errors, seat cookies."""

from __future__ import annotations

import re
from html import escape
from http import HTTPStatus
from pathlib import Path

from fastapi import HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.requests import HTTPConnection

import cardroom.web.faces as faces
from cardroom.games import registry
from cardroom.games.messages import Message
from cardroom.i18n import LANG_COOKIE, from_accept_language, normalize, translator
from cardroom.i18n.reasons import message_id, request_error_text, table_error_text
from cardroom.tables import TableError, TableService
from cardroom.web.settings import Settings

COOKIE_PREFIX = "cr_seat_"
COOKIE_MAX_AGE = 60 * 60 * 24 * 90
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

STATUS_OF_CODE = {
    "not-found": HTTPStatus.NOT_FOUND,
    "forbidden": HTTPStatus.FORBIDDEN,
    "over": HTTPStatus.CONFLICT,
    "stale": HTTPStatus.CONFLICT,
    "unavailable": HTTPStatus.SERVICE_UNAVAILABLE,
}


def service_of(conn: HTTPConnection) -> TableService:
    """The app's table service."""
    service: TableService = conn.app.state.service
    return service


def settings_of(conn: HTTPConnection) -> Settings:
    """The app's settings."""
    settings: Settings = conn.app.state.settings
    return settings


def cookie_name(table_id: str) -> str:
    """``cr_seat_<table id>``: the seat token of that table."""
    return COOKIE_PREFIX + table_id


def set_seat_cookie(response: Response, request: Request, table_id: str, token: str) -> None:
    """Give the browser its seat at ``table_id`` (HttpOnly, SameSite=Lax, Path=/)."""
    response.set_cookie(
        cookie_name(table_id),
        token,
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=settings_of(request).secure_cookies,
    )


def check_table_id(table_id: str) -> str:
    """``table_id`` if it has the form of one; 404 otherwise (nothing is looked up)."""
    if not TABLE_ID.fullmatch(table_id):
        raise HTTPException(HTTPStatus.NOT_FOUND, "there is no such table")
    return table_id


def error_json(status: int, code: str, message: str, id: str | None = None) -> JSONResponse:
    """``{"error": code, "message": message}`` (and the message's ``id``) with an HTTP status."""
    body = {"error": code, "message": message}
    if id is not None:
        body["id"] = id
    return JSONResponse(body, status_code=status)


def table_error_json(exc: TableError, lang: str = "en") -> JSONResponse:
    """A refused request as JSON (its message in ``lang``), with the HTTP status its code
    calls for."""
    response = error_json(
        STATUS_OF_CODE.get(exc.code, HTTPStatus.BAD_REQUEST),
        exc.code,
        table_error_text(exc.code, exc.message, translator(lang)),
        id=message_id(exc.code, exc.message),
    )
    return response


def page(
    request: Request, name: str, status: int = 200, fill: dict[str, str] | None = None
) -> HTMLResponse:
    """A page of ``templates/`` (the page's script reads the table from its URL), its shared
    parts put in (``<!--#include parts/head.html-->``: the head's links, the site's top bar);
    the top bar's link to the page itself is marked as the current page. ``fill`` puts
    texts (HTML-escaped) in place of the page's ``{{key}}`` marks."""
    folder = settings_of(request).templates_dir
    try:
        html = _INCLUDE.sub(
            lambda m: (folder / m.group(1)).read_text(encoding="utf-8").rstrip("\n"),
            (folder / name).read_text(encoding="utf-8"),
        )
    except FileNotFoundError:
        html = _placeholder(name)
    for _ in range(2):  # a game's part may hold the games' parts (the lobby's rules links)
        html = _GAMES_INCLUDE.sub(lambda m: games_part(m.group(1)), html)
    for key, text in (fill or {}).items():
        html = html.replace("{{" + key + "}}", escape(text))
    # the page says its language before any script runs (the same choice as common.js's)
    html = html.replace('<html lang="en">', f'<html lang="{connection_lang(request)}">', 1)
    here = f'<a href="{request.url.path}" data-i18n>'
    html = html.replace(here, here.replace(" data-i18n", ' aria-current="page" data-i18n'), 1)
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


_INCLUDE = re.compile(r"<!--#include (parts/[a-z_]+\.html)-->")
"""A shared part of the pages (a file of ``templates/parts/``)."""
_GAMES_INCLUDE = re.compile(r"<!--#games ([a-z_]+\.html)-->")
"""Each game's part of a page: the file of that name in the game's web face's folder."""


def games_part(name: str) -> str:
    """The part ``name`` of every game whose web face's folder has one, in the registry's
    order (a page's ``<!--#games name.html-->``: the lobby's form of each game…)."""
    parts = []
    for entry in registry.games():
        found = faces.face(entry)
        where = getattr(found, "__file__", None)
        if where is None:
            continue
        path = Path(where).parent / name
        if path.is_file():
            parts.append(path.read_text(encoding="utf-8").rstrip("\n"))
    return "\n".join(parts)


def message_page(
    request: Request, status: int, title: str, message: str, **fields: object
) -> HTMLResponse:
    """A short page that says what went wrong and what to do, in the request's language
    (``title`` and ``message`` are English msgids, ``message`` filled with ``fields``, or the
    words of a refusal)."""
    lang = connection_lang(request)
    tr = translator(lang)
    said = tr._(message, **fields)
    if not fields and (isinstance(message, Message) or (said == message and tr.lang != "en")):
        said = request_error_text(message, tr)  # a refusal's words: told from its id
    title, message = tr._(title), said
    back = tr._("Back to the lobby")
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title></head><body><h1>{escape(title)}</h1>"
        f'<p>{escape(message)}</p><p><a href="/">{escape(back)}</a></p>'
        "</body></html>"
    )
    return HTMLResponse(body, status_code=status)


def _placeholder(name: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cardroom</title>'
        f"</head><body><p>cardroom: the page {name} is not installed.</p></body></html>"
    )


def seat_cookies(request: Request) -> dict[str, str]:
    """Table id -> token for every seat cookie the browser sent (at most 50)."""
    out: dict[str, str] = {}
    for key, value in request.cookies.items():
        if key.startswith(COOKIE_PREFIX) and TABLE_ID.fullmatch(key[len(COOKIE_PREFIX) :]):
            out[key[len(COOKIE_PREFIX) :]] = value
            if len(out) >= 50:
                break
    return out


async def read_limited(request: Request, limit: int) -> bytes | None:
    """The request body, or None as soon as it is longer than ``limit`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


def connection_lang(conn: HTTPConnection) -> str:
    """The page's language: ``?lang=``, the ``cr_lang`` cookie, else ``Accept-Language``."""
    for tag in (conn.query_params.get("lang"), conn.cookies.get(LANG_COOKIE)):
        lang = normalize(tag)
        if lang is not None:
            return lang
    return from_accept_language(conn.headers.get("accept-language"))
