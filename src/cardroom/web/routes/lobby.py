"""The lobby: its page, creating a table, listing tables, the health check."""

from __future__ import annotations

import contextlib
import dataclasses
import re
import secrets
import time
from http import HTTPStatus
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

import cardroom.web.faces as faces
from cardroom.games import registry
from cardroom.games.messages import Message
from cardroom.games.records import brief
from cardroom.i18n import translator
from cardroom.i18n.levels import BOT_WORDS, LEVEL_WORDS
from cardroom.i18n.reasons import message_id, request_error_text
from cardroom.store import PlayerError, StoreUnavailable
from cardroom.tables import SeatSpec, TableError
from cardroom.tables.realtime import RealtimeConfig
from cardroom.web.identity import (
    current_player,
    player_or_new,
    players_of,
    set_player_cookie,
)
from cardroom.web.limits import PENDING, Limits, refusal
from cardroom.web.protocol import (
    LEVEL_NAMES,
    CreateTable,
    ProtocolError,
    SeatIn,
    clean_name,
    clean_text,
    decode_create,
    unknown_game,
)
from cardroom.web.ratings import mark_rated
from cardroom.web.routes.bot_access import mark_listed
from cardroom.web.routes.common import (
    connection_lang,
    error_json,
    page,
    read_limited,
    seat_cookies,
    service_of,
    set_seat_cookie,
    settings_of,
    table_error_json,
)
from cardroom.web.settings import Settings

router = APIRouter()

SEAT_0_YOURS = Message("lobby.seat-0", "seat 0 is yours: it must be a person")
TITLE_MAX = 60

MAX_CREATE_BYTES = 16 * 1024


@router.get("/", response_class=HTMLResponse)
async def lobby_page(request: Request) -> Response:
    """The lobby: create a table, my tables, open tables."""
    return page(request, "lobby.html")


@router.get("/api/options/{name}")
async def game_options(name: str) -> Response:
    """A game's options, presets and their words (msgids): the lobby's one model of them, its
    web face's ``options_model()`` (404 for a game without one)."""
    entry = registry.GAMES.get(name)
    make = faces.part(entry, "options_model") if entry is not None else None
    if make is None:
        return JSONResponse({"error": "not-found"}, status_code=HTTPStatus.NOT_FOUND)
    model: dict[str, Any] = make()
    return JSONResponse(model)


GAME_SCRIPT = re.compile(r"[a-z][a-z0-9_]*\.js")
"""The name of a game's own script (in its web face's folder)."""


@router.get("/games/{name}/{script}")
async def game_script(name: str, script: str) -> Response:
    """A game's own script for the pages (its ``realtime.js``…), from its web face's folder;
    404 for a game, a face or a script there is not."""
    entry = registry.GAMES.get(name)
    where = getattr(faces.face(entry), "__file__", None) if entry is not None else None
    path = Path(where).parent / script if where and GAME_SCRIPT.fullmatch(script) else None
    if path is None or not path.is_file():
        return JSONResponse({"error": "not-found"}, status_code=HTTPStatus.NOT_FOUND)
    return FileResponse(path, media_type="text/javascript")


@router.get("/api/games")
async def game_list() -> dict[str, Any]:
    """Every registered game (its name, its title as an English msgid the page translates, its
    kind of table, its fewest and most players, whether it has a rules page, and its web
    face's ``PAGE``: what the pages know of its own) and the bots' levels with their words."""
    return {
        "games": [
            {
                "name": g.name,
                "title": g.title,
                "kind": g.kind,
                "players": list(g.players),
                "rules": g.rules_page is not None,
                "page": faces.part(g, "PAGE", {}),
            }
            for g in registry.games()
        ],
        "levels": [
            {"name": lv, "words": LEVEL_WORDS[lv], "bot": BOT_WORDS[lv]} for lv in LEVEL_NAMES
        ],
    }


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    """Alive, and how many tables are open; 503 at once while this process has lost the
    database (a load balancer then sends nobody here)."""
    service = service_of(request)
    if not service.available:
        raise StoreUnavailable("the database is not answering this server")
    rows = await service.list_tables(status={"waiting", "playing"})
    return {"ok": True, "open_tables": len(rows)}


def turn_based_config(body: CreateTable, name: str, bot_delay: float) -> Any:
    """The turn-based table a create request asks for (its game's face's ``table_config``);
    ``ProtocolError`` names what is wrong."""
    make = faces.part(body.game, "table_config")
    if make is None:  # a game whose tables the lobby cannot make
        raise ProtocolError("bad-request", unknown_game(body.game))
    return make(body, name, bot_delay)


def hints_only() -> Message:
    """The refusal of hints at a game that has none: the words of the game that offers them."""
    message: Message = next(said for _, said in faces.web_parts("HINTS_ONLY"))
    return message


