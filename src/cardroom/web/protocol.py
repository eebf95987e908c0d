"""The websocket and HTTP messages of the web tables, checked by msgspec.

Client messages are JSON text frames tagged by ``type`` (``act``, ``join``, ``start``,
``ready``, ``hint``, ``chat``, ``ping``, ``log``); :func:`decode_message` reads one or raises
:class:`ProtocolError` with words a person understands. :class:`CreateTable` is the body of
``POST /api/tables``.
Server frames are plain dicts (``state`` frames come from the table service); :func:`error_frame`
and :func:`encode` build and serialise them.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from cardroom.games import registry
from cardroom.games.messages import Message
from cardroom.games.records import brief

MESSAGE_TYPES = ("act", "join", "start", "ready", "hint", "chat", "ping", "log", "history")
NAME_MAX = 24
GAME_NAME_MAX = 40
DEFAULT_GAME = next(iter(registry.GAMES))
"""The game of a create request that names none: the registry's first."""


def unknown_game(name: str) -> str:
    """The decoder's English for a game no entry of the registry has."""
    return f"unknown game {brief(name)}: choose one of {', '.join(registry.names())}"


LEVEL_NAMES = ("easy", "medium", "hard", "expert")

ClientId = Annotated[str, Meta(max_length=64)] | Annotated[int, Meta(ge=-(2**53), le=2**53)]
Seq = Annotated[int, Meta(ge=0, le=2**53)]
NO_SEQ = -1
"""``seq`` left out (a real-time action needs none; a turn-based one is then refused)."""


