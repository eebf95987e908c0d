"""The bot's event stream (``GET /api/bot/events``, NDJSON): invitations are accepted (or
declined when the bot does not play that game, or already plays as many tables as it may), and
each table that starts is played in its own task until it ends. The stream is reopened after a
drop with backoff; when it reopens the server says again every table the bot holds, so a table
already being played is not opened twice."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from cardroom.botclient.client import Backoff, ClientError, TableOutcome, http_base, play_table
from cardroom.botclient.load import Play
from cardroom.games.registry import UnknownGame
from cardroom.games.registry import game as game_entry

OnFrame = Callable[[str, dict[str, Any]], Awaitable[None] | None]
"""Told ``(table, frame)`` for each frame a table sends."""

__all__ = ["KEEPALIVE_SILENCE", "follow_events"]

log = logging.getLogger("cardroom.botclient")

KEEPALIVE_SILENCE = 30.0
"""Seconds without a line (the server sends an empty one every 10 s) before reconnecting."""


class Tables:
    """The tables being played, one task each."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.tasks: dict[str, asyncio.Task[TableOutcome]] = {}
        self.outcomes: list[TableOutcome | BaseException] = []

    def running(self) -> int:
        """How many are being played."""
        return sum(not t.done() for t in self.tasks.values())

    def start(self, table: str, work: Any) -> None:
        """Play ``table`` (once: a table already being played is left alone)."""
        task = self.tasks.get(table)
        if task is not None and not task.done():
            return
        task = asyncio.create_task(work)
        self.tasks[table] = task

        def done(t: asyncio.Task[TableOutcome]) -> None:
            if t.cancelled():
                return
            exc = t.exception()
            if exc is not None:
                log.warning("table %s: %s", table, exc)
                self.outcomes.append(exc)
            else:
                outcome = t.result()
                log.info("table %s: over", table)
                self.outcomes.append(outcome)

        task.add_done_callback(done)

    async def stop(self) -> None:
        """Close every table's connection."""
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)


async def follow_events(
    url: str,
    token: str | None,
    play: Play,
    *,
    headers: dict[str, str],
    name: str,
    most: int = 8,
    stop_after: int | None = None,
    on_frame: OnFrame | None = None,
) -> list[TableOutcome | BaseException]:
    """Follow the stream until stopped (or ``stop_after`` tables ended), playing each table it
    seats the bot at; :class:`ClientError` when the token is refused. ``on_frame(table, frame)``
    is told every frame of every table (to keep a log, say)."""
    if not token:
        raise ClientError("the event stream needs the bot's token: give --token crb_…")
    base = http_base(url)
    tables = Tables(most)
    wait = Backoff()
    try:
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as http:
            while stop_after is None or len(tables.outcomes) < stop_after:
                try:
                    await _stream(
                        http, base, play, headers, name, tables, wait, stop_after, on_frame
                    )
                except (httpx.TransportError, TimeoutError) as exc:
                    log.info("event stream: %s; reconnecting", exc or type(exc).__name__)
                if stop_after is not None and len(tables.outcomes) >= stop_after:
                    break
                await asyncio.sleep(wait.next())
            await asyncio.gather(*tables.tasks.values(), return_exceptions=True)
    finally:
        await tables.stop()
    return tables.outcomes


async def _stream(
    http: httpx.AsyncClient,
    base: str,
    play: Play,
    headers: dict[str, str],
    name: str,
    tables: Tables,
    wait: Backoff,
    stop_after: int | None,
    on_frame: OnFrame | None = None,
) -> None:
    async with http.stream("GET", "/api/bot/events", timeout=None) as answer:
        if answer.status_code in (401, 403):
            await answer.aread()
            raise ClientError(f"the server refused the token: {_words(answer)}")
        if answer.status_code == 429:
            await answer.aread()
            log.warning("event stream: %s", _words(answer))
            return
        if answer.status_code != 200:
            await answer.aread()
            raise ClientError(
                f"{base} answered {answer.status_code} for /api/bot/events: is it a cardroom "
                "server with the bot API?"
            )
        wait.reset()
        log.info("listening for invitations")
        lines = answer.aiter_lines()
        while stop_after is None or len(tables.outcomes) < stop_after:
            try:
                line = await asyncio.wait_for(anext(lines), KEEPALIVE_SILENCE)
            except StopAsyncIteration:
                return
            if not line.strip():
                continue
            try:
                event = json.loads(line)
            except ValueError:
                log.warning("event stream: unreadable line %r", line[:80])
                continue
            await _event(http, base, play, headers, name, tables, event, on_frame)


def _words(answer: httpx.Response) -> str:
    try:
        data = answer.json()
    except ValueError:
        return answer.text[:200] or str(answer.status_code)
    return str(data.get("message") or data.get("error") or answer.status_code)


async def _event(
    http: httpx.AsyncClient,
    base: str,
    play: Play,
    headers: dict[str, str],
    name: str,
    tables: Tables,
    event: dict[str, Any],
    on_frame: OnFrame | None = None,
) -> None:
    kind = event.get("type")
    table = str(event.get("table", ""))
    if kind == "invite":
        try:
            entry = game_entry(event.get("game"))
            plays = play.plays(entry)
        except UnknownGame:
            plays = False
        if not plays or tables.running() >= tables.most:
            why = "does not play that game" if not plays else "is at its most tables"
            log.info("declining %s (%s): the bot %s", table, event.get("game"), why)
            await http.post(f"/api/bot/tables/{table}/decline")
            return
        answer = await http.post(f"/api/bot/tables/{table}/accept")
        if answer.status_code != 200:
            log.info("table %s: not accepted: %s", table, _words(answer))
        else:
            log.info("accepted %s (%s, seat %s)", table, event.get("game"), event.get("seat"))
    elif kind == "match":
        game, seat = event.get("game"), event.get("seat")
        log.info("Play now seated the bot at %s (%s, seat %s)", table, game, seat)
    elif kind == "start":
        told = None if on_frame is None else functools.partial(on_frame, table)
        playing = play_table(
            base, table, None, play, headers=headers, name=name, seed=table, on_frame=told
        )
        tables.start(table, playing)
    elif kind == "end":
        task = tables.tasks.get(table)
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=5)  # (its last frame says the game is over)
            task.cancel()
