"""Analysis of a real-time game: how fast each player reacted, and what each one missed.

The record is replayed (:func:`cardroom.arbiter.replay_any`: every action at its time, checked
as in play), then its accepted actions are applied once more to a fresh engine, and after every
change the cards each player could play are noted (``legal_actions``: the plays of the seat's
view):

- a **reaction time** runs from the moment a card became playable for the player to the moment
  the player played it (a card that stays playable while it is moved between stock piles keeps
  its moment);
- a **play missed** is a card that was playable and stopped being so because of the other
  player's action or a countdown (its pile covered, a flip), not the player's own, after it had
  been playable for longer than that player's median reaction (a shorter chance is a race
  lost, not a miss); one change counts at most one miss per player, and a card at most once;
- a play at the very moment a countdown's flip made its card playable is not a reaction
  (nobody reacts in no time): it is counted as a play but not timed;
- **refused plays**: the player's plays refused as stale (the pile had changed) or illegal;
- **stalemate calls**: the actions whose class says ``stalemate_call`` (a call to break a
  stalemate), at the start included;
- **slaps won and lost** (games with a slap race): who slapped first for the centre piles.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from cardroom.analysis import AnalysisError as BaseAnalysisError
from cardroom.arbiter import RecordError, Replay, record_module, replay_any
from cardroom.cards import Card
from cardroom.games.realtime_engine import SEATS

HISTOGRAM_STEP = 0.25
"""Seconds per bar of the reaction-time histogram."""
HISTOGRAM_BARS = 16
"""Bars of the histogram; the last one holds every slower reaction."""


class AnalysisError(BaseAnalysisError):
    """A record cannot be analysed (malformed, or not a real-time game's record)."""

    code = "bad-record"


@dataclass(slots=True)
class PlayerStats:
    """One player's figures over the record (every game of a match)."""

    name: str
    reactions: list[float] = field(default_factory=list)
    """Every reaction time, in seconds, in the order played."""
    missed: int = 0
    refused: int = 0
    calls: int = 0
    slaps_won: int = 0
    slaps_lost: int = 0
    untimed: int = 0
    """Plays made at the moment a countdown's flip made the card playable (not timed)."""
    timeline: list[tuple[float, float]] = field(default_factory=list)
    """(time of the play, reaction time) for every play, for the chart."""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON, with the summary figures."""
        r = self.reactions
        return {
            "name": self.name,
            "plays": len(r) + self.untimed,
            "median": round(statistics.median(r), 3) if r else None,
            "mean": round(statistics.fmean(r), 3) if r else None,
            "fastest": round(min(r), 3) if r else None,
            "slowest": round(max(r), 3) if r else None,
            "missed": self.missed,
            "refused": self.refused,
            "calls": self.calls,
            "slaps_won": self.slaps_won,
            "slaps_lost": self.slaps_lost,
            "histogram": histogram(r),
            "timeline": [[round(t, 3), round(x, 3)] for t, x in self.timeline],
        }


@dataclass(slots=True)
class RealtimeAnalysis:
    """A real-time game's record analysed."""

    game: str
    players: list[PlayerStats]
    games: int
    duration: float
    """Seconds from the first game's start to the last action."""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (``--json``, the web)."""
        return {
            "game": self.game,
            "games": self.games,
            "duration": round(self.duration, 3),
            "histogram_step": HISTOGRAM_STEP,
            "players": [p.to_json() for p in self.players],
        }


def histogram(reactions: list[float]) -> list[int]:
    """How many reactions fall in each ``HISTOGRAM_STEP`` (the last bar: that and slower)."""
    bars = [0] * HISTOGRAM_BARS
    for x in reactions:
        bars[min(HISTOGRAM_BARS - 1, int(x / HISTOGRAM_STEP))] += 1
    return bars


def _playable(engine: Any, seat: int) -> set[Card]:
    return {a.card for a in engine.legal_actions(seat) if type(a).__name__ == "Play"}


@dataclass(frozen=True, slots=True)
class _Chance:
    """A card that stopped being playable for ``seat`` through no action of its own."""

    seat: int
    card: Card
    length: float
    """Seconds it had been playable."""
    change: tuple[int, int]
    """Which game and change ended it (one miss per change and player)."""


def _analyse_game(
    rep: Replay, stats: list[PlayerStats], chances: list[_Chance], game: int
) -> float:
    header = rep.header
    engine = record_module(header["game"]).game_from_header(header)
    since: list[dict[Card, float]] = [{}, {}]
    start = float(header.get("start", 0.0))
    last = start

    changes = 0
    flipped: set[tuple[int, Card]] = set()
    """Cards made playable by the last countdown's flip (at time ``flip_t``)."""
    flip_t = -1.0

    def refresh(t: float, actor: int | None) -> None:
        nonlocal changes
        changes += 1
        for seat in SEATS:
            now = _playable(engine, seat)
            for card in list(since[seat]):
                if card not in now:
                    became = since[seat].pop(card)
                    if actor != seat:
                        chances.append(_Chance(seat, card, t - became, (game, changes)))
            for card in now:
                since[seat].setdefault(card, t)

    refresh(start, None)
    for entry in rep.arbiter.log:
        last = entry.t
        if entry.seat is None:  # a countdown ran out: the engine resolved the stalemate
            engine.resolve_stalemate()
            before = [set(since[s]) for s in SEATS]
            refresh(entry.t, None)
            flip_t = entry.t
            flipped = {(s, c) for s in SEATS for c in since[s] if c not in before[s]}
            continue
        seat, action = entry.seat, entry.action
        kind = type(action).__name__
        if not entry.accepted:
            if kind == "Play":
                stats[seat].refused += 1
            continue
        if kind == "Play":
            became = since[seat].pop(action.card, entry.t)
            if not (entry.t <= flip_t and (seat, action.card) in flipped):
                stats[seat].reactions.append(entry.t - became)
                stats[seat].timeline.append((entry.t, entry.t - became))
            else:
                stats[seat].untimed += 1
        elif getattr(action, "stalemate_call", False):
            stats[seat].calls += 1
        for event in engine.apply(seat, action):
            if type(event).__name__ == "Slapped":
                stats[event.seat].slaps_won += 1
                stats[1 - event.seat].slaps_lost += 1
        refresh(entry.t, seat)
    return last


def _count_missed(chances: list[_Chance], stats: list[PlayerStats]) -> None:
    """Each player's plays missed among ``chances`` (see the module docstring)."""
    for seat, player in enumerate(stats):
        # a player never timed has no median: every chance lost counts
        median = statistics.median(player.reactions) if player.reactions else 0.0
        counted: set[tuple[int, Card]] = set()
        changes: set[tuple[int, int]] = set()
        for chance in chances:
            if (
                chance.seat == seat
                and chance.length > median
                and (chance.change[0], chance.card) not in counted
                and chance.change not in changes
            ):
                counted.add((chance.change[0], chance.card))
                changes.add(chance.change)
                player.missed += 1


def analyse(data: Any) -> RealtimeAnalysis:
    """Analyse a real-time game or match (a parsed JSON record).

    Raises :class:`AnalysisError` (the replay's message) for a malformed record.
    """
    try:
        replays = replay_any(data)
    except RecordError as exc:
        raise AnalysisError(exc.message) from None  # the message keeps its id for the words
    names = replays[0].names
    stats = [PlayerStats(name) for name in names]
    start = float(replays[0].header.get("start", 0.0))
    end = start
    chances: list[_Chance] = []
    for number, rep in enumerate(replays):
        end = max(end, _analyse_game(rep, stats, chances, number))
    _count_missed(chances, stats)
    return RealtimeAnalysis(str(replays[0].header["game"]), stats, len(replays), end - start)
