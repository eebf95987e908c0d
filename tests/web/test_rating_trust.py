"""Ratings that mean what they say: one player holding two seats, a puppet that never played,
leaving and forfeits, a table whose counting fails, the lobby's typed name, the shown scale."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from cardroom.store import EventStore, LogEntry
from cardroom.store.events import tables_t
from cardroom.store.players import PlayerStore
from cardroom.store.ratings import rated_tables_t, rating_changes_t, ratings_t
from cardroom.web.identity import PLAYER_COOKIE
from cardroom.web.ratings import (
    BOT_RATINGS,
    MU,
    PROVISIONAL_GAMES,
    SIGMA,
    RatingKeeper,
    Seat,
    bot_rating,
    display,
    judge,
    leaderboard,
    mark_rated,
    outcomes,
    player_ratings,
    plays_like,
    rate,
)
from tests.web.conftest import app_of, browser


async def _finished(
    store: EventStore,
    table_id: str,
    game: str,
    seats: Sequence[tuple[str, str | None]],
    summary: dict[str, object],
    by: list[str],
    more: Sequence[tuple[str, dict[str, Any]]] = (),
) -> None:
    """A finished table: ``by`` lists actions as "<seat><person|bot>", ``more`` other entries."""
    await store.create_table(
        table_id,
        game,
        LogEntry(1, "created", {}, 1.0),
        "",
        True,
        [
            {"seat": g, "kind": kind, "name": f"s{g}", "level": level, "token_hash": None}
            for g, (kind, level) in enumerate(seats)
        ],
    )
    n = 2
    for who in by:
        await store.append(
            table_id, LogEntry(n, "action", {"seat": int(who[0]), "by": who[1:]}, 2.0)
        )
        n += 1
    for kind, data in more:
        await store.append(table_id, LogEntry(n, kind, data, 3.0))
        n += 1
    async with store.engine.begin() as conn:
        await conn.execute(
            tables_t.update()
            .where(tables_t.c.id == table_id)
            .values(status="over", summary=summary)
        )


async def _outcome(store: EventStore, table_id: str) -> str | None:
    async with store.engine.connect() as conn:
        row = (
            await conn.execute(
                sa.select(rated_tables_t.c.outcome).where(rated_tables_t.c.table_id == table_id)
            )
        ).first()
    assert row is not None
    return str(row.outcome) if row.outcome is not None else None


PEOPLE: list[tuple[str, str | None]] = [("person", None), ("person", None)]


async def test_self_play_is_void_and_never_stops_the_keeper(tmp_path: Path) -> None:
    """Issue 30 item 2: one player at both seats of a rated Speed table. The old keeper raised
    IntegrityError (UNIQUE ratings.player_id, ratings.game) on it every pass and, stopping at
    the first failing table, never counted a later one."""
    store = await EventStore.open(str(tmp_path / "r.db"))
    players = PlayerStore(store)
    try:
        ann, _ = await players.create("Ann", 1.0)
        bob, _ = await players.create("Bob", 1.0)
        await _finished(store, "self", "speed", PEOPLE, {"winner": 0}, ["0person", "1person"])
        for seat in (0, 1):
            await players.claim("self", seat, ann.id, 1.0)
        await _finished(store, "fair", "speed", PEOPLE, {"winner": 1}, ["0person", "1person"])
        await players.claim("fair", 0, ann.id, 1.0)
        await players.claim("fair", 1, bob.id, 1.0)
        await mark_rated(store, "self", "speed")
        await mark_rated(store, "fair", "speed")
        keeper = RatingKeeper(store)
        assert await keeper.count_due() == 1  # "fair" is counted, "self" is void
        assert await _outcome(store, "self") == "same-player"
        assert await _outcome(store, "fair") == "rated"
        # only the fair game moved Ann's rating: one game, a loss to a newcomer
        mine = (await player_ratings(store, ann.id))["speed"]
        want = rate([(MU, SIGMA), (MU, SIGMA)], [2, 1])[0]
        assert mine["games"] == 1 and mine["rating"] == display(want[0])
        assert set(mine["changes"]) == {"fair"}
        assert await keeper.count_due() == 0
    finally:
        await store.close()


async def test_a_failing_table_is_logged_once_marked_and_skipped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await EventStore.open(str(tmp_path / "r.db"))
    players = PlayerStore(store)
    try:
        ann, _ = await players.create("Ann", 1.0)
        bob, _ = await players.create("Bob", 1.0)
        # chips that are not numbers: counting this table raises
        await _finished(
            store, "bad", "nain-jaune", PEOPLE, {"chips": ["x", "y"]}, ["0person", "1person"]
        )
        await _finished(store, "good", "speed", PEOPLE, {"winner": 0}, ["0person", "1person"])
        for table in ("bad", "good"):
            await players.claim(table, 0, ann.id, 1.0)
            await players.claim(table, 1, bob.id, 1.0)
        await mark_rated(store, "bad", "nain-jaune")
        await mark_rated(store, "good", "speed")
        keeper = RatingKeeper(store)
        with caplog.at_level(logging.ERROR, logger="cardroom.web.ratings"):
            assert await keeper.count_due() == 1
            assert await keeper.count_due() == 0
        assert len([r for r in caplog.records if "bad" in r.getMessage()]) == 1
        assert await _outcome(store, "bad") == "failed"
        assert (await player_ratings(store, bob.id))["speed"]["games"] == 1
    finally:
        await store.close()


async def test_ten_puppet_wins_do_not_move_a_rating(tmp_path: Path) -> None:
    """Issue 30 item 4: a puppet player joins a rated Speed table and never plays; the farmer
    wins alone. Before: each game was a rated win (3.44 -> 11.24 after four)."""
    store = await EventStore.open(str(tmp_path / "r.db"))
    players = PlayerStore(store)
    try:
        farmer, _ = await players.create("Farmer", 1.0)
        puppet, _ = await players.create("Puppet", 1.0)
        keeper = RatingKeeper(store)
        for n in range(10):
            table = f"farm{n}"
            await _finished(store, table, "speed", PEOPLE, {"winner": 0}, ["0person"] * 30)
            await players.claim(table, 0, farmer.id, 1.0)
            await players.claim(table, 1, puppet.id, 1.0)
            await mark_rated(store, table, "speed")
            assert await keeper.count_due() == 0
            assert await _outcome(store, table) == "never-acted"
        assert await player_ratings(store, farmer.id) == {}  # still a newcomer: 1500
        assert await player_ratings(store, puppet.id) == {}
    finally:
        await store.close()


async def test_leaving_or_forfeiting_is_a_loss_and_the_others_still_count(tmp_path: Path) -> None:
    store = await EventStore.open(str(tmp_path / "r.db"))
    players = PlayerStore(store)
    try:
        ann, _ = await players.create("Ann", 1.0)
        bob, _ = await players.create("Bob", 1.0)
        cat, _ = await players.create("Cat", 1.0)
        keeper = RatingKeeper(store)
        # Nain Jaune: Ann had the most chips but left (a bot finished her seat): she lost;
        # Bob (30) ranks above Cat (20); before, her leaving did not count for anyone's result
        await _finished(
            store,
            "nj",
            "nain-jaune",
            [*PEOPLE, ("person", None)],
            {"chips": [50, 30, 20]},
            ["0person", "1person", "2person", "0bot", "0bot"],
            [("left", {"seat": 0, "level": "medium"})],
        )
        for seat, who in enumerate((ann, bob, cat)):
            await players.claim("nj", seat, who.id, 1.0)
        await mark_rated(store, "nj", "nain-jaune")
        assert await keeper.count_due() == 1
        want = rate([(MU, SIGMA)] * 3, [3, 1, 2])
        got = {p.name: await player_ratings(store, p.id) for p in (ann, bob, cat)}
        for name, w in zip(("Ann", "Bob", "Cat"), want, strict=True):
            assert got[name]["nain-jaune"]["rating"] == display(w[0])
        assert got["Ann"]["nain-jaune"]["rating"] < 1500 < got["Bob"]["nain-jaune"]["rating"]
        # Speed: Bob away past the limit while a bot played most of his decisions, and the
        # bot even won: he lost, and Ann's win counts (before: void for both)
        await _finished(
            store,
            "sp",
            "speed",
            PEOPLE,
            {"winner": 1},
            ["0person"] * 5 + ["1person"] + ["1bot"] * 4,
        )
        await players.claim("sp", 0, ann.id, 1.0)
        await players.claim("sp", 1, bob.id, 1.0)
        await mark_rated(store, "sp", "speed")
        # Spit: Cat forfeited (away past the limit): Bob won
        await _finished(
            store,
            "spit",
            "spit",
            PEOPLE,
            {"winner": 0},
            ["0person", "1person"],
            [("over", {"t": 4.0, "reason": "forfeit", "seat": 1})],
        )
        await players.claim("spit", 0, bob.id, 1.0)
        await players.claim("spit", 1, cat.id, 1.0)
        await mark_rated(store, "spit", "spit")
        assert await keeper.count_due() == 2
        won, lost = rate([(MU, SIGMA), (MU, SIGMA)], [1, 2])
        assert (await player_ratings(store, ann.id))["speed"]["rating"] == display(won[0])
        assert (await player_ratings(store, bob.id))["speed"]["rating"] == display(lost[0])
        assert (await player_ratings(store, bob.id))["spit"]["rating"] == display(won[0])
        assert (await player_ratings(store, cat.id))["spit"]["rating"] == display(lost[0])
    finally:
        await store.close()


def test_judge_says_why_a_game_is_void() -> None:
    ann, bob = Seat("person", None, "a", acted=True), Seat("person", None, "b", acted=True)
    bot = Seat("bot", "medium")
    assert judge([ann, ann], [1, 2]) == "same-player"
    assert judge([ann, Seat("person", None, "b")], [1, 2]) == "never-acted"
    assert judge([ann, Seat("person", None, None, acted=True)], [1, 2]) == "no-player"
    # a seat nobody took (a bot filled it at the start) takes no part; alone, nobody to play
    empty = Seat("person")
    assert judge([ann, empty], [1, 2]) == "no-opponent"
    result = judge([ann, empty, Seat("bot", "hard")], [3, 1, 2])
    assert not isinstance(result, str) and [(r.seat, r.rank) for r in result] == [(0, 2), (2, 1)]
    assert judge([ann, bob], None) == "no-result"
    # a person against a bot is rated (the bot at its fixed rating)
    result = judge([ann, bot], [2, 1])
    assert not isinstance(result, str) and [r.rank for r in result] == [2, 1]
    # gone people rank below everyone who stayed, ties among the stayers kept
    gone = Seat("person", None, "c", acted=True, gone=True)
    result = judge([gone, ann, bob, bot], [1, 2, 2, 4])
    assert not isinstance(result, str) and [r.rank for r in result] == [4, 1, 1, 3]


def test_a_rating_reads_on_a_familiar_scale() -> None:
    """Issue 30 item 9: a newcomer read 0.0 (mu - 3 sigma) and went negative after one close
    loss; "you play like the easy bot" was said at -3.8 beside an easy bot shown at 9.8."""
    assert display(MU) == 1500
    after_loss = rate([(MU, SIGMA), (MU, SIGMA)], [2, 1])[0]
    assert 1300 < display(after_loss[0]) < 1500  # one loss: 1374, never negative
    assert display(-1000.0) == 100
    # bots on the same scale: 1500 + 48 (mu - 25)
    assert bot_rating("nain-jaune", "hard") == round(1500 + 48 * (23.66 - 25))
    assert bot_rating("speed", "medium") == 1282
    # "plays like" only once the rating is no longer provisional, on the shown scale
    assert plays_like("speed", MU, PROVISIONAL_GAMES - 1) is None
    mu = 26.0  # shown 1548: 144 from the hard bot (1692), 266 from the medium one (1282)
    assert plays_like("speed", mu, PROVISIONAL_GAMES) == "hard"
    assert plays_like("speed", BOT_RATINGS["speed"]["medium"][0] + 1, 50) == "medium"


async def test_the_leaderboard_lists_settled_ratings_on_the_shown_scale(tmp_path: Path) -> None:
    store = await EventStore.open(str(tmp_path / "r.db"))
    players = PlayerStore(store)
    try:
        ann, _ = await players.create("Ann", 1.0)
        bob, _ = await players.create("Bob", 1.0)
        async with store.engine.begin() as conn:
            await conn.execute(
                ratings_t.insert(),
                [
                    {"player_id": ann.id, "game": "speed", "mu": 30.0, "sigma": 6.0, "games": 12},
                    {"player_id": bob.id, "game": "speed", "mu": 40.0, "sigma": 7.0, "games": 3},
                ],
            )
        board = await leaderboard(store, "speed")
        people = [e for e in board if e["name"]]
        assert [(e["name"], e["rating"], e["provisional"]) for e in people] == [
            ("Ann", 1740, False)
        ]
        assert [e["rating"] for e in board] == sorted((e["rating"] for e in board), reverse=True)
        mine = (await player_ratings(store, bob.id))["speed"]
        assert mine["rating"] == 2220 and mine["provisional"]
    finally:
        await store.close()


# -- over HTTP --------------------------------------------------------------------------------


def _invite(made: dict[str, Any]) -> str:
    return str(made["invites"][0]["url"])


def test_opening_my_own_invite_of_a_rated_table_is_refused_in_words(client: TestClient) -> None:
    """Issue 30 item 2: the creator opened their own invite (303) and held both seats."""
    named = client.post("/api/me", json={"name": "Ann"})
    assert named.status_code == 200
    made = client.post(
        "/api/tables",
        json={
            "name": "Ann",
            "game": "speed",
            "rated": True,
            "seats": [{"kind": "person"}, {"kind": "person"}],
        },
    ).json()
    refused = client.get(_invite(made), follow_redirects=False, headers={"accept-language": "fr"})
    assert refused.status_code == 409
    assert "table classée" in refused.text and "deux de ses places" in refused.text
    app, portal = app_of(client), client.portal
    assert portal is not None
    assert portal.call(app.state.players.claim_of, made["table"], 1) is None
    # the friend it was meant for takes the seat
    with browser(client) as friend:
        joined = friend.get(_invite(made), follow_redirects=False)
        assert joined.status_code == 303
    # a friendly table lets one person play both seats as before
    friendly = client.post(
        "/api/tables",
        json={"name": "Ann", "game": "speed", "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()
    assert client.get(_invite(friendly), follow_redirects=False).status_code == 303


def test_a_fresh_browser_creating_a_rated_table_gets_a_player(client: TestClient) -> None:
    """Issue 30 item 3: a name typed in the lobby made no player: the creator's seat had no
    player, and the game was rated for nobody."""
    made = client.post(
        "/api/tables",
        json={
            "name": "Zoé",
            "game": "speed",
            "rated": True,
            "seats": [{"kind": "person"}, {"kind": "person"}],
        },
    )
    assert made.status_code == 201 and PLAYER_COOKIE in made.cookies
    me = client.get("/api/me").json()["player"]
    assert me["name"] == "Zoé"
    app, portal = app_of(client), client.portal
    assert portal is not None
    table = made.json()["table"]
    claim = portal.call(app.state.players.claim_of, table, 0)
    assert claim is not None and claim.player_id == me["id"]
    # a friendly table from a fresh browser still makes no player
    with browser(client) as other:
        friendly = other.post("/api/tables", json={"name": "Yann", "game": "speed"})
        assert friendly.status_code == 201 and PLAYER_COOKIE not in friendly.cookies


def test_a_rated_seat_cannot_be_handed_to_a_bot(client: TestClient) -> None:
    """Issue 30 item 4: the creator handing the opponent's seat to a bot voided the game."""
    client.post("/api/me", json={"name": "Ann"})
    made = client.post(
        "/api/tables",
        json={
            "name": "Ann",
            "game": "speed",
            "rated": True,
            "seats": [{"kind": "person"}, {"kind": "person"}],
        },
    ).json()
    table = made["table"]
    origin = {"origin": str(client.base_url), "accept-language": "cy"}
    refused = client.post(f"/api/tables/{table}/seats/1/bot", json={}, headers=origin)
    assert refused.status_code == 403
    assert "i fot" in refused.json()["message"] and "sgorio" in refused.json()["message"]
    friendly = client.post(
        "/api/tables",
        json={"name": "Ann", "game": "speed", "seats": [{"kind": "person"}, {"kind": "person"}]},
    ).json()
    given = client.post(f"/api/tables/{friendly['table']}/seats/1/bot", json={}, headers=origin)
    assert given.status_code == 200


