"""A person's own pages: their name, moving to another device, a password, their games, leaving.

Every state-changing request here is a JSON ``POST`` from this origin (a cross-site form can
send neither); answers are JSON with words in the reader's language.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import time
import zipfile
from collections import OrderedDict
from collections.abc import AsyncIterator
from http import HTTPStatus
from typing import Annotated, Any, TypeVar

import msgspec
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from msgspec import Meta

from cardroom.games import registry
from cardroom.games.registry import GAMES
from cardroom.i18n import translator
from cardroom.i18n.words import N_
from cardroom.store import Player, PlayerError
from cardroom.store.players import (
    FORMER_PLAYER,
    MOVE_TTL,
    SIGNIN_NAME_MAX,
    clean_display_name,
    fold_name,
    key_hash,
    key_id,
)
from cardroom.tables import TableError
from cardroom.web.guard import cross_site
from cardroom.web.identity import (
    PLAYER_COOKIE,
    current_player,
    player_or_new,
    players_of,
    secure_cookie,
    set_player_cookie,
)
from cardroom.web.limits import Busy, Limits, Window, refusal, retry_after
from cardroom.web.passkeys import (
    PasskeyError,
    register,
    register_options,
    sign_in_options,
)
from cardroom.web.passkeys import sign_in as passkey_sign_in_as
from cardroom.web.play_now import DEFAULT_WAIT, PlayNow
from cardroom.web.player_stats import GameStats, add_game, needs_record
from cardroom.web.protocol import GAME_NAME_MAX, unknown_game
from cardroom.web.ratings import (
    MIN_GAMES,
    PROVISIONAL_GAMES,
    VOID_REASONS,
    bot_rating,
    leaderboard,
    outcomes,
    player_ratings,
    plays_like,
)
from cardroom.web.routes.common import (
    COOKIE_PREFIX,
    check_table_id,
    connection_lang,
    error_json,
    message_page,
    page,
    read_limited,
    service_of,
    settings_of,
)
from cardroom.web.routes.lobby import open_tables_refused

router = APIRouter()
_T = TypeVar("_T")

MAX_BODY = 16 * 1024
MAX_GAMES = 500
"""The most tables the player page and the export list (newest first)."""

N_("a former player")  # FORMER_PLAYER, the name a deleted player's seats carry

_MESSAGES = {
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


class NameIn(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, Meta(max_length=200)]


class PasswordIn(msgspec.Struct, forbid_unknown_fields=True):
    password: Annotated[str, Meta(max_length=400)]


class SignInIn(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, Meta(max_length=200)]
    password: Annotated[str, Meta(max_length=400)]


class ConfirmIn(msgspec.Struct, forbid_unknown_fields=True):
    confirm: bool


class CredentialIn(msgspec.Struct, forbid_unknown_fields=True):
    credential: dict[str, Any]


class PlayIn(msgspec.Struct, forbid_unknown_fields=True):
    game: Annotated[str, Meta(max_length=GAME_NAME_MAX)]
    size: Annotated[int, Meta(ge=2, le=8)] = 2
    wait: Annotated[float, Meta(ge=5, le=300)] = DEFAULT_WAIT
    bot_now: bool = False

    def __post_init__(self) -> None:
        if self.game not in registry.GAMES:  # a bad request, as a bad field's is
            raise ValueError(unknown_game(self.game))


def _refused(request: Request, code: str, status: int = HTTPStatus.BAD_REQUEST) -> JSONResponse:
    tr = translator(connection_lang(request))
    return error_json(status, code, tr._(_MESSAGES[code]))


async def _bound(request: Request, window: Window, code: str, *keys: str) -> JSONResponse | None:
    """A 429 (words ``code``, Retry-After) if any of ``keys`` is past ``window``; else None
    and one more is counted for each key (in the database, for every process sharing it)."""
    limits = _limits(request)
    taken: list[str] = []
    for key in keys:
        wait = await limits.take(window, key)
        if wait > 0:
            for counted in taken:  # refused: none of its keys is counted
                await limits.give_back(window, counted)
            response = _refused(request, code, HTTPStatus.TOO_MANY_REQUESTS)
            response.headers["Retry-After"] = retry_after(wait)
            return response
        taken.append(key)
    return None


def _busy(request: Request) -> JSONResponse:
    """The 429 of a password hash asked for while this player's (address's) last one runs."""
    response = _refused(request, "hashing", HTTPStatus.TOO_MANY_REQUESTS)
    response.headers["Retry-After"] = retry_after(BUSY_RETRY)
    return response


BUSY_RETRY = 2
"""Seconds a client whose password hashes are all taken is told to wait."""


def _status_of(exc: PlayerError) -> int:
    return HTTPStatus.CONFLICT if exc.code == "name-taken" else HTTPStatus.BAD_REQUEST


def _limits(request: Request) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


async def _body(request: Request, kind: type[_T]) -> _T | JSONResponse:
    """The request's JSON body as ``kind``; a refusal if it is cross-site, not JSON or too big."""
    if cross_site(request):
        return _refused(request, "cross-site", HTTPStatus.FORBIDDEN)
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return _refused(request, "bad-request", HTTPStatus.UNSUPPORTED_MEDIA_TYPE)
    raw = await read_limited(request, MAX_BODY)
    if raw is None:
        return _refused(request, "bad-request", HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
    try:
        return msgspec.json.decode(raw, type=kind, strict=True)
    except (msgspec.DecodeError, RecursionError):
        return _refused(request, "bad-request")


async def _player_body(
    request: Request, kind: type[_T], *, named: bool
) -> tuple[_T, Player] | JSONResponse:
    """The body (as :func:`_body`) and the browser's player (``named``: one with a name), or
    the refusal to send."""
    body = await _body(request, kind)
    if isinstance(body, JSONResponse):
        return body
    player = await current_player(request)
    if player is None or (named and not player.name):
        return _refused(request, "no-player", HTTPStatus.UNAUTHORIZED)
    return body, player


async def _bounded_body(
    request: Request, kind: type[_T], window: Window, code: str
) -> _T | JSONResponse:
    """The body (as :func:`_body`), counted in ``window`` by the client's address: past it, a
    429 in the words of ``code``."""
    body = await _body(request, kind)
    if isinstance(body, JSONResponse):
        return body
    refused = await _bound(request, window, code, _address(request))
    return body if refused is None else refused


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
    body = await _body(request, NameIn)
    if isinstance(body, Response):
        return body
    player, key = await player_or_new(request)
    try:
        await players_of(request).rename(player.id, body.name)
    except PlayerError as exc:
        return _refused(request, exc.code, _status_of(exc))
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
    got = await _player_body(request, KeyIn, named=False)
    if isinstance(got, Response):
        return got
    body, player = got
    players = players_of(request)
    if not await players.revoke_key(player.id, body.key):
        return _refused(request, "no-key", HTTPStatus.NOT_FOUND)
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
    got = await _player_body(request, ConfirmIn, named=False)
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
        return message_page(request, HTTPStatus.NOT_FOUND, _MOVE_TITLE, _MESSAGES["move-unknown"])
    try:
        becomes = await players_of(request).peek_move_link(secret, time.time())
    except PlayerError as exc:
        return message_page(request, HTTPStatus.GONE, _MOVE_TITLE, _MESSAGES[exc.code])
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
    body = await _body(request, ConfirmIn)
    if isinstance(body, Response):
        return body
    if not body.confirm or not 1 <= len(secret) <= 100:
        return _refused(request, "move-unknown", HTTPStatus.NOT_FOUND)
    try:
        player, key = await players_of(request).use_move_link(
            secret, time.time(), request.headers.get("user-agent", "")
        )
    except PlayerError as exc:
        return _refused(request, exc.code, HTTPStatus.GONE)
    return _signed_in(request, player, key)


@router.post("/api/me/password")
async def set_password(request: Request) -> Response:
    """Protect one's player with a password (to sign in again after clearing cookies)."""
    got = await _player_body(request, PasswordIn, named=True)
    if isinstance(got, Response):
        return got
    body, player = got
    try:
        async with _limits(request).hashing.turn(f"player:{player.id}"):
            await players_of(request).set_password(player.id, body.password)
    except PlayerError as exc:
        return _refused(request, exc.code, _status_of(exc))
    except Busy:
        return _busy(request)
    return JSONResponse(_me_json(await players_of(request).get(player.id), request))


@router.post("/api/signin")
async def sign_in(request: Request) -> Response:
    """Sign in with one's name and password: this browser becomes that player."""
    limits = _limits(request)
    body = await _bounded_body(request, SignInIn, limits.sign_ins, "sign-ins")
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
        pair = f"{_address(request)}|{name_key}"
        bounds = [
            (limits.wrong_password_burst, pair),
            (limits.wrong_passwords, pair),
            (limits.wrong_passwords_any, name_key),
        ]
    taken: list[tuple[Window, str]] = []
    for window, bound_key in bounds:
        refused = await _bound(request, window, "wrong-passwords", bound_key)
        if refused is not None:
            for counted_window, counted_key in taken:
                await limits.give_back(counted_window, counted_key)
            return refused
        taken.append((window, bound_key))
    try:
        async with limits.hashing.turn(f"address:{_address(request)}"):
            player, key = await players_of(request).sign_in(
                body.name, body.password, time.time(), request.headers.get("user-agent", "")
            )
    except PlayerError as exc:
        return _refused(request, exc.code, HTTPStatus.UNAUTHORIZED)
    except Busy:
        for window, bound_key in taken:
            await limits.give_back(window, bound_key)
        return _busy(request)
    for window, bound_key in taken:
        await limits.give_back(window, bound_key)
    return _signed_in(request, player, key)


@router.post("/api/passkey/register-options")
async def passkey_register_options(request: Request) -> Response:
    """Options for the browser to make a passkey for this player."""
    got = await _player_body(request, ConfirmIn, named=True)
    if isinstance(got, Response):
        return got
    _body_in, player = got
    refused = await _bound(
        request, _limits(request).passkeys, "passkeys", _address(request), f"player:{player.id}"
    )
    if refused is not None:
        return refused
    options = await register_options(request, players_of(request), player)
    return Response(options, media_type="application/json")


@router.post("/api/passkey/register")
async def passkey_register(request: Request) -> Response:
    """Keep the passkey the browser made (checked against the challenge given)."""
    got = await _player_body(request, CredentialIn, named=False)
    if isinstance(got, Response):
        return got
    body, player = got
    try:
        await register(request, players_of(request), player, body.credential)
    except PasskeyError:
        return _refused(request, "passkey")
    return JSONResponse({"passkeys": len(await players_of(request).passkeys_of(player.id))})


@router.post("/api/passkey/signin-options")
async def passkey_sign_in_options(request: Request) -> Response:
    """Options for the browser to sign in with a passkey of this site."""
    body = await _bounded_body(request, ConfirmIn, _limits(request).passkeys, "passkeys")
    if isinstance(body, Response):
        return body
    options = await sign_in_options(request, players_of(request))
    return Response(options, media_type="application/json")


@router.post("/api/passkey/signin")
async def passkey_sign_in(request: Request) -> Response:
    """Sign in with a passkey: this browser becomes its player."""
    body = await _bounded_body(request, CredentialIn, _limits(request).passkeys, "passkeys")
    if isinstance(body, Response):
        return body
    try:
        player, key = await passkey_sign_in_as(request, players_of(request), body.credential)
    except PasskeyError:
        return _refused(request, "passkey", HTTPStatus.UNAUTHORIZED)
    return _signed_in(request, player, key)


@router.post("/api/me/delete")
async def delete(request: Request) -> Response:
    """Delete one's player: the records keep the games under "a former player"."""
    got = await _player_body(request, ConfirmIn, named=False)
    if isinstance(got, Response):
        return got
    body, player = got
    if not body.confirm:
        return _refused(request, "no-player", HTTPStatus.UNAUTHORIZED)
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


# -- my games -------------------------------------------------------------------------------


async def my_games(request: Request, player: Player) -> list[dict[str, Any]]:
    """Every table this player sat at (newest first): game, date, people, result."""
    claims = (await players_of(request).tables_of(player.id))[-MAX_GAMES:]
    seat_at = dict(claims)
    rows = {r.id: r for r in await players_of(request).table_rows([t for t, _ in claims])}
    lang = connection_lang(request)
    former = translator(lang)._(FORMER_PLAYER)
    games: list[dict[str, Any]] = []
    for table_id, seat in reversed(list(seat_at.items())):
        row = rows.get(table_id)
        if row is None:
            continue
        summary = dict(row.summary or {})
        names = [
            former if s.get("name") == FORMER_PLAYER else s.get("name") or "" for s in row.seats
        ]
        games.append(
            {
                "table": table_id,
                "game": row.game,
                "created_at": row.created_at,
                "status": row.status,
                "seat": seat,
                "people": names,
                "kinds": [s.get("kind") for s in row.seats],
                "result": _result(summary, seat),
                "replay": f"/replay/{table_id}" if row.status == "over" else None,
                "record": f"/t/{table_id}/record" if row.status == "over" else None,
            }
        )
    return games


def _result(summary: dict[str, Any], seat: int) -> dict[str, Any]:
    """What the game gave this seat: chips (a game that settles in chips) or won/lost."""
    out: dict[str, Any] = {}
    chips = summary.get("chips")
    if isinstance(chips, list) and seat < len(chips):
        out["chips"] = chips[seat]
    winners = summary.get("winners")
    if isinstance(winners, list):
        out["won"] = seat in winners
    if "winner" in summary:
        out["won"] = summary.get("winner") == seat
        out["winner_seat"] = summary.get("winner")
    if summary.get("rounds") is not None:
        out["rounds"] = summary.get("rounds")
    return out


MAX_STATS_GAMES = 100
"""The statistics cover a player's newest finished games, at most this many (each is replayed
once, then kept worked out)."""
STATS_CACHE = 4096
"""Finished tables whose figures a server keeps worked out (a finished record never changes)."""


async def _record(request: Request, game: str, table_id: str) -> object:
    """A finished table's record, without keeping the table in memory afterwards."""
    service = service_of(request)
    try:
        if registry.game(game).realtime:
            return await service.realtime_record(table_id)
        return await service.record(table_id)
    finally:
        service.unload(table_id)


async def my_stats(request: Request, games: list[dict[str, Any]]) -> dict[str, Any]:
    """Statistics per game type over the finished games of ``games``."""
    cache: dict[tuple[str, int], GameStats] = request.app.state.__dict__.setdefault(
        "player_stats", {}
    )
    totals: dict[str, GameStats] = {}
    finished = [g for g in games if g["status"] == "over"][:MAX_STATS_GAMES]
    for game in finished:
        key = (game["table"], game["seat"])
        one = cache.get(key)
        if one is None:
            one = GameStats()
            record = None
            try:  # (a game with no figures of its own is counted without its record)
                if needs_record(game["game"]):
                    record = await _record(request, game["game"], game["table"])
            except TableError:
                continue
            # a record is replayed through the engine: off the event loop
            winner = game["result"].get("winner_seat")
            await asyncio.to_thread(add_game, one, game["game"], record, game["seat"], winner)
            if len(cache) >= STATS_CACHE:
                cache.pop(next(iter(cache)))
            cache[key] = one
        totals.setdefault(game["game"], GameStats()).add(one)
    return {name: stats.to_json(name) for name, stats in totals.items()}


@router.get("/api/me/games")
async def games(request: Request) -> Response:
    """``{"games": [...], "stats": {game: {...}}}``: my tables, newest first, and my figures
    per game (empty for a browser with no player)."""
    player = await current_player(request)
    if player is None:
        return JSONResponse({"games": [], "stats": {}})
    mine = await my_games(request, player)
    stats = await my_stats(request, mine)
    store = service_of(request).store
    rated = await player_ratings(store, player.id)
    counted = await outcomes(store, [g["table"] for g in mine])
    tr = translator(connection_lang(request))
    for game in mine:
        change = rated.get(game["game"], {}).get("changes", {}).get(game["table"])
        game["rating"] = change  # [before, after] for a counted rated game, else None
        game["rated"] = game["table"] in counted
        outcome = counted.get(game["table"])  # a rated game that did not count: why, in words
        game["unrated"] = tr._(VOID_REASONS[outcome]) if outcome in VOID_REASONS else None
    for name, figures in rated.items():
        entry = stats.setdefault(name, {"games": 0, "won": 0})
        entry["rating"] = figures["rating"]
        entry["provisional"] = figures["provisional"]
        entry["provisional_games"] = PROVISIONAL_GAMES
        entry["rated_games"] = figures["games"]
        if figures["mu"] is not None:
            entry["plays_like"] = plays_like(name, figures["mu"], figures["games"])
            if entry["plays_like"] is not None:
                entry["plays_like_rating"] = bot_rating(name, entry["plays_like"])
    return JSONResponse({"games": mine, "stats": stats})


@router.get("/api/tables/{table_id}/rating")
async def table_rating(request: Request, table_id: str) -> Response:
    """What a finished table did to the asker's rating, for its end screen: ``{"rated",
    "counted", "unrated" (why it did not count, in words, or null), "rating" ([before, after]
    for the asking player, or null)}``."""
    check_table_id(table_id)
    store = service_of(request).store
    known = await outcomes(store, [table_id])
    rated = table_id in known
    outcome = known.get(table_id)
    tr = translator(connection_lang(request))
    change = None
    player = await current_player(request)
    if player is not None and outcome == "rated":
        for figures in (await player_ratings(store, player.id)).values():
            change = figures["changes"].get(table_id, change)
    return JSONResponse(
        {
            "rated": rated,
            "counted": outcome is not None,
            "unrated": tr._(VOID_REASONS[outcome]) if outcome in VOID_REASONS else None,
            "rating": change,
        },
        headers={"Cache-Control": "no-store"},
    )


@router.get("/api/leaderboard/{game}")
async def leaderboard_of(request: Request, game: str) -> Response:
    """``{"game", "min_games", "board": [{name | bot, rating, games}]}``, best first."""
    if game not in GAMES:  # every registered game has a leaderboard
        return _refused(request, "bad-request", HTTPStatus.NOT_FOUND)
    board = await leaderboard(service_of(request).store, game)
    return JSONResponse({"game": game, "min_games": MIN_GAMES, "board": board})


class _Chunks(io.RawIOBase):
    """Where the export's zip is written: the bytes written since the last :meth:`take`
    (not seekable, so :mod:`zipfile` writes each member's sizes after its data)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        out = b"".join(self.parts)
        self.parts.clear()
        return out


EXPORT_CACHE_BYTES = 64 * 1024 * 1024
"""The records' JSON a process keeps for exports (a finished table's never changes; the
oldest used is forgotten first)."""


class ExportParts:
    """Finished tables' records as the export's JSON, each made once (per process), keyed by
    the table and the names at it (a deleted player's seats renamed make a new part)."""

    def __init__(self, most_bytes: int = EXPORT_CACHE_BYTES) -> None:
        self.most_bytes = most_bytes
        self.size = 0
        self.parts: OrderedDict[tuple[str, tuple[str, ...]], bytes] = OrderedDict()

    def get(self, key: tuple[str, tuple[str, ...]]) -> bytes | None:
        """The part of ``key`` if it is kept."""
        part = self.parts.get(key)
        if part is not None:
            self.parts.move_to_end(key)
        return part

    def keep(self, key: tuple[str, tuple[str, ...]], part: bytes) -> None:
        """Keep ``part`` (the oldest used parts forgotten past ``most_bytes``)."""
        if key in self.parts or len(part) > self.most_bytes:
            return
        self.parts[key] = part
        self.size += len(part)
        while self.size > self.most_bytes:
            _key, old = self.parts.popitem(last=False)
            self.size -= len(old)


def _export_parts(request: Request) -> ExportParts:
    parts: ExportParts = request.app.state.__dict__.setdefault("export_parts", ExportParts())
    return parts


async def _export_chunks(request: Request, games: list[dict[str, Any]]) -> AsyncIterator[bytes]:
    """The zip of ``games``' records, a member at a time; each record is made (replayed) only
    if this process does not keep it yet."""
    parts = _export_parts(request)
    sink = _Chunks()
    archive = zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED)
    try:
        for game in games:
            key = (str(game["table"]), tuple(str(p) for p in game["people"]))
            part = parts.get(key)
            if part is None:
                try:
                    record = await _record(request, game["game"], game["table"])
                except TableError:
                    continue
                part = json.dumps(record, ensure_ascii=False).encode()
                parts.keep(key, part)
            name = f"{game['game']}-{game['table']}.json"
            await asyncio.to_thread(archive.writestr, name, part)
            yield sink.take()
    finally:
        archive.close()
    yield sink.take()


