"""A deleted player's seat is stored as one language-neutral name and every reader shows it in
its own language: the replay viewer's frames, ``cardroom replay``, the table pages' frames."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardroom.cli.main import cli
from cardroom.games.records import FORMER_PLAYER
from cardroom.i18n import translator
from cardroom.i18n.realtime_words import localize_realtime_frame
from cardroom.i18n.words import localize_frame
from cardroom.web.replay_frames import replay_frames
from tests.web.test_replay_frames import sweep_record

SHOWN = {"fr": "un ancien joueur", "cy": "cyn-chwaraewr"}
SPEED = Path(__file__).parents[1] / "data" / "records" / "speed-380ca22.json"


def former_sweep() -> dict[str, object]:
    """The hand-made round whose seat 1 (Bob, who plays every card) has left."""
    return {**sweep_record(), "players": ["Ann", FORMER_PLAYER]}


@pytest.mark.parametrize("lang", ["fr", "cy"])
def test_the_replay_viewer_names_a_former_player_in_the_readers_words(lang: str) -> None:
    frames = replay_frames(former_sweep(), lang)
    assert frames["players"] == ["Ann", SHOWN[lang]]
    text = json.dumps(frames, ensure_ascii=False)
    assert FORMER_PLAYER not in text
    steps = frames["rounds"][0]["steps"]
    assert any(SHOWN[lang] in str(step["text"]) for step in steps)


@pytest.mark.parametrize("lang", ["fr", "cy"])
def test_cardroom_replay_names_a_former_player_in_the_readers_words(
    tmp_path: Path, lang: str
) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(former_sweep()), encoding="utf-8")
    res = CliRunner().invoke(cli, ["replay", str(path), "--lang", lang])
    assert res.exit_code == 0, res.output
    assert FORMER_PLAYER not in res.stdout and SHOWN[lang] in res.stdout
    speed = {**json.loads(SPEED.read_text(encoding="utf-8")), "players": [FORMER_PLAYER, "Bot"]}
    path.write_text(json.dumps(speed), encoding="utf-8")
    res = CliRunner().invoke(cli, ["replay", str(path), "--lang", lang])
    assert res.exit_code == 0, res.output
    assert FORMER_PLAYER not in res.stdout and SHOWN[lang] in res.stdout
    stored = CliRunner().invoke(cli, ["replay", str(path), "--json", "--lang", lang])
    assert json.loads(stored.stdout)["players"][0] == FORMER_PLAYER  # the data keeps the key


@pytest.mark.parametrize("lang", ["fr", "cy"])
def test_the_table_frames_name_a_former_player_in_the_readers_words(lang: str) -> None:
    seats = [{"seat": 0, "name": FORMER_PLAYER, "kind": "person"}, {"seat": 1, "name": "Bo"}]
    frame = {"type": "state", "seats": seats, "events": [{"kind": "joined", "seat": 0}]}
    [event] = localize_frame(frame, translator(lang))["events"]
    assert event["text"].startswith(SHOWN[lang]) and FORMER_PLAYER not in event["text"]
    tr = translator(lang)
    realtime = localize_realtime_frame({"type": "state", "game": "speed", "seats": seats}, tr)
    assert realtime["seats"][0]["name"] == SHOWN[lang]


@pytest.mark.parametrize("lang", ["fr", "cy"])
def test_the_speed_replay_viewer_names_a_former_player_in_the_readers_words(lang: str) -> None:
    from cardroom.web.replay_realtime import realtime_frames

    speed = {**json.loads(SPEED.read_text(encoding="utf-8")), "players": [FORMER_PLAYER, "Bot"]}
    frames = realtime_frames(speed, lang)
    text = json.dumps(frames, ensure_ascii=False)
    assert frames["players"] == [SHOWN[lang], "Bot"]
    assert FORMER_PLAYER not in text and text.count(SHOWN[lang]) > 2
