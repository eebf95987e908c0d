"""The bounds that matter hold across server processes (issue 19): two apps sharing one database
(as ``--workers 2`` or two servers behind a proxy) see the same counts of tables made, replays,
analyses and hints per client. SQLite here; PostgreSQL in ``tests/scale/test_shared_bounds_pg.py``.
"""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.store import EventStore
from cardroom.store.bounds import BoundStore
from cardroom.web import Settings, create_app
from cardroom.web.limits import Limits
from tests.web.conftest import app_of
from tests.web.test_replay_frames import sweep_record
from tests.web.test_replay_realtime import record as realtime_record

JSON_TYPE = {"Content-Type": "application/json"}


def two_apps_share_their_bounds(url: str, folder: Path) -> None:
    """Tables, replays and analyses asked alternately of two apps on ``url`` are counted
    together: the bound of one client holds over both."""
    settings = Settings(
        db_url=url,
        bot_delay=0.0,
        templates_dir=folder / "no-templates",
        tables_per_minute=3,
        replays_per_minute=2,
        analyses_per_hour=1,
    )
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        bad = [  # refused for what they ask: not counted
            client.post("/api/tables", json={"name": "Ann", "players": 99}) for client in (a, b)
        ]
        assert [r.status_code for r in bad] == [400, 400]
        made = [
            client.post("/api/tables", json={"name": "Ann", "players": 2})
            for client in (a, b, a, b, a)
        ]
        assert [m.status_code for m in made] == [201, 201, 201, 429, 429]
        assert made[3].json()["message"] == (
            "you have made 3 tables in the last minute: wait a moment"
        )
        assert made[3].json()["id"] == "bounds.tables-per-minute"
        assert 1 <= int(made[3].headers["retry-after"]) <= 60
        one_round = json.dumps(sweep_record()).encode()
        replayed = [
            client.post("/api/replay", content=one_round, headers=JSON_TYPE) for client in (b, a, b)
        ]
        assert [r.status_code for r in replayed] == [200, 200, 429]
        assert replayed[2].json()["message"] == (
            "you have replayed 2 records in the last minute: wait a moment"
        )
        first = a.post("/api/analysis/upload", json=realtime_record("speed", 3))
        assert first.status_code == 200 and first.json()["state"] == "done"
        other = b.post(
            "/api/analysis/upload?lang=fr", json=realtime_record("speed", 4)
        )  # another record, the other process
        assert other.status_code == 429 and other.json()["id"] == "bounds.analyses-per-hour"
        assert other.json()["message"] == (
            "vous avez demandé 1 analyse dans la dernière heure : patientez un peu"
        )
        assert 3000 < int(other.headers["retry-after"]) <= 3600
        # the first one is kept, read by either process without counting again
        again = b.post("/api/analysis/upload", json=realtime_record("speed", 3))
        assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
        assert b.get(f"/api/analysis/{first.json()['id']}").json()["state"] == "done"


def test_two_apps_on_one_sqlite_file_share_the_bounds_of_a_client(tmp_path: Path) -> None:
    two_apps_share_their_bounds(f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}", tmp_path)


async def hints_are_counted_once_over_two_stores(url: str) -> None:
    """Twenty hints asked at once through two stores of one database: exactly the bound
    (10 a minute) are allowed, the others are told when to ask again."""
    stores = [await EventStore.open(url), await EventStore.open(url)]
    try:
        limits = [Limits(Settings(db_url=url)) for _ in stores]
        for limit, store in zip(limits, stores, strict=True):
            limit.shared = BoundStore(store)
        waits = await asyncio.gather(
            *(limits[i % 2].take(limits[i % 2].hints, "t1/0") for i in range(20))
        )
        assert sum(w == 0 for w in waits) == 10
        assert all(0 < w <= 60 for w in waits if w)
        other_seat = await limits[1].take(limits[1].hints, "t1/1")
        assert other_seat == 0  # a seat's count is its own
        counted: Any = await BoundStore(stores[0]).count("hints:t1/0", 60)
        assert counted == 10
    finally:
        for store in stores:
            await store.close()


async def test_hints_of_one_seat_are_bounded_over_two_processes_sqlite(tmp_path: Path) -> None:
    await hints_are_counted_once_over_two_stores(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}")


