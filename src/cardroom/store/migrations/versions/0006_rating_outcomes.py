"""rating outcomes: why a rated table was not counted, and the mu behind each rating change

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rated_tables") as batch:
        batch.add_column(sa.Column("outcome", sa.String(length=32), nullable=True))
    with op.batch_alter_table("rating_changes") as batch:
        batch.add_column(sa.Column("mu_before", sa.Float(), nullable=True))
        batch.add_column(sa.Column("mu_after", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_column("mu_after")
        batch.drop_column("mu_before")
    with op.batch_alter_table("rated_tables") as batch:
        batch.drop_column("outcome")