def realtime_config_from(body: CreateTable, name: str) -> tuple[RealtimeConfig, str]:
    """The real-time table a create request asks for, and its title."""
    if body.preset is not None:
        raise ProtocolError(
            "bad-request",
            Message("lobby.no-presets", f"{body.game.capitalize()} has no presets", game=body.game),
        )
    if body.hints or body.learning:
        raise ProtocolError(
            "bad-request",
            hints_only(),
        )
    seats_in = body.seats or [SeatIn("person"), SeatIn("bot", body.level)]
    if len(seats_in) != 2:
        raise ProtocolError(
            "bad-request",
            Message(
                "lobby.two-players",
                f"{body.game.capitalize()} is played by 2, not {len(seats_in)}",
                game=body.game,
                n=len(seats_in),
            ),
        )
    if seats_in[0].kind != "person":
        raise ProtocolError("bad-request", SEAT_0_YOURS)
    other = seats_in[1]
    second = (
        SeatSpec("bot", other.level or body.level) if other.kind == "bot" else SeatSpec("person")
    )
    options = {
        k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in body.options.items()
    }
    by_games = faces.part(body.game, "MATCH_OF_GAMES", False)
    games = options.pop("games", "1") if by_games else "1"  # a match of games won
    if not games.isdigit() or not 1 <= int(games) <= 9:
        raise ProtocolError(
            "bad-request",
            Message(
                "lobby.games",
                f"games is a whole number from 1 to 9, not {games!r}",
                typed=brief(games),
                most=9,
            ),
        )
    config = RealtimeConfig(
        game=body.game,
        options=options,
        seats=(SeatSpec("person", name=name), second),
        seed=secrets.randbits(63),
        level=body.level,
        away_limit=body.takeover_after,
        away_then=body.when_away,
        games=int(games),
    )
    try:
        config.rules_target()  # a match to a target score is played here too
    except TableError as exc:
        raise ProtocolError("bad-request", exc.message) from None
    return config, clean_text(body.title, TITLE_MAX)


async def forget_tables_over(request: Request, address: str) -> list[str]:
    """The tables ``address`` made lately (Play now's included), those over forgotten once
    they are as many as the open-tables bound."""
    limits: Limits = request.app.state.limits
    mine = await limits.created_by(address)  # every process's, when the store is shared
    if len(mine) >= settings_of(request).open_tables_per_client:  # forget those that are over
        rows = await service_of(request).list_tables(status={"waiting", "playing"}, limit=10_000)
        open_ids = {str(row["id"]) for row in rows}
        over = [t for t in mine if t not in open_ids and not t.startswith(PENDING)]
        await limits.forget_tables(address, over)
        mine = [t for t in mine if t not in over]
    return mine


async def open_tables_refused(request: Request, address: str, lang: str) -> Response | None:
    """A 429 when ``address`` has as many tables not over as the bound allows (Play now asks
    before queueing: its table is counted when it is made); else None."""
    n = settings_of(request).open_tables_per_client
    if len(await forget_tables_over(request, address)) < n:
        return None
    return refusal(
        HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", "bounds.open-tables", lang, 60, n=n
    )


async def creation_refused(request: Request, address: str, lang: str) -> Response | str:
    """A 429 when ``address`` has too many tables open or made too many this minute; else the
    open-table place held for the table (:meth:`Limits.reserve_table`)."""
    limits: Limits = request.app.state.limits
    settings = settings_of(request)
    await forget_tables_over(request, address)
    pending = await limits.reserve_table(address)
    if pending is None:  # (a request refused for it is not counted as made)
        return refusal(
            HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", "bounds.open-tables", lang,
            60, n=settings.open_tables_per_client,
        )  # fmt: skip
    wait = await limits.take(limits.creations, address)
    if wait > 0:
        await limits.release_table(address, pending)
        return refusal(
            HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", "bounds.tables-per-minute", lang,
            wait, n=settings.tables_per_minute,
        )  # fmt: skip
    return pending


def bound_refusal(body: CreateTable, settings: Settings, lang: str) -> str | None:
    """The words refusing a takeover delay under the server's least (0, never, is allowed) or
    an end past its most rounds; None if the table is within the bounds."""
    tr = translator(lang)
    least = settings.min_takeover_after
    if not registry.game(body.game).realtime and 0 < body.takeover_after < least:
        return tr.ngettext(
            "a bot may take an absent player's seat after {seconds} second at the soonest",
            "a bot may take an absent player's seat after {seconds} seconds at the soonest",
            max(1, int(least)),
            seconds=f"{least:g}",
        )
    asked = faces.part(body.game, "rounds_asked")
    rounds = asked(body) if asked is not None else None
    if rounds is not None and rounds > settings.max_table_rounds:
        return tr.ngettext(
            "a table plays at most {n} round: choose fewer",
            "a table plays at most {n} rounds: choose fewer",
            settings.max_table_rounds,
        )
    return None


