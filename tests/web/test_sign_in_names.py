"""Sign-in names are unique per server, folded alike in Python and in every database; no
stranger locks the owner out; a player lists and revokes the browsers holding a key to them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import create_async_engine
from starlette.websockets import WebSocketDisconnect

from cardroom.store import EventStore, PlayerError
from cardroom.store.migrate import config
from cardroom.store.players import PlayerStore, fold_name
from cardroom.store.ratings import ratings_t
from cardroom.web import create_app
from cardroom.web.ratings import leaderboard
from tests.web.conftest import browser, settings_for
from tests.web.test_players import ORIGIN, create, first_state, name

RIGHT = "correct horse"


@contextmanager
def from_address(client: TestClient, host: str) -> Iterator[TestClient]:
    """Another browser on ``client``'s running app, at another address."""
    other = TestClient(client.app, client=(host, 50000))
    other.portal = client.portal
    yield other


def protect(client: TestClient, who: str) -> dict[str, object]:
    player = name(client, who)
    done = client.post("/api/me/password", json={"password": RIGHT}, headers=ORIGIN)
    assert done.status_code == 200, done.text
    return player


def sign_in(client: TestClient, who: str, password: str = RIGHT) -> int:
    answer = client.post("/api/signin", json={"name": who, "password": password}, headers=ORIGIN)
    return int(answer.status_code)


def test_names_fold_alike() -> None:
    assert fold_name("ÉLODIE") == fold_name("élodie") == fold_name("E\u0301lodie")
    assert fold_name("Straße") == fold_name("STRASSE")
    assert fold_name("ﬁona") == fold_name("FIONA")  # a ligature (NFKC)


def test_elodie_signs_in_on_sqlite_however_her_name_is_typed(client: TestClient) -> None:
    me = protect(client, "Élodie")
    for typed in ("Élodie", "élodie", "ÉLODIE", "E\u0301lodie"):
        with browser(client) as other:
            assert sign_in(other, typed) == 200, typed
            assert other.get("/api/me").json()["player"]["id"] == me["id"]


def test_a_name_too_long_folded_is_refused_in_words(client: TestClient) -> None:
    long = "\ufdfa" * 6  # 6 characters, 108 folded
    assert len(fold_name(long)) > 96
    name(client, "Ann")
    client.post("/api/me/password", json={"password": RIGHT}, headers=ORIGIN)
    refused = client.post("/api/me", json={"name": long}, headers=ORIGIN)
    assert refused.status_code == 400 and "1 to 24 characters" in refused.json()["message"]
    assert sign_in(client, long, "wrong horse") == 401
    assert client.get("/api/me").json()["player"]["name"] == "Ann"


def test_squatters_cannot_take_a_protected_name(client: TestClient) -> None:
    victoria = protect(client, "Victoria")
    for n in range(5):
        with browser(client) as squatter:
            name(squatter, f"squatter {n}")
            renamed = squatter.post("/api/me", json={"name": "victoria"}, headers=ORIGIN)
            assert renamed.status_code == 409, renamed.text
            assert "another player signs in with this name" in renamed.json()["message"]
            squatter.post("/api/me", json={"name": "VICTORIA"}, headers=ORIGIN)
            assert squatter.get("/api/me").json()["player"]["name"] == f"squatter {n}"
    with browser(client) as laptop:
        assert sign_in(laptop, "victoria") == 200
        assert laptop.get("/api/me").json()["player"]["id"] == victoria["id"]


def test_a_second_player_of_a_name_must_choose_another_to_set_a_password(
    client: TestClient,
) -> None:
    with browser(client) as first, browser(client) as second:
        name(first, "Ann")
        name(second, "ANN")  # nobody signs in as Ann yet: a display name only
        protect(first, "Ann")
        refused = second.post("/api/me/password", json={"password": RIGHT}, headers=ORIGIN)
        assert refused.status_code == 409
        french = {**ORIGIN, "accept-language": "fr"}
        fr = second.post("/api/me/password", json={"password": RIGHT}, headers=french)
        assert fr.json()["message"] != refused.json()["message"]
        name(second, "Ann Two")
        assert second.post("/api/me/password", json={"password": RIGHT}, headers=ORIGIN).json()[
            "player"
        ]["signs_in"]
        # the first, renamed, signs in under the new name; the old one is free again
        name(first, "Annie")
        with browser(client) as other:
            assert sign_in(other, "annie") == 200
            assert sign_in(other, "ann") == 401


def test_a_stranger_cannot_lock_the_owner_out(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, sign_ins_per_minute=100, wrong_passwords_per_name=8)
    with TestClient(create_app(settings)) as client:
        protect(client, "Ann")
        for host in ("10.0.0.66", "10.0.0.67", "10.0.0.68"):
            with from_address(client, host) as eve:
                codes = [sign_in(eve, "ann", "wrong horse") for _ in range(6)]
                # a few a minute from one address, then it waits: the back-off
                assert codes == [401] * 5 + [429], codes
                locked = eve.post(
                    "/api/signin", json={"name": "ann", "password": RIGHT}, headers=ORIGIN
                )
                assert locked.status_code == 429 and 1 <= int(locked.headers["retry-after"]) <= 60
        # Ann on her phone (another address) signs in
        with from_address(client, "10.0.0.7") as phone:
            assert sign_in(phone, "Ann") == 200


