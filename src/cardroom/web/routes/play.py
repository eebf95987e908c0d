"""Play now: its page, waiting for a game of one kind (bots after a wait, or at once), asking
how the wait goes, and leaving the queue (the queue and its matcher: :mod:`cardroom.web.play_now`).
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from msgspec import Meta

from cardroom.games import registry
from cardroom.web.identity import current_player
from cardroom.web.play_now import DEFAULT_WAIT, PlayNow
from cardroom.web.protocol import GAME_NAME_MAX, unknown_game
from cardroom.web.routes.common import connection_lang, page
from cardroom.web.routes.lobby import open_tables_refused
from cardroom.web.routes.player_requests import (
    ConfirmIn,
    address_of,
    bound,
    limits_of,
    player_body,
    read_body,
)

router = APIRouter()


class PlayIn(msgspec.Struct, forbid_unknown_fields=True):
    game: Annotated[str, Meta(max_length=GAME_NAME_MAX)]
    size: Annotated[int, Meta(ge=2, le=8)] = 2
    wait: Annotated[float, Meta(ge=5, le=300)] = DEFAULT_WAIT
    bot_now: bool = False

    def __post_init__(self) -> None:
        if self.game not in registry.GAMES:  # a bad request, as a bad field's is
            raise ValueError(unknown_game(self.game))


def _play(request: Request) -> PlayNow:
    play: PlayNow = request.app.state.play
    return play


@router.get("/play")
async def play_page(request: Request) -> Response:
    """The Play now page: a button per game."""
    return page(request, "play.html")


@router.post("/api/play")
async def play_now(request: Request) -> Response:
    """Wait for a game: ``{"game", "size" (a turn-based game), "wait" (seconds before bots),
    "bot_now" (bots at once if nobody is waiting)}``."""
    got = await player_body(request, PlayIn, named=True)
    if isinstance(got, Response):
        return got
    body, player = got
    refused = await bound(
        request, limits_of(request).plays, "plays", address_of(request), f"player:{player.id}"
    )
    if refused is not None:
        return refused
    address = address_of(request)
    full = await open_tables_refused(request, address, connection_lang(request))
    if full is not None:
        return full
    size = 2 if registry.game(body.game).realtime else body.size
    play = _play(request)
    await play.join(
        player.id, body.game, size, body.wait, address=address, bot_now=body.bot_now
    )
    await play.match_all()
    return JSONResponse({"waiting": await play.status(player.id)})


@router.get("/api/play")
async def play_status(request: Request) -> Response:
    """``{"waiting": {game, since, size, table, others, bots_at, level} | null}``: ``table``
    once seated; ``others`` waiting for the same game, bots of ``level`` at ``bots_at``."""
    player = await current_player(request)
    if player is None:
        return JSONResponse({"waiting": None})
    return JSONResponse({"waiting": await _play(request).status(player.id)})


@router.post("/api/play/leave")
async def play_leave(request: Request) -> Response:
    """Stop waiting."""
    body = await read_body(request, ConfirmIn)
    if isinstance(body, Response):
        return body
    player = await current_player(request)
    if player is not None:
        await _play(request).leave(player.id)
    return JSONResponse({"waiting": None})