async def test_a_window_forgets_what_is_older_than_it(tmp_path: Path) -> None:
    store = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'w.db'}")
    now = [1000.0]
    bounds = BoundStore(store, clock=lambda: now[0])
    try:
        assert await bounds.take("k", 2, 60) == 0.0  # at 1000
        now[0] = 1010.0
        assert await bounds.take("k", 2, 60) == 0.0
        now[0] = 1020.0
        assert await bounds.take("k", 2, 60) == 40.0  # the first one frees a place at 1060
        assert await bounds.take("other", 2, 60) == 0.0  # another key is counted apart
        now[0] = 1060.0
        assert await bounds.take("k", 2, 60) == 0.0
        assert await bounds.count("k", 60) == 2  # 1010 and 1060: 1000 is gone, the refused too
    finally:
        await store.close()


def test_an_analysis_under_way_in_one_process_is_told_by_the_other(tmp_path: Path) -> None:
    analysis_under_way_is_told_by_the_other(f"sqlite+aiosqlite:///{tmp_path / 'a.db'}")


def analysis_under_way_is_told_by_the_other(url: str) -> None:
    """With two processes on one database, the page that polls the other one sees the analysis
    under way (not "absent"), and asking the other one again neither starts a second analysis
    nor counts against the address."""
    from tests.web.test_analysis import finished_game

    settings = Settings(db_url=url, bot_delay=0.0, analyses_per_hour=1)
    record = finished_game()
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        first = a.post("/api/analysis/upload", json=record).json()
        key = first["id"]
        assert first["state"] in ("queued", "running")
        seen = b.get(f"/api/analysis/{key}").json()
        again = b.post("/api/analysis/upload", json=record)
        queue_b = getattr(app_of(b).state, "analyses", None)
        assert queue_b is None or not queue_b._tasks  # b started nothing
        answer, deadline = seen, time.monotonic() + 120
        while answer["state"] != "done":
            assert answer["state"] == "running", answer  # told by b, while a analyses
            assert time.monotonic() < deadline
            time.sleep(0.2)
            answer = b.get(f"/api/analysis/{key}").json()
    assert again.status_code == 200 and again.json()["state"] == "running"
    assert answer["analysis"]["players"] == ["Ann", "Bob", "Cat"]


ORIGIN = {"origin": "http://testserver"}


def people_bounds(url: str, folder: Path, part: str) -> None:
    """One of the bounds of people (``part``: wrong passwords per name, sign-ins or passkey
    tries per address, Play now presses) asked alternately of two apps on ``url``: it holds
    over both, not twice over."""
    settings = Settings(
        db_url=url,
        bot_delay=0.0,
        templates_dir=folder / "no-templates",
        sign_ins_per_minute=100 if part == "wrong-passwords" else 2,
        wrong_passwords_per_name=2,
        passkey_tries_per_minute=2,
        plays_per_minute=2,
    )
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        assert a.post("/api/me", json={"name": "Ann"}, headers=ORIGIN).status_code == 200
        a.post("/api/me/password", json={"password": "correct horse"}, headers=ORIGIN)
        b.cookies.update(a.cookies)  # the same browser, sent to either process
        if part == "wrong-passwords":  # a brute force spread over the processes
            for client in (a, b):  # by a stranger (Ann's own browser is not bound by her name)
                client.cookies.clear()
            wrong = {"name": "Ann", "password": "wrong horse"}
            tries = [c.post("/api/signin", json=wrong, headers=ORIGIN) for c in (a, b, a)]
            assert [r.status_code for r in tries] == [401, 401, 429]
            assert tries[2].json()["error"] == "wrong-passwords"
            right = {"name": "ann", "password": "correct horse"}
            late = b.post("/api/signin", json=right, headers=ORIGIN)
            assert late.status_code == 429 and 3000 <= int(late.headers["retry-after"]) <= 3600
        elif part == "sign-ins":  # of one address, whatever the names
            tries = [
                c.post("/api/signin", json={"name": who, "password": "any horse"}, headers=ORIGIN)
                for c, who in ((a, "Bob"), (b, "Cat"), (a, "Dan"))
            ]
            assert [r.status_code for r in tries] == [401, 401, 429]
            assert tries[2].json()["message"] == (
                "too many sign-in attempts from here: wait a minute and try again"
            )
        elif part == "passkeys":
            options = [
                c.post("/api/passkey/signin-options", json={"confirm": True}, headers=ORIGIN)
                for c in (a, b, a)
            ]
            assert [r.status_code for r in options] == [200, 200, 429]
            assert options[2].json()["message"] == (
                "too many passkey attempts from here: wait a minute and try again"
            )
        else:
            plays = [
                c.post(
                    "/api/play",
                    json={"game": "nain-jaune", "size": 3, "wait": 300},
                    headers=ORIGIN,
                )
                for c in (a, b, a)
            ]
            assert [r.status_code for r in plays] == [200, 200, 429]
            assert plays[2].json()["message"] == (
                "Play now was pressed too often in the last minute: wait a moment"
            )
            a.post("/api/play/leave", json={"confirm": True}, headers=ORIGIN)


