"""``cardroom serve-bots``: the server operator's bots and their play tokens (docs/bots-api.md)."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import click

from cardroom.cli.groups import CONTEXT, cli

if TYPE_CHECKING:
    from cardroom.store.bots import BotStore

_R = TypeVar("_R")

_DB = click.option(
    "--db",
    "db",
    default=None,
    metavar="PATH|URL",
    help="The server's database (as cardroom serve --db).",
)


def _with_bots(db: str | None, work: Callable[[BotStore], Awaitable[_R]]) -> _R:
    from cardroom.store import EventStore, PlayerError, resolve_url
    from cardroom.store.bots import BotStore

    async def run() -> _R:
        store = await EventStore.open(resolve_url(db))
        try:
            return await work(BotStore(store))
        finally:
            await store.close()

    try:
        return asyncio.run(run())
    except PlayerError as exc:
        raise click.ClickException(exc.message) from None


@cli.group("serve-bots", context_settings=CONTEXT)
def serve_bots() -> None:
    """Bots that play on this server through the bot API, and their tokens."""


@serve_bots.command("create")
@click.argument("name")
@click.option("--owner", default=None, help="The id of the player who owns it (default: none).")
@_DB
def create(name: str, owner: str | None, db: str | None) -> None:
    """Make a bot called NAME; prints its id."""

    async def work(bots: BotStore) -> str:
        bot = await bots.create(owner, name, time.time())
        return bot.id

    click.echo(_with_bots(db, work))


@serve_bots.command("token")
@click.argument("name")
@click.option("--label", default="", help="A note to tell the token apart.")
@_DB
def token(name: str, label: str, db: str | None) -> None:
    """Make a token for the bot NAME; prints it (this once) and its id."""

    async def work(bots: BotStore) -> tuple[str, str] | None:
        bot = await bots.by_name(name)
        if bot is None:
            return None
        return await bots.new_token(bot.id, label, time.time())

    made = _with_bots(db, work)
    if made is None:
        raise click.ClickException(f"there is no bot called {name}")
    click.echo(made[1])
    click.echo(f"id {made[0]}", err=True)


@serve_bots.command("list")
@_DB
def list_bots(db: str | None) -> None:
    """Every bot: id, name, owner and its tokens' ids."""

    async def work(bots: BotStore) -> list[str]:
        lines = []
        for bot in await bots.all():
            ids = ",".join(t.id for t in await bots.tokens_of(bot.id)) or "-"
            lines.append(f"{bot.id}\t{bot.name}\t{bot.owner_id or '-'}\t{ids}")
        return lines

    for line in _with_bots(db, work):
        click.echo(line)


@serve_bots.command("revoke")
@click.argument("token_id")
@_DB
def revoke(token_id: str, db: str | None) -> None:
    """Revoke the token of id TOKEN_ID: refused from now on, on every server process."""

    async def work(bots: BotStore) -> list[str]:
        return await bots.revoke(token_id)

    if not _with_bots(db, work):
        click.echo(f"there is no token of id {token_id}", err=True)
        sys.exit(1)
    click.echo("revoked")
