"""The client over the bot API on a real server (127.0.0.1): the bot follows its event stream,
accepts Ann's invitation, plays the whole game at her table over the websocket with its token
and stops when it ends; Nain Jaune, Spit and Speed; every card its frames name is one its seat
could see (from the log). A bot whose client stops is an away player."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardroom.botclient import load_play, play_table
from cardroom.botclient.events import follow_events
from tests.web.conftest import AutoPlayer, Player, service_of, serving, settings_for
from tests.web.test_leaks import Visibility, cards_named
from tests.web.test_realtime_web import named, seen_by_seq

FAST = "reaction:min=0.05,max=0.1"
TABLES: dict[str, dict[str, Any]] = {
    "nain-jaune": {"options": {"end": "rounds:2"}},
    "spit": {"options": {"countdown": "1"}},
    "speed": {"options": {"countdown": "1"}},
}


async def _ann_and_bot(base: str, game: str, **extra: Any) -> tuple[httpx.AsyncClient, str, str]:
    """Ann (a person with a browser's cookies), her bot's token and her table's id."""
    origin = {"origin": base}
    ann = httpx.AsyncClient(base_url=base, timeout=30)
    assert (await ann.post("/api/me", json={"name": "Ann"}, headers=origin)).is_success
    made = await ann.post("/api/me/bots", json={"name": "Mistral"}, headers=origin)
    assert made.status_code == 201, made.text
    bot_id = made.json()["id"]
    token = (await ann.post(f"/api/me/bots/{bot_id}/tokens", json={}, headers=origin)).json()[
        "token"
    ]
    body = {"name": "Ann", "game": game, "players": 2,
            "seats": [{"kind": "person"}, {"kind": "person"}], **TABLES[game], **extra}  # fmt: skip
    answer = await ann.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return ann, token, answer.json()["table"]


async def _invite(ann: httpx.AsyncClient, base: str, table: str) -> None:
    invited = await ann.post(
        f"/api/tables/{table}/seats/1/invite", json={"bot": "Mistral"}, headers={"origin": base}
    )
    assert invited.status_code == 200, invited.text


def _ann_headers(ann: httpx.AsyncClient) -> dict[str, str]:
    return {"cookie": f"cr_player={ann.cookies.get('cr_player')}"}


@pytest.mark.parametrize("game", ["nain-jaune", "spit", "speed"])
async def test_a_bot_follows_its_events_and_plays_a_whole_game_against_a_person(
    tmp_path: Path, game: str
) -> None:
    frames: list[dict[str, Any]] = []
    async with serving(settings_for(tmp_path)) as (app, address):
        base = f"http://{address}"
        ann, token, table = await _ann_and_bot(base, game)
        async with contextlib.aclosing(ann):
            seat_link = ann.cookies.get(f"cr_seat_{table}")
            bot_play = load_play("expert" if game == "nain-jaune" else FAST)
            follow = asyncio.create_task(
                follow_events(
                    base, token, bot_play,
                    headers={"Authorization": f"Bearer {token}"}, name="Mistral", stop_after=1,
                    on_frame=lambda _table, frame: frames.append(frame),
                )
            )  # fmt: skip
            await asyncio.sleep(0.3)  # (the stream is open: the invitation comes through it)
            await _invite(ann, base, table)
            person: Player
            if game == "nain-jaune":
                person = AutoPlayer(address, table, seat_link)
                person.headers = _ann_headers(ann)
                await person.connect()
                final = await person.wait_for(
                    lambda f: f["type"] == "state" and f["status"] == "over", timeout=180
                )
                await person.close()
            else:  # Ann plays with the client too, as a person (her seat link and cookie)
                ann_play = play_table(
                    base, table, seat_link, load_play(FAST), headers=_ann_headers(ann)
                )
                ann_outcome = await asyncio.wait_for(ann_play, 180)
                assert ann_outcome.over and ann_outcome.last is not None
                final = ann_outcome.last
            outcomes = await asyncio.wait_for(follow, 60)
        entries = await service_of(app).store.entries(table)
    _nothing_unseen(game, entries, frames)
    assert len(outcomes) == 1, outcomes
    (mine,) = outcomes
    assert not isinstance(mine, BaseException), mine
    assert mine.over and mine.table == table
    assert mine.last is not None and mine.last["you"] == 1
    seats = final["seats"]
    assert seats[1]["name"] == "Mistral" and seats[1].get("program") is True
    assert seats[0].get("program") is False
    # the bot played its own seat from start to end: no takeover, never away
    if game == "nain-jaune":
        assert not seats[1]["bot_playing"]
        assert final["game_result"]["rounds"] == 2
    else:
        assert not seats[1]["taken"] and not seats[1]["away"]
        assert final["winner"] in (0, 1)


def _nothing_unseen(game: str, entries: list[Any], frames: list[dict[str, Any]]) -> None:
    """Every card the bot's frames name is one its seat (1) could see, from the log alone."""
    states = [f for f in frames if f.get("type") == "state"]
    assert len(states) > 5 and all(f["you"] == 1 for f in states)
    if game == "nain-jaune":
        seen = Visibility(entries, 2)
        for frame in states:
            leaked = cards_named(frame) - seen.allowed(1, frame["seq"])
            assert not leaked, (frame["seq"], sorted(leaked))
    else:
        allowed = seen_by_seq(entries, 1)
        for frame in states:
            unseen = named(frame) - allowed[frame["seq"]]
            assert not unseen, (frame["seq"], sorted(c.code for c in unseen))


async def test_a_bot_whose_client_stops_is_an_away_player(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, min_takeover_after=0.5)
    async with serving(settings) as (_app, address):
        base = f"http://{address}"
        ann, token, table = await _ann_and_bot(base, "speed", takeover_after=1, when_away="bot")
        async with contextlib.aclosing(ann):
            seat_link = ann.cookies.get(f"cr_seat_{table}")
            follow = asyncio.create_task(
                follow_events(
                    base, token, load_play(FAST),
                    headers={"Authorization": f"Bearer {token}"}, name="Mistral",
                )
            )  # fmt: skip
            await asyncio.sleep(0.3)
            await _invite(ann, base, table)
            watcher = await Player(address, table, seat_link, _ann_headers(ann)).connect()
            await watcher.send({"type": "act", "action": {"type": "call"}})
            await watcher.wait_for(
                lambda f: f["type"] == "state" and f["status"] == "playing"
                and (f.get("table_view") or {}).get("phase") == "play"
                and f["seats"][1]["name"] == "Mistral",
                timeout=60,
            )  # fmt: skip
            follow.cancel()  # the program stops answering: its connections close
            await asyncio.gather(follow, return_exceptions=True)
            away = await watcher.wait_for(
                lambda f: f["type"] == "state" and f["seats"][1].get("away") is not None,
                timeout=30,
            )
            taken = await watcher.wait_for(
                lambda f: f["type"] == "state" and f["seats"][1].get("taken"), timeout=30
            )
            await watcher.close()
    assert away["seats"][1]["program"] is True and taken["seats"][1]["taken"]
