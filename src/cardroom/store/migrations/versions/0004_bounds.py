"""bounds: counts of work per client shared by every server process (``cardroom.store.bounds``)

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bounds",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_bounds_key_at", "bounds", ["key", "at"])
    op.create_index("ix_bounds_until", "bounds", ["until"])


def downgrade() -> None:
    op.drop_index("ix_bounds_until", table_name="bounds")
    op.drop_index("ix_bounds_key_at", table_name="bounds")
    op.drop_table("bounds")
