"""people: players, keys, move links, passkeys, seat claims, ratings, rated tables, Play now

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24 09:05:38.463132
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=96), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "rated_tables",
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("counted", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_table(
        "move_links",
        sa.Column("link_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("used", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("link_hash"),
    )
    with op.batch_alter_table("move_links", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_move_links_player_id"), ["player_id"], unique=False)

    op.create_table(
        "play_queue",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("wait", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("player_id"),
    )
    op.create_table(
        "player_keys",
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("key_hash"),
    )
    with op.batch_alter_table("player_keys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_keys_player_id"), ["player_id"], unique=False)

    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("table_id", "player_id"),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("player_id", "game"),
    )
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(length=400), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("credential_id"),
    )
    with op.batch_alter_table("passkeys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_passkeys_player_id"), ["player_id"], unique=False)

    op.create_table(
        "passkey_challenges",
        sa.Column("challenge", sa.String(length=100), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("challenge"),
    )
    op.create_table(
        "seat_claims",
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("invite_hash", sa.String(length=64), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    with op.batch_alter_table("seat_claims", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_claims_player_id"), ["player_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("seat_claims", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_claims_player_id"))

    op.drop_table("seat_claims")
    op.drop_table("passkey_challenges")
    with op.batch_alter_table("passkeys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_passkeys_player_id"))

    op.drop_table("passkeys")
    op.drop_table("ratings")
    op.drop_table("rating_changes")
    with op.batch_alter_table("player_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_keys_player_id"))

    op.drop_table("player_keys")
    op.drop_table("play_queue")
    with op.batch_alter_table("move_links", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_move_links_player_id"))

    op.drop_table("move_links")
    op.drop_table("rated_tables")
    op.drop_table("players")
