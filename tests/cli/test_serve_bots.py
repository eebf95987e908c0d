"""``cardroom serve-bots``: the operator makes a bot and a token, lists and revokes it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from click.testing import CliRunner

from cardroom.cli.main import cli
from cardroom.store import EventStore, resolve_url
from cardroom.store.bots import BotStore


def _bot_of(db: Path, token: str) -> str | None:
    async def run() -> str | None:
        store = await EventStore.open(resolve_url(str(db)))
        try:
            bot = await BotStore(store).by_token(token)
            return None if bot is None else bot.name
        finally:
            await store.close()

    return asyncio.run(run())


def test_the_operator_makes_lists_and_revokes_a_bots_token(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    runner = CliRunner()
    made = runner.invoke(cli, ["serve-bots", "create", "Mistral", "--db", str(db)])
    assert made.exit_code == 0, made.output
    bot_id = made.output.strip()
    taken = runner.invoke(cli, ["serve-bots", "create", "MISTRAL", "--db", str(db)])
    assert taken.exit_code != 0 and "signs in with this name" in taken.output
    tok = runner.invoke(cli, ["serve-bots", "token", "Mistral", "--db", str(db)])
    assert tok.exit_code == 0, tok.output
    token = tok.stdout.strip()
    assert token.startswith("crb_") and _bot_of(db, token) == "Mistral"
    listed = runner.invoke(cli, ["serve-bots", "list", "--db", str(db)])
    bot_line = listed.stdout.strip()
    assert bot_line.startswith(f"{bot_id}\tMistral\t-\t") and token not in listed.stdout
    token_id = bot_line.rsplit("\t", 1)[1]
    gone = runner.invoke(cli, ["serve-bots", "revoke", token_id, "--db", str(db)])
    assert gone.exit_code == 0, gone.output
    assert _bot_of(db, token) is None
    again = runner.invoke(cli, ["serve-bots", "revoke", token_id, "--db", str(db)])
    assert again.exit_code == 1
