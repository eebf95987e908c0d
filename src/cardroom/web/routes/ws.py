"""The websocket of a table: who you are (seat cookie), frames out, messages in.

Every message is checked here before the service sees it: binary, oversized, rate-limited,
malformed, unknown or unauthorised messages get an ``error`` frame and change nothing; a
connection that keeps sending binary, oversized or too many messages is closed.

One concern: one websocket connection to a table, from the handshake (which seat, a person's
cookie or link or a bot's token) through its frames out and its messages in to its close.
The refusals, the per-connection bounds and the send loop share the :class:`Connection`'s
state (its seat, language, queue and counters), so they stay in one file.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from cardroom.games.messages import Message
from cardroom.games.registry import REALTIME, names
from cardroom.games.registry import game as game_entry
from cardroom.i18n import translator
from cardroom.i18n.realtime_words import localize_realtime_frame, reason_words
from cardroom.i18n.reasons import message_id, table_error_text
from cardroom.i18n.words import localize_frame
from cardroom.store import StoreUnavailable
from cardroom.store.players import key_hash
from cardroom.tables import Subscription, TableError, TableService
from cardroom.tables.chat import ChatError, ChatFeed, TableChat, TokenBucket
from cardroom.tables.config import UNAVAILABLE
from cardroom.web.identity import SEAT_TAKEN, joining_name, players_of, seat_for
from cardroom.web.limits import Limits
from cardroom.web.protocol import (
    Act,
    Chat,
    ClientMessage,
    Hint,
    History,
    Join,
    Log,
    Ping,
    ProtocolError,
    Ready,
    RealtimeAction,
    Start,
    decode_message,
    encode,
    error_frame,
)
from cardroom.web.ratings import SAME_PLAYER
from cardroom.web.routes import bot_access
from cardroom.web.routes.common import (
    TABLE_ID,
    connection_lang,
    cookie_name,
    service_of,
    settings_of,
)
from cardroom.web.settings import Settings

router = APIRouter()
log = logging.getLogger(__name__)

CLOSE_POLICY = 1008
CLOSE_GOING_AWAY = 1001
CLOSE_TRY_AGAIN = 1013
CLOSE_UNAUTHORIZED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
STALE_PREFIX = "the table changed since you looked"
WAITING_MAX = 16
"""Messages of one connection waiting behind the one being done (past it: ``rate-limited``)."""
PAGE_SILENT = 10.0
"""Seconds without a word from a page that pings (every 2 s, ``static/js/common.js``) after
which the connection is closed: its person is away (their seat's takeover clock starts)."""
DISPATCH_GRACE = 10.0
"""Seconds a vanished client's message under way may still take to finish (its database waits
have their own deadlines) before it is cancelled: an action is taken whole, never cut."""
HANDSHAKE_DEADLINE = 5.0
"""Seconds the database may take to say who a new connection is (else ``unavailable``)."""

NO_SUCH_TABLE = Message("table.no-table", "there is no such table")
FOREIGN_PAGE = Message("ws.foreign-page", "this page is not from this server")
TOO_MANY_CONNECTIONS = Message(
    "ws.too-many-connections",
    "too many connections from your address: close a few pages and reload",
)
BAD_SEAT_LINK = Message(
    "ws.bad-seat-link",
    "this seat link is not valid for this table: open your invitation link again",
)
TOO_MANY_BAD = Message("ws.too-many-bad", "too many bad messages: closing the connection")
TOO_FAST = Message("ws.too-fast", "you are sending messages too fast: wait a moment")
SEAT_TOO_FAST = Message("ws.seat-too-fast", "this seat is sending messages too fast: wait a moment")
BINARY = Message("ws.binary", "binary messages are not accepted: send JSON text")
WATCHING = Message(
    "ws.watching", "you are watching this table: open an invitation link to take a seat"
)
SERVER_FAILED = Message("ws.server-failed", "the server could not do that (the error was logged)")
"""The connection's own refusals (each a message with an id: see ``i18n/messages.py``)."""


def same_origin(websocket: WebSocket) -> bool:
    """A browser's handshake must come from a page of this server (scripts send no Origin)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


@router.websocket("/ws/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """One connection to one table, as a seat (cookie or ``?token=``) or as a spectator
    (no token, or ``?watch=1``)."""
    await websocket.accept()
    if not TABLE_ID.fullmatch(table_id):
        await _refuse(websocket, "not-found", NO_SUCH_TABLE, CLOSE_NOT_FOUND)
        return
    if not same_origin(websocket):
        await _refuse(websocket, "forbidden", FOREIGN_PAGE, CLOSE_FORBIDDEN)
        return
    limits: Limits = websocket.app.state.limits
    address = websocket.client.host if websocket.client else ""
    if not limits.open_socket(address):
        await _refuse(
            websocket,
            "rate-limited",
            TOO_MANY_CONNECTIONS,
            CLOSE_TRY_AGAIN,
        )
        return
    try:
        await _serve(websocket, table_id)
    finally:
        limits.close_socket(address)


async def _serve(websocket: WebSocket, table_id: str) -> None:
    token = bot_access.bearer(websocket)
    if token is not None:  # a bot: its seat comes from its claim, never a cookie or link
        await _serve_bot(websocket, table_id, token)
        return
    service = service_of(websocket)
    token = websocket.query_params.get("token") or websocket.cookies.get(cookie_name(table_id))
    watching = websocket.query_params.get("watch") not in (None, "", "0")
    if watching:
        token = None  # the watch page: a spectator, whatever seat the cookie holds
    if not service.available:  # this process lost the database: another may serve it
        await _refuse(websocket, "unavailable", UNAVAILABLE, CLOSE_TRY_AGAIN)
        return
    try:
        async with asyncio.timeout(HANDSHAKE_DEADLINE):
            seat = await seat_for(websocket, table_id, token, watch=watching)
    except (StoreUnavailable, TimeoutError):  # (the app's HTTP 503 cannot go on a websocket)
        await _refuse(websocket, "unavailable", UNAVAILABLE, CLOSE_TRY_AGAIN)
        return
    except TableError as exc:
        message = exc.message
        if exc.code == "forbidden" and message not in (SEAT_TAKEN, SAME_PLAYER):
            message = BAD_SEAT_LINK
        close = {"not-found": CLOSE_NOT_FOUND, "unavailable": CLOSE_TRY_AGAIN}.get(
            exc.code, CLOSE_FORBIDDEN
        )
        await _refuse(websocket, exc.code, message, close)
        return
    connection = Connection(websocket, service, settings_of(websocket), table_id, seat)
    connection.lang = connection_lang(websocket)
    connection.tr = translator(connection.lang)
    with contextlib.suppress(StoreUnavailable):
        await bot_access.load_bot_seats(websocket, table_id)
    try:
        sub = service.subscribe(table_id, seat)
    except TableError as exc:  # e.g. a seat a bot took when the table started without them
        await _refuse(websocket, exc.code, exc.message, CLOSE_FORBIDDEN)
        return
    await connection.run(sub)


async def _serve_bot(websocket: WebSocket, table_id: str, token: str) -> None:
    """A bot's connection (``Authorization: Bearer``): the seat its bot holds at the table,
    refused if none; closed as soon as the token is revoked."""
    service = service_of(websocket)
    if not service.available:
        await _refuse(websocket, "unavailable", UNAVAILABLE, CLOSE_TRY_AGAIN)
        return
    try:
        async with asyncio.timeout(HANDSHAKE_DEADLINE):
            bot = await bot_access.bots_of(websocket).by_token(token)
            seat = (
                None
                if bot is None
                else await players_of(websocket).seat_of_player(table_id, bot.id)
            )
    except (StoreUnavailable, TimeoutError):
        await _refuse(websocket, "unavailable", UNAVAILABLE, CLOSE_TRY_AGAIN)
        return
    if bot is None:
        await _refuse(websocket, "unauthorized", bot_access.BAD_TOKEN, CLOSE_UNAUTHORIZED)
        return
    if seat is None:
        await _refuse(websocket, "forbidden", bot_access.NO_SEAT, CLOSE_FORBIDDEN)
        return
    sessions = bot_access.sessions_of(websocket)
    digest = key_hash(token)
    if sessions.count(digest) >= bot_access.BOT_CONNECTIONS:
        await _refuse(websocket, "rate-limited", bot_access.TOO_MANY_SOCKETS, CLOSE_TRY_AGAIN)
        return
    connection = Connection(websocket, service, settings_of(websocket), table_id, seat)
    connection.lang = connection_lang(websocket)
    connection.bot_name = bot.name
    connection.beats = True  # held to the heartbeat from the start: a silent bot is away
    connection.silent_after = bot_access.BOT_SILENT
    try:
        entry = game_entry(await service.game_of(table_id))
    except (TableError, StoreUnavailable) as exc:
        await _refuse(websocket, "unavailable", UNAVAILABLE, CLOSE_TRY_AGAIN)
        log.info("table %s: the bot's game not known (%s)", table_id, exc)
        return
    if not entry.realtime:  # its turns are read, so that a bot stuck on its turn is away
        connection.reader = entry.load("wire").Reader()
    await bot_access.load_bot_seats(websocket, table_id)
    try:
        sub = service.subscribe(table_id, seat)
    except TableError as exc:
        await _refuse(websocket, exc.code, exc.message, CLOSE_FORBIDDEN)
        return
    revoked = sessions.opened(digest)
    watcher = asyncio.create_task(bot_access.watch_token(websocket, token, revoked))

    async def close_when_revoked() -> None:
        await revoked.wait()
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await connection._error("unauthorized", bot_access.TOKEN_REVOKED)
            await websocket.close(CLOSE_UNAUTHORIZED)

    closer = asyncio.create_task(close_when_revoked())
    try:
        await connection.run(sub)
    finally:
        sessions.closed(digest, revoked)
        for task in (watcher, closer):
            task.cancel()
        await asyncio.gather(watcher, closer, return_exceptions=True)


async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    text = table_error_text(code, message, translator(connection_lang(websocket)))
    try:
        await websocket.send_text(encode(error_frame(code, text, id=message_id(code, message))))
        await websocket.close(close)
    except (WebSocketDisconnect, RuntimeError):
        pass


_RENDERED: dict[tuple[int, str], tuple[dict[str, Any], str]] = {}
"""Frames sent to several connections (spectators) rendered once per language: keyed by the
frame object's id (the value keeps the object alive, so the id is not reused meanwhile). A
seat's frame (``you`` is a seat) is its connection's alone: it is not kept, so it is freed as
soon as it is sent instead of living on here through the garbage collector's young
collections (at 1000 tables these frames were most of what the memo held)."""
_RENDERED_MAX = 512


def render_frame(frame: dict[str, Any], lang: str) -> str:
    """``frame`` as the JSON text for a connection in ``lang`` (events' words translated)."""
    if frame.get("type") != "state":
        return encode(frame)
    shared = frame.get("you") is None  # a spectators' frame: one object for all of them
    key = (id(frame), lang)
    hit = _RENDERED.get(key) if shared else None
    if hit is not None and hit[0] is frame:
        return hit[1]
    out = frame
    if frame.get("game") in names(REALTIME):
        out = localize_realtime_frame(frame, translator(lang))
    elif frame.get("events") or frame.get("game_result"):
        out = localize_frame(frame, translator(lang))
    text = encode(out)
    if not shared:
        return text
    if len(_RENDERED) >= _RENDERED_MAX:
        _RENDERED.clear()
    _RENDERED[key] = (frame, text)
    return text


class Connection:
    """A connected websocket: forwards the seat's frames and hands its messages to the service."""

    def __init__(
        self,
        websocket: WebSocket,
        service: TableService,
        settings: Settings,
        table_id: str,
        seat: int | None,
    ) -> None:
        self.websocket = websocket
        self.service = service
        self.settings = settings
        self.table_id = table_id
        self.seat = seat
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
        self.limits: Limits = websocket.app.state.limits
        self.seat_bucket = None if seat is None else self.limits.seat_bucket(table_id, seat)
        self.abuse = 0
        self.send_lock = asyncio.Lock()
        self.lang = "en"
        """The language of the events' words in the frames sent to this connection."""
        self.tr = translator(self.lang)
        """This connection's words (of :attr:`lang`), made once when it opens."""
        self.bot_name: str | None = None
        """A bot's connection: the bot's name (it joins under it; it asks for no hints)."""
        self.chat: TableChat | None = getattr(websocket.app.state, "chat", None)
        self.first_sent = asyncio.Event()
        self.waiting: asyncio.Queue[ClientMessage] = asyncio.Queue(WAITING_MAX)
        """Messages read while an earlier one is being done (in order, one at a time), so that
        reading goes on (a ping is answered) while an action waits for the database."""
        self.heard_at = time.monotonic()
        self.beats = False
        self.silent_after = PAGE_SILENT
        """Seconds of silence after which a beating connection is closed."""
        self.turn_since: float | None = None
        """A bot's connection: since when a frame has asked its seat to act (a turn-based
        game's turn) with no action taken since (None: not asked)."""
        self.turn_seq: object = None
        """The ``seq`` of the frame that asked it (a later frame asking again is a new turn)."""
        self.reader: Any = None
        """A bot's connection at a turn-based game: the game's frame reader (its ``wire``
        piece's), which says when the seat is asked to act."""
        self.dispatching = False
        self.closing = False
        """The page sends pings (a heartbeat): a page silent for ``PAGE_SILENT`` s is gone."""

    async def send(self, frame: dict[str, Any]) -> None:
        """Send one frame (frames and errors never interleave mid-write)."""
        frame = bot_access.mark_programs(self.websocket, self.table_id, frame)
        if self.bot_name is not None and frame.get("type") == "state":
            if not self._asked(frame):
                self.turn_since = None
            elif self.turn_since is None or frame.get("seq") != self.turn_seq:
                self.turn_since = time.monotonic()  # a new turn (a refused action is none)
                self.turn_seq = frame.get("seq")
        text = render_frame(frame, self.lang)
        async with self.send_lock:
            await self.websocket.send_text(text)

    def _asked(self, frame: dict[str, Any]) -> bool:
        """Whether a state frame asks this (bot's) seat to act: its turn at a turn-based
        game, with actions to choose from (read by the game's own reader)."""
        if self.reader is None:  # a race (a slow bot loses it, as a slow person does)
            return False
        try:
            view = self.reader.view(frame)
        except Exception:  # a frame the reader cannot read asks nothing of anybody
            log.debug("table %s: frame not read for the bot's turn", self.table_id, exc_info=True)
            return False
        return bool(
            frame.get("status") == "playing"
            and view is not None
            and view.my_turn
            and view.legal_actions
        )

    async def run(self, sub: Subscription) -> None:
        """Until the client leaves: ``sub``'s frames out, messages in."""
        pump = asyncio.create_task(self._pump(sub))
        work = asyncio.create_task(self._work())
        feed = self.chat.feed(self.table_id) if self.chat is not None else None
        talk = asyncio.create_task(self._talk(feed)) if feed is not None else None
        try:
            while not pump.done():
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                self.heard_at = time.monotonic()
                await self._receive(message)
                if self.abuse >= self.settings.abuse_limit:
                    await self._error("rate-limited", TOO_MANY_BAD)
                    await self.websocket.close(CLOSE_POLICY)
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            pump.cancel()
            self.closing = True
            try:
                if self.dispatching:  # an action under way is taken whole or not at all
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(asyncio.shield(work), DISPATCH_GRACE)
                work.cancel()
                await asyncio.gather(work, return_exceptions=True)
            finally:  # even if this handler is cancelled: else the seat stays present for ever
                self.service.unsubscribe(sub)
            if feed is not None and self.chat is not None and talk is not None:
                self.chat.drop(feed)
                talk.cancel()
                await asyncio.gather(talk, return_exceptions=True)
            await asyncio.gather(pump, return_exceptions=True)

    async def _pump(self, sub: Subscription) -> None:
        try:
            async for frame in sub:
                await self.send(frame)
                # not kept while waiting for the next one (up to a second): a young frame
                # alive at the GC keeper's step is walked by it (web/gcpause.py)
                del frame
                self.first_sent.set()
            # the service ended the subscription: it is stopping, or lost the database
            if self.websocket.application_state == WebSocketState.CONNECTED:
                if sub.ended_by == "unavailable":
                    await self._error("unavailable", UNAVAILABLE)
                    await self.websocket.close(CLOSE_TRY_AGAIN)
                else:
                    await self.websocket.close(CLOSE_GOING_AWAY)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass

    async def _talk(self, feed: ChatFeed) -> None:
        """The table's chat frames, after the first state frame."""
        try:
            await self.first_sent.wait()
            async for frame in feed:
                await self.send(frame)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass

    async def _error(
        self,
        code: str,
        message: str,
        ref: object = None,
        abuse: bool = False,
        reason: str | None = None,
    ) -> None:
        if abuse:
            self.abuse += 1
        text = (
            reason_words(reason, translator(self.lang))
            if reason is not None
            else table_error_text(code, message, self.tr)
        )
        said = reason if reason is not None else message
        await self.send(error_frame(code, text, ref, id=message_id(code, said)))

    async def _receive(self, message: Any) -> None:
        if not self.bucket.take():
            await self._error("rate-limited", TOO_FAST, abuse=True)
            return
        if self.seat_bucket is not None and not self.seat_bucket.take():
            await self._error("rate-limited", SEAT_TOO_FAST, abuse=True)
            return
        text = message.get("text")
        if text is None:
            await self._error("bad-request", BINARY, abuse=True)
            return
        limit = self.settings.max_message_bytes
        if len(text) > limit or len(text.encode("utf-8", "replace")) > limit:
            await self._error(
                "too-large",
                Message("web.too-large", f"a message is at most {limit} bytes", n=limit),
                abuse=True,
            )
            return
        try:
            decoded = decode_message(text)
        except ProtocolError as exc:
            await self._error(exc.code, exc.message, exc.ref, abuse=True)
            return
        await self._queue(decoded)

    async def _work(self) -> None:
        """The messages other than pings, one after the other; and a page that sent a
        heartbeat and then nothing for ``PAGE_SILENT`` seconds is closed (it is gone), as is a
        bot that has not acted within ``BOT_TURN`` seconds of its turn."""
        while True:
            try:
                message = await asyncio.wait_for(self.waiting.get(), self.silent_after / 4)
            except TimeoutError:
                message = None
            since = self.turn_since
            if (
                since is not None
                and time.monotonic() - since > bot_access.BOT_TURN
                and not isinstance(message, Act)
            ):
                with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                    await self._error("away", bot_access.slow_words())  # away: the takeover
                    await self.websocket.close(CLOSE_GOING_AWAY)
                return
            if message is None:
                if self.beats and time.monotonic() - self.heard_at > self.silent_after:
                    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                        if self.bot_name is not None:  # a program is told why, in words
                            await self._error("away", bot_access.silent_words())
                        await self.websocket.close(CLOSE_GOING_AWAY)
                    return
                continue
            self.dispatching = True
            try:
                await self._dispatch(message)
            except (WebSocketDisconnect, RuntimeError, OSError):
                return
            finally:
                self.dispatching = False
            if self.closing:
                return

    async def _queue(self, message: ClientMessage) -> None:
        """A ping is answered at once, even while an action waits; the rest waits its turn."""
        if isinstance(message, Ping):
            self.beats = True
            await self.send({"type": "pong", "ref": message.id})
            return
        try:
            self.waiting.put_nowait(message)
        except asyncio.QueueFull:
            await self._error("rate-limited", TOO_FAST, message.id)

    async def _dispatch(self, message: ClientMessage) -> None:
        ref = message.id
        if isinstance(message, Ping):
            await self.send({"type": "pong", "ref": ref})
            return
        if isinstance(message, Chat):
            await self._chat(message)
            return
        if isinstance(message, History):  # the public log: spectators may read it too
            try:
                await self._history(message)
            except TableError as exc:
                await self._error(exc.code, exc.message, ref)
            except StoreUnavailable:
                await self._error("unavailable", UNAVAILABLE, ref)
            return
        if isinstance(message, Log):
            await self._earlier_log(message)
            return
        seat = self.seat
        if seat is None:
            await self._error("forbidden", WATCHING, ref)
            return
        try:
            if isinstance(message, Act) and isinstance(message.action, RealtimeAction):
                await self.service.act_realtime(self.table_id, seat, message.action.to_json(), ref)
            elif isinstance(message, Act):
                await self.service.act(self.table_id, seat, str(message.action), message.seq)
            elif isinstance(message, Join):
                name = self.bot_name or await joining_name(self.websocket, message.name)
                await self.service.join(self.table_id, seat, name)
            elif isinstance(message, Start):
                await self.service.start_now(self.table_id, seat)
            elif isinstance(message, Ready):
                await self.service.ready(self.table_id, seat)
            elif isinstance(message, Hint) and self.bot_name is not None:
                await self._error("forbidden", bot_access.NO_HINTS, ref)
            elif isinstance(message, Hint):
                await self._hint(seat, message)
        except TableError as exc:
            text = exc.message
            if exc.reason is not None:  # a real-time table's refusal, told in the page's language
                await self._error(exc.code, text, ref, reason=exc.reason)
                return
            if exc.code == "stale" and "since you looked" not in text and "too late" not in text:
                text = Message("table.stale", f"{STALE_PREFIX}: {text}", reason=text)
            await self._error(exc.code, text, ref)
        except StoreUnavailable:  # (a read of the players or the bounds on the way)
            await self._error("unavailable", UNAVAILABLE, ref)
        except Exception:
            log.exception("table %s seat %s: %r failed", self.table_id, seat, message)
            await self._error("bad-request", SERVER_FAILED, ref)

    async def _history(self, message: History) -> None:
        """An earlier round's events, in this connection's language."""
        events = await self.service.round_events(self.table_id, message.round)
        seats = self.service.frame_for(self.table_id, None).get("seats") or []
        words = localize_frame({"type": "state", "seats": seats, "events": events}, self.tr)
        await self.send(
            {"type": "history", "round": message.round, "events": words.get("events") or [],
             "ref": message.id}
        )  # fmt: skip

    async def _chat(self, message: Chat) -> None:
        """Say a line at the table (the chat tells every connection, this one too)."""
        try:
            if self.chat is None:
                raise TableError("bad-request", Message("chat.none", "this server has no chat"))
            await self.chat.say(self.table_id, self.seat, message.text)
        except ChatError as exc:
            await self.send(error_frame(exc.code, exc.words(self.lang), message.id))
        except TableError as exc:
            await self._error(exc.code, exc.message, message.id)
        except StoreUnavailable:
            await self._error("unavailable", UNAVAILABLE, message.id)
        except Exception:
            log.exception("table %s seat %s: chat failed", self.table_id, self.seat)
            await self._error("bad-request", SERVER_FAILED, message.id)

    async def _earlier_log(self, message: Log) -> None:
        """Older log lines of a real-time table, to this connection only."""
        try:
            frame = await self.service.earlier_log(self.table_id, self.seat, message.before)
        except TableError as exc:
            await self._error(exc.code, exc.message, message.id)
            return
        except StoreUnavailable:
            await self._error("unavailable", UNAVAILABLE, message.id)
            return
        shown = localize_realtime_frame({**frame, "type": "state"}, self.tr)
        await self.send({**shown, "type": "log", "ref": message.id})

    async def _hint(self, seat: int, message: Hint) -> None:
        """The expert's suggestion, to this connection only (it changes nothing); at most
        ``hints_per_minute`` per seat."""
        if await self.limits.take(self.limits.hints, f"{self.table_id}/{seat}") > 0:
            hints = Message(
                "bounds.hints-per-minute", "you have asked for many hints lately: wait a minute"
            )
            await self._error("rate-limited", hints, message.id)
            return
        action, text = await self.service.hint(self.table_id, seat, message.seq, self.lang)
        await self.send(
            {"type": "hint", "seq": message.seq, "action": action, "text": text, "ref": message.id}
        )
