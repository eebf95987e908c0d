"""Who a browser is: its player (the ``cr_player`` cookie) and the seats that player holds.

The cookie holds a long random key (HttpOnly, SameSite=Lax, Secure behind HTTPS or with the
server's ``secure_cookies``); every tab of a browser sends it, so two tabs are one player. A seat
is held by the seat token of an invitation (the ``cr_seat_<table>`` cookie) until a player
claims it; from then on only that player holds it, in any tab or device of theirs.
"""

from __future__ import annotations

import contextlib
import time

from fastapi import Request
from fastapi.responses import Response
from starlette.requests import HTTPConnection

from cardroom.store import Player, PlayerError, PlayerStore
from cardroom.tables import TableError
from cardroom.tables.chat import TokenBucket
from cardroom.web.ratings import SAME_PLAYER, second_seat
from cardroom.web.routes.common import service_of, settings_of

PLAYER_COOKIE = "cr_player"
PLAYER_MAX_AGE = 60 * 60 * 24 * 400
"""A player's browser key lasts 400 days (browsers cap cookies there)."""
SEAT_TAKEN = (
    "someone else already holds this seat: ask the table's creator for a new invitation link"
)


def players_of(conn: HTTPConnection) -> PlayerStore:
    """The app's player store."""
    players: PlayerStore = conn.app.state.players
    return players


def secure_cookie(conn: HTTPConnection) -> bool:
    """Mark cookies ``Secure``: the server's setting, or the request came over https."""
    return settings_of(conn).secure_cookies or conn.url.scheme in ("https", "wss")


def set_player_cookie(response: Response, request: Request, key: str) -> None:
    """Give the browser its player key."""
    response.set_cookie(
        PLAYER_COOKIE,
        key,
        max_age=PLAYER_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure_cookie(request),
    )


async def current_player(conn: HTTPConnection) -> Player | None:
    """The player of the browser's key (None: no key, or a forgotten one)."""
    return await players_of(conn).by_key(conn.cookies.get(PLAYER_COOKIE))


NEW_PLAYERS_PER_MINUTE = 20
"""Players one address may make per minute (a burst of as many, then one every 3 s)."""
_ADDRESSES = 10_000


class TooManyPlayers(Exception):
    """This address made too many players lately: try again in ``retry_after`` seconds."""

    retry_after = 3


def _may_make_player(request: Request) -> bool:
    buckets: dict[str, TokenBucket] = request.app.state.__dict__.setdefault("new_players", {})
    address = request.client.host if request.client else ""
    bucket = buckets.get(address)
    if bucket is None:
        if len(buckets) >= _ADDRESSES:
            buckets.clear()  # a flood of addresses: start counting again
        bucket = buckets[address] = TokenBucket(NEW_PLAYERS_PER_MINUTE / 60, NEW_PLAYERS_PER_MINUTE)
    return bucket.take()


async def player_or_new(request: Request) -> tuple[Player, str | None]:
    """The browser's player, made (without a name) if it has none; the key to set if new.
    :class:`TooManyPlayers` if the address made more than its share of players lately."""
    player = await current_player(request)
    if player is not None:
        return player, None
    if not _may_make_player(request):
        raise TooManyPlayers
    player, key = await players_of(request).create(
        "", time.time(), request.headers.get("user-agent", "")
    )
    return player, key


async def seat_for(
    conn: HTTPConnection, table_id: str, token: str | None, watch: bool
) -> int | None:
    """The seat this connection holds at a table (None: a spectator).

    A seat token opens its seat only while nobody claimed it, or if this browser's player is
    the one who did (then the claim is made now if it was not yet); a player with a claimed seat
    holds it without a token. Raises :class:`TableError` (``forbidden``) for a seat another
    player holds.
    """
    service = service_of(conn)
    seat = await service.seat_of(table_id, token)
    if watch:
        return None
    players = players_of(conn)
    player = await current_player(conn)
    if seat is not None:
        claim = await players.claim_of(table_id, seat)
        if claim is None and player is not None:
            if await second_seat(service.store, table_id, seat, player.id):
                raise TableError("forbidden", SAME_PLAYER)
            claim = await players.claim(table_id, seat, player.id, time.time())
        if claim is not None and (player is None or claim.player_id != player.id):
            raise TableError("forbidden", SEAT_TAKEN)
        return seat
    if player is not None:
        return await players.seat_of_player(table_id, player.id)
    return None


async def joining_name(conn: HTTPConnection, name: str) -> str:
    """The name a seat is taken under: the player's, or ``name``, which then becomes the
    player's (the name is asked once)."""
    player = await current_player(conn)
    if player is None:
        return name
    if player.name:
        return player.name
    with contextlib.suppress(PlayerError):
        await players_of(conn).rename(player.id, name)
    return name
