"""Records made by earlier commits replay with today's code to the outcome they had.

``tests/data/records/`` holds records that earlier commits' own code made (terminal records and
web table records; ``make_records.py`` there says how) and ``outcomes.json``, what that code
said of each game. Speed records made before 4bfc9fe were played under Speed's rules version 2
(1 before a6487c5, when a countdown after a flip both had called did not start again): they
replay under those rules, which ``cardroom replay`` names in words.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardroom.arbiter import RecordError, replay, replay_any
from cardroom.cli.main import cli
from cardroom.games.errors import RecordError as AnyRecordError
from cardroom.games.nain_jaune.record import parse_game, replay_whole_game
from cardroom.games.records import loads
from cardroom.games.registry import new_engine
from cardroom.games.speed.record import check_match, game_from_header
from cardroom.sim.realtime import new_table, run_table

CORPUS = Path(__file__).resolve().parent / "data" / "records"
OUTCOMES: dict[str, dict[str, Any]] = json.loads((CORPUS / "outcomes.json").read_text())
OLD_SPEED = {"380ca22", "9b04734", "6444127"}
"""Commits whose Speed records were played under rules version 2 or 1 (before 4bfc9fe)."""
VERSION_1 = {"speed-countdown-380ca22.json", "spit-api-a0f2019.json"}
"""Records that replay only under version 1 (made before a6487c5, a countdown ran on after a
flip or "Spit!" both players had called: 8 of 120 Speed games of 380ca22, 29 of 40 Spit games
of a0f2019)."""


def read(name: str) -> Any:
    return loads((CORPUS / name).read_text())


def check_game(engine: Any, arbiter: Any, seen: dict[str, Any]) -> None:
    assert engine.winner == seen["winner"]
    assert bool(engine.over) == seen["over"]
    if "points" in seen:
        assert engine.result.points == seen["points"]
        assert engine.result.blocked == seen["blocked"]
    if "timeouts" in seen:
        assert arbiter.timeouts == seen["timeouts"]


def test_the_corpus_covers_every_game_and_the_corrected_rule() -> None:
    assert len(OUTCOMES) >= 12
    assert set(OUTCOMES) == {p.name for p in CORPUS.glob("*.json")} - {"outcomes.json"}
    kinds = {name.rsplit("-", 1)[0] for name in OUTCOMES}
    assert kinds >= {"nain-jaune", "speed", "speed-match", "spit", "web-nain-jaune", "web-speed"}
    old = [
        n
        for n, seen in OUTCOMES.items()
        if n.startswith("speed") and seen["made_by"][0] in OLD_SPEED
    ]
    # old Speed records whose countdown ran out, and an old match
    assert any(OUTCOMES[n].get("timeouts", 0) > 0 for n in old)
    assert any(n.startswith("speed-match") for n in old)


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_a_record_of_an_earlier_commit_replays_to_its_outcome(name: str) -> None:
    data = read(name)
    seen = OUTCOMES[name]
    if "nain-jaune" in name:
        rep = replay_whole_game(parse_game(data))
        assert list(rep.game.chips) == seen["chips"]
        assert rep.game.rounds_played == seen["rounds"]
        if seen.get("winners") is not None:
            assert rep.game.result is not None and list(rep.game.result.winners) == seen["winners"]
        return
    reps = replay_any(data)
    if name in VERSION_1:
        expected = 1
    elif name.startswith(("speed", "web-speed")):
        expected = 2 if seen["made_by"][0] in OLD_SPEED else 3
    else:
        expected = 2  # the other Spit records were made after a6487c5
    assert {rep.engine.rules_version for rep in reps} == {expected}
    if isinstance(data, list):
        summary = check_match(data, [r.engine for r in reps])
        assert list(summary.scores) == seen["scores"] and summary.winner == seen["winner"]
        assert len(reps) == len(seen["games"])
        for one, game in zip(reps, seen["games"], strict=True):
            check_game(one.engine, one.arbiter, game)
    else:
        check_game(reps[0].engine, reps[0].arbiter, seen)


def test_old_speed_records_do_not_replay_under_todays_rules() -> None:
    """The version matters: told it was played under today's rules, an old record fails."""
    for name in ("speed-380ca22.json", "speed-match-380ca22.json"):
        data = read(name)
        games = data if isinstance(data, list) else [data]
        for game in games:
            game["version"] = {"format": 2, "rules": 3}
            game["rules"]["score_hand"] = True
        with pytest.raises(RecordError, match="countdown"):
            replay_any(data)
    data = read("speed-countdown-380ca22.json") | {"version": {"format": 2, "rules": 2}}
    with pytest.raises(RecordError, match="countdown ran out at"):
        replay(data)
    assert replay(data | {"version": {"format": 2, "rules": 1}}).engine.rules_version == 1
    spit = read("spit-api-a0f2019.json")
    with pytest.raises(RecordError, match="countdown"):
        replay(spit | {"version": {"format": 2, "rules": 2}})


