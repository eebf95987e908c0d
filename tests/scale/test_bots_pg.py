"""The bots' tables on PostgreSQL: migration 0007 makes them, and a bot, its token, an
invitation and a seat taken for it work there as on SQLite; a revoked token is refused."""

from __future__ import annotations

import time

from cardroom.store import EventStore
from cardroom.store.bots import BotStore
from cardroom.store.migrate import head
from cardroom.store.players import PlayerStore


async def test_bots_and_tokens_on_postgresql(pg_store: EventStore) -> None:
    assert head() == "0007"
    players = PlayerStore(pg_store)
    bots = BotStore(pg_store)
    ann, _ = await players.create("Ann", 1.0)
    bot = await bots.create(ann.id, "Mistral", time.time())
    public, token = await bots.new_token(bot.id, "lab", time.time())
    found = await bots.by_token(token)
    assert found is not None and found.name == "Mistral" and found.owner_id == ann.id
    invite = await bots.invite("t1", 1, bot.id, ann.id, time.time())
    assert await bots.answer("t1", 1, bot.id, "accepted", time.time())
    assert not await bots.answer("t1", 1, bot.id, "accepted", time.time())  # once
    assert invite.state == "waiting"
    assert await bots.claim_seat("t1", 1, bot.id, time.time()) == bot.id
    assert await players.seat_of_player("t1", bot.id) == 1
    assert await bots.seats_at("t1") == frozenset({1})
    assert await bots.revoke(public) and await bots.by_token(token) is None