class ProtocolError(ValueError):
    """A message that cannot be accepted; ``code`` is the error frame's code."""

    def __init__(self, code: str, message: str, ref: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


class RealtimeAction(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A real-time game's action in record form: a ``type`` and the fields that type needs, for
    instance ``{"type": "play", "card": "7D", "pile": 0, "seen": "8C"}``, ``{"type": "turn-up",
    "stock": 2}``, ``{"type": "move", "card": "5H", "to_stock": 3}``, ``{"type": "slap",
    "pile": 1}`` or a call with no field. The table's engine reads it and says which types its
    game has (a play without ``seen`` is refused)."""

    type: Annotated[str, Meta(min_length=1, max_length=16)]
    card: Annotated[str, Meta(max_length=4)] | None = None
    pile: Annotated[int, Meta(ge=0, le=16)] | None = None
    seen: Annotated[str, Meta(max_length=4)] | None = None
    stock: Annotated[int, Meta(ge=0, le=16)] | None = None
    to_stock: Annotated[int, Meta(ge=0, le=16)] | None = None

    def to_json(self) -> dict[str, Any]:
        """The record form (fields not given are left out)."""
        out: dict[str, Any] = msgspec.to_builtins(self)
        return out


class Act(msgspec.Struct, tag_field="type", tag="act", forbid_unknown_fields=True):
    """A turn-based game: play a card (``"7D"``), say ``"pass"`` or ``"claim"``, having seen
    state ``seq``. A real-time game: ``action`` is a :class:`RealtimeAction` (``seq`` is not
    needed: the play's ``seen`` card says what its sender saw)."""

    action: Annotated[str, Meta(min_length=1, max_length=8)] | RealtimeAction
    seq: Seq = NO_SEQ
    id: ClientId | None = None


class Join(msgspec.Struct, tag_field="type", tag="join", forbid_unknown_fields=True):
    """Take one's seat under a name (1 to 24 characters once stripped)."""

    name: Annotated[str, Meta(max_length=4 * NAME_MAX)]
    id: ClientId | None = None


class Start(msgspec.Struct, tag_field="type", tag="start", forbid_unknown_fields=True):
    """The creator starts the table now; empty person seats become bots."""

    id: ClientId | None = None


class Ready(msgspec.Struct, tag_field="type", tag="ready", forbid_unknown_fields=True):
    """Ready for the next round."""

    id: ClientId | None = None


class Hint(msgspec.Struct, tag_field="type", tag="hint", forbid_unknown_fields=True):
    """Ask the expert for a suggestion for one's own move at state ``seq`` (tables with hints
    on); answered by a ``hint`` frame to this connection only."""

    seq: Seq
    id: ClientId | None = None


class Chat(msgspec.Struct, tag_field="type", tag="chat", forbid_unknown_fields=True):
    """Say something to the table (seated players; at most 300 characters once cleaned)."""

    text: Annotated[str, Meta(max_length=4096)]
    id: ClientId | None = None


class History(msgspec.Struct, tag_field="type", tag="history", forbid_unknown_fields=True):
    """A turn-based game: the public events of an earlier round (``round`` = 0, 1, …), answered by a
    ``history`` frame to this connection only (one round per frame: frames stay bounded)."""

    round: Annotated[int, Meta(ge=0, le=10**9)]
    id: ClientId | None = None


class Log(msgspec.Struct, tag_field="type", tag="log", forbid_unknown_fields=True):
    """A real-time game: the log lines before index ``before`` (a full frame carries only the
    last ones; its ``log_from`` says where they start); answered by a ``log`` frame."""

    before: Annotated[int, Meta(ge=0, le=2**31)]
    id: ClientId | None = None


class Ping(msgspec.Struct, tag_field="type", tag="ping", forbid_unknown_fields=True):
    """Are you there? Answered by a ``pong`` frame."""

    id: ClientId | None = None


ClientMessage = Act | Join | Start | Ready | Hint | Chat | Ping | Log | History

_decoder = msgspec.json.Decoder(ClientMessage, strict=True)
_raw_decoder = msgspec.json.Decoder()


def _enc_hook(obj: Any) -> Any:
    if isinstance(obj, str):  # a message with an id is its English text (its id travels beside)
        return str(obj)
    raise NotImplementedError(f"cannot encode {type(obj).__name__}")


_encoder = msgspec.json.Encoder(enc_hook=_enc_hook)
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\ufeff\ufff9-\ufffb\ud800-\udfff]"
)
"""What never reaches a name or a title: control characters (NUL too), bidirectional
overrides, embeddings and isolates, zero-width and invisible characters, lone surrogates."""


def _ref_of(raw: Any) -> object:
    if isinstance(raw, dict):
        ref = raw.get("id")
        if isinstance(ref, str) and len(ref) <= 64:
            return ref
        if isinstance(ref, int) and not isinstance(ref, bool) and abs(ref) <= 2**53:
            return ref
    return None


def decode_message(text: str | bytes) -> ClientMessage:
    """Read one client message; raise :class:`ProtocolError` (``bad-request``) if it is not one."""
    try:
        message: ClientMessage = _decoder.decode(text)
    except msgspec.DecodeError as exc:
        try:
            raw = _raw_decoder.decode(text)
        except msgspec.DecodeError:
            raise ProtocolError(
                "bad-request", Message("ws.not-json", "this message is not valid JSON")
            ) from None
        except RecursionError:  # e.g. [[[[…]]]] thousands deep
            raise ProtocolError(
                "bad-request", Message("ws.too-deep", "this message is nested too deeply")
            ) from None
        ref = _ref_of(raw)
        if not isinstance(raw, dict):
            raise ProtocolError(
                "bad-request",
                Message("ws.not-object", 'a message is a JSON object like {"type": "ping"}'),
                ref,
            ) from None
        kind = raw.get("type")
        if kind not in MESSAGE_TYPES:
            raise ProtocolError(
                "bad-request",
                Message(
                    "ws.unknown-type",
                    f"unknown message type {str(kind)[:20]!r}: send one of "
                    f"{', '.join(MESSAGE_TYPES)}",
                    typed=brief(kind, 20),
                ),
                ref,
            ) from None
        raise ProtocolError("bad-request", _bad_message(kind, str(exc)), ref) from None
    if isinstance(message, Join):
        message.name = clean_name(message.name, message.id)
    if isinstance(message, Act) and isinstance(message.action, str) and message.seq == NO_SEQ:
        raise ProtocolError(
            "bad-request",
            _bad_message("act", "Object missing required field `seq` (the state you saw)"),
            message.id,
        )
    return message


def _bad_message(kind: str, detail: str) -> Message:
    """``bad act message: …`` (the decoder's English detail is for English readers only)."""
    return Message("ws.bad-message", f"bad {kind} message: {detail}", kind=kind, detail=detail)


def clean_text(text: str, most: int) -> str:
    """``text`` without the characters of ``_CONTROL``, its blanks made single spaces, cut to
    ``most`` characters."""
    return " ".join(_CONTROL.sub("", text).split())[:most]


def clean_name(name: str, ref: object = None) -> str:
    """A player's name stripped of blanks and control characters, 1 to 24 characters."""
    cleaned = " ".join(_CONTROL.sub("", name).split())
    if not 1 <= len(cleaned) <= NAME_MAX:
        raise ProtocolError(
            "bad-request",
            Message(
                "web.name-length",
                f"a name has 1 to {NAME_MAX} characters, not {len(cleaned)}",
                most=NAME_MAX,
                n=len(cleaned),
            ),
            ref,
        )
    return cleaned


def error_frame(
    code: str, message: str, ref: object = None, id: str | None = None
) -> dict[str, Any]:
    """An ``error`` frame; an error changes nothing at the table. ``id`` names the message
    (``rt.not-next``, ``table.turn`` …) whose words ``message`` is, in the connection's
    language."""
    frame = {"type": "error", "code": code, "message": message, "ref": ref}
    if id is not None:
        frame["id"] = id
    return frame


PONG: dict[str, Any] = {"type": "pong"}


def encode(frame: dict[str, Any]) -> str:
    """A frame as JSON text."""
    return _encoder.encode(frame).decode()


# ----------------------------------------------------------------------------- HTTP bodies

OptionValue = (
    Annotated[str, Meta(max_length=64)]
    | Annotated[int, Meta(ge=-(10**9), le=10**9)]
    | bool
    | Annotated[list[Annotated[str, Meta(max_length=8)]], Meta(max_length=5)]
)


class SeatIn(msgspec.Struct, forbid_unknown_fields=True):
    """One seat of a new table: a person (friend) or a bot of a level."""

    kind: Literal["person", "bot"]
    level: Literal["easy", "medium", "hard", "expert"] | None = None


class CreateTable(msgspec.Struct, forbid_unknown_fields=True):
    """The body of ``POST /api/tables``."""

    name: Annotated[str, Meta(max_length=4 * NAME_MAX)]
    """The creator's name (seat 0)."""
    game: Annotated[str, Meta(max_length=GAME_NAME_MAX)] = DEFAULT_GAME
    """A registered game's name (:func:`decode_create` refuses another); a real-time game's
    table has two seats (``players`` is then 2) and no preset."""
    players: int = 4
    """Within the game's fewest and most players (told in words by the lobby, as the rules tell
    their options)."""
    preset: Annotated[str, Meta(max_length=32)] | None = None
    options: Annotated[
        dict[Annotated[str, Meta(max_length=40)], OptionValue], Meta(max_length=16)
    ] = msgspec.field(default_factory=dict)
    seats: Annotated[list[SeatIn], Meta(max_length=8)] | None = None
    """One per seat, seat 0 first (the creator's, a person); default: bots of ``level``."""
    level: Literal["easy", "medium", "hard", "expert"] = "medium"
    """The level of bots whose seat names none, and of bots filling empty seats."""
    starting_chips: int | None = None
    """Checked by the rules (``rules.starting-chips``)."""
    end: Annotated[str, Meta(max_length=32)] | None = None
    takeover_after: Annotated[float, Meta(ge=0, le=3600)] = 60.0
    """Seconds a person may be away: then a bot plays their seat (a real-time game: the game
    is paused meanwhile, then ``when_away`` happens)."""
    when_away: Literal["forfeit", "bot"] | None = None
    """A real-time game: what happens to a seat away ``takeover_after`` seconds (default: forfeit
    between two people, a bot of ``level`` against a bot)."""
    title: Annotated[str, Meta(max_length=80)] = ""
    public: bool = True
    hints: bool = False
    """Players may ask the expert for a suggestion for their own move (off for a rated game)."""
    learning: bool | None = None
    """A learning table (hints on, every event and refusal explained); by default on when
    every other seat is a bot (at a game that offers hints)."""
    rated: bool = False
    """A rated game: it counts in the players' ratings; no hints (refused with ``hints``)."""


_create_decoder = msgspec.json.Decoder(CreateTable, strict=True)


def decode_create(body: bytes) -> CreateTable:
    """Read a ``POST /api/tables`` body; raise :class:`ProtocolError` naming what is wrong."""
    try:
        body_struct: CreateTable = _create_decoder.decode(body)
        if body_struct.game not in registry.GAMES:
            raise msgspec.ValidationError(f"{unknown_game(body_struct.game)} - at `$.game`")
        return body_struct
    except msgspec.DecodeError as exc:
        field = _field_of(exc)
        raise ProtocolError(
            "bad-request",
            Message("lobby.bad-request", f"bad table request: {exc}", detail=str(exc), field=field),
        ) from None


_AT_FIELD = re.compile(r" - at `\$\.([a-z_]+)")


def _field_of(exc: msgspec.DecodeError) -> str | None:
    """The body's field a validation error is about (``players``), if it names one: the words
    of that field are told instead of the decoder's English."""
    if not isinstance(exc, msgspec.ValidationError):
        return None
    found = _AT_FIELD.search(str(exc))
    return found.group(1) if found else None
