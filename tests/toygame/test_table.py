"""The table service and the websocket run the test-only game through the registry alone:
a toy table is created, its bot and its people play it to the end, it is stored, rebuilt from
its log, recorded, replayed and listed in My games; nothing outside this folder names it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardroom.cards import parse_card
from cardroom.games.registry import Game
from cardroom.games.table import TableConfig
from cardroom.store import EventStore
from cardroom.tables import SeatSpec, TableError, TableService
from tests.tables.helpers import until
from tests.toygame import NAME, registered
from tests.toygame.bots import ToyBot
from tests.toygame.engine import ToyGame
from tests.toygame.rules import ToyRules
from tests.toygame.table import ToyTable
from tests.toygame.view import view_of
from tests.web.conftest import AutoPlayer, over, service_of, serving, settings_for


@pytest.fixture
def toy() -> Iterator[Game]:
    with registered() as entry:
        yield entry


@pytest.fixture
async def service(toy: Game, tmp_path: Path) -> AsyncIterator[TableService]:
    store = await EventStore.open(str(tmp_path / "tables.db"))
    svc = TableService(store)
    await svc.start()
    yield svc
    await svc.stop()
    await store.close()


def toy_config(seats: tuple[SeatSpec, ...], seed: int = 7, hand: int = 3) -> TableConfig[Any]:
    return TableConfig(
        game=NAME,
        rules=ToyRules(hand=hand),
        seats=seats,
        seed=seed,
        bot_delay=0.0,
        takeover_after=0.0,
    )


def tricks_of(plays: list[tuple[int, str]]) -> list[int]:
    """Tricks worked out from the plays alone: the higher rank takes (equal: the leader)."""
    tricks = [0, 0]
    for (lead_seat, lead), (other_seat, other) in zip(plays[::2], plays[1::2], strict=True):
        higher = parse_card(other).rank > parse_card(lead).rank
        tricks[other_seat if higher else lead_seat] += 1
    return tricks


async def test_a_toy_table_is_created_played_and_rebuilt_through_the_service(
    service: TableService,
) -> None:
    seats = (SeatSpec("person", name="Ann"), SeatSpec("bot", "hard"))
    created = await service.create(toy_config(seats))
    tid = created.table_id
    assert await service.game_of(tid) == NAME
    table = service.table(tid)
    assert isinstance(table, ToyTable)  # the registry's table piece, built by the service
    await until(lambda: table.status == "playing" and table.game is not None)
    bot = ToyBot()
    while table.status != "over":
        await until(lambda: table.status == "over" or getattr(table.turn(), "seat", None) == 0)
        if table.status == "over":
            break
        frame = table.frame(0)
        assert frame["round"]["legal"] == frame["round"]["hand"]  # Ann's turn: any card she holds
        with pytest.raises(TableError) as stale:  # a move on a state she has not seen
            await service.act(tid, 0, frame["round"]["hand"][0], table.seq - 1)
        assert stale.value.code == "stale"
        await service.act(tid, 0, frame["round"]["hand"][-1], table.seq)
    entries = await service.store.entries(tid)
    kinds = [e.kind for e in entries]
    assert kinds[:3] == ["created", "started", "round"] and kinds.count("action") == 6
    plays = [(e.data["seat"], e.data["action"]) for e in entries if e.kind == "action"]
    # the bot's cards are its own bot's choices on the deal the seed makes
    game = ToyGame(ToyRules(hand=3), 7)
    for seat, card in plays:
        if seat == 1:
            assert card == bot.act(view_of(game, 1), None).code  # type: ignore[arg-type]
        game.play(seat, parse_card(card))
    assert table.game is not None and table.game.tricks == tricks_of(plays) == game.tricks
    dealt = ToyGame(ToyRules(hand=3), 7).hands[0]
    assert sorted(c for s, c in plays if s == 0) == sorted(c.code for c in dealt)
    # the log rebuilds the same table; the record is the toy game's own
    rebuilt = ToyTable.replay(tid, entries)
    assert rebuilt.frame(None) == table.frame(None)  # events, hands, tricks and all
    [record] = await service.record(tid)
    assert record["game"] == NAME and record["plays"] == [[s, c] for s, c in plays]


async def test_two_people_play_a_toy_table_over_the_websocket_and_find_it_in_my_games(
    toy: Game, tmp_path: Path
) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        seats = (SeatSpec("person", name="Ann"), SeatSpec("person"))
        created = await service.create(toy_config(seats, seed=11, hand=4))
        tid = created.table_id
        async with httpx.AsyncClient(base_url=f"http://{address}") as bob_http:
            origin = {"origin": f"http://{address}"}
            me = await bob_http.post("/api/me", json={"name": "Bob"}, headers=origin)
            assert me.status_code == 200, me.text
            invite = await bob_http.get(f"/j/{tid}.{created.invites[1]}")
            assert invite.status_code == 303, invite.text  # Bob's player holds seat 1
            ann = AutoPlayer(address, tid, created.creator_token)
            bob = AutoPlayer(address, tid, created.invites[1])
            ann.first_legal = bob.first_legal = True
            bob.url += "&lang=fr"  # Bob reads the table in French
            bob.headers = {"cookie": "; ".join(f"{k}={v}" for k, v in bob_http.cookies.items())}
            await ann.connect()
            await bob.connect()
            await bob.send({"type": "join", "name": "Bob"})  # both seated: it starts
            final = await ann.wait_for(over)
            await bob.wait_for(over)
            entries = await app.state.store.entries(tid)
            record = (await bob_http.get(f"/t/{tid}/record")).json()
            frames = (await bob_http.get(f"/api/replay/{tid}")).json()
            mine = (await bob_http.get("/api/me/games")).json()
            # a game without an analysis piece is said to have none (not analysed as another's)
            analysed = await bob_http.post(f"/api/analysis/{tid}", headers=origin)
            uploaded = await bob_http.post(
                "/api/analysis/upload",
                content=json.dumps(record[0]),
                headers={**origin, "content-type": "application/json"},
            )
            await ann.close()
            await bob.close()
    plays = [(e.data["seat"], e.data["action"]) for e in entries if e.kind == "action"]
    assert all(e.data["by"] == "person" for e in entries if e.kind == "action")
    assert len(plays) == 8
    # each person played the first card of their sorted hand whenever it was their turn
    game = ToyGame(ToyRules(hand=4), 11)
    for seat, card in plays:
        assert card == sorted(c.code for c in game.hands[seat])[0]
        game.play(seat, parse_card(card))
    tricks = tricks_of(plays)
    assert final["round"]["tricks"] == tricks == game.tricks
    winner = None if tricks[0] == tricks[1] else int(tricks[1] > tricks[0])
    assert final["game_result"] == {"winner": winner}
    # each reads the events in their language, through the toy game's own words
    first_card = plays[0][1]
    ann_said = [e["text"] for f in ann.frames if f["type"] == "state" for e in f["events"]]
    bob_said = [e["text"] for f in bob.frames if f["type"] == "state" for e in f["events"]]
    assert f"Ann: {first_card}" in ann_said and f"Ann joue {first_card}" in bob_said
    assert "la partie est finie" in bob_said and "the game is over" in ann_said
    assert record[0]["game"] == NAME and [tuple(p) for p in record[0]["plays"]] == plays
    assert frames["game"] == NAME and frames["rounds"][0]["steps"][-1]["tricks"] == tricks
    [listed] = [g for g in mine["games"] if g["table"] == tid]
    assert listed["game"] == NAME and listed["seat"] == 1 and listed["status"] == "over"
    assert listed["result"].get("won") is (winner == 1)
    assert listed["replay"] == f"/replay/{tid}"
    for answer in (analysed, uploaded):
        assert answer.status_code == 404, answer.text
        assert answer.json()["id"] == "analysis.none"
        assert answer.json()["message"] == "this game has no analysis"
