"""Ratings for people: OpenSkill's Plackett-Luce worked out by hand, counting rated games once,
bots at fixed ratings, a takeover a loss for the one taken over, hints refused at rated tables."""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardroom.store import EventStore, LogEntry
from cardroom.store.events import seats_t, tables_t
from cardroom.store.players import PlayerStore
from cardroom.web.ratings import (
    BOT_RATINGS,
    MU,
    SIGMA,
    RatingKeeper,
    bot_rating,
    bot_shares,
    display,
    leaderboard,
    mark_rated,
    player_ratings,
    ranks_by_chips,
    rate,
    seat_ranks,
)

BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0


def by_hand(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """Weng & Lin (2011), Algorithm 4 (Plackett-Luce), as OpenSkill publishes it: sigma^2 grows
    by tau^2 first; c^2 = sum(sigma^2 + beta^2); C_q = sum of exp(mu/c) over those ranked at q
    or below; A_q = how many share q's rank; gamma = sigma / c."""
    var = [s * s + TAU * TAU for _, s in ratings]
    c = math.sqrt(sum(v + BETA * BETA for v in var))
    e = [math.exp(mu / c) for mu, _ in ratings]
    n = len(ratings)
    big_c = [sum(e[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    a = [sum(ranks[s] == ranks[q] for s in range(n)) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            p = e[i] / big_c[q]
            omega += ((1.0 if q == i else 0.0) - p) / a[q]
            delta += p * (1 - p) / a[q]
        gamma = math.sqrt(var[i]) / c
        mu = ratings[i][0] + var[i] / c * omega
        sigma2 = var[i] * max(1 - gamma * var[i] / c**2 * delta, KAPPA)
        out.append((mu, math.sqrt(sigma2)))
    return out


def test_one_game_of_two_newcomers_by_hand() -> None:
    # sigma^2 = 625/9 + 1/144 = 69.4514; c^2 = 2 (69.4514 + 17.3611) = 173.625, c = 13.1767;
    # equal mu: each term is 1/2. Winner: Omega = 69.4514 / 13.1767 * (1 - 1/2) = 2.6354;
    # loser -2.6354. Delta = (8.3337 / 13.1767) * (69.4514 / 173.625) * 1/4 = 0.063246 for
    # both (the loser's second term is 1 * 0); sigma'^2 = 69.4514 * 0.936754 = 65.0589.
    [(mu_w, s_w), (mu_l, s_l)] = rate([(MU, SIGMA), (MU, SIGMA)], [1, 2])
    assert mu_w == pytest.approx(27.6354, abs=1e-3) and mu_l == pytest.approx(22.3646, abs=1e-3)
    assert s_w == pytest.approx(8.0659, abs=1e-3) and s_l == pytest.approx(8.0659, abs=1e-3)


def test_a_short_series_follows_the_published_formulas() -> None:
    ann, bob, cat = (MU, SIGMA), (MU, SIGMA), (MU, SIGMA)
    medium = BOT_RATINGS["nain-jaune"]["medium"]
    series = [  # (who, ranks): Speed Ann beats Bob; Nain Jaune with a tie; Bob beats Ann
        (["ann", "bob"], [1, 2]),
        (["ann", "bob", "cat", "medium"], ranks_by_chips([40, 25, 40, 15])),
        (["bob", "ann"], [1, 2]),
    ]
    people = {"ann": ann, "bob": bob, "cat": cat}
    for who, ranks in series:
        before = [people.get(w, medium) for w in who]
        got = rate(before, ranks)
        want = by_hand(before, ranks)
        for g, w in zip(got, want, strict=True):
            assert g == pytest.approx(w, abs=1e-9)
        for name, new in zip(who, got, strict=True):
            if name in people:
                people[name] = new
    assert ranks_by_chips([40, 25, 40, 15]) == [1, 3, 1, 4]
    assert people["cat"][0] > MU  # first equal, above a bot and a person


def test_bot_shares_count_a_seats_actions_made_by_bots() -> None:
    entries = [("action", {"seat": 0, "by": "person"})] * 4 + [("action", {"seat": 0, "by": "bot"})]
    entries += [("action", {"seat": 1, "by": "bot"}), ("joined", {"seat": 0})]
    assert bot_shares(entries) == {0: 0.2, 1: 1.0}


async def _finished(
    store: EventStore,
    table_id: str,
    game: str,
    seats: list[tuple[str, str | None]],
    summary: dict[str, object],
    by: list[str],
) -> None:
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
    for n, who in enumerate(by, start=2):
        seat = int(who[0])
        await store.append(table_id, LogEntry(n, "action", {"seat": seat, "by": who[1:]}, 2.0))
    async with store.engine.begin() as conn:
        await conn.execute(
            tables_t.update()
            .where(tables_t.c.id == table_id)
            .values(status="over", summary=summary)
        )
        assert seats_t is not None


async def test_the_keeper_counts_a_rated_game_once_with_bots_at_fixed_ratings(
    tmp_path: Path,
) -> None:
    store = await EventStore.open(str(tmp_path / "r.db"))
    players = PlayerStore(store)
    try:
        ann, _ = await players.create("Ann", 1.0)
        bob, _ = await players.create("Bob", 1.0)
        # Nain Jaune: Ann, Bob and a medium bot; chips 40 / 20 / 30
        await _finished(
            store,
            "nj1",
            "nain-jaune",
            [("person", None), ("person", None), ("bot", "medium")],
            {"chips": [40, 20, 30]},
            ["0person"] * 5 + ["1person"] * 5 + ["2bot"] * 5,
        )
        await players.claim("nj1", 0, ann.id, 1.0)
        await players.claim("nj1", 1, bob.id, 1.0)
        # a friendly table is never counted; a rated one once
        keeper = RatingKeeper(store)
        assert await keeper.count_due() == 0
        await mark_rated(store, "nj1", "nain-jaune")
        assert await keeper.count_due() == 1
        assert await keeper.count_due() == 0 and not await keeper.count("nj1")
        medium = BOT_RATINGS["nain-jaune"]["medium"]
        want = by_hand([(MU, SIGMA), (MU, SIGMA), medium], [1, 3, 2])
        mine = await player_ratings(store, ann.id)
        assert mine["nain-jaune"]["rating"] == display(want[0][0])
        assert mine["nain-jaune"]["changes"]["nj1"] == [1500, display(want[0][0])]
        assert (await player_ratings(store, bob.id))["nain-jaune"]["games"] == 1
        # Speed: Bob away, a bot made 3 of his 5 decisions (> 20%): he lost (ranked below
        # Ann), and Ann's win over him counts
        await _finished(
            store,
            "sp1",
            "speed",
            [("person", None), ("person", None)],
            {"winner": 0},
            ["0person"] * 5 + ["1person"] * 2 + ["1bot"] * 3,
        )
        await players.claim("sp1", 0, ann.id, 1.0)
        await players.claim("sp1", 1, bob.id, 1.0)
        await mark_rated(store, "sp1", "speed")
        assert await keeper.count_due() == 1
        won, lost = by_hand([(MU, SIGMA), (MU, SIGMA)], [1, 2])
        assert (await player_ratings(store, ann.id))["speed"]["rating"] == display(won[0])
        assert (await player_ratings(store, bob.id))["speed"]["rating"] == display(lost[0])
        # the leaderboard: bots always, people from the minimum number of games
        board = await leaderboard(store, "nain-jaune", min_games=1)
        assert {e["bot"] for e in board if e["bot"]} == set(BOT_RATINGS["nain-jaune"])
        assert [e["name"] for e in board if e["name"]] == ["Ann", "Bob"]
        assert [e["rating"] for e in board] == sorted((e["rating"] for e in board), reverse=True)
        assert all(e["bot"] for e in await leaderboard(store, "nain-jaune", min_games=2))
        # a deleted player's ratings go with them
        await players.delete(ann.id)
        assert await player_ratings(store, ann.id) == {}
    finally:
        await store.close()


def test_a_rated_table_refuses_hints_in_words(client: TestClient) -> None:
    refused = client.post(
        "/api/tables",
        json={"name": "Ann", "rated": True, "hints": True},
        headers={"accept-language": "fr"},
    )
    assert refused.status_code == 400
    assert "une table classée" in refused.json()["message"]
    made = client.post("/api/tables", json={"name": "Ann", "rated": True, "players": 2})
    assert made.status_code == 201
    table = made.json()["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        while ws.receive_json()["type"] != "state":
            pass
        ws.send_json({"type": "hint", "seq": 1})
        deadline = time.time() + 10
        refusal = None
        while refusal is None and time.time() < deadline:
            frame = ws.receive_json()
            if frame["type"] in ("error", "hint"):
                refusal = frame
        assert refusal is not None and refusal["type"] == "error"
        assert "hint" in refusal["message"].lower()


SNAP_BOTS = {"easy": (10.0, 2.0), "expert": (40.0, 2.0)}
"""A test-only game's bots' fixed ratings (read through the registry by the name below)."""


def test_the_bots_ratings_are_each_games_registry_piece() -> None:
    from cardroom.games.registry import REALTIME, Game, register, unregister

    assert BOT_RATINGS["nain-jaune"]["medium"] == (20.56, 2.97)
    assert BOT_RATINGS["spit"]["expert"] == (63.79, 3.43)
    assert list(BOT_RATINGS) == ["nain-jaune", "spit", "speed"]
    register(
        Game(
            "snap", "Snap", REALTIME, (2, 2), "m:R", "m:E", "m:V", "m", "m:T", "m:V1",
            bot_ratings="tests.web.test_ratings:SNAP_BOTS",
        )
    )
    try:
        assert BOT_RATINGS["snap"] == SNAP_BOTS
        assert bot_rating("snap", "expert") == display(40.0) == 2220
        assert "snap" in BOT_RATINGS and len(BOT_RATINGS) == 4
        assert seat_ranks("snap", {"winner": 1}, 2) == [2, 1]  # real time: the winner first
    finally:
        unregister("snap")
    assert "snap" not in BOT_RATINGS
    assert seat_ranks("nain-jaune", {"chips": [3, 9, 3]}, 3) == [2, 1, 2]
