"""Bots for the real-time games that play like people: they need time to see, decide and move.

A :class:`ReactionBot` sees only its seat's view (``engine.view(seat)``) and draws only from its
own ``random.Random``. Whenever the table changes and it has nothing planned, it looks at its view,
picks an action (a play, a turn-up, a slap, a call…) and schedules it at ``now + reaction time``,
a time drawn afresh for every card from its level's range:

==========  ===============
level       reaction time
==========  ===============
easy        2 – 4 s
medium      1 – 3 s
hard        0.5 – 1.75 s
expert      0.3 – 0.6 s
==========  ===============

(the issue's figures: published reaction-time studies measure simple button presses, ~0.2-0.3 s,
or lab choice tasks, not card play, so nothing better-founded was found; what they do say is that
reaction times are right-skewed, which a uniform draw ignores.)

A bot is committed to a planned play once its hand is moving: it is not told when the pile it aims
at changes. It sends the top card it saw as ``seen``, so the arbiter rejects the play as stale if
the pile changed; the bot then **looks again after a re-aim time**, a fresh draw from its range
times ``reaim`` (0.5 by default: it only has to read one pile again, not scan its whole layout).
When the table changes phase (a stalemate resolved, a call, a slap race, the game over), which
any player notices at once, the bot keeps a plan that is still legal (a call does not stop a hand
already moving) and otherwise drops it and looks again after a full reaction time.

What it does (from its view's ``legal_actions`` only) is its game's strategy in
:data:`STRATEGIES`, registered by the game's ``bots`` piece (``games/<game>/bots.py``) and
loaded the first time a bot of that game is made (:func:`strategy_for`).
Name bots ``easy``, ``medium``, ``hard``, ``expert``, ``reaction:min=0.4,max=0.9[,reaim=0.5]`` or
``random[:min=…,max=…]`` (uniformly random legal actions: a baseline, not a person).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.bots.base import BotError, parse_spec
from cardroom.games.messages import Message
from cardroom.games.realtime_engine import adjacent
from cardroom.games.registry import GAMES, REALTIME, names


@dataclass(frozen=True, slots=True)
class Timing:
    """A reaction-time range in seconds, and the share of one a re-aim takes."""

    low: float
    high: float
    reaim: float = 0.5

    def __post_init__(self) -> None:
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low >= 0):
            raise BotError(
                Message(
                    "bot.reaction-times",
                    f"reaction times must be 0 or more seconds, not {self.low}",
                    low=self.low,
                )
            )
        if self.high < self.low:
            raise BotError(
                Message(
                    "bot.reaction-order",
                    f"max={self.high} is below min={self.low}: give min <= max",
                    low=self.low,
                    high=self.high,
                )
            )
        if not (math.isfinite(self.reaim) and 0 < self.reaim <= 1):
            raise BotError(
                Message(
                    "bot.reaim",
                    f"reaim={self.reaim} must be a share of a reaction time in (0, 1]",
                    reaim=self.reaim,
                )
            )

    def draw(self, rng: random.Random) -> float:
        """A reaction time for one card."""
        return rng.uniform(self.low, self.high)

    def draw_reaim(self, rng: random.Random) -> float:
        """The time to look again at a pile that changed under a play."""
        return self.reaim * rng.uniform(self.low, self.high)


LEVELS: dict[str, Timing] = {
    "easy": Timing(2.0, 4.0),
    "medium": Timing(1.0, 3.0),
    "hard": Timing(0.5, 1.75),
    "expert": Timing(0.3, 0.6),
}
"""The difficulty levels offered on the command line."""

Strategy = Callable[[Any, random.Random], Any | None]
"""Picks an action from a view (or None: nothing worth doing now)."""

STRATEGIES: dict[str, Strategy] = {}
"""Game name -> the human-like strategy for it. Filled in below; tests add their own."""


@dataclass(slots=True)
class Plan:
    """An action a bot has decided on and when its hand gets there."""

    action: Any
    due: float
    key: tuple[str, bool]


class ReactionBot:
    """A seat played with human reaction times (see the module docstring).

    The driver calls :meth:`observe` with the seat's view whenever the table changed, :meth:`act`
    when :attr:`due` has come, and :meth:`rejected` when the arbiter refused the action.
    """

    def __init__(
        self,
        name: str,
        game: str,
        seat: int,
        timing: Timing,
        rng: random.Random,
        strategy: Strategy | None = None,
    ) -> None:
        self.name = name
        self.seat = seat
        self.timing = timing
        self.rng = rng
        found = strategy or strategy_for(game)
        if found is None:
            known = " or ".join(names(REALTIME))
            raise BotError(f"no reaction bot plays {game!r}: choose {known}")
        self.strategy: Strategy = found
        self.plan: Plan | None = None
        self.reaims = 0
        """How many times a stale rejection made this bot look again."""

    @property
    def due(self) -> float | None:
        """When the planned action happens, or None when nothing is planned."""
        return self.plan.due if self.plan is not None else None

    def observe(self, view: Any, now: float) -> None:
        """The table changed: keep a plan in the same phase, else look and decide."""
        self.notice((view.phase, view.stalemate), lambda: view, now)

    def notice(self, key: tuple[str, bool], look: Callable[[], Any], now: float) -> None:
        """Like :meth:`observe`, given the public phase and stalemate flag and a way to get the
        seat's view, which is only built when the bot has to look (the simulation's fast path)."""
        if self.plan is not None and self.plan.key == key:
            return
        view = look()
        if self.plan is not None and self.plan.action in view.legal_actions:
            self.plan.key = (view.phase, view.stalemate)
            return
        self.plan = None
        self._decide(view, now, self.timing.draw(self.rng))

    def act(self, now: float) -> Any:
        """The planned action, now due (the plan is used up)."""
        if self.plan is None:
            raise BotError(f"{self.name} has nothing planned")
        action = self.plan.action
        self.plan = None
        return action

    def rejected(self, stale: bool, view: Any, now: float) -> None:
        """The arbiter refused the action: look again (a re-aim if only the pile changed)."""
        if stale:
            self.reaims += 1
        delay = self.timing.draw_reaim(self.rng) if stale else self.timing.draw(self.rng)
        self._decide(view, now, delay)

    def _decide(self, view: Any, now: float, delay: float) -> None:
        action = self.strategy(view, self.rng)
        if action is not None:
            self.plan = Plan(action, now + delay, (view.phase, view.stalemate))


def _random_strategy(view: Any, rng: random.Random) -> Any | None:
    actions = view.legal_actions
    return actions[rng.randrange(len(actions))] if actions else None


def make_reaction_bot(spec: str, game: str, seat: int, rng: random.Random) -> ReactionBot:
    """Build a bot from a level name, ``reaction:min=…,max=…[,reaim=…]`` or ``random:…``."""
    name, options = parse_spec(spec)
    strategy: Strategy | None = None
    if name in LEVELS:
        if options:
            raise BotError(
                Message(
                    "bot.level-options",
                    f"level {name!r} takes no options: use reaction:min=…,max=…",
                    typed=name,
                )
            )
        timing = LEVELS[name]
    elif name in ("reaction", "random"):
        unknown = set(options) - {"min", "max", "reaim"}
        if unknown:
            typed = ", ".join(sorted(unknown))
            raise BotError(
                Message(
                    "bot.reaction-options",
                    f"bot {name!r} takes min, max and reaim, not {typed}",
                    bot=name,
                    typed=typed,
                )
            )
        default = Timing(0.05, 0.05) if name == "random" else LEVELS["medium"]
        try:
            low = float(options.get("min", default.low))
            high = float(options.get("max", options.get("min", default.high)))
            reaim = float(options.get("reaim", default.reaim))
        except ValueError:
            raise BotError(
                Message(
                    "bot.reaction-numbers",
                    f"{spec!r}: min, max and reaim are numbers of seconds",
                    spec=spec,
                )
            ) from None
        timing = Timing(low, high, reaim)
        if name == "random":
            strategy = _random_strategy
    else:
        known = ", ".join([*LEVELS, "reaction:min=…,max=…", "random"])
        raise BotError(
            Message(
                "bot.unknown-for",
                f"unknown bot {name!r} for {game}: choose one of {known}",
                typed=name,
                game=game,
                known=known,
            )
        )
    return ReactionBot(spec.strip(), game, seat, timing, rng, strategy)


def check_spec(spec: str, game: str) -> None:
    """Raise :class:`BotError` if ``spec`` does not name a bot for ``game``."""
    make_reaction_bot(spec, game, 0, random.Random(0))


# -- strategies -----------------------------------------------------------------------------


def followers(card: Any, hand: Sequence[Any]) -> int:
    """How many of ``hand`` could go on ``card`` next (a person plays runs: 7, then 6, then 5)."""
    return sum(1 for c in hand if c is not card and adjacent(c, card))


def strategy_for(game: str) -> Strategy | None:
    """The strategy registered for real-time game ``game`` (its registry ``bots`` piece, loaded
    now, registers it in :data:`STRATEGIES`); None if it has none."""
    if game not in STRATEGIES:
        entry = GAMES.get(game)
        if entry is not None and entry.realtime and entry.bots is not None:
            entry.load("bots")
    return STRATEGIES.get(game)
