"""``render_frame`` (``localize_frame`` then JSON) is, byte for byte, what main's straightforward
``localize_frame`` (kept below as the reference: every seat row copied and named, every event
put in words) gives: a differential test over every frame of bot-played tables, for two seats
and a spectator, in en, fr and cy, rendered in the order the connections render them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

import cardroom.i18n.words as words
from cardroom.games.nain_jaune import Rules
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.i18n import Translator, tr_of, translator
from cardroom.i18n.names import shown_name
from cardroom.i18n.words import default_name, event_text, game_over_reason, localize_frame
from cardroom.store import EventStore
from cardroom.tables import SeatSpec, TableService
from cardroom.tables.subscription import Subscription
from cardroom.web.protocol import encode
from cardroom.web.routes.ws import render_frame
from tests.tables.helpers import until

LANGS = ("en", "fr", "cy")


def reference_localize_frame(
    frame: Mapping[str, Any], lang: str | Translator | None
) -> dict[str, Any]:
    """main's ``localize_frame`` (e23573c) without its memo."""
    out = dict(frame)
    events = frame.get("events")
    if frame.get("type") != "state":
        return out
    tr = tr_of(lang)
    result = frame.get("game_result")
    if isinstance(result, Mapping) and isinstance(result.get("reason"), str):
        reason = game_over_reason(result["reason"], tr, result.get("reason_msg"))
        out["game_result"] = {**result, "reason": reason}
    seats = frame.get("seats") or []
    rows = [dict(row) for row in seats]
    for row in rows:
        row["name"] = default_name(row, tr)
    if rows:
        out["seats"] = rows
    if not events:
        return out
    names = {s.get("seat"): s.get("name") for s in rows}

    def name(seat: int) -> str:
        return shown_name(str(names.get(seat) or tr._("Seat {number}", number=seat + 1)), tr)

    out["events"] = [{**ev, "text": event_text(ev, name, tr)} for ev in events]
    return out


def reference_text(frame: dict[str, Any], lang: str) -> str:
    """main's ``render_frame`` of a Nain Jaune frame: a state frame with events or a result is
    put in words, any other is sent as it is (a frame without events keeps ``Seat 2``)."""
    if frame.get("type") == "state" and (frame.get("events") or frame.get("game_result")):
        return encode(reference_localize_frame(frame, lang))
    return encode(frame)


def _config(seed: int) -> TableConfig:
    rules = Rules.from_options("classic", {"end": "rounds:2"})
    seats = (SeatSpec("person"), SeatSpec("person"), SeatSpec("bot", "easy"),
             SeatSpec("bot", "easy"))  # fmt: skip
    return TableConfig(
        rules=rules, seats=seats, seed=seed, level="easy", bot_delay=0, takeover_after=0
    )


def _drain(sub: Subscription) -> list[dict[str, Any]]:
    frames = []
    while not sub.queue.empty():
        frame = sub.queue.get_nowait()
        assert frame is not None
        frames.append(frame)
    return frames


