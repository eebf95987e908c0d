"""Hostile clients on a real server: a fuzzer, stolen and guessed tokens, spectators acting,
flooding, markup and control characters in names.

Each test checks that the server answers every bad frame with an error (or closes cleanly),
that nothing changed in the log, and that other clients are still served meanwhile.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import random
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from cardroom.cards import new_deck
from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.tables import Created, SeatSpec, TableService
from cardroom.web import Settings
from tests.web.conftest import Player, over, service_of, serving, settings_for

FUZZ_FRAMES = 10_000
UNLIMITED = {
    "rate_per_second": 1e9, "rate_burst": 10**9, "abuse_limit": 10**9,
    "seat_rate_per_second": 1e9, "seat_rate_burst": 10**9,
}  # fmt: skip


def config(seats: list[SeatSpec], seed: int, rounds: int = 1) -> TableConfig:
    return TableConfig(
        rules=Rules.from_options(None, {"end": f"rounds:{rounds}"}),
        seats=tuple(seats),
        seed=seed,
        takeover_after=0.0,
        bot_delay=0.0,
    )


async def my_turn(service: TableService, created: Created, seat: int = 0) -> None:
    """Wait until the bots have played up to ``seat``'s turn."""
    for _ in range(2000):
        turn = service.table(created.table_id).turn()
        if turn is not None and turn.seat == seat and turn.bot is None:
            return
        await asyncio.sleep(0.005)
    raise AssertionError("never my turn")


def fuzz_frames(rng: random.Random, state: dict[str, Any], old_act: str) -> list[str | bytes]:
    """Frames that must all be refused: malformed, oversized, out of order, replayed, or
    well-formed but not allowed now. Built from the message schema by mutation."""
    seq = state["seq"]
    hand = set(state["round"]["hand"])
    not_mine = [c.code for c in new_deck() if c.code not in hand]
    types = ["act", "join", "start", "ready", "ping", "ACT", "", "chat", "state", "error", None]
    values: list[Any] = [
        None, True, 0, -1, 2**63, 1.5, 1e308, "", "x" * 9, "7D", "pass", "claim",
        [], {}, ["7D"], {"$gt": 0}, "<script>", "\u0000", "\ud800",
    ]  # fmt: skip
    made: list[str | bytes] = []
    while len(made) < FUZZ_FRAMES:
        kind = rng.randrange(12)
        if kind == 0:  # replayed: the very frame already accepted
            made.append(old_act)
        elif kind == 1:  # out of order: a seq that is not the current one
            wrong = rng.choice([seq - 1, seq + 1, seq + rng.randrange(2, 10**6), 0])
            made.append(
                json.dumps({"type": "act", "action": rng.choice(["pass", "claim"]), "seq": wrong})
            )
        elif kind == 2:  # the right seq, a card I do not hold
            made.append(json.dumps({"type": "act", "action": rng.choice(not_mine), "seq": seq}))
        elif kind == 3:  # schema mutations: any type, any field, any value
            message: dict[str, Any] = {"type": rng.choice(types)}
            for field in rng.sample(["action", "seq", "name", "id", "seat", "table", "x"], 3):
                message[field] = rng.choice(values)
            made.append(json.dumps(message))
        elif kind == 4:  # not JSON, or JSON that is not an object
            made.append(
                rng.choice(
                    [
                        "",
                        "{",
                        "}",
                        "null",
                        "[]",
                        '"act"',
                        "1",
                        "{'type': 'act'}",
                        "\x00\x01",
                        "NaN",
                        '{"type": "act",}',
                    ]
                )
            )
        elif kind == 5:  # binary
            made.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))))
        elif kind == 6:  # too large (over 4096 bytes, under the transport's 64 KiB)
            made.append(json.dumps({"type": "join", "name": "A" * rng.randrange(4100, 20000)}))
        elif kind == 7:  # deeply nested
            depth = rng.randrange(100, 2000)
            made.append("[" * depth + "]" * depth)
        elif kind == 8:  # names that are not names; joining a seat already joined
            name = rng.choice(["", "   ", "x" * 25, "\x1b[31m", "a\u0007b", "Ann"])
            made.append(json.dumps({"type": "join", "name": name}))
        elif kind == 9:  # not now: the table has started, the round is not over
            made.append(json.dumps({"type": rng.choice(["start", "ready"])}))
        elif kind == 10:  # an act that names a seat or table (unknown fields)
            made.append(
                json.dumps(
                    {"type": "act", "action": "pass", "seq": seq, rng.choice(["seat", "table"]): 1}
                )
            )
        else:  # wrong value types for right fields
            made.append(
                json.dumps({"type": "act", "action": rng.choice(values), "seq": rng.choice(values)})
            )
    return made


