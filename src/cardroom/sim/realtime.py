"""The real-time games between reaction bots on a virtual clock: a discrete-event loop, no sleeping.

The next thing to happen is the earliest of the bots' planned actions and the arbiter's countdown
deadline (a countdown due at the same moment as an action goes first, as at a real table). The
clock jumps straight to it, the arbiter applies it, and when the table changed both bots are shown
their new views. A game depends only on its deal seed and the bots' seeds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from cardroom.arbiter import Arbiter, VirtualClock
from cardroom.bots.reaction import ReactionBot, make_reaction_bot
from cardroom.games.realtime_engine import SEATS
from cardroom.games.registry import GAMES, new_engine

MAX_SECONDS = 4 * 3600.0
"""A game still going after this much game time is stopped and counted unfinished."""
MAX_STEPS = 20_000
"""Likewise after this many actions and countdowns (bots that shuffle cards around forever)."""


@dataclass(slots=True)
class GameResult:
    """One simulated game (or match to a target), seen from the bots' side: ``winner`` is an
    index into the bots list; the figures are totals over a match's games."""

    winner: int | None
    seconds: float
    stalemates: int
    redeals: int
    timeouts: int
    actions: int
    rejected: int
    stale: int
    finished: bool
    bot_seats: tuple[int, int]
    """The seat each bot (0 = the first named) played."""


@dataclass(slots=True)
class Table:
    """An engine, its arbiter on a virtual clock, and a reaction bot per seat."""

    engine: Any
    arbiter: Arbiter[Any, Any]
    clock: VirtualClock
    bots: list[ReactionBot]
    steps: int = 0
    rejected: int = 0
    stale: int = 0
    trace: list[tuple[float, int, Any]] = field(default_factory=list)
    keep_trace: bool = False

    def show(self, now: float) -> None:
        """Give each bot its seat's view (the only thing a bot ever sees), built only for a bot
        that has to look again: one with no plan, or after a change of phase."""
        engine = self.engine
        key = (engine.phase, self.arbiter.stalemate)
        for bot in self.bots:
            bot.notice(key, partial(engine.view, bot.seat), now)

    def step(self) -> bool:
        """Do the next thing that happens; False when nothing ever will (or the game is over)."""
        if self.engine.over:
            return False
        deadline = self.arbiter.deadline
        seat, due = -1, None
        for bot in self.bots:
            d = bot.due
            if d is not None and (due is None or d < due):
                seat, due = bot.seat, d
        if deadline is not None and (due is None or deadline <= due):
            self.clock.advance_to(max(deadline, self.clock.now()))
            self.arbiter.tick(self.clock.now())
            changed = True
        elif due is not None:
            now = self.clock.advance_to(max(due, self.clock.now()))
            bot = self.bots[seat]
            action = bot.act(now)
            if self.keep_trace:
                self.trace.append((now, seat, action))
            outcome = self.arbiter.submit(seat, action, now)
            changed = outcome.accepted
            if not changed:
                self.rejected += 1
                self.stale += outcome.stale
                bot.rejected(outcome.stale, self.engine.view(seat), now)
        else:
            return False
        self.steps += 1
        if changed:
            self.show(self.clock.now())
        return True


def new_table(
    engine: Any, bots: Sequence[str], rngs: Sequence[random.Random], names: Sequence[str]
) -> Table:
    """Seat ``bots[i]`` (a spec) at seat ``i`` with ``rngs[i]``, on a fresh virtual clock."""
    clock = VirtualClock()
    arbiter: Arbiter[Any, Any] = Arbiter(engine, clock, names)
    seated = [make_reaction_bot(bots[s], engine.game, s, rngs[s]) for s in SEATS]
    table = Table(engine, arbiter, clock, seated)
    table.show(0.0)
    return table


def run_table(table: Table, max_seconds: float = MAX_SECONDS, max_steps: int = MAX_STEPS) -> bool:
    """Play until the game is over or stuck; True when it finished."""
    while table.steps < max_steps and table.clock.now() <= max_seconds and table.step():
        pass
    return bool(table.engine.over)


def redeals(engine: Any) -> int:
    """New layouts dealt or side piles rebuilt so far (0 if the engine cannot say)."""
    for name in ("redeals", "rebuilds"):
        value = getattr(engine, name, None)
        if isinstance(value, int):
            return value
    return 0