PEOPLE_BOUNDS = ["wrong-passwords", "sign-ins", "passkeys", "plays"]


@pytest.mark.parametrize("part", PEOPLE_BOUNDS)
def test_two_apps_on_one_sqlite_file_share_the_bounds_of_people(
    tmp_path: Path, part: str
) -> None:
    people_bounds(f"sqlite+aiosqlite:///{tmp_path / 'people.db'}", tmp_path, part)


def two_apps_share_the_open_tables_of_a_client(url: str, folder: Path) -> None:
    """Open tables per client are counted from the database: two made through one app and one
    through the other are three, past a bound of two; one that is over frees a place."""
    settings = Settings(
        db_url=url,
        bot_delay=0.0,
        templates_dir=folder / "no-templates",
        tables_per_minute=100,
        open_tables_per_client=2,
    )
    two_people = {"name": "Ann", "players": 2, "seats": [{"kind": "person"}] * 2}
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        made = [c.post("/api/tables", json=two_people) for c in (a, b, a, b)]
        assert [m.status_code for m in made] == [201, 201, 429, 429]
        assert made[2].json()["id"] == "bounds.open-tables"
        assert made[3].json()["message"] == (
            "you have 2 tables not over yet: finish one before making another"
        ), made[3].json()["message"]
        first = made[0].json()
        # the first table is over (as its last round would mark it): a place is free again
        store = app_of(a).state.store
        assert a.portal is not None
        a.portal.call(store.update_table, first["table"], {"status": "over"})
        again = b.post("/api/tables", json=two_people)
        assert again.status_code == 201, again.text
        assert a.post("/api/tables", json=two_people).status_code == 429


def two_apps_at_once_take_the_last_open_table_once(url: str, folder: Path) -> None:
    """Two tables asked at the same instant of two processes, with one open-table place left:
    one is made, the other refused (before: both read the same count and both were made)."""
    settings = Settings(
        db_url=url,
        bot_delay=0.0,
        templates_dir=folder / "no-templates",
        tables_per_minute=100,
        open_tables_per_client=1,
    )
    two_people = {"name": "Ann", "players": 2, "seats": [{"kind": "person"}] * 2}
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        for client in (a, b):  # each table takes 0.4 s to make: both checks come first
            service = app_of(client).state.service
            made_by = service.create

            async def slow(config: Any, made_by: Any = made_by) -> Any:
                await asyncio.sleep(0.4)
                return await made_by(config)

            service.create = slow
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda c: c.post("/api/tables", json=two_people), (a, b)))
        assert sorted(r.status_code for r in answers) == [201, 429], [r.text for r in answers]
        refused = next(r for r in answers if r.status_code == 429)
        assert refused.json()["id"] == "bounds.open-tables"
        # the place the refused one did not get stays the made one's: still full, for both
        assert [c.post("/api/tables", json=two_people).status_code for c in (a, b)] == [429, 429]


def test_two_apps_at_once_on_one_sqlite_file_take_the_last_open_table_once(
    tmp_path: Path,
) -> None:
    two_apps_at_once_take_the_last_open_table_once(
        f"sqlite+aiosqlite:///{tmp_path / 'race.db'}", tmp_path
    )


def test_two_apps_on_one_sqlite_file_share_the_open_tables_of_a_client(tmp_path: Path) -> None:
    two_apps_share_the_open_tables_of_a_client(
        f"sqlite+aiosqlite:///{tmp_path / 'open.db'}", tmp_path
    )