async def test_a_fuzzer_of_10000_bad_frames_changes_nothing_and_others_are_served(
    tmp_path: Path,
) -> None:
    settings = settings_for(tmp_path, **UNLIMITED)
    async with serving(settings) as (app, address):
        service = service_of(app)
        seats = [SeatSpec("person", name="Ann"), SeatSpec("bot", "easy"), SeatSpec("bot", "easy")]
        created = await service.create(config(seats, 31, rounds=3))
        tid = created.table_id
        await my_turn(service, created)
        ws = await websockets.connect(f"ws://{address}/ws/{tid}?token={created.creator_token}")
        state = json.loads(await ws.recv())
        legal = state["round"]["legal"]
        old_act = json.dumps({"type": "act", "action": legal[0], "seq": state["seq"]})
        await ws.send(old_act)  # accepted: the bots play on to my next turn
        await my_turn(service, created)
        while True:
            state = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if state["type"] == "state" and state["seq"] == service.table(tid).seq:
                break
        before = await app.state.store.entries(tid)
        # meanwhile another table is played to its end and watched
        other = await service.create(
            config([SeatSpec("person"), SeatSpec("bot"), SeatSpec("bot")], 32, rounds=2)
        )
        watcher = await Player(address, other.table_id, None).connect()
        await service.start_now(other.table_id, 0)
        frames = fuzz_frames(random.Random(2026), state, old_act)
        answers: dict[str, int] = {}
        for frame in frames:
            await ws.send(frame)
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            key = reply["code"] if reply["type"] == "error" else reply["type"]
            answers[key] = answers.get(key, 0) + 1
        assert sum(answers.values()) == FUZZ_FRAMES  # every frame answered, one answer each
        assert "state" not in answers and set(answers) <= {
            "bad-request", "stale", "illegal", "too-large", "forbidden", "over",
        }  # fmt: skip
        print(f"\nfuzzer: {FUZZ_FRAMES} frames, answers {answers}")
        after = await app.state.store.entries(tid)
        assert after == before and service.table(tid).seq == state["seq"]  # nothing changed
        # the connection still works for a good frame, and the other table went on
        await ws.send(
            json.dumps({"type": "act", "action": state["round"]["legal"][0], "seq": state["seq"]})
        )
        accepted = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert accepted["type"] == "state" and accepted["seq"] == state["seq"] + 1
        await watcher.wait_for(over, timeout=60)
        await ws.close()
        await watcher.close()


