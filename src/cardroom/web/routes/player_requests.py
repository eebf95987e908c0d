"""What the player pages' requests share: reading a JSON body from this site's pages, the
browser's player, the bounds counted per address or player, and the refusals in words.

Every state-changing request of the player pages (:mod:`.players`, :mod:`.my_games`,
:mod:`.play`) is a JSON ``POST`` from this origin (a cross-site form can send neither); a
refusal is JSON with words in the reader's language.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import TypeVar

import msgspec
from fastapi import Request
from fastapi.responses import JSONResponse

from cardroom.i18n import translator
from cardroom.i18n.words import N_
from cardroom.store import Player, PlayerError
from cardroom.web.guard import cross_site
from cardroom.web.identity import current_player
from cardroom.web.limits import Limits, Window, retry_after
from cardroom.web.routes.common import connection_lang, error_json, read_limited

_T = TypeVar("_T")

MAX_BODY = 16 * 1024
MAX_GAMES = 500
"""The most tables the player page and the export list (newest first)."""

MESSAGES = {
    "bad-name": N_("a name has 1 to 24 characters, without control characters"),
    "bad-password": N_("a password has 8 to 200 characters"),
    "sign-in": N_("no player has this name and password"),
    "no-player": N_("choose a name first: this browser has no player yet"),
    "bad-request": N_("this request is not understood: reload the page and try again"),
    "cross-site": N_("this request does not come from this site's pages"),
    "move-used": N_("this link to move a player was already used: make a new one"),
    "move-expired": N_("this link to move a player has expired (after 10 minutes): make a new one"),
    "move-unknown": N_("this link to move a player does not work: make a new one"),
    "passkey": N_("the passkey did not work: try again, or use your password"),
    "sign-ins": N_("too many sign-in attempts from here: wait a minute and try again"),
    "wrong-passwords": N_(
        "too many wrong passwords for this name lately: wait a while and try again"
    ),
    "passkeys": N_("too many passkey attempts from here: wait a minute and try again"),
    "hashing": N_("your last password is still being checked: wait a moment and try again"),
    "plays": N_("Play now was pressed too often in the last minute: wait a moment"),
    "name-taken": N_(
        "another player signs in with this name (capitals and accents aside): choose another"
    ),
    "no-key": N_("this browser or device no longer holds a key to your player"),
}
"""A refusal's code -> its English words (the catalog's msgid)."""


class ConfirmIn(msgspec.Struct, forbid_unknown_fields=True):
    """A body that only confirms (``{"confirm": true}``)."""

    confirm: bool


def refuse(request: Request, code: str, status: int = HTTPStatus.BAD_REQUEST) -> JSONResponse:
    """The JSON refusal ``code`` with its words (:data:`MESSAGES`) in the reader's language."""
    tr = translator(connection_lang(request))
    return error_json(status, code, tr._(MESSAGES[code]))


async def bound(request: Request, window: Window, code: str, *keys: str) -> JSONResponse | None:
    """A 429 (words ``code``, Retry-After) if any of ``keys`` is past ``window``; else None
    and one more is counted for each key (in the database, for every process sharing it)."""
    limits = limits_of(request)
    taken: list[str] = []
    for key in keys:
        wait = await limits.take(window, key)
        if wait > 0:
            for counted in taken:  # refused: none of its keys is counted
                await limits.give_back(window, counted)
            response = refuse(request, code, HTTPStatus.TOO_MANY_REQUESTS)
            response.headers["Retry-After"] = retry_after(wait)
            return response
        taken.append(key)
    return None


def busy(request: Request) -> JSONResponse:
    """The 429 of a password hash asked for while this player's (address's) last one runs."""
    response = refuse(request, "hashing", HTTPStatus.TOO_MANY_REQUESTS)
    response.headers["Retry-After"] = retry_after(BUSY_RETRY)
    return response


BUSY_RETRY = 2
"""Seconds a client whose password hashes are all taken is told to wait."""


def status_of(exc: PlayerError) -> int:
    """The HTTP status of a refused name or password: 409 for a name taken, else 400."""
    return HTTPStatus.CONFLICT if exc.code == "name-taken" else HTTPStatus.BAD_REQUEST


def limits_of(request: Request) -> Limits:
    """The app's bounds of one client's work."""
    limits: Limits = request.app.state.limits
    return limits


def address_of(request: Request) -> str:
    """The client's address (empty when the server does not know it)."""
    return request.client.host if request.client else ""


async def read_body(request: Request, kind: type[_T]) -> _T | JSONResponse:
    """The request's JSON body as ``kind``; a refusal if it is cross-site, not JSON or too big."""
    if cross_site(request):
        return refuse(request, "cross-site", HTTPStatus.FORBIDDEN)
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return refuse(request, "bad-request", HTTPStatus.UNSUPPORTED_MEDIA_TYPE)
    raw = await read_limited(request, MAX_BODY)
    if raw is None:
        return refuse(request, "bad-request", HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
    try:
        return msgspec.json.decode(raw, type=kind, strict=True)
    except (msgspec.DecodeError, RecursionError):
        return refuse(request, "bad-request")


async def player_body(
    request: Request, kind: type[_T], *, named: bool
) -> tuple[_T, Player] | JSONResponse:
    """The body (as :func:`read_body`) and the browser's player (``named``: one with a name), or
    the refusal to send."""
    body = await read_body(request, kind)
    if isinstance(body, JSONResponse):
        return body
    player = await current_player(request)
    if player is None or (named and not player.name):
        return refuse(request, "no-player", HTTPStatus.UNAUTHORIZED)
    return body, player


async def bounded_body(
    request: Request, kind: type[_T], window: Window, code: str
) -> _T | JSONResponse:
    """The body (as :func:`read_body`), counted in ``window`` by the client's address: past it, a
    429 in the words of ``code``."""
    body = await read_body(request, kind)
    if isinstance(body, JSONResponse):
        return body
    refused = await bound(request, window, code, address_of(request))
    return body if refused is None else refused
