"""A person's own account: their name, the browsers holding a key to it, moving to another
device, a password or a passkey to sign in again, and leaving.

Every state-changing request here is a JSON ``POST`` from this origin (a cross-site form can
send neither); answers are JSON with words in the reader's language (the requests' shared
reading and refusals: :mod:`.player_requests`). A player's games, figures and ratings are
:mod:`.my_games`; Play now is :mod:`.play`.
"""

from __future__ import annotations

import dataclasses
import time
from http import HTTPStatus
from typing import Annotated, Any

import msgspec
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from msgspec import Meta

from cardroom.i18n import translator
from cardroom.i18n.words import N_
from cardroom.store import Player, PlayerError
from cardroom.store.players import (
    MOVE_TTL,
    SIGNIN_NAME_MAX,
    clean_display_name,
    fold_name,
    key_hash,
    key_id,
)
from cardroom.web.identity import (
    PLAYER_COOKIE,
    current_player,
    player_or_new,
    players_of,
    secure_cookie,
    set_player_cookie,
)
from cardroom.web.limits import Busy, Window
from cardroom.web.passkeys import (
    PasskeyError,
    register,
    register_options,
    sign_in_options,
)
from cardroom.web.passkeys import sign_in as passkey_sign_in_as
from cardroom.web.routes.common import (
    COOKIE_PREFIX,
    connection_lang,
    message_page,
    page,
    service_of,
    settings_of,
)
from cardroom.web.routes.player_requests import (
    MAX_GAMES,
    MESSAGES,
    ConfirmIn,
    address_of,
    bound,
    bounded_body,
    busy,
    limits_of,
    player_body,
    read_body,
    refuse,
    status_of,
)

router = APIRouter()


class NameIn(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, Meta(max_length=200)]


class PasswordIn(msgspec.Struct, forbid_unknown_fields=True):
    password: Annotated[str, Meta(max_length=400)]


class SignInIn(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, Meta(max_length=200)]
    password: Annotated[str, Meta(max_length=400)]


class CredentialIn(msgspec.Struct, forbid_unknown_fields=True):
    credential: dict[str, Any]


def _signed_in(request: Request, player: Player, key: str | None) -> JSONResponse:
    """The answer that makes this browser ``player`` (its cookie set when there is a ``key``)."""
    response = JSONResponse(_me_json(player, request))
    if key is not None:
        set_player_cookie(response, request, key)
    return response


def _me_json(player: Player | None, request: Request) -> dict[str, Any]:
    return {
        "player": None
        if player is None
        else {
            "id": player.id,
            "name": player.name,
            "protected": player.protected,
            "signs_in": player.signs_in,
        },
        "identity": settings_of(request).identity,
    }


@router.get("/me")
async def me_page(request: Request) -> Response:
    """The player page: name, my games, ratings, another device, a password, leaving."""
    return page(request, "me.html")


@router.get("/api/me")
async def me(request: Request) -> dict[str, Any]:
    """``{"player": {id, name, protected, signs_in} | null, "identity": "optional"|"required"}``
    (``signs_in``: sign-in by name and password finds this player)."""
    return _me_json(await current_player(request), request)


@router.post("/api/me")
async def set_name(request: Request) -> Response:
    """Choose or change one's name (the first time, the browser gets its player)."""
    body = await read_body(request, NameIn)
    if isinstance(body, Response):
        return body
    player, key = await player_or_new(request)
    try:
        await players_of(request).rename(player.id, body.name)
    except PlayerError as exc:
        return refuse(request, exc.code, status_of(exc))
    return _signed_in(request, await players_of(request).get(player.id) or player, key)


class KeyIn(msgspec.Struct, forbid_unknown_fields=True):
    key: Annotated[str, Meta(min_length=1, max_length=64)]


@router.get("/api/me/keys")
async def my_keys(request: Request) -> Response:
    """``{"keys": [{id, created_at, last_used, agent, how, current}]}``: the browsers and
    devices holding a key to this player, oldest first (``current``: this browser)."""
    player = await current_player(request)
    if player is None:
        return JSONResponse({"keys": []})
    here = request.cookies.get(PLAYER_COOKIE, "")
    current = key_id(key_hash(here)) if here else ""
    keys = await players_of(request).keys_of(player.id)
    return JSONResponse(
        {"keys": [{**dataclasses.asdict(k), "current": k.id == current} for k in keys]}
    )