def test_a_record_written_today_carries_its_versions_and_replays() -> None:
    engine = new_engine("speed", {"countdown": "1"}, 5)
    table = new_table(engine, ["medium", "easy"], [random.Random(s) for s in (1, 2)], ["A", "B"])
    run_table(table)
    record = json.loads(json.dumps(table.arbiter.record()))
    assert record["version"] == {"format": 2, "rules": 4}
    assert replay(record).engine.winner == engine.winner


@pytest.mark.parametrize("field", [{"format": 3, "rules": 1}, {"format": 2, "rules": 9}])
def test_a_record_of_a_newer_release_is_refused_in_words(field: dict[str, int]) -> None:
    speed = read("speed-b77b4aa.json") | {"version": field}
    with pytest.raises(AnyRecordError, match="newer cardroom"):
        game_from_header(speed)
    spit = read("spit-b77b4aa.json") | {"version": field}
    with pytest.raises(AnyRecordError, match="newer cardroom"):
        replay(spit)
    rounds = copy.deepcopy(read("nain-jaune-380ca22.json"))
    rounds[0]["version"] = field
    with pytest.raises(AnyRecordError, match="newer cardroom"):
        parse_game(rounds)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Played under the earlier rules of Speed (version 2"),
        ("fr", "Partie jouée selon les anciennes règles du Speed (version 2"),
        ("cy", "Chwaraewyd dan hen reolau Cyflymder (fersiwn 2"),
    ],
)
def test_cardroom_replay_names_the_rules_a_game_was_played_under(lang: str, words: str) -> None:
    runner = CliRunner()
    old = runner.invoke(cli, ["replay", "--lang", lang, str(CORPUS / "speed-match-380ca22.json")])
    assert old.exit_code == 0, old.output
    assert old.output.count(words) == len(read("speed-match-380ca22.json"))  # once per game
    new = runner.invoke(cli, ["replay", "--lang", lang, str(CORPUS / "speed-b77b4aa.json")])
    assert new.exit_code == 0 and "(version 2" not in new.output and "(fersiwn 2" not in new.output
    assert "(version 3" in new.output or "(fersiwn 3" in new.output  # its empty-pile scoring
    as_json = runner.invoke(cli, ["replay", "--json", str(CORPUS / "speed-380ca22.json")])
    assert json.loads(as_json.output)["rules_version"] == 2
    first = {"en": "earliest rules of Speed (version 1", "fr": "toutes premières règles du Speed"}
    oldest = runner.invoke(
        cli, ["replay", "--lang", lang, str(CORPUS / "speed-countdown-380ca22.json")]
    )
    assert oldest.exit_code == 0
    assert first.get(lang, "reolau cyntaf Cyflymder (fersiwn 1") in oldest.output


def test_the_replay_viewer_names_earlier_rules_in_its_header(monkeypatch: Any) -> None:
    """Nain Jaune has one version of its rules so far: as if a second one existed, a record
    of version 1 gets the words of ``EARLIER_RULES`` (the page shows them above the board)."""
    from cardroom.games.nain_jaune import record as nain_jaune_record
    from cardroom.games.registry import GAMES
    from cardroom.web.replay_frames import replay_frames

    rounds = read("nain-jaune-380ca22.json")
    assert replay_frames(rounds)["rules_notes"] == []  # today's rules: nothing to say
    monkeypatch.setattr(nain_jaune_record, "RULES_VERSION", 2)
    earlier = GAMES["nain-jaune"].load("words").EARLIER_RULES
    monkeypatch.setitem(earlier, 1, "Played under the old rules.")
    assert replay_frames(rounds)["rules_notes"] == ["Played under the old rules."]
    rounds[0]["version"] = {"format": 2, "rules": 2}
    rounds[1]["version"] = {"format": 2, "rules": 2}
    rounds[2]["version"] = {"format": 2, "rules": 2}
    assert replay_frames(rounds, "fr")["rules_notes"] == []


def test_a_web_tables_log_keeps_the_rules_version_it_began_with() -> None:
    from cardroom.tables import TableError
    from cardroom.tables.realtime import RealtimeConfig, RealtimeSeat

    bot = RealtimeSeat("bot", "easy")
    config = RealtimeConfig(game="speed", seats=(bot, bot), seed=3)
    written = json.loads(json.dumps(config.to_json()))
    assert written["rules_version"] == 4
    assert RealtimeConfig.from_json(written).rules_version == 4
    older = RealtimeConfig.from_json(written | {"rules_version": 2})
    engine = new_engine(older.game, {}, older.seed, older.rules_version)
    assert engine.rules_version == 2 and engine.renews_countdown
    del written["rules_version"]  # logs before the field: the rules of then (version 3)
    assert RealtimeConfig.from_json(written).rules_version == 3
    with pytest.raises(TableError, match="newer cardroom"):
        RealtimeConfig.from_json(written | {"rules_version": 5})
