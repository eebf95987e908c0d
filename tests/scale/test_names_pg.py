"""Sign-in names on PostgreSQL: folded in Python exactly as on SQLite (an old database's
duplicates upgraded, the oldest keeping the name)."""

from __future__ import annotations

from tests.web.test_sign_in_names import old_names_upgrade


async def test_an_old_database_keeps_the_oldest_of_a_name_for_sign_in(pg_url: str) -> None:
    await old_names_upgrade(pg_url)
