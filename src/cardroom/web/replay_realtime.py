"""The replay viewer's frames of the real-time games: a record stepped through the arbiter.

A record (one game, or a match's list of games; from the terminal or the web) is checked
by :func:`cardroom.arbiter.replay_any`, then played again entry by entry on a virtual clock;
each entry gives one step with every card face up (the game is over), its time in seconds from
the start, its words in the viewer's language, and for a refused action the action and the
reason. The page never re-implements the rules. What is a game's own in a step (its piles,
its hands) and in a result (a match in games won, a game's points) comes from its web face
(``replay_step``, ``match_result``, ``result_parts``: :mod:`cardroom.web.faces`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cardroom.web.faces as faces
from cardroom.arbiter import (
    Arbiter,
    Entry,
    RecordError,
    Replay,
    VirtualClock,
    record_module,
    replay_any,
)
from cardroom.cards import Card
from cardroom.i18n import translator
from cardroom.i18n.names import shown_names
from cardroom.i18n.realtime_words import action_words, entry_words, reason_words
from cardroom.web.replay_frames import ReplayTooLarge

__all__ = [
    "RecordError",
    "checked_realtime",
    "realtime_frames",
    "realtime_page",
]


def realtime_frames(
    data: Any, lang: str = "en", max_games: int | None = None, max_steps: int | None = None
) -> dict[str, Any]:
    """The viewer's steps of a real-time game's record; :class:`RecordError` when it does not
    replay (the arbiter's message), :class:`ReplayTooLarge` past ``max_games`` games or
    ``max_steps`` steps (counted before anything is replayed)."""
    games = data if isinstance(data, list) else [data]
    lists = [g.get("actions") for g in games if isinstance(g, dict)]
    steps = sum(len(a) + 1 for a in lists if isinstance(a, list))
    if max_steps is not None and steps > max_steps:
        raise ReplayTooLarge("bounds.replay-steps", most=max_steps)
    replays = checked_realtime(data, max_games)
    return realtime_page(replays, 0, len(replays), lang)


def checked_realtime(data: Any, max_games: int | None = None) -> list[Replay]:
    """The games of a real-time game's record, checked by the arbiter (done once per record);
    :class:`ReplayTooLarge` past ``max_games`` games, before anything is replayed."""
    games = data if isinstance(data, list) else [data]
    if max_games is not None and len(games) > max_games:
        raise ReplayTooLarge("bounds.replay-rounds", n=len(games), most=max_games)
    return replay_any(data)


def realtime_page(
    replays: list[Replay], first: int, count: int, lang: str = "en", max_steps: int | None = None
) -> dict[str, Any]:
    """The steps of games ``first`` to ``first + count - 1`` (0-based) of checked games;
    :class:`ReplayTooLarge` when they hold more than ``max_steps`` steps (before any)."""
    chosen = replays[first : first + count]
    steps = sum(len(rep.arbiter.log) + 1 for rep in chosen)
    if max_steps is not None and steps > max_steps:
        raise ReplayTooLarge("bounds.replay-steps", most=max_steps)
    games = [_game(rep, number, lang) for number, rep in enumerate(chosen, start=first + 1)]
    by_games = faces.part(replays[0].engine.game, "match_result")
    if len(replays) > 1 and by_games is not None:  # a match of games won
        for game in games:
            game["result"]["match"] = by_games(replays, game["number"])
    return {
        "game": replays[0].engine.game,
        "players": shown_names(replays[0].names, translator(lang)),
        "rounds": games,
    }


def _code(card: Card | None) -> str | None:
    return None if card is None else card.code


def _game(rep: Replay, number: int, lang: str) -> dict[str, Any]:
    module = record_module(rep.engine.game)
    engine = module.game_from_header(rep.header)
    clock = VirtualClock(rep.arbiter.start)
    arbiter: Arbiter[Any, Any] = Arbiter(engine, clock, rep.names)
    start = arbiter.start
    names = shown_names(rep.names, translator(lang))
    own = faces.part(engine.game, "replay_step")
    steps = [_step(engine, None, 0.0, lang, names, own)]
    for entry in rep.arbiter.log:  # checked by replay_any: each one goes as it went
        clock.advance_to(entry.t)
        if entry.timeout:
            arbiter.tick(entry.t)
        else:
            assert entry.seat is not None
            arbiter.submit(entry.seat, entry.action, entry.t)
        steps.append(_step(engine, entry, entry.t - start, lang, names, own))
    final = rep.engine
    result: dict[str, Any] = {"winner": rep.winner, "over": rep.finished}
    if rep.ended is not None:  # the table closed: a forfeit, or both away (nobody wins)
        result["ended"] = dict(rep.ended)
    parts = faces.part(final.game, "result_parts")
    if parts is not None:
        result.update(parts(final))
    match = rep.header.get("match")
    if isinstance(match, dict):
        result["match"] = match_result(match, final)
    return {
        "number": number,
        "players": names,
        "rules": engine.rules.to_json(),
        "duration": steps[-1]["t"],
        "steps": steps,
        "result": result,
    }


def _step(
    engine: Any,
    entry: Entry | None,
    t: float,
    lang: str,
    names: list[str],
    own: Callable[[Any, list[Any]], dict[str, Any]] | None,
) -> dict[str, Any]:
    views = [engine.view(0), engine.view(1)]
    step: dict[str, Any] = {
        "t": round(t, 3),
        "seat": None if entry is None else entry.seat,
        "accepted": True if entry is None else entry.accepted,
        "timeout": entry is not None and entry.timeout,
        "phase": views[0].phase,
        "centre": [_code(c) for c in views[0].centre],
        "centre_sizes": list(views[0].centre_sizes),
        "called": list(views[0].called),
        "text": [],
    }
    if entry is not None and entry.accepted:
        step["text"] = [entry_words(entry, engine.game, names, None, translator(lang))]
    elif entry is not None:
        assert entry.seat is not None
        tr = translator(lang)
        step["text"] = [tr._("{name}: refused", name=names[entry.seat])]
        step["refused"] = {
            "action": action_words(engine.action_to_json(entry.action), translator(lang)),
            "reason": reason_words(entry.reason or "", translator(lang)),
        }
    if own is not None:  # the game's own piles and hands
        step.update(own(engine, views))
    return step


def match_result(match: dict[str, Any], final: Any) -> dict[str, Any]:
    """A game's place in a match to a target score: its number, the scores before it (as
    recorded), the scores after it (its winner gains its points) and the match's winner once
    one reaches the target (None before; a record is checked by the arbiter, so the scores
    are numbers)."""
    before = match.get("scores")
    out: dict[str, Any] = {
        "game": match.get("game"),
        "scores": before,
        "winner": None,
        "unit": "points",
    }
    if not isinstance(before, list) or len(before) != 2:
        return out
    after = [int(before[0]), int(before[1])]
    res = final.result
    if res is not None and res.winner is not None:
        after[res.winner] += res.points
    out["after"] = after
    target = final.rules.target
    if res is not None and target > 0 and max(after) >= target:
        out["winner"] = 0 if after[0] >= target else 1
    return out
