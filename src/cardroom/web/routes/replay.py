"""Replays: the viewer pages and the frames the engine computes from a record."""

from __future__ import annotations

import asyncio
from http import HTTPStatus
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from cardroom.games.records import RecordError as BaseRecordError
from cardroom.games.records import loads
from cardroom.tables import TableError
from cardroom.web.replay_frames import RecordError, replay_frames
from cardroom.web.replay_realtime import RecordError as RealtimeRecordError
from cardroom.web.replay_realtime import is_realtime_record, realtime_frames
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

router = APIRouter()


@router.get("/replay")
async def replay_upload_page(request: Request) -> Response:
    """The replay viewer with a file upload."""
    return page(request, "replay.html")


@router.get("/replay/{table_id}")
async def replay_table_page(request: Request, table_id: str) -> Response:
    """The replay viewer of a finished table (its script fetches ``/api/replay/<id>``)."""
    check_table_id(table_id)
    return page(request, "replay.html")


async def _frames(data: Any, lang: str = "en") -> Response:
    steps = realtime_frames if is_realtime_record(data) else replay_frames  # Spit / Speed
    try:
        frames = await asyncio.to_thread(steps, data, lang)
    except (RecordError, RealtimeRecordError) as exc:
        return error_json(HTTPStatus.BAD_REQUEST, "bad-record", str(exc))
    return JSONResponse(frames)


@router.post("/api/replay")
async def replay_upload(request: Request) -> Response:
    """A record uploaded by the page (at most 2 MB) -> the engine's step-by-step frames."""
    limit = settings_of(request).max_replay_bytes
    too_large = error_json(
        HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
        "too-large",
        f"a record may be at most {limit // (1024 * 1024)} MB",
    )
    body = await read_limited(request, limit)
    if body is None:
        return too_large
    try:  # the one bounded record reader: depth, number sizes, no NaN or Infinity
        data = loads(body, limit)
    except BaseRecordError as exc:
        return error_json(HTTPStatus.BAD_REQUEST, "bad-record", f"not a game record: {exc}")
    return await _frames(data, connection_lang(request))


@router.get("/api/replay/{table_id}")
async def replay_table(request: Request, table_id: str) -> Response:
    """The frames of a finished table's game (403 until it is over)."""
    check_table_id(table_id)
    service = service_of(request)
    try:
        if await service.game_of(table_id) in ("spit", "speed"):
            record: Any = await service.realtime_record(table_id)
        else:
            record = await service.record(table_id)
    except TableError as exc:
        return table_error_json(exc, connection_lang(request))
    return await _frames(record, connection_lang(request))