def test_the_owners_own_browser_is_never_locked_out(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, sign_ins_per_minute=100, wrong_passwords_per_name=1)
    with TestClient(create_app(settings)) as client:
        protect(client, "Ann")
        codes = []
        for n in range(12):  # many addresses: the name's bound over every address (10) is met
            with from_address(client, f"10.0.1.{n}") as eve:
                codes.append(sign_in(eve, "ann", "wrong horse"))
        assert codes == [401] * 10 + [429, 429], codes
        # her own browser holds a key of the player of this name: it still signs in
        assert sign_in(client, "Ann") == 200
        assert client.get("/api/me").json()["player"]["name"] == "Ann"


def test_a_player_lists_and_revokes_the_browsers_holding_a_key(client: TestClient) -> None:
    me = protect(client, "Ann")
    with browser(client) as phone, browser(client) as lost:
        phone.headers["user-agent"] = "Phone browser 1.0"
        assert sign_in(phone, "ann") == 200
        assert sign_in(lost, "ann") == 200
        keys = client.get("/api/me/keys").json()["keys"]
        assert len(keys) == 3 and [k["current"] for k in keys] == [True, False, False]
        assert [k["how"] for k in keys] == ["new", "password", "password"]
        assert keys[1]["agent"] == "Phone browser 1.0"
        assert all(k["created_at"] > 0 and k["last_used"] for k in keys)
        assert "key_hash" not in keys[0] and all(len(k["id"]) == 16 for k in keys)
        lost_id = keys[2]["id"]
        forged = client.post(
            "/api/me/keys/revoke", json={"key": lost_id}, headers={"origin": "http://evil.example"}
        )
        assert forged.status_code == 403
        # another player cannot revoke Ann's keys
        with browser(client) as eve:
            name(eve, "Eve")
            other = eve.post("/api/me/keys/revoke", json={"key": lost_id}, headers=ORIGIN)
            assert other.status_code == 404
        assert lost.get("/api/me").json()["player"]["id"] == me["id"]
        made = create(client, players=2, seats=[{"kind": "person"}, {"kind": "person"}])
        table = made["table"]
        with lost.websocket_connect(f"/ws/{table}") as ws:  # the lost device at Ann's table
            assert first_state(ws)["you"] == 0
            done = client.post("/api/me/keys/revoke", json={"key": lost_id}, headers=ORIGIN)
            assert done.status_code == 200 and len(done.json()["keys"]) == 2
            with pytest.raises(WebSocketDisconnect):  # its page at the table is closed
                while True:
                    ws.receive_json()
        assert lost.get("/api/me").json()["player"] is None  # the lost device lost the player
        with lost.websocket_connect(f"/ws/{table}") as ws:
            assert first_state(ws)["you"] is None  # and its seat: it only watches now
        assert phone.get("/api/me").json()["player"]["id"] == me["id"]


def test_the_player_page_lists_the_keys(client: TestClient) -> None:
    assert 'id="keys-box"' in client.get("/me").text


async def test_an_old_database_keeps_the_oldest_of_a_name_for_sign_in(tmp_path: Path) -> None:
    await old_names_upgrade(f"sqlite+aiosqlite:///{tmp_path / 'old.db'}")


async def old_names_upgrade(url: str) -> None:
    """A database at 0004 with three players of one folded name (two with a password) is
    upgraded: the oldest with a password signs in with it, the younger one must rename."""
    engine = create_async_engine(url)
    digest = PasswordHasher().hash(RIGHT)

    def at_0004(conn: sa.Connection) -> None:
        cfg = config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0004")
        for pid, who, at, pw in (
            ("p-young", "ÉLODIE", 2.0, digest),
            ("p-old", "Élodie", 1.0, digest),
            ("p-none", "elodie", 0.5, None),
        ):
            conn.execute(
                sa.text(
                    "INSERT INTO players (id, name, created_at, password_hash) "
                    "VALUES (:id, :name, :at, :pw)"
                ),
                {"id": pid, "name": who, "at": at, "pw": pw},
            )

    try:
        async with engine.begin() as conn:
            await conn.run_sync(at_0004)
    finally:
        await engine.dispose()
    store = await EventStore.open(url)
    try:
        players = PlayerStore(store)
        signed, _key = await players.sign_in("élodie", RIGHT, 3.0)
        assert signed.id == "p-old" and signed.signs_in
        young = await players.get("p-young")
        assert young is not None and young.protected and not young.signs_in
        with pytest.raises(PlayerError, match="signs in with this name"):
            await players.set_password("p-young", RIGHT)
        with pytest.raises(PlayerError, match="signs in with this name"):
            await players.rename("p-none", "ÉLODIE")
        await players.rename("p-young", "Elodie B")
        assert (await players.sign_in("elodie b", RIGHT, 4.0))[0].id == "p-young"
        # look-alike names on a leaderboard are told apart by their tags
        async with store.engine.begin() as conn:
            for pid in ("p-old", "p-young"):
                await conn.execute(
                    ratings_t.insert().values(
                        player_id=pid, game="speed", mu=25.0, sigma=2.0, games=9
                    )
                )
        board = [e for e in await leaderboard(store, "speed", min_games=1) if e["name"]]
        assert len({e["tag"] for e in board}) == 2
    finally:
        await store.close()
