"""``--play``: which bot plays, read from ``module:attribute`` or a cardroom bot's name."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
from dataclasses import dataclass
from typing import Any

from cardroom.botclient.players import PolicyBot, RealtimePlayer, SeatPlayer, TurnPlayer, takes_two
from cardroom.bots.base import make_bot
from cardroom.bots.reaction import check_spec
from cardroom.games.registry import Game, games, resolve

__all__ = ["Play", "PlayError", "load_play"]


class PlayError(ValueError):
    """``--play`` names nothing that can play (the message says what to write instead)."""


WHAT = (
    "write --play 'my_module:MyBot' (a class or object with act(view, rng), a PettingZoo or "
    "Gymnasium policy(observation, action_mask) -> action, a model with predict(...), or a "
    "real-time bot with observe/due/act/rejected) or a cardroom bot: easy, medium, hard, expert"
)


@dataclass(frozen=True)
class Play:
    """What plays: a cardroom bot by name (``spec``) or an object of the program's (``target``,
    a class is made anew for each table)."""

    text: str
    spec: str | None = None
    target: Any = None
    named_games: frozenset[str] = frozenset()
    """The games whose bots know ``spec``."""

    @property
    def kind(self) -> str:
        """``bot`` (``act(view, rng)``), ``policy`` (research encoding), ``realtime``
        (``observe``/``act``), ``strategy`` (``f(view, rng)`` for a real-time game) or ``named``."""
        if self.spec is not None:
            return "named"
        probe = self.target
        if inspect.isclass(probe):
            if hasattr(probe, "observe"):
                return "realtime"
            if hasattr(probe, "predict"):
                return "policy"
            return "bot" if hasattr(probe, "act") else "policy"
        if hasattr(probe, "observe"):
            return "realtime"
        if hasattr(probe, "predict"):
            return "policy"
        if hasattr(probe, "act") and not callable(probe):
            return "bot"
        return "policy"

    def plays(self, game: Game) -> bool:
        """Whether this can sit at a table of ``game``."""
        kind = self.kind
        if kind == "named":
            return game.name in self.named_games
        if kind == "realtime":
            return game.realtime
        if kind == "policy" and not inspect.isclass(self.target) and game.realtime:
            return takes_two(self.target)  # (a real-time game's strategy(view, rng))
        return not game.realtime

    def _object(self) -> Any:
        return self.target() if inspect.isclass(self.target) else self.target

    def player(self, game: Game, seed: int | str | None = None, name: str = "Bot") -> SeatPlayer:
        """A fresh player for one seat at a table of ``game``."""
        rng = random.Random(seed)
        if not self.plays(game):
            raise PlayError(f"{self.text} does not play {game.name}")
        if game.realtime:
            from cardroom.bots.reaction import LEVELS, ReactionBot, make_reaction_bot

            if self.spec is not None:
                spec = self.spec
                make_named = make_reaction_bot
                return RealtimePlayer(
                    game, lambda seat: make_named(spec, game.name, seat, rng), name
                )
            if self.kind == "realtime":
                return RealtimePlayer(game, lambda seat: self._object(), name)
            strategy = self.target
            return RealtimePlayer(
                game,
                lambda seat: ReactionBot(
                    self.text, game.name, seat, LEVELS["expert"], rng, strategy
                ),
                name,
            )
        if self.spec is not None:
            game.load("bots")
            bot = make_bot(self.spec)
        elif self.kind == "bot":
            bot = self._object()
        else:
            bot = PolicyBot(self._object(), resolve(game.load("wire").ENCODING))
        return TurnPlayer(game, bot, rng, name)


def _named(text: str) -> Play | None:
    """A cardroom bot's name, if some game's bots know it (it plays those games)."""
    known: set[str] = set()
    for entry in games():
        try:
            if entry.realtime:
                check_spec(text, entry.name)
            else:
                entry.load("bots")  # (importing a game's bots registers them)
                make_bot(text)
        except (ValueError, LookupError):
            continue
        known.add(entry.name)
    return Play(text, spec=text, named_games=frozenset(known)) if known else None


def load_play(text: str) -> Play:
    """``module:attribute`` (imported) or a cardroom bot's name; :class:`PlayError` says what
    is wrong and what to write."""
    text = text.strip()
    module, sep, attribute = text.partition(":")
    if sep and module and "=" not in text:
        found = None
        try:
            found = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            found = None
        if found is not None:
            try:
                loaded = importlib.import_module(module)
            except Exception as exc:  # the program's own module: say how it failed
                raise PlayError(f"importing {module} failed: {type(exc).__name__}: {exc}") from exc
            target: Any = loaded
            for part in attribute.split("."):
                if not hasattr(target, part):
                    raise PlayError(f"{module} has no {attribute!r}: {WHAT}")
                target = getattr(target, part)
            return Play(text, target=target)
    named = _named(text)
    if named is not None:
        return named
    if sep:
        raise PlayError(
            f"cannot import {module!r} (is it on PYTHONPATH, or in the current directory?): {WHAT}"
        )
    raise PlayError(f"{text!r} is not a module:attribute nor a cardroom bot: {WHAT}")
