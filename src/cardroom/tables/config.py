"""What a table is made of: its seats and the service's error type (shared by every game:
``games/table.py``), what the service hands back when it creates one, and the refusals of the
table service."""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.games.messages import Message
from cardroom.games.table import (
    ALREADY_STARTED,
    NOT_CREATED,
    REMATCH_ONCE,
    ROUND_NOT_OVER,
    TOKEN_FOR_PERSON,
    ErrorCode,
    SeatKind,
    SeatSpec,
    TableConfig,
    TableError,
)

__all__ = [
    "ALREADY_STARTED",
    "NOT_CREATED",
    "REMATCH_ONCE",
    "ROUND_NOT_OVER",
    "TOKEN_FOR_PERSON",
    "Created",
    "ErrorCode",
    "SeatKind",
    "SeatSpec",
    "TableConfig",
    "TableError",
]

LEVEL_NAMES = ("easy", "medium", "hard", "expert")

BUSY = Message("table.busy", "the table is very busy: try again")
UNAVAILABLE = Message(
    "table.unavailable",
    "the database is not answering: nothing was changed, try again in a moment",
)
TURN_ACTION = Message(
    "table.turn-action",
    "this table is played in turns: send an action as text with the seq you saw",
)
REALTIME_ACTION = Message("table.realtime-action", "at a real-time table an action is an object")
NO_LOG = Message("table.no-log", "a table played in turns has no log to page through")
NO_ROUNDS = Message("table.no-rounds", "a real-time table has no rounds")
LEFT_BY_CLOSING = Message("table.left-by-closing", "a real-time table is left by closing the page")
REMATCH_NOT_OVER = Message("table.rematch-not-over", "a rematch is offered once the game is over")
REMATCH_PLAYERS = Message("table.rematch-players", "only the players can ask for a rematch")
PLAYERS_ONLY = Message("table.players-only", "only the players at this table can do that")
REMATCH_BUSY = Message("table.rematch-busy", "the table is busy: ask for the rematch again")
NO_LEVEL = Message("table.no-level", "a person's seat has no level")
CREATOR_STARTS = Message("table.creator-starts", "only the table's creator can start it")
MOVED_ON = Message(
    "table.moved-on", "the table moved on since you looked: look again and choose once more"
)
YOU_LEFT = Message("table.you-left", "you left this table: a bot plays your seat")
NO_HINTS = Message("table.no-hints", "this game offers no hints")
HINTS_OFF = Message("table.hints-off", "hints are off at this table")
HINT_MOVED_ON = Message("table.hint-moved-on", "the table moved on since you looked: ask again")
HINT_NOT_YOUR_TURN = Message("table.hint-not-your-turn", "no hint: it is not your turn")
HINTS_BUSY = Message("table.hints-busy", "many players are asking for hints: ask again in a moment")
WATCH_ONLY = Message("table.watch-only", "this is not a person's seat")
RECORD_NOT_OVER = Message("table.record-not-over", "the record is published when the game is over")
BOT_PLAYS_SEAT = Message("table.bot-plays-seat", "a bot plays this seat")
NOT_STARTED_YET = Message("table.not-started-yet", "the game has not started yet: wait for it")
GAME_OVER = Message("table.game-over", "the game is over")
"""Refusals of both kinds of table (each a message with an id: see ``i18n/messages.py``)."""


def no_table(table_id: str) -> Message:
    """The refusal of a request about a table that does not exist."""
    return Message("table.no-table", f"there is no table {table_id!r}")


def table_exists(table_id: str) -> Message:
    """The refusal to create a table whose id is taken."""
    return Message("table.exists", f"table {table_id} exists already", table=table_id)


def cannot_rebuild(table_id: str, detail: str) -> Message:
    """The refusal to open a table whose log cannot be replayed (``detail``, English, is for
    the server's log: the person is told the table cannot be rebuilt)."""
    return Message(
        "table.cannot-rebuild", f"table {table_id} cannot be rebuilt: {detail}", table=table_id
    )


def bad_level(level: str) -> Message:
    """The refusal of a table whose bots' level names no bot."""
    return Message("table.bad-level", f"there is no bot level {level!r}", level=level)


@dataclass(frozen=True, slots=True)
class Created:
    """What :meth:`TableService.create` hands back: the id and the secret seat tokens."""

    table_id: str
    creator_token: str
    """Secret; the creator's seat (0)."""
    invites: dict[int, str]
    """Game seat -> secret seat token, for every other person seat."""
