"""Replays: the viewer pages and the frames the engine computes from a record, a page at a time.

A record is checked by the engine once (the rounds replayed, :class:`Checked`) and its frames are
sent a page of ``replay_page_rounds`` rounds at a time (``?page=N``; the viewer asks for the next
page as it gets there), each page computed once per language and kept (:class:`Replays`), for a
finished table and for an uploaded record alike (the viewer sends an upload again with
``?page=N``; it is recognised by its digest). Bounded: an upload is at most
``max_replay_bytes`` (413), a record at most ``max_replay_rounds`` rounds (422, checked before
anything is replayed) and a page at most ``max_replay_steps`` steps (422); uploads and pages are
counted per address (429 with Retry-After); replays run in a small pool of their own.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import msgspec
from fastapi import APIRouter, Request
from fastapi.responses import Response

from cardroom.games.errors import RecordError as BaseRecordError
from cardroom.games.messages import Message
from cardroom.games.records import loads
from cardroom.games.registry import game
from cardroom.i18n import translator
from cardroom.i18n.messages import words as message_text
from cardroom.i18n.reasons import record_error_id
from cardroom.i18n.words import N_, record_with_shown_names
from cardroom.tables import TableError
from cardroom.web.faces import record_game
from cardroom.web.limits import Limits, Window, refusal
from cardroom.web.replay_frames import ReplayTooLarge, replayer
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
"""The most bytes of replay pages kept at once."""
CHECKED_KEPT = 4
"""Checked records kept (their next pages are computed without checking them again)."""
MAX_WAITING = 4
"""Replays computing or waiting at once; past it a replay is refused (503, Retry-After)."""


@dataclass(frozen=True, slots=True)
class Checked:
    """A record checked by its game's engine (its face's ``checked``: parsed rounds a page is
    replayed from again, or games replayed once) and the face's ``page`` that cuts it."""

    replays: list[Any]
    cut: Callable[..., dict[str, Any]]

    def pages(self, per_page: int) -> int:
        """How many pages of ``per_page`` rounds it makes."""
        return max(1, math.ceil(len(self.replays) / per_page))

    def page(self, number: int, per_page: int, lang: str, max_steps: int) -> dict[str, Any]:
        """The frames of page ``number`` (0-based), and where it stands among the pages."""
        first = number * per_page
        frames = self.cut(self.replays, first, per_page, lang, max_steps)
        frames.update(
            first=first,
            total=len(self.replays),
            page=number,
            pages=self.pages(per_page),
            page_rounds=per_page,
        )
        return frames


def check_record(data: Any, max_rounds: int) -> Checked:
    """Replay a parsed record once (in the replays' pool)."""
    check, cut = replayer(record_game(data))
    return Checked(check(data, max_rounds), cut)


class Replays:
    """The replays' own threads (bots never wait behind a replay), the records checked lately
    and the pages computed, kept per (record, language, page), least recently used forgotten
    first."""

    def __init__(self, entries: int, threads: int = 1) -> None:
        self.entries = entries
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="cardroom-replay")
        self.waiting = 0
        """Replays computing or waiting for the pool (at most ``MAX_WAITING``)."""
        self._kept: OrderedDict[tuple[str, str, int], bytes] = OrderedDict()
        self._size = 0
        self._checked: OrderedDict[str, Checked] = OrderedDict()
        self.making: dict[tuple[str, str, int], asyncio.Future[Response]] = {}

    def get(self, key: tuple[str, str, int]) -> bytes | None:
        """The kept page of ``key`` (record, language, page), if any."""
        body = self._kept.get(key)
        if body is not None:
            self._kept.move_to_end(key)
        return body

    def keep(self, key: tuple[str, str, int], body: bytes) -> None:
        """Keep ``body`` for ``key`` (forgetting the oldest past the bounds)."""
        if self.entries <= 0 or len(body) > CACHE_BYTES:
            return
        self._kept[key] = body
        self._size += len(body)
        while len(self._kept) > 8 * self.entries or self._size > CACHE_BYTES:
            _, old = self._kept.popitem(last=False)
            self._size -= len(old)

    def checked(self, source: str) -> Checked | None:
        """The checked record of ``source``, if kept."""
        found = self._checked.get(source)
        if found is not None:
            self._checked.move_to_end(source)
        return found

    def keep_checked(self, source: str, checked: Checked) -> None:
        """Keep a checked record (the oldest of more than ``CHECKED_KEPT`` is forgotten)."""
        self._checked[source] = checked
        while len(self._checked) > CHECKED_KEPT:
            self._checked.popitem(last=False)

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


def _page_number(request: Request) -> int | None:
    """``?page=`` (0 when absent; None when it is not a page number)."""
    raw = request.query_params.get("page", "0")
    if not raw.isdigit() or len(raw) > 9:
        return None
    return int(raw)


def _no_page(lang: str) -> Response:
    return refusal(HTTPStatus.NOT_FOUND, "no-page", "bounds.replay-no-page", lang)


async def _page(
    request: Request,
    source: str,
    number: int,
    lang: str,
    record: Callable[[], Awaitable[Any]],
) -> Response:
    """Page ``number`` of the record ``source`` (computed once per language and kept; the
    record, read by ``record()`` only when it is not checked yet, is checked once)."""
    replays = replays_of(request)
    key = (source, lang, number)
    kept = replays.get(key)
    if kept is not None:
        return Response(kept, media_type="application/json")
    making = replays.making.get(key)
    if making is not None:  # another request is computing it: share its answer
        return await asyncio.shield(making)
    future: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
    replays.making[key] = future
    try:
        response = await _compute(request, source, number, lang, record)
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