def test_a_copied_token_of_the_other_seat_is_refused_on_the_websocket(client: TestClient) -> None:
    """The same attack without the invitation page: the creator opens the table's websocket
    with the token of the seat meant for the friend."""
    client.post("/api/me", json={"name": "Ann"})
    made = client.post(
        "/api/tables",
        json={
            "name": "Ann",
            "game": "speed",
            "rated": True,
            "seats": [{"kind": "person"}, {"kind": "person"}],
        },
    ).json()
    token = _invite(made).split(".", 1)[1]
    with client.websocket_connect(f"/ws/{made['table']}?token={token}") as ws:
        frame = ws.receive_json()
    assert frame["type"] == "error" and "two of its seats" in frame["message"]
    app, portal = app_of(client), client.portal
    assert portal is not None
    assert portal.call(app.state.players.claim_of, made["table"], 1) is None


def test_the_end_screen_says_why_a_rated_game_did_not_count(client: TestClient) -> None:
    """The end screen asks ``/api/tables/<id>/rating``: the change, or the reason in words."""
    app, portal = app_of(client), client.portal
    assert portal is not None
    me = client.post("/api/me", json={"name": "Ann"}).json()["player"]
    with browser(client) as other:
        bob = other.post("/api/me", json={"name": "Bob"}).json()["player"]
    store = app.state.store
    players = app.state.players

    async def finish(table: str, bob_plays: bool) -> None:
        by = ["0person", "1person"] if bob_plays else ["0person"]
        await _finished(store, table, "speed", PEOPLE, {"winner": 0}, by)
        await players.claim(table, 0, me["id"], 1.0)
        await players.claim(table, 1, bob["id"], 1.0)
        await mark_rated(store, table, "speed")

    portal.call(finish, "puppet1", False)
    portal.call(finish, "fair1", True)
    waiting = client.get("/api/tables/puppet1/rating").json()
    assert waiting == {"rated": True, "counted": False, "unrated": None, "rating": None}
    portal.call(RatingKeeper(store).count_due)
    void = client.get("/api/tables/puppet1/rating", headers={"accept-language": "fr"}).json()
    assert (
        void["counted"]
        and void["unrated"] == "non classée : une personne n’a jamais joué à sa place"
    )
    fair = client.get("/api/tables/fair1/rating").json()
    won = rate([(MU, SIGMA), (MU, SIGMA)], [1, 2])[0]
    assert fair["unrated"] is None and fair["rating"] == [1500, display(won[0])]
    # My games says the same
    rows = {g["table"]: g for g in client.get("/api/me/games").json()["games"]}
    assert rows["puppet1"]["rated"] and rows["puppet1"]["rating"] is None
    assert rows["puppet1"]["unrated"] == "not rated: a person never played their seat"
    assert rows["fair1"]["unrated"] is None and rows["fair1"]["rating"] == fair["rating"]


async def test_ratings_counted_before_the_shown_scale_still_read(tmp_path: Path) -> None:
    """A rating and a change counted before migration 0006 (no mu kept with the change, no
    outcome): the rating reads on the new scale, the change is left out, nothing is void."""
    store = await EventStore.open(str(tmp_path / "r.db"))
    players = PlayerStore(store)
    try:
        ann, _ = await players.create("Ann", 1.0)
        async with store.engine.begin() as conn:
            await conn.execute(
                ratings_t.insert().values(
                    player_id=ann.id, game="speed", mu=27.6354, sigma=8.0659, games=1
                )
            )
            await conn.execute(
                rating_changes_t.insert().values(
                    table_id="old", player_id=ann.id, game="speed", before=0.0, after=3.44, at=1.0
                )
            )
            await conn.execute(
                rated_tables_t.insert().values(table_id="old", game="speed", counted=True)
            )
        mine = (await player_ratings(store, ann.id))["speed"]
        assert mine["rating"] == 1626  # 1500 + 48 x 2.6354 = 1626.499
        assert mine["provisional"] and mine["changes"] == {}
        assert await outcomes(store, ["old"]) == {"old": None}
    finally:
        await store.close()
