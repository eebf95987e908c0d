"""Spectators share one frame object per change, rendered once per language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardroom.i18n import translator
from cardroom.i18n.words import localize_frame
from cardroom.store import EventStore
from cardroom.tables import TableService
from cardroom.web.protocol import encode
from cardroom.web.routes.ws import render_frame
from tests.tables.helpers import bot_config, until


async def test_spectators_share_each_frame_and_it_is_rendered_once_per_language(
    tmp_path: Path,
) -> None:
    store = await EventStore.open(str(tmp_path / "log.db"))
    service = TableService(store)
    await service.start()
    try:
        created = await service.create(bot_config(3))
        watchers = [service.subscribe(created.table_id, None) for _ in range(2)]
        await service.start_now(created.table_id, 0)
        await until(lambda: service.table(created.table_id).status == "over")
        seen: list[list[dict[str, Any]]] = [[], []]
        for sub, frames in zip(watchers, seen, strict=True):
            while not sub.queue.empty():
                frame = sub.queue.get_nowait()
                assert frame is not None
                frames.append(frame)
        assert len(seen[0]) == len(seen[1]) > 3
        # the first frame is each subscriber's own full state; every fan-out after it is shared
        assert all(a is b for a, b in zip(seen[0][1:], seen[1][1:], strict=True))
        with_events = [f for f in seen[0] if f.get("events")]
        assert with_events
        for frame in with_events:
            for lang in ("en", "fr"):
                text = render_frame(frame, lang)
                assert render_frame(frame, lang) is text  # the second connection: no new work
                words = localize_frame(frame, translator(lang))
                assert json.loads(text) == json.loads(encode(words))
        assert render_frame(with_events[-1], "en") != render_frame(with_events[-1], "fr")
    finally:
        await service.stop()
        await store.close()


def test_events_put_in_words_once_follow_a_renamed_seat() -> None:
    # two frames of one table share their event dicts; the second has new seat rows in which
    # seat 1 has a name now: its words name them (the words made for the first are not reused)
    event = {"kind": "play", "seat": 1, "card": "7D", "text": "Seat 2 plays 7D"}
    seats = [{"seat": 0, "name": "Ann", "kind": "person"}, {"seat": 1, "name": "Seat 2",
             "kind": "person"}]  # fmt: skip
    first = {"type": "state", "seats": seats, "events": [event]}
    renamed = [seats[0], {**seats[1], "name": "Bob"}]
    second = {"type": "state", "seats": renamed, "events": [event]}
    for lang, before, after in (("en", "Seat 2", "Bob"), ("fr", "Place 2", "Bob")):
        [told] = localize_frame(first, translator(lang))["events"]
        assert told["text"].startswith(before), told["text"]
        [told] = localize_frame(second, translator(lang))["events"]
        assert told["text"].startswith(after) and before not in told["text"], told["text"]
        # the same frame again: the same words
        assert localize_frame(first, translator(lang))["events"][0]["text"].startswith(before)
    assert event["text"] == "Seat 2 plays 7D"  # the table's own event is never changed


def test_a_seats_frame_is_not_kept_once_rendered_and_a_spectators_frame_is() -> None:
    from cardroom.web.routes import ws

    event = {"kind": "play", "seat": 1, "card": "7D", "text": "Seat 2 plays 7D"}
    seats = [{"seat": 0, "name": "Ann", "kind": "person"}, {"seat": 1, "name": "Bob",
             "kind": "person"}]  # fmt: skip
    mine = {"type": "state", "you": 0, "seats": seats, "events": [event], "round": {"hand": []}}
    watched = {**mine, "you": None, "round": {}}
    for frame in (mine, watched):
        text = render_frame(frame, "fr")
        assert text == encode(localize_frame(frame, translator("fr")))  # the same text either way
        assert json.loads(text)["events"][0]["text"] == "Bob pose 7♦"  # in French
    # the seat's frame is its connection's alone: nothing holds it after it is sent
    assert all(kept is not mine for kept, _ in ws._RENDERED.values())
    # the spectators' one is kept for the next spectator, who gets the same text
    assert any(kept is watched for kept, _ in ws._RENDERED.values())
    assert render_frame(watched, "fr") is render_frame(watched, "fr")
