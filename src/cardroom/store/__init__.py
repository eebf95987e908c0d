"""The durable event log of the tables: SQLAlchemy 2 Core, async (SQLite by default).

``events`` is the truth (one row per accepted log entry, unique ``(table_id, seq)``); ``tables``
and ``seats`` are projections written in the same transaction as the event that changes them.
``chat`` (:mod:`cardroom.store.chat`) holds what players say, beside the log and never in it.
"""

from cardroom.games.table import LogEntry
from cardroom.store.chat import CHAT_CHANNEL, ChatLine, ChatStore
from cardroom.store.events import (
    NOTIFY_CHANNEL,
    EventStore,
    SeqConflict,
    StoreError,
    StoreUnavailable,
    TableRow,
    default_url,
    resolve_url,
)
from cardroom.store.players import Claim, Player, PlayerError, PlayerStore

__all__ = [
    "CHAT_CHANNEL",
    "NOTIFY_CHANNEL",
    "ChatLine",
    "ChatStore",
    "Claim",
    "EventStore",
    "LogEntry",
    "Player",
    "PlayerError",
    "PlayerStore",
    "SeqConflict",
    "StoreError",
    "StoreUnavailable",
    "TableRow",
    "default_url",
    "resolve_url",
]