@router.post("/api/me/keys/revoke")
async def revoke_key(request: Request) -> Response:
    """``{"key": id}``: that browser or device no longer opens this player (this browser's
    own key too: it then has no player)."""
    got = await player_body(request, KeyIn, named=False)
    if isinstance(got, Response):
        return got
    body, player = got
    players = players_of(request)
    if not await players.revoke_key(player.id, body.key):
        return refuse(request, "no-key", HTTPStatus.NOT_FOUND)
    # the pages this player has open at unfinished tables close: the player's own reconnect
    # (their keys still open the seat), the revoked browser's are refused
    claims = dict((await players.tables_of(player.id))[-MAX_GAMES:])
    for row in await players.table_rows(list(claims)):
        if row.status != "over":
            service_of(request).end_connections(row.id, claims[row.id])
    return await my_keys(request)


@router.post("/api/me/move")
async def move(request: Request) -> Response:
    """A one-time link (10 minutes) that gives another device this player, with its QR code."""
    got = await player_body(request, ConfirmIn, named=False)
    if isinstance(got, Response):
        return got
    _body_in, player = got
    secret = await players_of(request).move_link(player.id, time.time())
    base = f"{request.url.scheme}://{request.headers.get('host', request.url.netloc)}"
    url = f"{base}/m/{secret}"
    return JSONResponse({"url": url, "expires_in": MOVE_TTL, "qr": qr_svg(url)})


def qr_svg(text: str) -> str:
    """``text`` as a QR code: an SVG drawn on the server (segno), as a ``data:`` URI the page
    shows in an ``<img>`` (no markup from the server is ever inserted into the page)."""
    import segno

    uri: str = segno.make(text, error="m").svg_data_uri(scale=4, border=2)
    return uri


_MOVE_TITLE = N_("This link to move a player does not work")


@router.get("/m/{secret}")
async def use_move(request: Request, secret: str) -> Response:
    """Open a move link: a page that says which player this browser would become (and which
    it is now) and asks; nothing changes until its button confirms (``POST /api/move/...``).
    A link opened from another site, or never confirmed, changes nothing."""
    if not 1 <= len(secret) <= 100:
        return message_page(request, HTTPStatus.NOT_FOUND, _MOVE_TITLE, MESSAGES["move-unknown"])
    try:
        becomes = await players_of(request).peek_move_link(secret, time.time())
    except PlayerError as exc:
        return message_page(request, HTTPStatus.GONE, _MOVE_TITLE, MESSAGES[exc.code])
    now = await current_player(request)
    tr = translator(connection_lang(request))
    unnamed = tr._("a player with no name yet")
    fill = {
        "to": becomes.name or unnamed,
        "now": "" if now is None else now.name or unnamed,
        "now_hidden": "" if now is not None and now.id != becomes.id else "hidden",
        "same_hidden": "" if now is not None and now.id == becomes.id else "hidden",
    }
    return page(request, "move.html", fill=fill)


@router.post("/api/move/{secret}")
async def confirm_move(request: Request, secret: str) -> Response:
    """Spend a move link once its page was confirmed: this browser becomes its player. Only
    from this site's pages (JSON, same origin; a cross-site request is refused)."""
    body = await read_body(request, ConfirmIn)
    if isinstance(body, Response):
        return body
    if not body.confirm or not 1 <= len(secret) <= 100:
        return refuse(request, "move-unknown", HTTPStatus.NOT_FOUND)
    try:
        player, key = await players_of(request).use_move_link(
            secret, time.time(), request.headers.get("user-agent", "")
        )
    except PlayerError as exc:
        return refuse(request, exc.code, HTTPStatus.GONE)
    return _signed_in(request, player, key)


@router.post("/api/me/password")
async def set_password(request: Request) -> Response:
    """Protect one's player with a password (to sign in again after clearing cookies)."""
    got = await player_body(request, PasswordIn, named=True)
    if isinstance(got, Response):
        return got
    body, player = got
    try:
        async with limits_of(request).hashing.turn(f"player:{player.id}"):
            await players_of(request).set_password(player.id, body.password)
    except PlayerError as exc:
        return refuse(request, exc.code, status_of(exc))
    except Busy:
        return busy(request)
    return JSONResponse(_me_json(await players_of(request).get(player.id), request))


