"""A NUL in a table's title or a name on PostgreSQL (which refuses NUL in text): cleaned away
before it is stored, so the table is made instead of a misleading 503."""

from __future__ import annotations

import httpx

from cardroom.web import Settings
from tests.web.conftest import serving


async def test_a_nul_in_a_title_or_name_is_cleaned_on_postgresql(pg_url: str) -> None:
    async with (
        serving(Settings(db_url=pg_url, bot_delay=0.0)) as (_app, address),
        httpx.AsyncClient(base_url=f"http://{address}") as http,
    ):
        made = await http.post(
            "/api/tables",
            json={"name": "Ann\x00", "players": 2, "title": "Friday\x00 night\u202e"},
        )
        assert made.status_code == 201, made.text
        (row,) = (await http.get("/api/tables")).json()["open"]
    assert row["title"] == "Friday night"
