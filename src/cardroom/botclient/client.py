"""The connection loop: one process, many tables at once (asyncio), each over the same
websocket a browser uses, reconnecting by itself with backoff.

A table's frames are whole states (the seat's view as of now), so a reconnection resumes from
the next frame: nothing is replayed and nothing is missed that the bot needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from cardroom.botclient.load import Play
from cardroom.botclient.players import SeatPlayer
from cardroom.games.registry import game as game_entry

__all__ = [
    "Backoff",
    "ClientError",
    "TableOutcome",
    "http_base",
    "play_table",
    "ws_url",
]

log = logging.getLogger("cardroom.botclient")

CLOSE_UNAUTHORIZED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
FINAL_CLOSES = {
    CLOSE_UNAUTHORIZED: "the server refused the token (unknown or revoked): make a new one on "
    "/me (or with cardroom serve-bots token) and give it with --token",
    CLOSE_FORBIDDEN: "the server refused this token for that table (revoked, or not this "
    "bot's seat): make a new token, or check the table",
    CLOSE_NOT_FOUND: "there is no such table on this server: check the table id",
}


PING_EVERY = 2.0
"""Seconds between two pings a seat's connection sends, as a page does (a bot that says
nothing for 10 s is away: docs/bots-api.md). They go on while the bot thinks (in a thread)."""


class ClientError(Exception):
    """Something the client cannot get past by trying again (the message says what to do)."""


@dataclass
class Backoff:
    """Waits between reconnections: ``first`` seconds, doubled each failure up to ``most``,
    each with up to a quarter more at random (so many bots do not come back together)."""

    first: float = 0.5
    most: float = 30.0
    failures: int = 0
    rng: random.Random = field(default_factory=random.Random)

    def next(self) -> float:
        """The next wait (and count a failure)."""
        wait = min(self.most, self.first * 2**self.failures)
        self.failures += 1
        return float(wait * (1 + self.rng.random() / 4))

    def reset(self) -> None:
        """A connection worked: start again from ``first``."""
        self.failures = 0


def http_base(url: str) -> str:
    """The server's address as ``http(s)://host[:port]`` (``ws(s)://`` and a bare host are
    accepted); :class:`ClientError` for something else."""
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    parts = urlsplit(text)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.netloc:
        raise ClientError(
            f"{url!r} is not a server address: write it as https://cards.example.org "
            "(or http://127.0.0.1:8000 for a server on this computer)"
        )
    return urlunsplit((scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def ws_url(url: str, table: str, token: str | None) -> str:
    """The websocket address of ``table`` on the server at ``url``."""
    base = urlsplit(http_base(url))
    scheme = "wss" if base.scheme == "https" else "ws"
    query = f"token={quote(token, safe='')}" if token else ""
    return urlunsplit((scheme, base.netloc, f"{base.path}/ws/{quote(table, safe='')}", query, ""))


@dataclass
class TableOutcome:
    """How one table ended for the bot."""

    table: str
    over: bool
    """The game ended (False: stopped before, e.g. by Ctrl-C)."""
    frames: int = 0
    connections: int = 0
    last: dict[str, Any] | None = None
    """The last state frame."""


def game_of(frame: dict[str, Any]) -> str:
    """The game a state frame is of (the turn-based game's frames predate the ``game`` field: a
    frame without one is of the registry's first turn-based game)."""
    name = frame.get("game")
    if isinstance(name, str):
        return name
    from cardroom.games.registry import unnamed

    return unnamed()


def is_over(frame: dict[str, Any]) -> bool:
    """The game on the table is over (nothing more to play)."""
    return frame.get("type") == "state" and frame.get("status") == "over"


async def play_table(
    url: str,
    table: str,
    token: str | None,
    play: Play | Callable[[dict[str, Any]], SeatPlayer],
    *,
    headers: dict[str, str] | None = None,
    name: str = "Bot",
    backoff: Backoff | None = None,
    seed: int | str | None = None,
    on_frame: Callable[[dict[str, Any]], Awaitable[None] | None] | None = None,
) -> TableOutcome:
    """Play one seat of ``table`` until its game is over, reconnecting after a drop.

    ``token`` opens the seat (the bot's token, or a seat link's token); ``play`` makes the seat's
    player from the first state frame (it sees which game the table plays). Raises
    :class:`ClientError` when the server refuses for good (no such table, token refused).
    """
    address = ws_url(url, table, token)
    wait = backoff or Backoff()
    outcome = TableOutcome(table, over=False)
    player: SeatPlayer | None = None
    while True:
        try:
            async with websockets.connect(
                address,
                additional_headers=headers or {},
                max_size=2**22,
                open_timeout=15,
                ping_interval=20,
                ping_timeout=20,
            ) as ws:
                outcome.connections += 1
                if player is not None:
                    player.reset()

                async def send(message: dict[str, Any], ws: Any = ws) -> None:
                    await ws.send(json.dumps(message))

                beating = asyncio.create_task(_beat(ws))
                try:
                    while True:
                        due = player.due() if player is not None else None
                        timeout = None
                        if due is not None:
                            timeout = max(0.0, due - asyncio.get_running_loop().time())
                        try:
                            text = await asyncio.wait_for(ws.recv(), timeout)
                        except TimeoutError:
                            assert player is not None
                            await player.wake(send)
                            continue
                        frame = json.loads(text)
                        outcome.frames += 1
                        wait.reset()
                        if frame.get("type") == "error" and frame.get("code") in (
                            "forbidden",
                            "not-found",
                            "unauthorized",
                        ):
                            raise ClientError(_refused(table, frame))
                        if frame.get("type") == "state":
                            outcome.last = frame
                            if player is None:
                                player = _make(play, frame, name, seed)
                        if on_frame is not None:
                            done = on_frame(frame)
                            if done is not None:
                                await done
                        if player is not None:
                            await player.frame(frame, send)
                        if is_over(frame):
                            outcome.over = True
                            return outcome
                finally:
                    beating.cancel()
                    await asyncio.gather(beating, return_exceptions=True)
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            if code in FINAL_CLOSES:
                raise ClientError(f"table {table}: {FINAL_CLOSES[code]}") from None
            log.info("table %s: connection closed (%s), reconnecting", table, code)
        except InvalidStatus as exc:
            status = exc.response.status_code
            if status in (401, 403, 404):
                raise ClientError(
                    f"table {table}: the server answered {status}: "
                    + ("check the table id" if status == 404 else "check the token")
                ) from None
            log.info("table %s: the server answered %s, trying again", table, status)
        except (OSError, TimeoutError, InvalidHandshake) as exc:
            log.info("table %s: cannot connect (%s), trying again", table, exc)
        delay = wait.next()
        log.info("table %s: reconnecting in %.1f s", table, delay)
        await asyncio.sleep(delay)


async def _beat(ws: Any) -> None:
    """Ping every :data:`PING_EVERY` seconds while the connection lasts."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            await asyncio.sleep(PING_EVERY)
            await ws.send('{"type":"ping"}')


def _refused(table: str, frame: dict[str, Any]) -> str:
    return f"table {table}: {frame.get('message') or frame.get('code')}"


def _make(
    play: Play | Callable[[dict[str, Any]], SeatPlayer],
    frame: dict[str, Any],
    name: str,
    seed: int | str | None,
) -> SeatPlayer:
    if not isinstance(play, Play):
        return play(frame)
    entry = game_entry(game_of(frame))
    if not play.plays(entry):
        raise ClientError(f"{play.text} does not play {entry.name}: this table plays it")
    return play.player(entry, seed, name)


async def play_tables(
    url: str,
    tables: Iterable[tuple[str, str | None]],
    play: Play,
    *,
    headers: dict[str, str] | None = None,
    name: str = "Bot",
) -> list[TableOutcome | BaseException]:
    """Play several tables at once (each ``(table id, token)``); one failing stops no other."""
    tasks = [
        asyncio.create_task(play_table(url, t, tok, play, headers=headers, name=name))
        for t, tok in tables
    ]
    try:
        return list(await asyncio.gather(*tasks, return_exceptions=True))
    finally:
        for task in tasks:
            task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.gather(*tasks, return_exceptions=True)
