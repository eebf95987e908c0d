"""Replays: the viewer pages and the frames the engine computes from a record.

Bounded: an upload is at most ``max_replay_bytes``, a replay at most ``max_replay_rounds``
rounds and ``max_replay_steps`` steps (422 past them, before or as soon as they are reached);
replays run in a small pool of their own, and a finished table's frames are computed once per
language and kept (:class:`Replays`).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from http import HTTPStatus
from typing import Any

import msgspec
from fastapi import APIRouter, Request
from fastapi.responses import Response

from cardroom.games.records import RecordError as BaseRecordError
from cardroom.games.records import loads
from cardroom.i18n import translator
from cardroom.i18n.words import N_, record_with_shown_names
from cardroom.tables import TableError
from cardroom.web.limits import Limits, retry_after
from cardroom.web.replay_frames import RecordError, ReplayTooLarge, replay_frames
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
_encoder = msgspec.json.Encoder()
CACHE_BYTES = 64 * 1024 * 1024
"""The most bytes of finished tables' frames kept at once."""
MAX_WAITING = 4
"""Replays computing or waiting at once; past it a replay is refused (503, Retry-After)."""


class Replays:
    """The replays' own threads (bots never wait behind a replay) and the frames of finished
    tables, kept per (table, language), least recently used forgotten first."""

    def __init__(self, entries: int, threads: int = 1) -> None:
        self.entries = entries
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="cardroom-replay")
        self.waiting = 0
        """Replays computing or waiting for the pool (at most ``MAX_WAITING``)."""
        self._kept: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._size = 0
        self.making: dict[tuple[str, str], asyncio.Future[Response]] = {}

    def get(self, key: tuple[str, str]) -> bytes | None:
        """The kept frames of ``key``, if any."""
        body = self._kept.get(key)
        if body is not None:
            self._kept.move_to_end(key)
        return body

    def keep(self, key: tuple[str, str], body: bytes) -> None:
        """Keep ``body`` for ``key`` (forgetting the oldest past the bounds)."""
        if self.entries <= 0 or len(body) > CACHE_BYTES:
            return
        self._kept[key] = body
        self._size += len(body)
        while len(self._kept) > self.entries or self._size > CACHE_BYTES:
            _, old = self._kept.popitem(last=False)
            self._size -= len(old)

    def close(self) -> None:
        """Stop the threads (a replay in progress is dropped)."""
        self.pool.shutdown(wait=False, cancel_futures=True)


def replays_of(request: Request) -> Replays:
    """The app's :class:`Replays`."""
    replays: Replays = request.app.state.replays
    return replays


@router.get("/replay")
async def replay_upload_page(request: Request) -> Response:
    """The replay viewer with a file upload."""
    return page(request, "replay.html")


@router.get("/replay/{table_id}")
async def replay_table_page(request: Request, table_id: str) -> Response:
    """The replay viewer of a finished table (its script fetches ``/api/replay/<id>``)."""
    check_table_id(table_id)
    return page(request, "replay.html")


def _frames_json(data: Any, lang: str, max_rounds: int, max_steps: int) -> bytes:
    if is_realtime_record(data):  # Spit / Speed: one step per log entry
        return _encoder.encode(realtime_frames(data, lang, max_rounds, max_steps))
    return _encoder.encode(replay_frames(data, lang, max_rounds, max_steps))


async def _frames(request: Request, data: Any, lang: str = "en") -> Response:
    """The frames of ``data`` as a JSON response, or a 400/422 that says why not."""
    settings = settings_of(request)
    replays = replays_of(request)
    work = partial(
        _frames_json, data, lang, settings.max_replay_rounds, settings.max_replay_steps
    )
    if replays.waiting >= MAX_WAITING:
        busy = error_json(
            HTTPStatus.SERVICE_UNAVAILABLE,
            "unavailable",
            translator(lang)._(N_("many replays are being prepared: try again in a moment")),
        )
        busy.headers["Retry-After"] = "2"
        return busy
    replays.waiting += 1
    try:
        body = await asyncio.get_running_loop().run_in_executor(replays.pool, work)
    except (RecordError, RealtimeRecordError) as exc:
        return error_json(HTTPStatus.BAD_REQUEST, "bad-record", str(exc))
    except ReplayTooLarge as exc:
        words = translator(lang)._(exc.message, **exc.fields)
        return error_json(HTTPStatus.UNPROCESSABLE_ENTITY, "too-large", words)
    except UnicodeEncodeError:  # e.g. a name holding half of a surrogate pair
        words = translator(lang)._(N_("this record holds text that is not valid Unicode"))
        return error_json(HTTPStatus.UNPROCESSABLE_ENTITY, "bad-record", words)
    finally:
        replays.waiting -= 1
    return Response(body, media_type="application/json")


@router.post("/api/replay")
async def replay_upload(request: Request) -> Response:
    """A record uploaded by the page (at most 2 MB) -> the engine's step-by-step frames."""
    limit = settings_of(request).max_replay_bytes
    lang = connection_lang(request)
    limits: Limits = request.app.state.limits
    address = request.client.host if request.client else ""
    wait = limits.replays.wait(address)
    if wait > 0:
        words = translator(lang).ngettext(
            "you have replayed {n} record in the last minute: wait a moment",
            "you have replayed {n} records in the last minute: wait a moment",
            settings_of(request).replays_per_minute,
        )
        response = error_json(HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", words)
        response.headers["Retry-After"] = retry_after(wait)
        return response
    limits.replays.note(address)
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
    return await _frames(request, data, lang)


@router.get("/api/replay/{table_id}")
async def replay_table(request: Request, table_id: str) -> Response:
    """The frames of a finished table's game (403 until it is over), computed once per
    language and kept while the server runs."""
    check_table_id(table_id)
    lang = connection_lang(request)
    replays = replays_of(request)
    key = (table_id, lang)
    kept = replays.get(key)
    if kept is not None:
        return Response(kept, media_type="application/json")
    making = replays.making.get(key)
    if making is not None:  # another request is computing it: share its answer
        return await asyncio.shield(making)
    future: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
    replays.making[key] = future
    try:
        try:
            service = service_of(request)
            record: Any
            if await service.game_of(table_id) in ("spit", "speed"):
                record = await service.realtime_record(table_id)
            else:  # the bots' names in the reader's words, as the table showed them
                record = await service.record(table_id)
                try:
                    kinds = [spec.kind for spec in service.table(table_id).cfg.seats]
                except TableError:  # not held by this process: the names as recorded
                    kinds = []
                record = record_with_shown_names(record, kinds, lang)
        except TableError as exc:
            response: Response = table_error_json(exc, lang)
        else:
            response = await _frames(request, record, lang)
            if response.status_code == HTTPStatus.OK:
                replays.keep(key, bytes(response.body))
        future.set_result(response)
        return response
    except BaseException as exc:
        future.set_exception(exc)
        future.exception()  # retrieved: no "never retrieved" warning if nobody shared it
        raise
    finally:
        del replays.making[key]