async def _compute(
    request: Request,
    source: str,
    number: int,
    lang: str,
    record: Callable[[], Awaitable[Any]],
) -> Response:
    settings = settings_of(request)
    replays = replays_of(request)
    per_page = max(1, settings.replay_page_rounds)
    checked = replays.checked(source)
    data: Any = None
    if checked is None:
        try:
            data = await record()
        except TableError as exc:
            return table_error_json(exc, lang)
        except BaseRecordError as exc:
            return bad_record_json(exc, lang, unreadable=True)
    if checked is not None and number >= checked.pages(per_page):
        return _no_page(lang)
    if replays.waiting >= MAX_WAITING:
        return refusal(
            HTTPStatus.SERVICE_UNAVAILABLE, "unavailable", "bounds.replays-busy", lang, 2
        )

    def work() -> tuple[Checked, bytes | None]:
        done = checked or check_record(data, settings.max_replay_rounds)
        if number >= done.pages(per_page):
            return done, None
        return done, _encoder.encode(done.page(number, per_page, lang, settings.max_replay_steps))

    replays.waiting += 1
    try:
        done, body = await asyncio.get_running_loop().run_in_executor(replays.pool, work)
    except BaseRecordError as exc:
        return bad_record_json(exc, lang)
    except ReplayTooLarge as exc:
        return refusal(HTTPStatus.UNPROCESSABLE_ENTITY, "too-large", exc.id, lang, **exc.fields)
    except UnicodeEncodeError:  # e.g. a name holding half of a surrogate pair
        words = translator(lang)._(N_("this record holds text that is not valid Unicode"))
        return error_json(HTTPStatus.UNPROCESSABLE_ENTITY, "bad-record", words)
    finally:
        replays.waiting -= 1
    replays.keep_checked(source, done)
    if body is None:
        return _no_page(lang)
    return Response(body, media_type="application/json")


def bad_record_json(exc: BaseRecordError, lang: str, unreadable: bool = False) -> Response:
    """The 400 of a record that cannot be read (``whole``: not even as JSON, said as "not a game
    record: …") or does not replay: its words in ``lang`` (English: the sentence as it always
    was) and the id of what is wrong."""
    message = exc.message
    if unreadable:
        message = Message("rec.not-a-record", f"not a game record: {message}", detail=message)
    text = str(message) if lang == "en" else message_text(message, translator(lang))
    return error_json(HTTPStatus.BAD_REQUEST, "bad-record", text, id=record_error_id(exc))


async def _refused(request: Request, window: Window, address: str, lang: str) -> Response | None:
    """A 429 in words when ``address`` asked for too many replays (or pages) lately."""
    limits: Limits = request.app.state.limits
    wait = await limits.take(window, address)
    if wait <= 0:
        return None
    pages = window is not limits.replays
    id = "bounds.replay-pages-per-minute" if pages else "bounds.replays-per-minute"
    return refusal(HTTPStatus.TOO_MANY_REQUESTS, "rate-limited", id, lang, wait, n=window.limit)


def too_large_upload(limit: int, lang: str) -> Response:
    """The 413 of a record file past ``limit`` bytes, in words."""
    if limit >= 1024 * 1024:
        return refusal(
            HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too-large", "bounds.record-file-mb", lang,
            n=limit // (1024 * 1024),
        )  # fmt: skip
    return refusal(
        HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too-large", "bounds.record-file-kb", lang,
        n=max(1, limit // 1024),
    )  # fmt: skip


@router.post("/api/replay")
async def replay_upload(request: Request) -> Response:
    """A record uploaded by the page (at most 2 MB) -> page ``?page=N`` of its frames (the page
    sends the same record again for each next page: it is checked once and recognised)."""
    limit = settings_of(request).max_replay_bytes
    lang = connection_lang(request)
    number = _page_number(request)
    if number is None:
        return _no_page(lang)
    limits: Limits = request.app.state.limits
    address = request.client.host if request.client else ""
    window = limits.replays if number == 0 else limits.replay_pages
    refused = await _refused(request, window, address, lang)
    if refused is not None:
        return refused
    body = await read_limited(request, limit)
    if body is None:
        return too_large_upload(limit, lang)
    source = "upload:" + hashlib.sha256(body).hexdigest()

    async def record() -> Any:  # the one bounded record reader: depth, numbers, no NaN
        return loads(body, limit)

    return await _page(request, source, number, lang, record)


@router.get("/api/replay/{table_id}")
async def replay_table(request: Request, table_id: str) -> Response:
    """Page ``?page=N`` of the frames of a finished table's game (403 until it is over),
    computed once per language and kept while the server runs."""
    check_table_id(table_id)
    lang = connection_lang(request)
    number = _page_number(request)
    if number is None:
        return _no_page(lang)
    service = service_of(request)

    async def record() -> Any:
        if game(await service.game_of(table_id)).realtime:
            return await service.record(table_id)
        rounds = await service.record(table_id)
        try:  # the bots' names in the reader's words, as the table showed them
            kinds = [spec.kind for spec in service.table(table_id).cfg.seats]
        except TableError:  # not held by this process: the names as recorded
            kinds = []
        return record_with_shown_names(rounds, kinds, translator(lang))

    # the record is checked once per language: its bots' names are the language's
    return await _page(request, f"table:{table_id}:{lang}", number, lang, record)
