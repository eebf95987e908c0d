"""``run``: the client as one call, until every table is over or Ctrl-C (which leaves cleanly:
the tables' connections are closed, an action already sent stands)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import Any

from cardroom.botclient.client import ClientError, TableOutcome, http_base, play_tables
from cardroom.botclient.load import Play, load_play

__all__ = ["run", "serve"]

log = logging.getLogger("cardroom.botclient")


def as_play(bot: Any) -> Play:
    """``bot`` as a :class:`Play`: a ``--play`` text, a Play, or the bot object itself."""
    if isinstance(bot, Play):
        return bot
    if isinstance(bot, str):
        return load_play(bot)
    return Play(getattr(bot, "name", type(bot).__name__), target=bot)


async def serve(
    url: str,
    token: str | None,
    bot: Any,
    *,
    tables: list[str] | None = None,
    name: str = "Bot",
    games: int | None = None,
) -> list[TableOutcome | BaseException]:
    """Play ``tables`` (ids) with ``bot`` at once, or, with none given, every table the
    server's bot event stream seats the bot at (until ``games`` of them ended, None: until
    stopped); returns how each table ended."""
    play = as_play(bot)
    http_base(url)  # a bad address is said now, not at the first connection
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if tables:
        return await play_tables(
            url, [(t, token) for t in tables], play, headers=headers, name=name
        )
    from cardroom.botclient.events import follow_events

    return await follow_events(url, token, play, headers=headers, name=name, stop_after=games)


def run(
    url: str,
    token: str | None,
    bot: Any,
    *,
    tables: list[str] | None = None,
    name: str = "Bot",
    games: int | None = None,
) -> list[TableOutcome | BaseException]:
    """:func:`serve` in a new event loop, until done or Ctrl-C (then it returns what ended)."""

    async def main() -> list[TableOutcome | BaseException]:
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        assert task is not None
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, task.cancel)
            loop.add_signal_handler(signal.SIGTERM, task.cancel)
        try:
            return await serve(url, token, bot, tables=tables, name=name, games=games)
        except asyncio.CancelledError:
            log.info("stopped: every connection closed")
            return []

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return []


__all__ += ["ClientError"]
