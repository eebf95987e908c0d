"""Every table the store writes, for Alembic (autogenerate) and the test that compares the
migrations with the code: a module that adds tables to ``metadata`` is imported here."""

from __future__ import annotations

import sqlalchemy as sa

import cardroom.store.analyses
import cardroom.store.bots
import cardroom.store.bounds
import cardroom.store.chat  # (each module adds its tables to the metadata)
import cardroom.store.players
import cardroom.store.ratings  # noqa: F401
from cardroom.store.events import metadata


def target_metadata() -> sa.MetaData:
    """The metadata of every table of the store."""
    return metadata