@router.post("/api/tables")
async def create_table(request: Request) -> Response:
    """Create a table; the creator gets seat 0 (cookie) and one invitation link per person seat.
    At most ``tables_per_minute`` a minute and ``open_tables_per_client`` not over per client."""
    lang = connection_lang(request)
    address = request.client.host if request.client else ""
    pending = await creation_refused(request, address, lang)
    if isinstance(pending, Response):
        return pending
    limits: Limits = request.app.state.limits
    made = False
    try:
        response = await _create_table(request, address, lang, pending)
        made = response.status_code == HTTPStatus.CREATED
    finally:
        if not made:  # refused for what it asked (or failed): not counted, its place freed
            await limits.give_back(limits.creations, address)
            await limits.release_table(address, pending)
    return response


async def _create_table(request: Request, address: str, lang: str, pending: str) -> Response:
    player = await current_player(request)
    if player is None and settings_of(request).identity == "required":
        return error_json(
            HTTPStatus.UNAUTHORIZED,
            "no-player",
            translator(lang)._("choose a name first: this browser has no player yet"),
        )
    body_bytes = await read_limited(request, MAX_CREATE_BYTES)
    if body_bytes is None:
        return error_json(
            HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
            "too-large",
            request_error_text(
                Message(
                    "lobby.too-large",
                    f"a table request is at most {MAX_CREATE_BYTES // 1024} KB",
                    n=MAX_CREATE_BYTES // 1024,
                ),
                translator(lang),
            ),
        )
    try:
        body = decode_create(body_bytes)
        if body.rated and (body.hints or body.learning):
            raise ProtocolError(
                "bad-request",
                Message(
                    "lobby.rated-hints", "a rated table gives no hints: choose one or the other"
                ),
            )
        name = player.name if player is not None and player.name else clean_name(body.name)
        refusal = bound_refusal(body, settings_of(request), lang)
        if refusal is not None:
            return error_json(HTTPStatus.UNPROCESSABLE_ENTITY, "bad-request", refusal)
        if not registry.game(body.game).realtime:
            config = turn_based_config(body, name, settings_of(request).bot_delay)
        else:
            rt_config, rt_title = realtime_config_from(body, name)
    except ProtocolError as exc:
        said = exc.message
        return error_json(
            HTTPStatus.BAD_REQUEST,
            exc.code,
            request_error_text(said, translator(lang)),
            id=message_id(exc.code, said),
        )
    key: str | None = None
    if body.rated and player is None:  # a rated seat belongs to a player: make the creator's
        player, key = await player_or_new(request)  # (TooManyPlayers: the app's 429)
    service = service_of(request)
    try:
        if not registry.game(body.game).realtime:
            created = await service.create(config)
        else:
            created = await service.create_realtime(rt_config, rt_title, body.public)
    except TableError as exc:
        return table_error_json(exc, lang)
    table_id = created.table_id
    await request.app.state.limits.note_table(address, table_id, pending)
    if player is not None:  # the creator's seat is theirs in every tab and device
        await players_of(request).claim(table_id, 0, player.id, time.time())
        if not player.name:  # the name is asked once: this one is the player's from now on
            with contextlib.suppress(PlayerError):
                await players_of(request).rename(player.id, name)
    if body.rated:
        await mark_rated(service.store, table_id, body.game)
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
    if key is not None:
        set_player_cookie(response, request, key)
    return response


@router.get("/api/tables")
async def list_tables(request: Request) -> dict[str, Any]:
    """``{"open": [...], "mine": [...]}``: public tables not over, and the tables of my cookies."""
    service = service_of(request)
    open_rows = await service.list_tables(status={"waiting", "playing"}, public=True)
    mine: list[dict[str, Any]] = []
    cookies = seat_cookies(request)
    player = await current_player(request)
    claimed = dict((await players_of(request).tables_of(player.id))[-50:]) if player else {}
    if claimed:  # the tables this player sits at (Play now's have no seat cookie)
        for claimed_row in await players_of(request).table_rows(list(claimed)):
            if claimed_row.id not in cookies and claimed_row.status != "over":
                mine.append({**dataclasses.asdict(claimed_row), "you": claimed[claimed_row.id]})
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
    with contextlib.suppress(StoreUnavailable):  # (the marks wait for the database's return)
        open_rows = await mark_listed(request, open_rows)
        mine = await mark_listed(request, mine)
    return {"open": open_rows, "mine": mine}