async def _played_frames(
    tmp_path: Path, seed: int, named: bool
) -> list[list[dict[str, Any]]]:
    """Every frame of a four-seat table played to its end, for seats 0 and 1 and a spectator
    (their seat rows shared by a change's frames, as the table's are)."""
    store = await EventStore.open(str(tmp_path / f"log{seed}.db"))
    service = TableService(store)
    await service.start()
    try:
        created = await service.create(_config(seed))
        subs = [service.subscribe(created.table_id, s) for s in (0, 1, None)]
        streams: list[list[dict[str, Any]]] = [[], [], []]
        await service.start_now(created.table_id, 0)

        def drained_and_over() -> bool:
            for sub, frames in zip(subs, streams, strict=True):
                frames.extend(_drain(sub))  # (the queues are bounded: drain as it plays)
            return service.table(created.table_id).status == "over"

        await until(lambda: drained_and_over() and bool(streams[2][-1]["game_result"]))
        if named:  # the same frames as if people had sat down at seats 0 and 1 with names
            renamed: dict[int, list[dict[str, Any]]] = {}  # one list per change, as the table's

            def named_rows(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
                given = {0: "Siân", 1: "Zoé"}
                rows = [{**row, "name": given.get(row["seat"], row["name"])} for row in seats]
                return renamed.setdefault(id(seats), rows)

            streams = [[{**f, "seats": named_rows(f["seats"])} for f in s] for s in streams]
        return streams
    finally:
        await service.stop()
        await store.close()


@pytest.mark.parametrize(("seed", "named"), [(3, False), (11, True)])
async def test_every_frame_reads_as_mains_words_byte_for_byte(
    tmp_path: Path, seed: int, named: bool
) -> None:
    seat0, seat1, spectator = await _played_frames(tmp_path, seed, named)
    assert min(len(seat0), len(seat1), len(spectator)) > 20
    frames = [f for change in zip(seat0, seat1, spectator, strict=False) for f in change]
    frames += seat0[len(spectator) :] + seat1[len(spectator) :] + spectator[len(seat0) :]
    # what the frames must cover for the test to mean something
    assert any(f["events"] for f in frames) and any(not f["events"] for f in frames)
    assert any(len(f["events"] or ()) > 1 for f in frames)
    assert any(f["game_result"] for f in frames)
    shown = {row["name"] for f in frames for row in f["seats"]}
    assert ({"Siân", "Zoé", "Bot 3"} if named else {"Bot 1", "Bot 4"}) <= shown
    compared = 0
    for lang in LANGS:
        for frame in frames:
            assert render_frame(frame, lang) == reference_text(frame, lang)
            compared += 1
        # and again from a cold memo, a change's frames in the other order
        words._MEMO.clear()
        words._SHOWN_NAMES.clear()
        for frame in reversed(frames):
            assert encode(localize_frame(frame, translator(lang))) == encode(
                reference_localize_frame(frame, lang)
            )
    assert compared == 3 * len(frames)
    # the languages differ where they should: the bots' names and the events' words
    last = spectator[-1]
    texts = {lang: render_frame(last, lang) for lang in LANGS}
    assert len(set(texts.values())) == 3
    assert "Robot 3" in texts["fr"] and "Bot 3" in texts["en"]
    assert ("Siân" in texts["cy"]) is named


def test_unusual_seat_rows_read_as_mains_words() -> None:
    event = {"kind": "play", "seat": 1, "card": "7D", "text": "x"}
    cases: list[list[dict[str, Any]]] = [
        [{"seat": 0, "name": "Ann", "kind": "person"}, {"seat": 1, "kind": "person"}],
        [{"seat": 0, "name": "Seat 1", "kind": "person"}, {"seat": 1, "name": "Bot 2"}],
        [{"seat": "0", "name": "Bot 1", "kind": "bot"}, {"seat": 1, "name": None}],
        [{"name": "Bot 2", "seat": 1, "kind": "bot"}, {"seat": True, "name": "Seat 2"}],
    ]
    for seats in cases:
        frame: dict[str, Any] = {
            "type": "state", "seats": seats, "events": [event], "game_result": None
        }
        for lang in LANGS:
            expected = encode(reference_localize_frame(frame, lang))
            assert encode(localize_frame(frame, translator(lang))) == expected
            assert render_frame(frame, lang) == expected
    # a frame without seats or events, and not a state frame, are as main left them
    plain: tuple[dict[str, Any], ...] = (
        {"type": "state", "seats": [], "events": []},
        {"type": "pong", "ref": 3},
    )
    for other in plain:
        for lang in LANGS:
            assert localize_frame(other, translator(lang)) == reference_localize_frame(other, lang)


def test_a_seat_named_in_english_is_shared_and_one_named_in_french_is_copied() -> None:
    seats = [{"seat": 0, "name": "Bot 1", "kind": "bot"}, {"seat": 1, "name": "Ann"}]
    frame: Callable[[], dict[str, Any]] = lambda: {"type": "state", "seats": seats}  # noqa: E731
    en = translator("en")
    assert localize_frame(frame(), en)["seats"] is seats  # nothing to change: not copied
    french = localize_frame(frame(), translator("fr"))["seats"]
    assert [row["name"] for row in french] == ["Robot 1", "Ann"]
    assert seats[0]["name"] == "Bot 1"  # the frame's own rows are left as they were