async def test_frames_too_large_for_the_transport_close_cleanly(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        created = await service.create(config([SeatSpec("person", name="Ann"), SeatSpec("bot")], 3))
        ws = await websockets.connect(
            f"ws://{address}/ws/{created.table_id}?token={created.creator_token}"
        )
        await ws.recv()
        await ws.send("x" * 100_000)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
        again = await Player(address, created.table_id, None).connect()  # still serving
        assert (await again.wait_for(lambda f: f["type"] == "state"))["seq"] >= 1
        await again.close()


async def test_a_seat_token_opens_only_its_own_seat_at_its_own_table(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        seats = [SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("bot")]
        one = await service.create(config(seats, 1))
        two = await service.create(config(seats, 2))
        before = await app.state.store.entries(two.table_id)
        for token in (one.creator_token, one.invites[1]):  # table one's tokens at table two
            ws = await websockets.connect(f"ws://{address}/ws/{two.table_id}?token={token}")
            refused = json.loads(await ws.recv())
            assert refused["type"] == "error" and refused["code"] == "forbidden"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        # Bob's token is seat 1: he cannot name another seat in a message
        bob = await Player(address, two.table_id, two.invites[1]).connect()
        first = await bob.wait_for(lambda f: f["type"] == "state")
        assert first["you"] == 1
        await bob.send({"type": "join", "name": "Bob", "seat": 0})
        await bob.send({"type": "start"})  # only the creator (seat 0) may start the table
        errors = [await bob.wait_for(lambda f: f["type"] == "error", start=1)]
        errors.append(
            await bob.wait_for(
                lambda f: f["type"] == "error", start=len(bob.frames) if len(bob.frames) > 2 else 2
            )
        )
        assert [e["code"] for e in errors] == ["bad-request", "forbidden"]
        assert await app.state.store.entries(two.table_id) == before
        await bob.close()


async def test_a_spectator_cannot_act(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        seats = [SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("bot")]
        created = await service.create(config(seats, 4))
        tid = created.table_id
        before = await app.state.store.entries(tid)
        seq = before[-1].seq
        for query in ("", f"?watch=1&token={created.creator_token}"):  # no token; the watch page
            ws = await websockets.connect(f"ws://{address}/ws/{tid}{query}")
            first = json.loads(await ws.recv())
            assert first["you"] is None and "hand" not in (first["round"] or {})
            for message in (
                {"type": "join", "name": "Eve"},
                {"type": "start"},
                {"type": "ready"},
                {"type": "act", "action": "pass", "seq": seq},
            ):
                await ws.send(json.dumps(message))
                reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert reply["type"] == "error" and reply["code"] == "forbidden", reply
            await ws.close()
        assert await app.state.store.entries(tid) == before


async def test_guessed_tokens_open_nothing_and_are_compared_in_constant_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compared: list[tuple[str, str]] = []
    real_compare = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        compared.append((a, b))
        return real_compare(a, b)

    monkeypatch.setattr("cardroom.games.table.hmac.compare_digest", spy)
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        seats = [SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("person")]
        created = await service.create(config(seats, 5))
        tid = created.table_id
        real = created.invites[1]
        assert len(real) >= 32  # 24 random bytes: 192 bits, not guessable
        guesses = [secrets.token_urlsafe(24) for _ in range(200)]
        guesses += [
            real[:-1] + ("A" if real[-1] != "A" else "B"),
            real[:-1],
            real + "x",
            real.upper(),
        ]
        for guess in guesses:
            compared.clear()
            with pytest.raises(Exception) as refused:
                await service.seat_of(tid, guess)
            assert getattr(refused.value, "code", None) == "forbidden"
            assert len(compared) == 3  # every stored hash compared: no early exit on a match
            assert all(len(a) == len(b) == 64 for a, b in compared)  # sha256 hex, not the token
        compared.clear()
        assert await service.seat_of(tid, real) == 1 and len(compared) == 3
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            for guess in guesses[:50]:  # invitation links too
                response = await http.get(f"/j/{tid}.{guess}", follow_redirects=False)
                assert response.status_code in (403, 404) and "set-cookie" not in response.headers


async def test_flooding_is_rate_limited_then_closed_and_others_are_served(tmp_path: Path) -> None:
    settings: Settings = settings_for(tmp_path)  # 20 messages/s, bursts of 40, 20 abuses
    async with serving(settings) as (app, address):
        service = service_of(app)
        created = await service.create(config([SeatSpec("person", name="Ann"), SeatSpec("bot")], 6))
        tid = created.table_id
        flood = await websockets.connect(f"ws://{address}/ws/{tid}?token={created.creator_token}")
        calm = await Player(address, tid, None).connect()
        await flood.recv()
        for _ in range(400):
            try:
                await flood.send(json.dumps({"type": "ping"}))
            except websockets.ConnectionClosed:
                break
        kinds: dict[str, int] = {}
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                reply = json.loads(await asyncio.wait_for(flood.recv(), 10))
                key = reply.get("code", reply["type"])
                kinds[key] = kinds.get(key, 0) + 1
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert settings.rate_burst <= kinds["pong"] < settings.rate_burst + 20
        assert kinds["rate-limited"] >= settings.abuse_limit
        print(f"\nflood of 400 pings: {kinds}, then closed 1008")
        await calm.send({"type": "ping"})  # the flood did not hurt its neighbour
        assert (await calm.wait_for(lambda f: f["type"] == "pong"))["type"] == "pong"
        big = await websockets.connect(f"ws://{address}/ws/{tid}?token={created.creator_token}")
        await big.recv()
        await asyncio.sleep(0.2)  # the seat's own bucket (all its connections) refills a little
        await big.send(json.dumps({"type": "join", "name": "x" * 5000}))
        reply = json.loads(await asyncio.wait_for(big.recv(), 10))
        assert reply["code"] == "too-large"
        await big.close()
        await calm.close()


async def test_names_with_markup_are_text_and_control_characters_are_removed(
    tmp_path: Path,
) -> None:
    markup = "<img src=x onerror=a>&lt"  # 24 characters
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        seats = [SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("person")]
        created = await service.create(config(seats, 9))
        tid = created.table_id
        bob = await Player(address, tid, created.invites[1]).connect()
        eve = await Player(address, tid, created.invites[2]).connect()
        await bob.wait_for(lambda f: f["type"] == "state")
        for bad in ("\x07\x1b\u202e", "\u200b" * 30):  # nothing but control characters
            n = len(bob.frames)
            await bob.send({"type": "join", "name": bad})
            error = await bob.wait_for(lambda f: f["type"] == "error", start=n)
            assert error["code"] == "bad-request"
        assert not service.table(tid).joined[1]  # nothing changed
        await bob.send({"type": "join", "name": "\x1b[31mBo\x07b\u202e"})
        await eve.send({"type": "join", "name": markup})
        seen = await eve.wait_for(
            lambda f: f["type"] == "state" and f["seats"][1]["joined"] and f["seats"][2]["joined"]
        )
        assert seen["seats"][1]["name"] == "[31mBob"  # control characters removed
        assert seen["seats"][2]["name"] == markup  # the very characters, as JSON text
        async with httpx.AsyncClient(base_url=f"http://{address}") as http:
            page = await http.get(f"/t/{tid}")
            listing = await http.get(
                "/api/tables", cookies={f"cr_seat_{tid}": created.creator_token}
            )
        assert markup not in page.text and "<img" not in page.text  # pages never carry names
        policy = page.headers["content-security-policy"]
        assert (
            "script-src 'self'" in policy
            and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
        )
        names = [s["name"] for row in listing.json()["mine"] for s in row["seats"]]
        assert markup in names and listing.headers["content-type"].startswith("application/json")
        await bob.close()
        await eve.close()
    static = Path(__file__).parents[2] / "src" / "cardroom" / "web" / "static" / "js"
    for script in static.glob("*.js"):  # the pages put names in with textContent only
        text = script.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"):
            assert sink not in text, f"{script.name} uses {sink}"


async def test_chat_with_markup_and_control_characters_is_text_and_a_flood_is_limited(
    tmp_path: Path,
) -> None:
    markup = '<img src=x onerror=alert(1)><script>alert("x")</script>&lt;'
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        seats = [SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("person")]
        created = await service.create(config(seats, 9))
        tid = created.table_id
        ann = await Player(address, tid, created.creator_token).connect()
        eve = await Player(address, tid, created.invites[2]).connect()
        watcher = await Player(address, tid, None).connect()
        await eve.send({"type": "join", "name": "Eve"})
        await eve.wait_for(lambda f: f["type"] == "state" and f["seats"][2]["joined"])
        entries = await app.state.store.entries(tid)
        refused = [  # (text, code): each gets an error to Eve alone and stores nothing
            ("\x07\x1b\u202e\u200b", "bad-request"),
            ("a" * 301, "bad-request"),
            ("\U0001f600" * 301, "bad-request"),
            ("b" * 5000, "too-large"),
        ]
        for i, (text, code) in enumerate(refused):
            n = len(eve.frames)
            await eve.send({"type": "chat", "text": text, "id": f"chat-r{i}"})
            error = await eve.wait_for(lambda f: f["type"] == "error", start=n)
            assert error["code"] == code and error["ref"] in (f"chat-r{i}", None)
        said = [
            (markup, markup),
            ("\x1b[31mred\x1b[0m\u202egnp.exe", "[31mred[0mgnp.exe"),
            ('"}{"type":"state","seq":0}', '"}{"type":"state","seq":0}'),
        ]
        for i, (text, _) in enumerate(said):
            await eve.send({"type": "chat", "text": text, "id": f"chat-s{i}"})
        for player in (ann, watcher):
            await player.wait_for(lambda f: f["type"] == "chat" and f["n"] == len(said))
            got = [f["text"] for f in player.frames if f["type"] == "chat"]
            assert got == [kept for _, kept in said]  # the very characters, as JSON text
        # a flood of chat: the seat's burst (5) passes, the rest is refused, the log never moves
        start = len(ann.frames)
        for i in range(30):
            await ann.send({"type": "chat", "text": f"flood {i}", "id": f"chat-f{i}"})
        await ann.wait_for(lambda f: f["type"] == "error" and f["ref"] == "chat-f29", start=start)

        def chats() -> int:
            return sum(1 for f in ann.frames[start:] if f["type"] == "chat")

        # the refusals are told at once, the burst's lines once stored: wait for them too
        await ann.wait_for(lambda _f: chats() >= 5, start=start)
        await asyncio.sleep(0.5)  # (a sixth line, were one let through, would come by now)
        flood = ann.frames[start:]
        assert sum(1 for f in flood if f["type"] == "chat") == 5
        assert sum(1 for f in flood if f.get("code") == "rate-limited") == 25
        assert await app.state.store.entries(tid) == entries and service.table(tid).seq == len(
            entries
        )
        await ann.send({"type": "ping", "id": "still"})  # the connection is still served
        await ann.wait_for(lambda f: f["type"] == "pong" and f["ref"] == "still", start=start)
        for player in (ann, eve, watcher):
            await player.close()
