"""identity: sign-in names unique per server (folded), and what each browser key is

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28

``players.signin_name`` holds the folded name (NFKC, case-folded, NFKC: computed here in
Python, as the code does, never by the database) of each player with a password. Where an old
database has several protected players of one folded name, the oldest keeps it for sign-in;
the others keep their name on the tables and their browser keys, and sign in by password again
once they choose another name (the player page says so). ``player_keys`` gains ``last_used``,
``agent`` and ``how`` (None for keys made before).
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _fold(name: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("signin_name", sa.String(length=96), nullable=True))
    with op.batch_alter_table("player_keys") as batch:
        batch.add_column(sa.Column("last_used", sa.Float(), nullable=True))
        batch.add_column(sa.Column("agent", sa.String(length=120), nullable=True))
        batch.add_column(sa.Column("how", sa.String(length=16), nullable=True))
    players = sa.table(
        "players",
        sa.column("id", sa.String),
        sa.column("name", sa.String),
        sa.column("created_at", sa.Float),
        sa.column("password_hash", sa.String),
        sa.column("signin_name", sa.String),
    )
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(players.c.id, players.c.name)
        .where(players.c.password_hash.is_not(None))
        .order_by(players.c.created_at, players.c.id)
    ).all()
    held: set[str] = set()
    for row in rows:
        folded = _fold(row.name or "")
        if not folded or len(folded) > 96 or folded in held:
            continue  # a younger player of the same name (or one too long folded): rename
        held.add(folded)
        conn.execute(
            players.update().where(players.c.id == row.id).values(signin_name=folded)
        )
    op.create_index("ix_players_signin_name", "players", ["signin_name"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_players_signin_name", table_name="players")
    with op.batch_alter_table("player_keys") as batch:
        batch.drop_column("how")
        batch.drop_column("agent")
        batch.drop_column("last_used")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("signin_name")