@router.get("/api/me/export")
async def export(request: Request) -> Response:
    """A zip of the records of every finished game of mine (the files `cardroom replay` reads),
    sent as it is made; at most ``exports_per_hour`` per player (past it: 429 in words)."""
    player = await current_player(request)
    if player is None:
        return _refused(request, "no-player", HTTPStatus.UNAUTHORIZED)
    limits = _limits(request)
    wait = await limits.take(limits.exports, f"player:{player.id}")
    if wait > 0:
        n = settings_of(request).exports_per_hour
        return refusal(
            HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", "bounds.exports-per-hour",
            connection_lang(request), wait, n=n,
        )  # fmt: skip
    finished = [g for g in await my_games(request, player) if g["status"] == "over"]
    return StreamingResponse(
        _export_chunks(request, finished),
        media_type="application/zip",
        headers={"Content-Disposition": 'attachment; filename="cardroom-records.zip"'},
    )


# -- play now -------------------------------------------------------------------------------


def _play(request: Request) -> PlayNow:
    play: PlayNow = request.app.state.play
    return play


@router.get("/play")
async def play_page(request: Request) -> Response:
    """The Play now page: a button per game."""
    return page(request, "play.html")


@router.post("/api/play")
async def play_now(request: Request) -> Response:
    """Wait for a game: ``{"game", "size" (a turn-based game), "wait" (seconds before bots),
    "bot_now" (bots at once if nobody is waiting)}``."""
    got = await _player_body(request, PlayIn, named=True)
    if isinstance(got, Response):
        return got
    body, player = got
    refused = await _bound(
        request, _limits(request).plays, "plays", _address(request), f"player:{player.id}"
    )
    if refused is not None:
        return refused
    address = _address(request)
    full = await open_tables_refused(request, address, connection_lang(request))
    if full is not None:
        return full
    size = 2 if registry.game(body.game).realtime else body.size
    play = _play(request)
    await play.join(
        player.id, body.game, size, body.wait, address=address, bot_now=body.bot_now
    )
    await play.match_all()
    return JSONResponse({"waiting": await play.status(player.id)})


@router.get("/api/play")
async def play_status(request: Request) -> Response:
    """``{"waiting": {game, since, size, table, others, bots_at, level} | null}``: ``table``
    once seated; ``others`` waiting for the same game, bots of ``level`` at ``bots_at``."""
    player = await current_player(request)
    if player is None:
        return JSONResponse({"waiting": None})
    return JSONResponse({"waiting": await _play(request).status(player.id)})


@router.post("/api/play/leave")
async def play_leave(request: Request) -> Response:
    """Stop waiting."""
    body = await _body(request, ConfirmIn)
    if isinstance(body, Response):
        return body
    player = await current_player(request)
    if player is not None:
        await _play(request).leave(player.id)
    return JSONResponse({"waiting": None})
