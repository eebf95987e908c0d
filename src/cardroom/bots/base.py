"""The bot interface: a bot sees only its seat's view, draws only from its own ``random.Random``."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, Protocol

from cardroom.games.messages import Message


class BotError(ValueError):
    """A bot name or option is not valid (its argument a :class:`Message`: id and fields)."""


class Bot(Protocol):
    """A turn-based game's player: picks one of ``view.legal_actions`` (a game's bots take its
    view and give its action: the types are the game's own)."""

    name: str

    def act(self, view: Any, rng: random.Random) -> Any:
        """Choose an action for ``view.seat`` (called only when ``view.my_turn``)."""
        ...


class LazyRandom(random.Random):
    """``random.Random(seed)`` seeded at its first draw, not when made.

    Seeding from text (sha512, then the Mersenne Twister's key schedule) costs about 7 µs,
    more than a simple bot's whole turn; a bot with one legal action never draws, so it never
    pays it. Every draw (``random``, ``getrandbits`` and all that build on them: ``randrange``,
    ``choice``, ``shuffle``…) and ``getstate`` give exactly what ``random.Random(seed)``'s
    would: a bot's moves do not change.
    """

    def __init__(self, seed: int | str | None = None) -> None:
        if seed is None:  # (as random.Random(): from the system's entropy, now)
            self._pending: int | str | None = None
            super().__init__()
            return
        self._pending = seed
        self.gauss_next = None

    def _wake(self) -> None:
        pending = self._pending
        if pending is not None:
            self._pending = None
            super().seed(pending)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Seed now (the pending seed is dropped)."""
        self._pending = None
        super().seed(a, version)

    def random(self) -> float:
        """As :meth:`random.Random.random`."""
        if self._pending is not None:
            self._wake()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        """As :meth:`random.Random.getrandbits`."""
        if self._pending is not None:
            self._wake()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        """As :meth:`random.Random.getstate`."""
        self._wake()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        """As :meth:`random.Random.setstate` (the pending seed is dropped)."""
        self._pending = None
        super().setstate(state)


BotFactory = Callable[[dict[str, str]], Bot]
"""Builds a bot from its ``key=value`` options."""

REGISTRY: dict[str, BotFactory] = {}
"""Bot family name -> factory. Each bot module adds itself."""

LEVELS: dict[str, str] = {}
"""Difficulty level shown to players -> the bot spec it stands for."""


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``NAME[:key=value,…]`` into the name and its options."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise BotError(
                Message(
                    "bot.key-value",
                    f"bot option {part!r} in {spec!r} must be written key=value",
                    typed=part,
                    spec=spec,
                )
            )
        options[key.strip()] = value.strip()
    return name.strip(), options


def make_bot(spec: str) -> Bot:
    """Build a bot from ``NAME[:key=value,…]`` or a level name (``easy`` … ``expert``)."""
    name, options = parse_spec(spec)
    if name in LEVELS and not options:
        name, options = parse_spec(LEVELS[name])
    factory = REGISTRY.get(name)
    if factory is None:
        known = ", ".join(sorted(REGISTRY) + sorted(LEVELS))
        raise BotError(
            Message(
                "bot.unknown",
                f"unknown bot {name!r}: choose one of {known}",
                typed=name,
                known=known,
            )
        )
    return factory(options)


def no_options(name: str, options: dict[str, str]) -> None:
    """Refuse options for a bot that takes none."""
    if options:
        typed = ", ".join(options)
        raise BotError(
            Message(
                "bot.no-options",
                f"bot {name!r} takes no options (got {typed})",
                bot=name,
                typed=typed,
            )
        )


def parse_budget(
    name: str, options: dict[str, str], count: str = "iterations", least: int = 1
) -> tuple[int | None, int | None]:
    """A search bot's budget, ``ms=N`` or ``<count>=N`` (not both), as ``(ms, count)``.

    Both are None when neither is given; the count must be at least ``least``.
    """
    if "ms" in options and count in options:
        raise BotError(
            Message(
                "bot.ms-or-count",
                f"bot {name!r}: give ms=N or {count}=N, not both",
                bot=name,
                count=count,
            )
        )
    for key in ("ms", count):
        if key in options:
            try:
                value = int(options[key])
            except ValueError:
                value = 0
            floor = 1 if key == "ms" else least
            if value < floor:
                raise BotError(
                    Message(
                        "bot.whole-number",
                        f"bot {name!r}: {key}={options[key]!r} must be a whole number ≥ {floor}",
                        bot=name,
                        key=key,
                        typed=options[key],
                        least=floor,
                    )
                )
            return (value, None) if key == "ms" else (None, value)
    return None, None


def not_valid(bot: str, key: str, typed: str, choices: tuple[str, ...]) -> Message:
    """A bot option whose value is not one of ``choices``."""
    listed = ", ".join(choices[:-1]) + f" or {choices[-1]}"
    return Message(
        "bot.not-valid",
        f"bot {bot!r}: {key}={typed!r} is not valid: use {listed}",
        bot=bot,
        key=key,
        typed=typed,
        choices=", ".join(choices),
    )


def unknown_options(bot: str, unknown: set[str], use: str) -> Message:
    """Options a bot does not take (``use`` lists the ones it does, as written)."""
    typed = ", ".join(sorted(unknown))
    return Message(
        "bot.unknown-option",
        f"bot {bot!r} has no option {typed}: use {use}",
        bot=bot,
        typed=typed,
        choices=use.replace(" or ", ", "),
    )


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}
"""What a search bot's ``ms=N`` budget counts: ``wall`` time (the default: what a person at a
table waits) or ``cpu`` time of the thinking thread (benchmarks: the budget then does not depend
on how loaded the machine is)."""


def parse_clock(name: str, options: dict[str, str]) -> Callable[[], float]:
    """A search bot's ``clock=wall|cpu`` option (default ``wall``) as its clock function."""
    clock = options.get("clock", "wall")
    if clock not in CLOCKS:
        raise BotError(not_valid(name, "clock", clock, ("wall", "cpu")))
    return CLOCKS[clock]
