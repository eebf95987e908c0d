"""The analysis of a finished game: its page and its API.

``POST /api/analysis/<id>`` starts the analysis of a finished table (a turn-based game: queued
to the analyses' own worker process and stored in the ``analyses`` table, see
:mod:`cardroom.analysis.queue`; a real-time game: computed at once, a replay of the record)
and ``GET`` says where it stands; both answer
``{"state": "queued" | "running" | "done" | "absent" | "failed", ...}`` with the analysis once
done. An unfinished table is refused in words (409), a full queue too (503).

``POST /api/analysis/upload`` analyses a record file opened in the replay viewer (issue 22): at
most ``max_replay_bytes`` (413) and ``max_analysis_rounds`` rounds (422), and at most
``analyses_per_hour`` new analyses per client address, counted across processes (429 with
Retry-After); it is queued like a table's and stored under ``u-`` and its digest (the same file
is analysed once), which ``GET /api/analysis/u-…`` and the analysis page read.
"""

from __future__ import annotations

import asyncio
import hashlib
from http import HTTPStatus
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

import cardroom.web.faces as faces
from cardroom.analysis import REFUSALS
from cardroom.analysis.queue import STORE_VERSION, AnalysisQueue, QueueFull, Status
from cardroom.games import registry
from cardroom.games.errors import RecordError
from cardroom.games.records import loads
from cardroom.games.registry import GAMES
from cardroom.i18n import translator
from cardroom.i18n.names import shown_name
from cardroom.i18n.realtime_words import seat_name
from cardroom.i18n.reasons import record_error_id
from cardroom.i18n.words import N_, default_name
from cardroom.store.analyses import AnalysisStore
from cardroom.tables import TableError
from cardroom.web.limits import Limits, refusal
from cardroom.web.ratings import bot_rating
from cardroom.web.routes.common import (
    check_table_id,
    connection_lang,
    error_json,
    page,
    read_limited,
    service_of,
    settings_of,
    table_error_json,
)
from cardroom.web.routes.replay import too_large_upload

router = APIRouter()

FAILED_LATER = N_("The analysis failed: try again later.")


def queue_of(request: Request) -> AnalysisQueue:
    """The app's analysis queue (made on first use; the app's lifespan closes it)."""
    state = request.app.state
    queue: AnalysisQueue | None = getattr(state, "analyses", None)
    if queue is None:
        queue = state.analyses = AnalysisQueue(AnalysisStore(state.store))
    return queue


@router.get("/api/levels")
async def levels() -> Response:
    """Each bot level's strength at the first game whose face measured it (``LEVEL_STRENGTH``),
    for the lobby's turn-based form: its ``rating`` is the fixed one the leaderboard shows and
    people's ratings are measured against (:data:`BOT_RATINGS`), its ``chips`` and
    ``accuracy`` the measured ones."""
    for entry, strength in faces.web_parts("LEVEL_STRENGTH"):
        return JSONResponse(
            {
                "levels": {
                    level: {
                        "rating": bot_rating(entry.name, level),
                        "chips": s.chips,
                        "accuracy": s.accuracy,
                    }
                    for level, s in strength.items()
                }
            }
        )
    return JSONResponse({"levels": {}})


@router.get("/analysis/{table_id}")
async def analysis_page(request: Request, table_id: str) -> Response:
    """The analysis page of a finished table (its script asks ``/api/analysis/<id>``)."""
    check_table_id(table_id)
    return page(request, "analysis.html")


UPLOAD_PREFIX = "u-"
"""The key of an uploaded record's analysis: ``u-`` and 40 hex digits of its SHA-256."""


def _answer(status: Status, lang: str, key: str | None = None) -> Response:
    body: dict[str, Any] = {"state": status.state, "ahead": status.ahead}
    if key is not None:
        body["id"] = key
    if status.analysis is not None:
        body["analysis"] = names_in_words(status.analysis, lang)
    if status.error is not None:
        body["error"] = status.error
        body["message"] = translator(lang)._(
            REFUSALS.get(status.error, FAILED_LATER)
        )
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


def names_in_words(analysis: dict[str, Any], lang: str) -> dict[str, Any]:
    """The analysis with the names cardroom gives, stored in English (``Bot 2``, ``Easy bot``,
    a deleted player), in ``lang``'s words, as the table and the replay show them."""
    players = analysis.get("players")
    if not isinstance(players, list):
        return analysis
    out = dict(analysis)
    tr = translator(lang)
    game = analysis.get("game")
    if isinstance(game, str) and game in GAMES and faces.part(game, "ANALYSIS_NAMES") == "seats":
        out["players"] = [
            shown_name(str(default_name({"name": name, "seat": g, "kind": "bot"}, tr)), tr)
            if isinstance(name, str)
            else name
            for g, name in enumerate(players)
        ]
        return out
    shown = []
    for row in players:
        name = row.get("name") if isinstance(row, dict) else None
        if isinstance(name, str):
            level = name.removesuffix(" bot").lower() if name.endswith(" bot") else None
            row = {**row, "name": seat_name({"name": name, "bot": level}, tr)}
        shown.append(row)
    out["players"] = shown
    return out