def game_seed(seed: int, number: int) -> int:
    """The deal seed of game ``number`` of a simulation run from ``seed``."""
    return random.Random(f"sim/{seed}/deal/{number}").getrandbits(32)


def play_one(
    game: str,
    bots: Sequence[str],
    options: Mapping[str, str],
    seed: int,
    number: int,
    engine_factory: Callable[[int], Any] | None = None,
) -> GameResult:
    """Game ``number`` of a run: bot ``i`` plays seat ``(i + number) % 2`` (seats alternate)."""
    deal_seed = game_seed(seed, number)
    engine = engine_factory(deal_seed) if engine_factory else new_engine(game, options, deal_seed)
    seat_of = ((number) % 2, (number + 1) % 2)
    by_seat = [0, 0]
    for i, s in enumerate(seat_of):
        by_seat[s] = i
    specs = [bots[by_seat[s]] for s in SEATS]
    rngs = [random.Random(f"sim/{seed}/bot/{number}/{by_seat[s]}") for s in SEATS]
    names = [f"bot{by_seat[s]}" for s in SEATS]
    entry = GAMES.get(engine.game)  # (a test's engine_factory may deal a game of its own)
    match = entry.match_for(engine.rules, deal_seed) if entry is not None else None
    if match is not None:
        engine = match.game
    totals = GameResult(None, 0.0, 0, 0, 0, 0, 0, 0, False, (seat_of[0], seat_of[1]))
    while True:
        table = new_table(engine, specs, rngs, names)
        finished = run_table(table)
        totals.seconds += table.clock.now() - table.arbiter.start
        totals.stalemates += table.arbiter.stalemates
        totals.redeals += redeals(engine)
        totals.timeouts += table.arbiter.timeouts
        totals.actions += len(table.arbiter.log)
        totals.rejected += table.rejected
        totals.stale += table.stale
        if match is None or not finished or match.over:
            break
        engine = match.next_game()
    totals.finished = finished
    seat_winner = (match.winner if match is not None else engine.winner) if finished else None
    totals.winner = by_seat[seat_winner] if seat_winner is not None else None
    return totals


def bot_labels(bots: Sequence[str]) -> list[str]:
    """Names for the bots in results: the same bot twice becomes ``easy`` and ``easy#2``."""
    labels: list[str] = []
    for spec in bots:
        label, n = spec, 1
        while label in labels:
            n += 1
            label = f"{spec}#{n}"
        labels.append(label)
    return labels


@dataclass(slots=True)
class Summary:
    """Totals over a run of games."""

    labels: list[str]
    results: list[GameResult]
    target: int = 0
    """The target score when each result is a match (0: single games)."""

    @property
    def games(self) -> int:
        return len(self.results)

    def wins(self) -> dict[str, int]:
        """Games won by each bot (by label)."""
        out = dict.fromkeys(self.labels, 0)
        for r in self.results:
            if r.winner is not None:
                out[self.labels[r.winner]] += 1
        return out

    def _mean(self, values: Sequence[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    def to_json(self) -> dict[str, Any]:
        """``wins``, ``games``, ``mean_game_seconds``, ``stalemates_per_game``, … as JSON."""
        rs = self.results
        return {
            "wins": self.wins(),
            "draws": sum(1 for r in rs if r.finished and r.winner is None),
            "unfinished": sum(1 for r in rs if not r.finished),
            "games": self.games,
            "mean_game_seconds": round(self._mean([r.seconds for r in rs]), 3),
            "stalemates_per_game": round(self._mean([r.stalemates for r in rs]), 4),
            "redeals_per_game": round(self._mean([r.redeals for r in rs]), 4),
            "timeouts_per_game": round(self._mean([r.timeouts for r in rs]), 4),
            "stale_per_game": round(self._mean([r.stale for r in rs]), 4),
            "actions_per_game": round(self._mean([r.actions for r in rs]), 2),
        }


def play_chunk(
    game: str, bots: Sequence[str], options: Mapping[str, str], seed: int, numbers: Sequence[int]
) -> list[GameResult]:
    """Games ``numbers`` of a run (a unit of work for a worker process)."""
    return [play_one(game, bots, options, seed, n) for n in numbers]
