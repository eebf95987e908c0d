"""The table service: one owner of each table (game, seats, log, per-seat views) for every
front end (terminal and web)."""

from cardroom.tables.config import Created, SeatSpec, TableConfig, TableError
from cardroom.tables.service import Subscription, TableService

__all__ = ["Created", "SeatSpec", "Subscription", "TableConfig", "TableError", "TableService"]
