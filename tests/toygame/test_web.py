"""The web half of the proof: the test-only game's finished table is listed in My games (with
its figures) and its replay page and frames are served, through the registry alone: no module
outside this folder names the game (``test_toygame.py`` checks that)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.cards import parse_card
from cardroom.games.registry import Game
from cardroom.games.table import LogEntry
from cardroom.web import create_app
from tests.toygame import NAME, registered
from tests.toygame.engine import ToyGame
from tests.toygame.record import to_record
from tests.toygame.rules import ToyRules
from tests.web.conftest import app_of, service_of, settings_for

ORIGIN = {"origin": "http://testserver"}
TABLE = "ToyTab01"


@pytest.fixture
def toy() -> Iterator[Game]:
    with registered() as entry:
        yield entry


@pytest.fixture
def client(toy: Game, tmp_path: Any) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path))) as test_client:
        yield test_client


def played(seed: int = 3, hand: int = 2) -> ToyGame:
    """A whole game, seat 0 always leading its highest card and seat 1 its lowest."""
    game = ToyGame(ToyRules(hand=hand), seed)
    while not game.over:
        seat = game.turn
        assert seat is not None
        cards = sorted(game.hands[seat], key=lambda c: c.rank)
        game.play(seat, cards[-1] if seat == 0 else cards[0])
    return game


def stored_finished_table(client: TestClient, player_id: str, winner: int | None) -> None:
    """A finished toy table written straight through the store (its seats, its one log entry,
    its result) and seat 0 claimed by ``player_id``: what the table service leaves behind."""
    store = service_of(app_of(client)).store
    players = app_of(client).state.players
    now = time.time()
    seats = [
        {"seat": 0, "kind": "person", "name": "Ann", "joined": True},
        {"seat": 1, "kind": "bot", "level": "easy", "name": "Bot 2", "joined": True},
    ]

    async def write() -> None:
        created = LogEntry(1, "created", {"game": NAME, "seed": 3, "rules": {"hand": 2}}, now)
        await store.create_table(TABLE, NAME, created, "", False, seats)
        await store.update_table(TABLE, {"status": "over", "summary": {"winner": winner}})
        await players.claim(TABLE, 0, player_id, now)

    portal = client.portal
    assert portal is not None
    portal.call(write)


def test_a_finished_toy_table_is_listed_in_my_games_and_its_replay_page_serves(
    client: TestClient,
) -> None:
    me = client.post("/api/me", json={"name": "Ann"}, headers=ORIGIN)
    assert me.status_code == 200, me.text
    stored_finished_table(client, me.json()["player"]["id"], winner=0)

    mine = client.get("/api/me/games")
    assert mine.status_code == 200, mine.text
    [listed] = mine.json()["games"]
    assert listed["table"] == TABLE and listed["game"] == NAME and listed["seat"] == 0
    assert listed["people"] == ["Ann", "Bot 2"] and listed["status"] == "over"
    assert listed["result"]["won"] is True
    assert listed["replay"] == f"/replay/{TABLE}"
    # its figures: one game, won (a game with no figures of its own is counted from its result)
    assert mine.json()["stats"][NAME] == {"games": 1, "won": 1}

    page = client.get(listed["replay"])
    assert page.status_code == 200 and 'id="viewer"' in page.text
    # and the games the pages know include it, by the registry's words
    assert {"name": NAME, "title": "Higher card"}.items() <= next(
        g for g in client.get("/api/games").json()["games"] if g["name"] == NAME
    ).items()


def test_a_toy_record_is_replayed_by_its_own_web_face(client: TestClient) -> None:
    game = played()
    frames = client.post("/api/replay", json=to_record(game), headers=ORIGIN)
    assert frames.status_code == 200, frames.text
    body = frames.json()
    assert body["game"] == NAME and body["pages"] == 1
    [rnd] = body["rounds"]
    steps = rnd["steps"]
    assert len(steps) == 1 + len(game.played)  # the deal, then one step per card
    # worked out from the plays: a trick goes to the higher rank (equal: the leader)
    tricks, plays = [0, 0], [(s, parse_card(c)) for s, c in to_record(game)["plays"]]
    for (lead_seat, lead), (other_seat, other) in zip(plays[::2], plays[1::2], strict=True):
        tricks[other_seat if other.rank > lead.rank else lead_seat] += 1
    assert steps[-1]["tricks"] == tricks and steps[-1]["hands"] == [[], []]


def test_a_bad_toy_record_is_refused_in_words(client: TestClient) -> None:
    record = to_record(played())
    record["plays"][0] = [1, record["plays"][0][1]]  # seat 1 plays first: not its turn
    answer = client.post("/api/replay", json=record, headers=ORIGIN)
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad-record" and "play 1" in answer.json()["message"]
