"""Every table the store writes, for Alembic (autogenerate) and the test that compares the
migrations with the code: a module that adds tables to ``metadata`` is imported here."""

from __future__ import annotations

import sqlalchemy as sa

import cardroom.store.chat  # noqa: F401  (its table joins the metadata)
from cardroom.store.events import metadata


def target_metadata() -> sa.MetaData:
    """The metadata of every table of the store."""
    return metadata
