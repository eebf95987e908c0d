"""What a real-time table is made of and shares with its parts: its config, fixed when the table
is created (:class:`RealtimeConfig`, the ``created`` entry's ``config``, read back and checked
from a log), what its game tells it (:class:`GameParts`, the game's ``table_parts`` piece in the
registry, and :class:`Match`), its errors and refusals, and the readers of an entry's time and
seat. It names no game. :mod:`cardroom.tables.realtime` re-exports every public name here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from cardroom.bots.base import BotError
from cardroom.bots.reaction import LEVELS, check_spec
from cardroom.games.errors import RulesError
from cardroom.games.messages import Message
from cardroom.games.realtime_engine import SEATS
from cardroom.games.registry import REALTIME, names, new_engine
from cardroom.games.registry import game as registry_game
from cardroom.tables.config import SeatSpec, TableError

RealtimeTableError = TableError
"""The error of the real-time table is the service's :class:`TableError` (one type for both)."""


class LogError(TableError):
    """An entry, or a table's config, that the service itself never writes: the service checks
    a person's request before it makes an entry of it (the lobby's options and levels, the seat
    of a token, a name, the time), so this is met only in a corrupt or hand-edited log, or by a
    fault of ours. Its English sentence is for the logs and the tests; a person is never its
    reader (were one to meet it, the general refusal is said)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad-request", message)


BETWEEN_GAMES = Message(
    "table.between-games", "this game is over: the next game of the match is dealt soon"
)

PAUSED = Message("table.paused", "the game is paused until everybody is back")
CLOSED = Message("table.closed", "the table is closed")
NOT_STARTED = Message("table.not-started", "the game has not started yet")
"""Refusals of a person's action at a real-time table (each with an id)."""
RealtimeSeat = SeatSpec
"""A seat as created: a person (named when he joins) or a bot of a level."""

AWAY_THEN = ("forfeit", "bot")
"""What happens to a seat away for the table's ``away_limit``: the game is lost, or a bot plays."""
MAX_AWAY_LIMIT = 3600.0
MAX_GAMES = 9
"""The most games a match may ask a player to win (at a game that plays matches of games)."""


class Match(Protocol):
    """A match of a real-time game: its games so far, each dealt from the match's seed."""

    @property
    def game(self) -> Any:
        """The game being played (or the last one)."""

    @property
    def number(self) -> int:
        """The current game's number, from 1."""

    @property
    def scores(self) -> tuple[int, int]:
        """Each seat's score over the finished games (games won, or points)."""

    @property
    def over(self) -> bool:
        """True once a player has won the match."""

    @property
    def winner(self) -> int | None:
        """The seat that won the match, once it is over."""

    def next_game(self) -> Any:
        """Deal the next game (the current one over, the match not)."""


class GameParts(Protocol):
    """What a real-time game tells its table (its ``table_parts`` piece in the registry)."""

    UNNAMED_VERSION: int | None
    """The rules version of a table whose log names none (None: today's)."""

    def check_games(self, games: int) -> None:
        """Raise ValueError (an English sentence for the logs) if the game plays no match of
        ``games`` games won."""

    def check_rules(self, rules: Any, rules_version: int) -> None:
        """Raise ValueError (as ``check_games``) if these rules are not played at a table
        under ``rules_version``."""

    def new_match(
        self, rules: Any, seed: int, games: int, rules_version: int | None
    ) -> Match | None:
        """The match a table with this config plays (None: a single game)."""

    def match_frame(self, match: Any) -> dict[str, Any]:
        """A frame's ``unit`` (``games`` or ``points``) and ``target`` of ``match``."""

    def view_frame(self, view: Any, seat: int | None) -> dict[str, Any]:
        """The game's own fields of a ``table_view`` of ``view`` for ``seat`` (None: a
        spectator's)."""

    def record_header(self, engine: Any, players: Sequence[str], match: Any) -> dict[str, Any]:
        """The header of the record of ``engine``, a game of ``match``."""


def game_parts(game: str) -> GameParts:
    """Real-time game ``game``'s own part of its table, from the registry."""
    return cast(GameParts, registry_game(game).load("table_parts"))


