"""The analysis of a finished game: its page and its API.

``POST /api/analysis/<id>`` starts the analysis of a finished table (Nain Jaune: queued to the
analyses' own worker process and stored in the ``analyses`` table, see
:mod:`cardroom.analysis.queue`; Spit and Speed:
computed at once, a replay of the record) and ``GET`` says where it stands; both answer
``{"state": "queued" | "running" | "done" | "absent" | "failed", ...}`` with the analysis once
done. An unfinished table is refused in words (409), a full queue too (503).
"""

from __future__ import annotations

import asyncio
from http import HTTPStatus
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from cardroom.analysis import REFUSALS
from cardroom.analysis.queue import AnalysisQueue, QueueFull, Status
from cardroom.bots.strength import LEVEL_STRENGTH
from cardroom.i18n import translator
from cardroom.i18n.words import N_
from cardroom.store.analyses import AnalysisStore
from cardroom.tables import TableError
from cardroom.web.ratings import bot_rating
from cardroom.web.routes.common import (
    check_table_id,
    connection_lang,
    error_json,
    page,
    service_of,
    table_error_json,
)

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
    """Each Nain Jaune level's strength, for the lobby: its ``rating`` is the fixed one the
    leaderboard shows and people's ratings are measured against (:data:`BOT_RATINGS`), its
    ``chips`` and ``accuracy`` those of :mod:`cardroom.bots.strength`."""
    return JSONResponse(
        {
            "levels": {
                level: {
                    "rating": bot_rating("nain-jaune", level),
                    "chips": s.chips,
                    "accuracy": s.accuracy,
                }
                for level, s in LEVEL_STRENGTH.items()
            }
        }
    )


@router.get("/analysis/{table_id}")
async def analysis_page(request: Request, table_id: str) -> Response:
    """The analysis page of a finished table (its script asks ``/api/analysis/<id>``)."""
    check_table_id(table_id)
    return page(request, "analysis.html")


def _answer(status: Status, lang: str) -> Response:
    body: dict[str, Any] = {"state": status.state, "ahead": status.ahead}
    if status.analysis is not None:
        body["analysis"] = status.analysis
    if status.error is not None:
        body["error"] = status.error
        body["message"] = translator(lang)._(
            REFUSALS.get(status.error, FAILED_LATER)
        )
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


def _unfinished(lang: str) -> Response:
    return error_json(
        HTTPStatus.CONFLICT,
        "unfinished",
        translator(lang)._("Only a finished game can be analysed: come back after the last round."),
    )


async def _realtime(record: Any, lang: str) -> Response:
    from cardroom.analysis.spit_speed import AnalysisError, analyse

    try:
        result = await asyncio.to_thread(analyse, record)
    except AnalysisError:
        return _answer(Status("failed", error="bad-record"), lang)
    return _answer(Status("done", analysis=result.to_json()), lang)


@router.post("/api/analysis/{table_id}")
async def start_analysis(request: Request, table_id: str) -> Response:
    """Start (or look up) the analysis of a finished table."""
    check_table_id(table_id)
    lang = connection_lang(request)
    queue = queue_of(request)
    stored = await queue.status(table_id)
    if stored.state in ("done", "queued", "running"):
        return _answer(stored, lang)
    service = service_of(request)
    try:
        realtime = await service.game_of(table_id) in ("spit", "speed")
        record: Any = await (
            service.realtime_record(table_id) if realtime else service.record(table_id)
        )
    except TableError as exc:
        if exc.code == "forbidden":
            return _unfinished(lang)
        return table_error_json(exc, lang)
    if realtime:
        return await _realtime(record, lang)
    try:
        return _answer(await queue.start(table_id, record), lang)
    except QueueFull:
        return error_json(
            HTTPStatus.SERVICE_UNAVAILABLE,
            "busy",
            translator(lang)._("Many games are being analysed just now: try again in a minute."),
        )


@router.get("/api/analysis/{table_id}")
async def analysis_status(request: Request, table_id: str) -> Response:
    """Where the analysis of a table stands (nothing is started)."""
    check_table_id(table_id)
    return _answer(await queue_of(request).status(table_id), connection_lang(request))
