"""Ratings of people per game type (OpenSkill), rated tables and the Play now queue.

``rated_tables`` marks a table as rated when it is made (a row: rated; none: friendly) and
records when its result was counted (``counted``), so two processes never count one game twice,
and how (``outcome``: ``rated``, ``failed``, or why it was void; NULL before migration 0006).
``ratings`` holds each player's ``mu``/``sigma`` per game; ``rating_changes`` one row per
person and rated game (before and after: ``before``/``after`` mu - 3 sigma, and from
migration 0006 on ``mu_before``/``mu_after``, from which the shown rating is worked out), for the
player page. ``play_queue`` holds the people
waiting for a game (Play now) until a matcher seats them at a table.
"""

from __future__ import annotations

import sqlalchemy as sa

from cardroom.store.events import metadata

rated_tables_t = sa.Table(
    "rated_tables",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("counted", sa.Boolean, nullable=False, default=False),
    sa.Column("outcome", sa.String(32), nullable=True),
)

ratings_t = sa.Table(
    "ratings",
    metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False, default=0),
)

rating_changes_t = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("before", sa.Float, nullable=False),
    sa.Column("after", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=True),
    sa.Column("mu_after", sa.Float, nullable=True),
)

play_queue_t = sa.Table(
    "play_queue",
    metadata,
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("wait", sa.Float, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("table_id", sa.String(64), nullable=True),
)