@dataclass(frozen=True, slots=True, kw_only=True)
class RealtimeConfig:
    """Everything fixed when a real-time game's table is created."""

    game: str
    """The game's name (a real-time game of the registry)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Rule options as ``key=value`` values (``{"countdown": "3"}``); checked by the rules."""
    seats: tuple[RealtimeSeat, RealtimeSeat]
    seed: int
    level: str = "medium"
    """The level of the bots that fill empty person seats (and take over a seat left)."""
    rules_version: int | None = None
    """The version of the game's rules played (None: today's); kept in the log so that a table
    goes on, and replays, under the rules it began with."""
    away_limit: float = 60.0
    """Seconds a person seat may be away (the game paused) before ``away_then``."""
    away_then: str | None = None
    """``forfeit`` or ``bot``; None: ``forfeit`` between two people, ``bot`` against a bot."""
    games: int = 1
    """The games a player must win to win the match, at a game that plays such matches
    (1: a single game)."""

    def then(self) -> str:
        """What happens after ``away_limit`` (the default worked out from the seats)."""
        if self.away_then is not None:
            return self.away_then
        return "forfeit" if all(s.kind == "person" for s in self.seats) else "bot"

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the ``created`` entry's ``config``), rules written out in full."""
        rules = new_engine(self.game, {k: str(v) for k, v in self.options.items()}, 0).rules
        return {
            "game": self.game,
            "rules_version": self.rules_version or registry_game(self.game).load("rules_version"),
            "rules": rules.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "seed": self.seed,
            "level": self.level,
            "away_limit": self.away_limit,
            "away_then": self.then(),
            "games": self.games,
        }

    @classmethod
    def from_json(cls, data: Any) -> RealtimeConfig:
        """Read :meth:`to_json`'s form; raise RealtimeTableError naming the problem."""
        if not isinstance(data, Mapping):
            raise LogError("config must be an object")
        game = data.get("game")
        if game not in names(REALTIME):
            raise LogError(f"game must be {' or '.join(names(REALTIME))}, not {game!r}")
        today: int = registry_game(game).load("rules_version")
        parts = game_parts(game)
        seats_raw = data.get("seats")
        if not isinstance(seats_raw, list) or len(seats_raw) != len(SEATS):
            raise LogError("a real-time table has two seats")
        seats: list[RealtimeSeat] = []
        for raw in seats_raw:
            if not isinstance(raw, Mapping) or raw.get("kind") not in ("person", "bot"):
                raise LogError("a seat is {kind: person|bot, level, name}")
            level = raw.get("level")
            if raw["kind"] == "bot":
                check_bot(level, game)
            seats.append(RealtimeSeat(raw["kind"], level, raw.get("name")))
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise LogError(f"seed must be a whole number, not {seed!r}")
        level = data.get("level", "medium")
        check_bot(level, game)
        rules = data.get("rules", {})
        if not isinstance(rules, Mapping):
            raise LogError("rules must be an object")
        # a log without the field is of the version tables were first logged under
        unnamed = parts.UNNAMED_VERSION
        version = data.get("rules_version", today if unnamed is None else unnamed)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise LogError(f"rules_version must be 1, 2…, not {version!r}")
        if version > today:
            raise LogError(
                f"this table was made by a newer cardroom (rules version {version}): upgrade"
            )
        limit = data.get("away_limit", 60.0)  # (tables of earlier releases have none)
        if isinstance(limit, bool) or not isinstance(limit, int | float):
            raise LogError(f"away_limit must be seconds, not {limit!r}")
        if not 0 <= limit <= MAX_AWAY_LIMIT:
            raise LogError(f"away_limit is 0 to {MAX_AWAY_LIMIT:g} seconds, not {limit!r}")
        then = data.get("away_then")
        if then is not None and then not in AWAY_THEN:
            raise LogError(f"away_then is forfeit or bot, not {then!r}")
        games = data.get("games", 1)
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            raise LogError(f"games is 1 to {MAX_GAMES}, not {games!r}")
        try:
            parts.check_games(games)
        except ValueError as exc:
            raise LogError(str(exc)) from None
        config = cls(
            game=game, options=dict(rules), seats=(seats[0], seats[1]), seed=seed, level=level,
            rules_version=version, away_limit=float(limit), away_then=then, games=games,
        )  # fmt: skip
        try:
            parts.check_rules(config.rules(), version)
        except ValueError as exc:
            raise LogError(str(exc)) from None
        return config

    def rules(self) -> Any:
        """The game's rules with the config's options; raise RealtimeTableError for options
        the rules refuse."""
        try:
            return new_engine(self.game, {k: str(v) for k, v in self.options.items()}, 0).rules
        except RulesError as exc:
            raise RealtimeTableError("bad-request", exc.prefixed("rules: ")) from None
        except ValueError as exc:
            raise LogError(f"rules: {exc}") from None

    def rules_target(self) -> int:
        """The target score of a match in the rules (0: none, a single game); checks the
        options."""
        return int(getattr(self.rules(), "target", 0))


def check_bot(level: Any, game: str) -> None:
    """A bot is a level (``easy`` … ``expert``) or a reaction-bot spec (``reaction:min=…``)."""
    if level in LEVELS:
        return
    try:
        if not isinstance(level, str):
            raise BotError(f"{level!r}")
        check_spec(level, game)
    except BotError:
        raise LogError(f"a bot's level is one of {list(LEVELS)}, not {level!r}") from None


def entry_time(data: Mapping[str, Any]) -> float:
    """An entry's time stamp ``t`` (seconds); LogError if it is none."""
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t):
        raise LogError(f"t must be a number of seconds, not {t!r}")
    return float(t)


def entry_seat(data: Mapping[str, Any]) -> int:
    """An entry's ``seat`` (0 or 1); LogError if it is none."""
    seat = data.get("seat")
    if isinstance(seat, bool) or seat not in SEATS:
        raise LogError(f"seat must be 0 or 1, not {seat!r}")
    assert isinstance(seat, int)
    return seat
