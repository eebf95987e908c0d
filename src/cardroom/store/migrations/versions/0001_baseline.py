"""baseline: the schema of the releases before Alembic (tables, seats, events, chat)

Revision ID: 0001
Revises:
Create Date: 2026-11-24

Frozen: never edit it, add a migration on top. A database made before Alembic already has
these tables (an older one may lack ``chat``): only the missing ones are created, so every
such database ends at this revision with the same schema.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.schema import SchemaItem

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _tables() -> list[tuple[str, list[SchemaItem]]]:
    return [
        (
            "tables",
            [
                sa.Column("id", sa.String(64), primary_key=True),
                sa.Column("game", sa.String(32), nullable=False),
                sa.Column("created_at", sa.Float, nullable=False),
                sa.Column("status", sa.String(16), nullable=False),
                sa.Column("title", sa.String(200), nullable=False),
                sa.Column("public", sa.Boolean, nullable=False),
                sa.Column("summary", sa.JSON, nullable=False),
            ],
        ),
        (
            "seats",
            [
                sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
                sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
                sa.Column("kind", sa.String(16), nullable=False),
                sa.Column("name", sa.String(64), nullable=False),
                sa.Column("level", sa.String(64), nullable=True),
                sa.Column("token_hash", sa.String(64), nullable=True),
                sa.Column("joined", sa.Boolean, nullable=False),
            ],
        ),
        (
            "events",
            [
                sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
                sa.Column("seq", sa.Integer, nullable=False),
                sa.Column("kind", sa.String(16), nullable=False),
                sa.Column("data", sa.JSON, nullable=False),
                sa.Column("at", sa.Float, nullable=False),
                sa.UniqueConstraint("table_id", "seq", name="events_table_seq"),
            ],
        ),
        (
            "chat",
            [
                sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
                sa.Column("n", sa.Integer, nullable=False),
                sa.Column("seat", sa.Integer, nullable=False),
                sa.Column("name", sa.String(200), nullable=False),
                sa.Column("text", sa.Text, nullable=False),
                sa.Column("at", sa.Float, nullable=False),
                sa.UniqueConstraint("table_id", "n", name="chat_table_n"),
            ],
        ),
    ]


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())
    for name, items in _tables():
        if name not in present:
            op.create_table(name, *items)


def downgrade() -> None:
    for name, _items in reversed(_tables()):
        op.drop_table(name)
