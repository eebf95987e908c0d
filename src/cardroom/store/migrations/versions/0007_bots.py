"""bots: players' own bots, their play tokens (sha256 only) and the invitations of seats to them

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bots",
        sa.Column("id", sa.String(length=32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("owner_id", sa.String(length=32), nullable=True),
        sa.Column("accepts", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_bots_owner_id", "bots", ["owner_id"])
    op.create_table(
        "bot_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("bot_id", sa.String(length=32), sa.ForeignKey("bots.id"), nullable=False),
        sa.Column("label", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_used", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_bot_tokens_bot_id", "bot_tokens", ["bot_id"])
    op.create_table(
        "bot_invites",
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("bot_id", sa.String(length=32), nullable=False),
        sa.Column("inviter_id", sa.String(length=32), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index("ix_bot_invites_bot_id", "bot_invites", ["bot_id"])


def downgrade() -> None:
    op.drop_index("ix_bot_invites_bot_id", table_name="bot_invites")
    op.drop_table("bot_invites")
    op.drop_index("ix_bot_tokens_bot_id", table_name="bot_tokens")
    op.drop_table("bot_tokens")
    op.drop_index("ix_bots_owner_id", table_name="bots")
    op.drop_table("bots")