def _unfinished(lang: str) -> Response:
    return error_json(
        HTTPStatus.CONFLICT,
        "unfinished",
        translator(lang)._("Only a finished game can be analysed: come back after the last round."),
    )


async def _realtime(record: Any, lang: str) -> Response:
    from cardroom.analysis.realtime import AnalysisError, analyse

    try:
        result = await asyncio.to_thread(analyse, record)
    except AnalysisError:
        return _answer(Status("failed", error="bad-record"), lang)
    return _answer(Status("done", analysis=result.to_json()), lang)


def _rounds(record: Any) -> int:
    """How many rounds (or games) a parsed record holds."""
    return len(record) if isinstance(record, list) else 1


@router.post("/api/analysis/upload")
async def analyse_upload(request: Request) -> Response:
    """Analyse a record file (the replay viewer sends the one it shows): its state, with the
    ``id`` its analysis page reads."""
    settings = settings_of(request)
    lang = connection_lang(request)
    tr = translator(lang)
    body = await read_limited(request, settings.max_replay_bytes)
    if body is None:
        return too_large_upload(settings.max_replay_bytes, lang)
    key = UPLOAD_PREFIX + hashlib.sha256(body).hexdigest()[:40]
    queue = queue_of(request)
    stored = await queue.status(key)
    if stored.state in ("done", "queued", "running"):  # this file, analysed or under way
        return _answer(stored, lang, key)
    try:  # the one bounded record reader: depth, number sizes, no NaN or Infinity
        record = loads(body, settings.max_replay_bytes)
    except RecordError as exc:  # in words (the general refusal), with what is wrong as its id
        words = tr._(REFUSALS["bad-record"])
        return error_json(HTTPStatus.BAD_REQUEST, "bad-record", words, id=record_error_id(exc))
    game = faces.record_game(record)
    if game.analysis is None:
        return _no_analysis(lang)
    realtime = faces.realtime_record(record)
    most = settings.max_analysis_rounds
    if not realtime and _rounds(record) > most:
        return refusal(
            HTTPStatus.UNPROCESSABLE_ENTITY, "too-large", "bounds.analysis-rounds", lang,
            n=_rounds(record), most=most,
        )  # fmt: skip
    limits: Limits = request.app.state.limits
    address = request.client.host if request.client else ""
    wait = await limits.take(limits.analyses, address)
    if wait > 0:
        return refusal(
            HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", "bounds.analyses-per-hour", lang,
            wait, n=limits.analyses.limit,
        )  # fmt: skip
    if realtime:
        from cardroom.analysis.realtime import AnalysisError, analyse

        try:
            result = await asyncio.to_thread(analyse, record)
        except AnalysisError:
            return _answer(Status("failed", error="bad-record"), lang, key)
        await queue.store.put(key, STORE_VERSION, result.to_json())
        return _answer(await queue.status(key), lang, key)
    try:
        return _answer(await queue.start(key, record, game.name), lang, key)
    except QueueFull:
        return _busy(lang)


def _no_analysis(lang: str) -> Response:
    return refusal(HTTPStatus.NOT_FOUND, "not-found", "analysis.none", lang)


def _busy(lang: str) -> Response:
    return refusal(HTTPStatus.SERVICE_UNAVAILABLE, "busy", "bounds.analyses-busy", lang, 60)


@router.post("/api/analysis/{table_id}")
async def start_analysis(request: Request, table_id: str) -> Response:
    """Start (or look up) the analysis of a finished table."""
    check_table_id(table_id)
    lang = connection_lang(request)
    queue = queue_of(request)
    stored = await queue.status(table_id)
    if stored.state in ("done", "queued", "running", "failed") and table_id.startswith(
        UPLOAD_PREFIX
    ):
        return _answer(stored, lang, table_id)
    if stored.state in ("done", "queued", "running"):
        return _answer(stored, lang)
    if table_id.startswith(UPLOAD_PREFIX):  # an upload's analysis is started by its upload
        return refusal(HTTPStatus.NOT_FOUND, "not-found", "bounds.analysis-gone", lang)
    service = service_of(request)
    try:
        entry = registry.game(await service.game_of(table_id))
        if entry.analysis is None:
            return _no_analysis(lang)
        realtime = entry.realtime
        record: Any = await service.record(table_id)
    except TableError as exc:
        if exc.code == "forbidden":
            return _unfinished(lang)
        return table_error_json(exc, lang)
    if realtime:
        return await _realtime(record, lang)
    try:
        return _answer(await queue.start(table_id, record, entry.name), lang)
    except QueueFull:
        return _busy(lang)


@router.get("/api/analysis/{table_id}")
async def analysis_status(request: Request, table_id: str) -> Response:
    """Where the analysis of a table stands (nothing is started)."""
    check_table_id(table_id)
    lang = connection_lang(request)
    status = await queue_of(request).status(table_id)
    if table_id.startswith(UPLOAD_PREFIX) and status.state == "absent":
        return refusal(HTTPStatus.NOT_FOUND, "not-found", "bounds.analysis-gone", lang)
    return _answer(status, lang)
