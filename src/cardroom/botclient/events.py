"""The bot's event stream (``GET /api/bot/events``): invitations, games starting and ending."""

from __future__ import annotations

from typing import Any

from cardroom.botclient.client import TableOutcome
from cardroom.botclient.load import Play


async def follow_events(
    url: str, token: str | None, play: Play, *, headers: dict[str, str], name: str
) -> list[TableOutcome | BaseException]:
    """Follow the stream until stopped, playing each table it seats the bot at."""
    raise NotImplementedError("the event stream is not written yet")


_ = Any
