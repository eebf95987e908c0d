"""``cardroom bot connect``: a program's bot plays people on a cardroom server (the client of
docs/bots-api.md)."""

from __future__ import annotations

import logging
import os
import sys

import click

from cardroom.cli.groups import CONTEXT, cli, titles
from cardroom.games.registry import REALTIME, TURN_BASED
from cardroom.i18n import Translator

TOKEN_ENV = "CARDROOM_BOT_TOKEN"


@cli.group("bot", context_settings=CONTEXT)
def bot() -> None:
    """Your own bot at a cardroom server's tables, playing people."""


def _kinds(tr: Translator) -> dict[str, object]:
    return {"turn_based": titles(tr, TURN_BASED), "realtime": titles(tr, REALTIME)}


@bot.command("connect", context_settings=CONTEXT, help_fields=_kinds)
@click.argument("url")
@click.option(
    "--token",
    default=None,
    metavar="TOKEN",
    help="The bot's token (crb_…), made on /me or with serve-bots token; "
    "or set CARDROOM_BOT_TOKEN.",
)
@click.option(
    "--play",
    "play_text",
    required=True,
    metavar="MODULE:NAME",
    help="What plays: module:attribute of your bot, policy or model, or a cardroom bot "
    "(easy, medium, hard, expert).",
)
@click.option(
    "--table",
    "tables",
    multiple=True,
    metavar="ID",
    help="Play this table only (the bot holds a seat there); repeat for several.",
)
@click.option("-v", "--verbose", is_flag=True, help="Say each invitation, table and reconnection.")
def connect(
    url: str, token: str | None, play_text: str, tables: tuple[str, ...], verbose: bool
) -> None:
    """Connect a bot to the server at URL and play every table it is seated at.

    The bot accepts the invitations of the games it plays, plays each table over the same
    websocket a browser uses (several tables at once), and reconnects by itself after a drop.
    Ctrl-C closes every connection and stops. What --play names:

    \b
      a class or object with act(view, rng)   a bot for {turn_based}, as cardroom's own
      a function f(observation, action_mask)  a PettingZoo or Gymnasium policy: returns an
                                              action id (the research adapters' encoding)
      an object with predict(obs, action_masks=…)   a trained model (MaskablePPO…)
      a class with observe/due/act/rejected   a bot for {realtime} (cardroom.bots.reaction)
      easy, medium, hard, expert              cardroom's own bots

    \b
    Examples:
      cardroom bot connect https://cards.example.org --token crb_… --play my_bot:MyBot
      cardroom bot connect http://127.0.0.1:8000 --play expert --table k3v9x2
      CARDROOM_BOT_TOKEN=crb_… cardroom bot connect https://cards.example.org --play agent:policy
    """
    from cardroom.botclient import ClientError, PlayError, load_play, run

    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(message)s", stream=sys.stderr
    )
    token = token or os.environ.get(TOKEN_ENV) or None
    if not token:
        raise click.UsageError(
            "give the bot's token with --token crb_… (or set CARDROOM_BOT_TOKEN): make one on "
            "the server's /me page"
        )
    sys.path.insert(0, os.getcwd())  # (--play my_module:Bot finds the current directory's)
    try:
        play = load_play(play_text)
        outcomes = run(url, token, play, tables=list(tables) or None)
    except (PlayError, ClientError) as exc:
        raise click.ClickException(str(exc)) from None
    failed = [o for o in outcomes if isinstance(o, BaseException)]
    for failure in failed:
        click.echo(f"Error: {failure}", err=True)
    if failed:
        sys.exit(1)
