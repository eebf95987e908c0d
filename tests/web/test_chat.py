"""The table chat on a real server: who may write, what is kept of a text, who reads it, what
is stored (beside the log: the table's ``seq`` never moves), a restart, and bad chat frames."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.rules import Rules
from cardroom.store import ChatStore
from cardroom.tables import Created, SeatSpec, TableService
from cardroom.tables.chat import ChatError, clean_text
from cardroom.tables.realtime import RealtimeConfig
from cardroom.web.protocol import Chat, ProtocolError, decode_message
from tests.web.conftest import Player, service_of, serving, settings_for

MARKUP = "<img src=x onerror=alert(1)>"


def config(seats: list[SeatSpec], seed: int = 5) -> TableConfig:
    return TableConfig(
        rules=Rules.from_options(None, {"end": "rounds:1"}),
        seats=tuple(seats),
        seed=seed,
        takeover_after=30.0,
        bot_delay=0.0,
    )


def two_people() -> TableConfig:
    """Ann (joined) and a seat for Bob: the table waits for Bob, nothing moves by itself."""
    return config([SeatSpec("person", name="Ann"), SeatSpec("person"), SeatSpec("bot", "easy")])


def kind(name: str) -> Any:
    return lambda f: f["type"] == name


def chat_n(n: int) -> Any:
    """Line ``n`` told live, or in the history a connection gets first (a line said while a
    new connection reads the history arrives there, and not twice)."""
    return lambda f: (f["type"] == "chat" and f["n"] == n) or (
        f["type"] == "chat-history" and any(line["n"] == n for line in f["lines"])
    )


async def line_n(player: Player, n: int) -> dict[str, Any]:
    """Line ``n`` as its ``chat`` frame, however it came."""
    frame = await player.wait_for(chat_n(n), timeout=30)
    if frame["type"] == "chat":
        return frame
    return {"type": "chat", **next(line for line in frame["lines"] if line["n"] == n)}


async def error_after(player: Player, ref: str) -> dict[str, Any]:
    return await player.wait_for(lambda f: f["type"] == "error" and f["ref"] == ref, timeout=30)


async def lines_of(service: TableService, store: Any, table_id: str) -> list[tuple[int, str]]:
    return [(ln.n, ln.text) for ln in await ChatStore(store).recent(table_id)]


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("  hello  ", "hello"),
        ("a\x00b\x07c\x1b[31md\x7f\x85e", "abc[31mde"),  # C0, DEL and C1 controls go
        ("right\u202eto\u2066left\u2069\u200b\u200e!", "righttoleft!"),  # bidi and invisible marks
        ("line\none\r\n\ttwo", "line one two"),  # breaks and tabs become one space
        ("Dw i’n hoffi’r gêm 🃏 — très bien, ŵ ŷ", "Dw i’n hoffi’r gêm 🃏 — très bien, ŵ ŷ"),
        ("👨\u200d👩\u200d👧 ❤\ufe0f", "👨\u200d👩\u200d👧 ❤\ufe0f"),  # joiners and selectors stay
        (MARKUP, MARKUP),  # markup is text: kept as it is, shown as text by the pages
        ("é" * 300, "é" * 300),  # 300 characters (600 bytes) is the limit, not bytes
    ],
)
def test_clean_text_removes_controls_and_keeps_ordinary_unicode(raw: str, kept: str) -> None:
    assert clean_text(raw) == kept


@pytest.mark.parametrize("raw", ["", "   ", "\x00\x07\u202e", "\n\t\u200b"])
def test_an_empty_text_is_refused(raw: str) -> None:
    with pytest.raises(ChatError) as caught:
        clean_text(raw)
    assert caught.value.code == "bad-request" and "needs some text" in str(caught.value)


def test_a_text_of_301_characters_is_refused_with_its_length() -> None:
    with pytest.raises(ChatError) as caught:
        clean_text("x" * 301)
    assert (
        str(caught.value) == "a chat message has at most 300 characters, not 301: make it shorter"
    )
    assert "301" in caught.value.words("fr") and "raccourcissez" in caught.value.words("fr")


async def test_a_line_reaches_players_and_spectators_as_text_and_the_seq_stays(
    tmp_path: Path,
) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        created = await service.create(two_people())
        tid = created.table_id
        seq = service.table(tid).seq
        before = await app.state.store.entries(tid)
        ann = await Player(address, tid, created.creator_token).connect()
        bob = await Player(address, tid, created.invites[1]).connect()
        watcher = await Player(address, tid, None).connect()
        for p in (ann, bob, watcher):
            await p.wait_for(kind("state"))
        await ann.send({"type": "chat", "text": f"  hi\x07 {MARKUP} 🙂\n", "id": "chat-1"})
        for p in (ann, bob, watcher):
            line = await line_n(p, 1)
            assert line["seat"] == 0 and line["name"] == "Ann"
            assert line["text"] == f"hi {MARKUP} 🙂"  # control gone, markup as text
            assert set(line) == {"type", "seat", "name", "text", "at", "n"}
        # the log and the table's seq did not move: a pending action is not made stale
        assert service.table(tid).seq == seq and await app.state.store.entries(tid) == before
        assert not [f for f in bob.frames if f["type"] == "state" and f["seq"] != seq]
        # a seat whose person has not sat down yet cannot chat
        await bob.send({"type": "chat", "text": "me?", "id": "chat-b"})
        refused = await error_after(bob, "chat-b")
        assert refused["code"] == "forbidden" and "choose your name" in refused["message"]
        await bob.send({"type": "join", "name": "Bob"})
        await bob.send({"type": "chat", "text": "Bore da!", "id": "chat-b2"})
        line = await line_n(watcher, 2)
        assert (line["seat"], line["name"], line["text"]) == (1, "Bob", "Bore da!")
        assert await lines_of(service, app.state.store, tid) == [
            (1, f"hi {MARKUP} 🙂"),
            (2, "Bore da!"),
        ]
        for p in (ann, bob, watcher):
            await p.close()


async def test_a_spectator_is_refused_in_words_and_nothing_is_stored(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        created = await service.create(two_people())
        tid = created.table_id
        # ?watch=1 makes even the creator's browser a spectator
        watcher = await Player(address, tid, None).connect()
        await watcher.wait_for(kind("state"))
        await watcher.send({"type": "chat", "text": "let me in", "id": "chat-w"})
        error = await error_after(watcher, "chat-w")
        assert error["code"] == "forbidden"
        assert error["message"] == (
            "spectators read the chat: open an invitation link to take a seat"
        )
        await asyncio.sleep(0.1)
        assert not [f for f in watcher.frames if f["type"] == "chat"]
        assert await lines_of(service, app.state.store, tid) == []
        await watcher.close()


async def test_bad_chat_frames_get_errors_and_change_nothing(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        created = await service.create(two_people())
        tid = created.table_id
        before = await app.state.store.entries(tid)
        ann = await Player(address, tid, created.creator_token).connect()
        await ann.wait_for(kind("state"))
        bad: list[tuple[str, str, str]] = [  # frame, code, words in the message
            ('{"type": "chat", "id": "chat-1"}', "bad-request", "missing required field `text`"),
            ('{"type": "chat", "text": 5, "id": "chat-2"}', "bad-request", "Expected `str`"),
            ('{"type": "chat", "text": null, "id": "chat-3"}', "bad-request", "Expected `str`"),
            ('{"type": "chat", "text": ["a"], "id": "chat-4"}', "bad-request", "Expected `str`"),
            (
                '{"type": "chat", "text": "hi", "seat": 1, "id": "chat-5"}',
                "bad-request",
                "unknown field `seat`",
            ),
            (
                '{"type": "chat", "text": "hi", "name": "Bob", "id": "chat-6"}',
                "bad-request",
                "unknown field `name`",
            ),
            (json.dumps({"type": "chat", "text": "   ", "id": "chat-7"}), "bad-request", "text"),
            (
                json.dumps({"type": "chat", "text": "y" * 301, "id": "chat-8"}),
                "bad-request",
                "at most 300 characters, not 301",
            ),
            (
                json.dumps(
                    {"type": "chat", "text": "\u00e9" * 1500, "id": "chat-9"}, ensure_ascii=False
                ),
                "bad-request",
                "at most 300 characters, not 1500",
            ),
            (
                json.dumps({"type": "chat", "text": "z" * 5000, "id": "chat-10"}),
                "too-large",
                "at most 4096 bytes",
            ),
        ]
        for frame, code, words in bad:
            n = len(ann.frames)
            await ann.send(frame)
            error = await ann.wait_for(kind("error"), start=n, timeout=30)
            assert error["code"] == code and words in error["message"], (frame, error)
        assert await lines_of(service, app.state.store, tid) == []
        assert await app.state.store.entries(tid) == before
        await ann.close()


async def test_chat_has_its_own_rate_limit_per_seat(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        created = await service.create(two_people())
        tid = created.table_id
        ann = await Player(address, tid, created.creator_token).connect()
        await ann.wait_for(kind("state"))
        for i in range(7):  # a burst of 5 is allowed, then one a second
            await ann.send({"type": "chat", "text": f"line {i}", "id": f"chat-{i}"})
        limited = await error_after(ann, "chat-5")
        assert limited["code"] == "rate-limited" and "too fast" in limited["message"]
        await error_after(ann, "chat-6")
        await line_n(ann, 5)
        stored = await lines_of(service, app.state.store, tid)
        assert [t for _, t in stored] == [f"line {i}" for i in range(5)]
        await ann.send({"type": "ping"})  # the connection's own limit is untouched
        await ann.wait_for(kind("pong"), timeout=30)
        await asyncio.sleep(1.1)  # a second later one more line goes through
        await ann.send({"type": "chat", "text": "later", "id": "chat-later"})
        assert (await line_n(ann, 6))["text"] == "later"
        await ann.close()


async def test_chat_survives_a_restart_and_a_new_connection_gets_the_last_50_lines(
    tmp_path: Path,
) -> None:
    settings = settings_for(tmp_path)
    async with serving(settings) as (app, address):
        service = service_of(app)
        created = await service.create(two_people())
        tid = created.table_id
        seq = service.table(tid).seq
        chat = app.state.chat
        chat.burst = 100  # this test says many lines at once
        for i in range(55):
            await chat.say(tid, 0, f"line {i}")
    async with serving(settings) as (app, address):  # the same database, a new server
        service = service_of(app)
        bob = await Player(address, tid, created.invites[1]).connect()
        first = await bob.wait_for(kind("state"))
        history = await bob.wait_for(kind("chat-history"), timeout=30)
        assert first["seq"] == seq == service.table(tid).seq
        assert bob.frames.index(first) < bob.frames.index(history)  # state comes first
        assert [ln["n"] for ln in history["lines"]] == list(range(6, 56))
        assert [ln["text"] for ln in history["lines"]] == [f"line {i}" for i in range(5, 55)]
        assert {ln["name"] for ln in history["lines"]} == {"Ann"}
        await bob.close()


async def test_a_table_without_chat_sends_no_chat_frame(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        created = await service_of(app).create(two_people())
        bob = await Player(address, created.table_id, created.invites[1]).connect()
        await bob.wait_for(kind("state"))
        await bob.send({"type": "ping"})
        await bob.wait_for(kind("pong"), timeout=30)
        assert [f["type"] for f in bob.frames] == ["state", "pong"]
        await bob.close()


async def test_chat_at_a_spit_table_reaches_both_players(tmp_path: Path) -> None:
    async with serving(settings_for(tmp_path)) as (app, address):
        service = service_of(app)
        created: Created = await service.create_realtime(
            RealtimeConfig(
                game="spit",
                options={},
                seats=(SeatSpec("person", name="Ann"), SeatSpec("person", name="Bob")),
                seed=4,
            )
        )
        tid = created.table_id
        tokens = [created.creator_token, *created.invites.values()]
        ann = await Player(address, tid, tokens[0]).connect()
        bob = await Player(address, tid, tokens[1]).connect()
        state = await bob.wait_for(kind("state"))
        await bob.send({"type": "chat", "text": "Prêt ? 🃏", "id": "chat-1"})
        line = await line_n(ann, 1)
        assert (line["seat"], line["name"], line["text"]) == (1, "Bob", "Prêt ? 🃏")
        await asyncio.sleep(0.1)
        assert service.frame_for(tid, 0)["seq"] == state["seq"]  # the game log did not move
        await ann.close()
        await bob.close()


def test_the_chat_message_is_read_strictly() -> None:
    message = decode_message('{"type": "chat", "text": "  hi <b>  ", "id": 7}')
    assert isinstance(message, Chat) and message.text == "  hi <b>  " and message.id == 7
    for bad in (
        '{"type": "chat"}',
        '{"type": "chat", "text": 1}',
        '{"type": "chat", "text": "a", "seat": 0}',
        '{"type": "chat", "text": "a", "id": [1]}',
        '{"type": "Chat", "text": "a"}',
    ):
        with pytest.raises(ProtocolError) as caught:
            decode_message(bad)
        assert caught.value.code == "bad-request"
