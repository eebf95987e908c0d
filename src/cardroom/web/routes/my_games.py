"""A player's games: the tables they sat at, their figures per game, their ratings (and what a
finished table did to them), the leaderboards, and a zip of their records.

A finished table's record never changes: its figures and its export part are made once per
process and kept (bounded).
"""

from __future__ import annotations

import asyncio
import io
import json
import zipfile
from collections import OrderedDict
from collections.abc import AsyncIterator
from http import HTTPStatus
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from cardroom.games.registry import GAMES
from cardroom.i18n import translator
from cardroom.i18n.words import N_
from cardroom.store import Player
from cardroom.store.players import FORMER_PLAYER
from cardroom.tables import TableError
from cardroom.web.identity import current_player, players_of
from cardroom.web.limits import refusal
from cardroom.web.player_stats import GameStats, add_game, needs_record
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
    check_table_id,
    connection_lang,
    service_of,
    settings_of,
)
from cardroom.web.routes.player_requests import MAX_GAMES, limits_of, refuse

router = APIRouter()

N_("a former player")  # FORMER_PLAYER, the name a deleted player's seats carry


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
        return refuse(request, "bad-request", HTTPStatus.NOT_FOUND)
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
        return refuse(request, "no-player", HTTPStatus.UNAUTHORIZED)
    limits = limits_of(request)
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
