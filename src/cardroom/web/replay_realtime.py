"""The replay viewer's frames for Spit and Speed: a record stepped through the arbiter.

A record (one game, or a Speed match's list of games; from the terminal or the web) is checked
by :func:`cardroom.arbiter.replay_any`, then played again entry by entry on a virtual clock;
each entry gives one step with every card face up (the game is over), its time in seconds from
the start, its words in the viewer's language, and for a refused action the action and the
reason. The page never re-implements the rules.
"""

from __future__ import annotations

from typing import Any

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
from cardroom.games.registry import REALTIME
from cardroom.games.registry import names as registry_names
from cardroom.i18n import translator
from cardroom.i18n.names import shown_names
from cardroom.i18n.realtime_words import action_words, entry_words, reason_words
from cardroom.web.replay_frames import ReplayTooLarge

__all__ = [
    "RecordError",
    "checked_realtime",
    "is_realtime_record",
    "realtime_frames",
    "realtime_page",
]


def is_realtime_record(data: Any) -> bool:
    """True for a Spit or Speed record (a game, or a non-empty list of games)."""
    if isinstance(data, list) and data:
        data = data[0]
    return isinstance(data, dict) and data.get("game") in registry_names(REALTIME)


def realtime_frames(
    data: Any, lang: str = "en", max_games: int | None = None, max_steps: int | None = None
) -> dict[str, Any]:
    """The viewer's steps of a Spit or Speed record; :class:`RecordError` when it does not
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
    """The games of a Spit or Speed record, checked by the arbiter (done once per record);
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
    if len(replays) > 1 and replays[0].engine.game == "spit":  # a Spit match: games won
        for game in games:
            game["result"]["match"] = spit_match_result(replays, game["number"])
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
    steps = [_step(engine, None, 0.0, lang, names)]
    for entry in rep.arbiter.log:  # checked by replay_any: each one goes as it went
        clock.advance_to(entry.t)
        if entry.timeout:
            arbiter.tick(entry.t)
        else:
            assert entry.seat is not None
            arbiter.submit(entry.seat, entry.action, entry.t)
        steps.append(_step(engine, entry, entry.t - start, lang, names))
    final = rep.engine
    result: dict[str, Any] = {"winner": rep.winner, "over": rep.finished}
    if rep.ended is not None:  # the table closed: a forfeit, or both away (nobody wins)
        result["ended"] = dict(rep.ended)
    if final.game == "speed" and final.over:
        result["points"] = final.view(0).points
        result["points_from"] = points_from(final)
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
    engine: Any, entry: Entry | None, t: float, lang: str, names: list[str]
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
    if engine.game == "spit":
        step["stocks"] = [
            [
                {"cards": [c.code for c in pile], "up": bool(up)}
                for pile, up in zip(engine.stock(seat), engine.face_up(seat), strict=True)
            ]
            for seat in (0, 1)
        ]
        step["spit_left"] = [views[0].spit_left, views[1].spit_left]
        step["redeals"] = views[0].redeals
    else:
        step["hands"] = [[c.code for c in views[seat].hand] for seat in (0, 1)]
        step["draw_sizes"] = list(views[0].draw_sizes)
        step["side_sizes"] = list(views[0].side_sizes)
        step["points"] = views[0].points
    return step


def match_result(match: dict[str, Any], final: Any) -> dict[str, Any]:
    """A Speed match game's place: its number, the scores before it (as recorded), the scores
    after it (its winner gains its points) and the match's winner once one reaches the target
    (None before; a record is checked by the arbiter, so the scores are numbers)."""
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


def spit_match_result(replays: list[Replay], number: int) -> dict[str, Any]:
    """Game ``number`` (from 1) of a Spit match record: the games won by each seat before and
    after it, and the match's winner at its last game (the one who won it: the match ends at
    its target, or when a player leaves for too long)."""
    wins = [0, 0]
    before = wins
    for n, rep in enumerate(replays[:number], start=1):
        if n == number:
            before = list(wins)
        if rep.winner is not None:
            wins[rep.winner] += 1
    last = number == len(replays)
    winner = replays[-1].winner if last else None
    return {"game": number, "scores": before, "after": wins, "winner": winner, "unit": "games"}


def points_from(game: Any) -> str | None:
    """What a finished Speed game's points counted: ``draw`` (the loser's draw pile), ``hand``
    (his hand, his draw pile being empty: rules version 4) or ``both`` (``score_hand``)."""
    res = game.result
    if res is None or res.winner is None:
        return None
    if game.rules.score_hand:
        return "both"
    loser = 1 - res.winner
    return "hand" if game.draw_sizes()[loser] == 0 and res.points > 0 else "draw"