@router.post("/api/signin")
async def sign_in(request: Request) -> Response:
    """Sign in with one's name and password: this browser becomes that player."""
    limits = limits_of(request)
    body = await bounded_body(request, SignInIn, limits.sign_ins, "sign-ins")
    if isinstance(body, Response):
        return body
    try:
        name_key = fold_name(clean_display_name(body.name))[:SIGNIN_NAME_MAX]
    except PlayerError:
        name_key = ""
    # Wrong passwords are counted per address and name (a burst of a few a minute, then
    # wrong_passwords_per_name an hour: the wait grows), and per name from every address at
    # ten times that (a brute force spread over many addresses). Neither counts the owner's
    # own browser (its key opens the player of this name), so no stranger shuts them out.
    # Counted before the password is checked, so that tries at once in several processes are
    # counted together; given back when it was right.
    here = await current_player(request)
    owner = here is not None and here.signs_in and fold_name(here.name) == name_key
    bounds: list[tuple[Window, str]] = []
    if not owner:
        pair = f"{address_of(request)}|{name_key}"
        bounds = [
            (limits.wrong_password_burst, pair),
            (limits.wrong_passwords, pair),
            (limits.wrong_passwords_any, name_key),
        ]
    taken: list[tuple[Window, str]] = []
    for window, bound_key in bounds:
        refused = await bound(request, window, "wrong-passwords", bound_key)
        if refused is not None:
            for counted_window, counted_key in taken:
                await limits.give_back(counted_window, counted_key)
            return refused
        taken.append((window, bound_key))
    try:
        async with limits.hashing.turn(f"address:{address_of(request)}"):
            player, key = await players_of(request).sign_in(
                body.name, body.password, time.time(), request.headers.get("user-agent", "")
            )
    except PlayerError as exc:
        return refuse(request, exc.code, HTTPStatus.UNAUTHORIZED)
    except Busy:
        for window, bound_key in taken:
            await limits.give_back(window, bound_key)
        return busy(request)
    for window, bound_key in taken:
        await limits.give_back(window, bound_key)
    return _signed_in(request, player, key)


@router.post("/api/passkey/register-options")
async def passkey_register_options(request: Request) -> Response:
    """Options for the browser to make a passkey for this player."""
    got = await player_body(request, ConfirmIn, named=True)
    if isinstance(got, Response):
        return got
    _body_in, player = got
    refused = await bound(
        request, limits_of(request).passkeys, "passkeys", address_of(request), f"player:{player.id}"
    )
    if refused is not None:
        return refused
    options = await register_options(request, players_of(request), player)
    return Response(options, media_type="application/json")


@router.post("/api/passkey/register")
async def passkey_register(request: Request) -> Response:
    """Keep the passkey the browser made (checked against the challenge given)."""
    got = await player_body(request, CredentialIn, named=False)
    if isinstance(got, Response):
        return got
    body, player = got
    try:
        await register(request, players_of(request), player, body.credential)
    except PasskeyError:
        return refuse(request, "passkey")
    return JSONResponse({"passkeys": len(await players_of(request).passkeys_of(player.id))})


@router.post("/api/passkey/signin-options")
async def passkey_sign_in_options(request: Request) -> Response:
    """Options for the browser to sign in with a passkey of this site."""
    body = await bounded_body(request, ConfirmIn, limits_of(request).passkeys, "passkeys")
    if isinstance(body, Response):
        return body
    options = await sign_in_options(request, players_of(request))
    return Response(options, media_type="application/json")


@router.post("/api/passkey/signin")
async def passkey_sign_in(request: Request) -> Response:
    """Sign in with a passkey: this browser becomes its player."""
    body = await bounded_body(request, CredentialIn, limits_of(request).passkeys, "passkeys")
    if isinstance(body, Response):
        return body
    try:
        player, key = await passkey_sign_in_as(request, players_of(request), body.credential)
    except PasskeyError:
        return refuse(request, "passkey", HTTPStatus.UNAUTHORIZED)
    return _signed_in(request, player, key)


@router.post("/api/me/delete")
async def delete(request: Request) -> Response:
    """Delete one's player: the records keep the games under "a former player"."""
    got = await player_body(request, ConfirmIn, named=False)
    if isinstance(got, Response):
        return got
    body, player = got
    if not body.confirm:
        return refuse(request, "no-player", HTTPStatus.UNAUTHORIZED)
    service = service_of(request)
    for table_id, _seat in await players_of(request).delete(player.id):
        service.unload(table_id)
    response = JSONResponse({"deleted": True})
    secure = secure_cookie(request)
    response.delete_cookie(PLAYER_COOKIE, path="/", secure=secure, httponly=True, samesite="lax")
    for name in request.cookies:
        if name.startswith(COOKIE_PREFIX):
            response.delete_cookie(name, path="/", secure=secure, httponly=True, samesite="lax")
    return response
