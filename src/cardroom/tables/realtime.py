"""A real-time game's table for the web service: synchronous, deterministic, rebuilt from its log.

A :class:`RealtimeTable` is a state machine over log entries; it does no I/O, runs no tasks and
reads no clock. Every entry carries the server's time stamp ``t`` (seconds), and the table feeds
those times to the :class:`~cardroom.arbiter.Arbiter` through a virtual clock, so applying the
same entries always gives the same game, the same refusals and the same countdowns.

Entry kinds (``data`` of each):

=========== ====================================================================================
``created``  ``{"config": RealtimeConfig.to_json()}``: game, rules, seats, seed (seq 1)
``joined``   ``{"seat": s, "name": str}``: a person took his seat
``started``  ``{"t": t, "filled": [s, ...]}``: the game clock starts at ``t``; empty person seats
             in ``filled`` are played by bots of the table's level
``action``   ``{"seat": s, "action": {...}, "t": t, "by": "person"|"bot"}``: an action in its
             record form, as it arrived; stored *before* it is applied, accepted or refused by
             the arbiter (refusals, stale plays among them, are part of the game's record)
``timeout``  ``{"t": t}``: the countdown ran out; ``t`` is exactly :attr:`RealtimeTable.deadline`
``over``     ``{"t": t, "reason": "won"|"abandoned"}``: the table is closed
``rematch``  ``{"table": id}``: once the game is over, the id of its rematch, logged before
             that table is made (the first process to log it wins: every process offers it)
``away``     ``{"seat": s, "t": t, "since": t0}``: a person seat has no connection since ``t0``
             (``t0 <= t``, never before the last entry: after a restart, the last entry's
             time, so the downtime is a pause): the game pauses from ``t0``
``back``     ``{"seat": s, "t": t}``: the person is back (at a seat away or taken by a bot);
             once no seat is away the game goes on from ``t``
``takeover`` ``{"seat": s, "t": t}``: a seat away for the table's ``away_limit`` is played by a
             bot of the table's level from ``t`` (``away_then`` ``bot``)
``seat-token`` ``{"seat": s, "hash": h}``: a rematch's person seat opens with a new token
             (given to that person when they ask; only its hash is kept)
``next``     ``{"t": t}``: a match (as the game makes it of the config: to a target score in
             its rules, or until a player has won ``games`` games): the next game is dealt
             (``BETWEEN`` seconds after a game that left the match open, the scores shown)
=========== ====================================================================================

``over`` may also be ``{"t": t, "reason": "forfeit", "seat": s}``: seat ``s`` was away for the
table's ``away_limit`` (``away_then`` ``forfeit``); the other seat wins.

**Game time.** The arbiter's clock is *game time*: an entry's time ``t`` less the seconds the
game spent paused before it (:attr:`RealtimeTable.paused_for`). While a seat is away nothing is
applied but presence entries, the countdown stands still and the bots wait; a paused countdown
runs on from where it stopped. The record (game time only) never shows the pauses.

The service (not here) stamps each arrival with its clock, asks :meth:`RealtimeTable.check`
(which changes nothing), appends the entry to the store, then :meth:`RealtimeTable.apply` s it
and sends :meth:`RealtimeTable.frame` to each connection. Before an action stamped at or after
:attr:`RealtimeTable.deadline` it must log the ``timeout`` first (``check`` refuses the action
otherwise), so the log alone says when every countdown ran out.

Frames hold only what their seat may see: they are built from ``engine.view(seat)`` (the one
place a seat's view is made) and never carry a face-down card, the order of a face-down pile,
or the other player's hand. A spectator gets the public part only.

**The game's own part.** This module names no game: what differs between the real-time games
comes from the game's ``table_parts`` piece in the registry (:class:`GameParts`): how a match is
made of the config, the rules version of a log that names none, the game's own fields of a
``table_view``, a match's unit and target in a frame, and the header of a match's records.

One concern: one real-time table over its log. Checking an entry, applying it (presence, pauses
and game time, the arbiter, a match's next game) and building a seat's frame from the same
state are one state machine: ``check`` asks exactly what ``apply`` would do, and the frames read
the pause and countdown state those two keep, so they change together.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast

from cardroom.arbiter import Arbiter, Entry, VirtualClock, entry_text
from cardroom.bots.base import BotError
from cardroom.bots.reaction import LEVELS, check_spec
from cardroom.cards import Card
from cardroom.games.errors import RulesError
from cardroom.games.messages import Message, message_json, message_of
from cardroom.games.realtime_engine import SEATS, client_action
from cardroom.games.registry import REALTIME, names, new_engine
from cardroom.games.registry import game as registry_game
from cardroom.i18n.realtime_words import event_fields, public_refusal, public_what
from cardroom.tables.config import (
    ALREADY_STARTED,
    GAME_OVER,
    REMATCH_ONCE,
    TOKEN_FOR_PERSON,
    SeatSpec,
    TableError,
)

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

Status = Literal["waiting", "playing", "over"]
KINDS = (
    "created", "joined", "started", "action", "timeout", "over", "rematch", "away", "back",
    "takeover", "next", "seat-token",
)  # fmt: skip
BETWEEN = 6.0
"""Seconds the scores are shown between two games of a match before the next is dealt."""
NOTES_KEPT = 20
"""Presence lines a frame carries (the table talk's lines for away, back, takeover, forfeit)."""
AWAY_THEN = ("forfeit", "bot")
"""What happens to a seat away for the table's ``away_limit``: the game is lost, or a bot plays."""
MAX_AWAY_LIMIT = 3600.0
MAX_GAMES = 9
"""The most games a match may ask a player to win (at a game that plays matches of games)."""


MAX_NAME = 24


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


class LogEntryLike(Protocol):
    """What the table reads of a stored entry (``cardroom.store.LogEntry`` fits)."""

    @property
    def seq(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def data(self) -> dict[str, Any]: ...


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
                _check_bot(level, game)
            seats.append(RealtimeSeat(raw["kind"], level, raw.get("name")))
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise LogError(f"seed must be a whole number, not {seed!r}")
        level = data.get("level", "medium")
        _check_bot(level, game)
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


def _check_bot(level: Any, game: str) -> None:
    """A bot is a level (``easy`` … ``expert``) or a reaction-bot spec (``reaction:min=…``)."""
    if level in LEVELS:
        return
    try:
        if not isinstance(level, str):
            raise BotError(f"{level!r}")
        check_spec(level, game)
    except BotError:
        raise LogError(f"a bot's level is one of {list(LEVELS)}, not {level!r}") from None


def _time(data: Mapping[str, Any]) -> float:
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t):
        raise LogError(f"t must be a number of seconds, not {t!r}")
    return float(t)


def _seat(data: Mapping[str, Any]) -> int:
    seat = data.get("seat")
    if isinstance(seat, bool) or seat not in SEATS:
        raise LogError(f"seat must be 0 or 1, not {seat!r}")
    assert isinstance(seat, int)
    return seat


def _card(card: Card | None) -> str | None:
    return card.code if card is not None else None


class RealtimeTable:
    """One real-time game's table, rebuilt by applying its log entries in order."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.seq = 0
        """The number of entries applied (the last entry's ``seq``)."""
        self.config: RealtimeConfig | None = None
        self.names: list[str | None] = [None, None]
        self.bots: list[str | None] = [None, None]
        """Each seat's bot level once the table started (None: a person plays it)."""
        self.status: Status = "waiting"
        self.closed: str | None = None
        """Why the table was closed (``over`` entry), or None."""
        self.rematch: str | None = None
        """The id of the rematch table (``rematch`` entry), or None."""
        self.engine: Any = None
        self.arbiter: Arbiter[Any, Any] | None = None
        self._clock = VirtualClock()
        self.time = 0.0
        """The time stamp of the last entry that had one (the server's clock)."""
        self.paused_for = 0.0
        """Seconds of server time spent paused before now (game time = time - paused_for)."""
        self.paused_at: float | None = None
        """When the running pause began (some person seat is away), or None."""
        self.away: dict[int, float] = {}
        """Person seats away (no connection) and since when that was logged (their limit counts
        from then); a seat a bot took is not here."""
        self.taken: set[int] = set()
        self._for_seat: set[int] = set()  # id() of the entries a bot played in a taken seat
        """Person seats a bot plays since their person was away too long."""
        self.forfeit: int | None = None
        """The seat that lost by being away too long (``over`` with reason ``forfeit``)."""
        self.notes: list[dict[str, Any]] = []
        """The table talk's presence lines (away, back, takeover, forfeit, abandoned), each with
        ``at``, the log line it comes before, so a page puts it in place in its reader's words;
        the last :data:`NOTES_KEPT`."""
        self.parts: GameParts | None = None
        """The game's own part of its table (from the ``created`` entry on)."""
        self.match: Match | None = None
        """A match: its games so far (``engine`` is the current one)."""
        self.past: list[Arbiter[Any, Any]] = []
        """The arbiters of a match's finished games (``arbiter`` plays the current one)."""
        self.past_log = 0
        """How many log lines those games had (a frame's log counts on across games)."""
        self.ended_at: float | None = None
        """The server time of the entry that ended the current game of a match."""

    @classmethod
    def replay(cls, table_id: str, entries: Sequence[LogEntryLike]) -> RealtimeTable:
        """The table as its entries leave it."""
        table = cls(table_id)
        for entry in entries:
            table.apply(entry)
        return table

    # -- reading ------------------------------------------------------------------------------

    @property
    def deadline(self) -> float | None:
        """When the running countdown runs out on the server's clock (log a ``timeout`` then),
        or None (none runs, or the game is paused)."""
        if self.arbiter is None or self.status != "playing" or self.paused_at is not None:
            return None
        deadline = self.arbiter.deadline
        return None if deadline is None else deadline + self.paused_for

    @property
    def paused(self) -> bool:
        """True while a person seat is away (nothing but presence entries is applied)."""
        return self.paused_at is not None

    def game_time(self, t: float) -> float:
        """The arbiter's time for the server time ``t``: paused seconds do not count."""
        base = t if self.paused_at is None else min(t, self.paused_at)
        game = base - self.paused_for
        return game if self.arbiter is None else max(game, self.arbiter.time)

    def server_time(self, game: float) -> float:
        """The server time at which game time ``game`` comes (while not paused)."""
        return game + self.paused_for

    def people(self) -> list[int]:
        """The seats people play (a seat a bot took over from its person among them)."""
        config = self._require_config()
        return [
            g for g in SEATS
            if config.seats[g].kind == "person" and (self.bots[g] is None or g in self.taken)
        ]  # fmt: skip

    def limit_at(self, seat: int) -> float:
        """When seat ``seat``, away, reaches the table's ``away_limit``."""
        return self.away[seat] + self._require_config().away_limit

    @property
    def next_limit(self) -> tuple[float, int] | None:
        """``(when, seat)``: the first away seat to reach the limit, or None."""
        if self.status != "playing" or not self.away:
            return None
        return min((self.limit_at(g), g) for g in self.away)

    @property
    def winner(self) -> int | None:
        """The seat that won: by the game (the match), or because the other forfeited."""
        if self.forfeit is not None:
            return 1 - self.forfeit
        if self.match is not None:
            return self.match.winner
        return self.engine.winner if self.engine is not None and self.engine.over else None

    @property
    def between(self) -> bool:
        """True between two games of a match (the scores shown, the next game not dealt)."""
        return (
            self.match is not None and self.status == "playing" and bool(self.engine.over)
            and not self.match.over
        )  # fmt: skip

    @property
    def next_at(self) -> float | None:
        """When the next game of the match is dealt (None: not between games, or paused)."""
        if not self.between or self.paused_at is not None or self.ended_at is None:
            return None
        return max(self.ended_at, self.time) + BETWEEN

    @property
    def log_length(self) -> int:
        """The table talk's lines so far (every game of a match)."""
        return self.past_log + (len(self.arbiter.log) if self.arbiter is not None else 0)

    def _require_config(self) -> RealtimeConfig:
        if self.config is None:
            raise LogError("the first entry must be 'created'")
        return self.config

    def _require_parts(self) -> GameParts:
        if self.parts is None:
            raise LogError("the first entry must be 'created'")
        return self.parts

    # -- checking and applying ------------------------------------------------------------------

    def check(self, kind: str, data: Mapping[str, Any], *, person: bool = True) -> Any:
        """Raise RealtimeTableError if the entry cannot be applied now; change nothing. For an
        ``action`` return the parsed action (from a person, a play must carry ``seen``)."""
        if kind not in KINDS:
            raise LogError(f"unknown entry kind {kind!r}")
        if kind == "created":
            if self.config is not None:
                raise LogError("the table is already created")
            RealtimeConfig.from_json(data.get("config"))
            return None
        config = self._require_config()
        if kind == "rematch":
            if self.status != "over" or self.rematch is not None:
                raise RealtimeTableError("forbidden", REMATCH_ONCE)
            if not isinstance(data.get("table"), str) or not data["table"]:
                raise LogError("a rematch names its table")
            return None
        if kind == "seat-token":
            if config.seats[_seat(data)].kind != "person" or not isinstance(data.get("hash"), str):
                raise RealtimeTableError("bad-request", TOKEN_FOR_PERSON)
            return None
        if self.closed is not None:
            raise RealtimeTableError("over", CLOSED)
        if kind == "joined":
            seat = _seat(data)
            if config.seats[seat].kind != "person" or self.status != "waiting":
                taken = f"seat {seat} cannot be joined now"
                raise RealtimeTableError("forbidden", Message("table.cannot-join", taken))
            name = data.get("name")
            if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
                raise LogError(f"a name has 1 to {MAX_NAME} characters")
            return None
        if kind == "started":
            if self.status != "waiting":
                raise RealtimeTableError("bad-request", ALREADY_STARTED)
            _time(data)
            filled = data.get("filled", [])
            if not isinstance(filled, list) or not all(s in SEATS for s in filled):
                raise LogError("filled is a list of seats")
            for s in SEATS:
                if config.seats[s].kind == "person" and self.names[s] is None and s not in filled:
                    raise LogError(f"seat {s} is empty: fill it or wait")
            return None
        if kind == "over":
            _time(data)
            reason = data.get("reason")
            if reason not in ("won", "abandoned", "forfeit"):
                raise LogError("reason is won, abandoned or forfeit")
            if reason == "won" and not (self.engine is not None and self.engine.over):
                raise LogError("nobody has won yet")
            if reason == "forfeit":
                self._check_limit(data, "forfeit")
            return None
        if self.status == "waiting" or self.arbiter is None:
            raise RealtimeTableError("not-started", NOT_STARTED)
        if self.status == "over":
            raise RealtimeTableError("over", GAME_OVER)
        t = _time(data)
        if t < self.time:
            raise LogError(f"time {t} is before the last entry's")
        deadline = self.deadline
        if kind == "timeout":
            if deadline is None or deadline != t:
                raise LogError(f"no countdown runs out at {t}")
            return None
        if kind in ("away", "back", "takeover"):
            return self._check_presence(kind, data, t, deadline)
        if kind == "next":
            if not self.between or self.paused_at is not None:
                raise LogError("no game of a match is to be dealt now")
            return None
        if self.between:
            raise RealtimeTableError("not-started", BETWEEN_GAMES)
        if deadline is not None and deadline <= t:
            raise LogError(f"the countdown ran out at {deadline}: log the timeout first")
        seat = _seat(data)
        if self.paused_at is not None:
            raise RealtimeTableError("paused", PAUSED)
        try:
            if person and data.get("by", "person") == "person":
                return client_action(self.engine, data.get("action"))
            return self.engine.action_from_json(data.get("action"))
        except ValueError as exc:
            inner = message_of(exc)  # the person's own seat: its words need no "seat N: "
            said: str = f"seat {seat}: {exc}"
            if isinstance(inner, Message):
                said = Message(inner.id, said, **inner.fields)
            raise RealtimeTableError("bad-request", said) from None

    def _check_presence(
        self, kind: str, data: Mapping[str, Any], t: float, deadline: float | None
    ) -> None:
        seat = _seat(data)
        if seat not in self.people():
            raise LogError(f"seat {seat} is a bot's seat")
        if kind == "away":
            if seat in self.away or seat in self.taken:
                raise LogError(f"seat {seat} is away already")
            since = _time({"t": data.get("since", t)})
            first = self.time if self.paused_at is None else self.paused_at
            if not first <= since <= t:
                raise LogError("a seat is away since a time between the last entry and now")
            if deadline is not None and deadline <= since:
                raise LogError(f"the countdown ran out at {deadline}: log the timeout first")
        elif kind == "back":
            if seat not in self.away and seat not in self.taken:
                raise LogError(f"seat {seat} is not away")
        else:
            self._check_limit(data, "bot")

    def _check_limit(self, data: Mapping[str, Any], then: str) -> None:
        """A seat away for the limit may be forfeited or taken over (as the table says)."""
        config = self._require_config()
        seat = _seat(data)
        if self.status != "playing" or seat not in self.away:
            raise LogError(f"seat {seat} is not away")
        if config.then() != then:
            raise LogError(f"this table's away seats {config.then()}")
        if _time(data) < self.limit_at(seat):
            raise LogError(f"seat {seat} has not been away long enough")

    def _resume(self, t: float) -> None:
        if not self.away and self.paused_at is not None:
            self.paused_for += max(0.0, t - self.paused_at)
            self.paused_at = None

    def apply(self, entry: LogEntryLike) -> None:
        """Apply the next entry (its ``seq`` must follow); refused entries raise and change
        nothing. An ``action`` may still be refused *by the arbiter* (stale, illegal): that is
        part of the game and goes into its record."""
        if entry.seq != self.seq + 1:
            raise LogError(f"entry {entry.seq} does not follow {self.seq}")
        data = entry.data
        parsed = self.check(entry.kind, data, person=False)
        kind = entry.kind
        if kind == "created":
            self.config = RealtimeConfig.from_json(data["config"])
            self.names = [s.name for s in self.config.seats]
            options = {k: str(v) for k, v in self.config.options.items()}
            self.engine = new_engine(
                self.config.game, options, self.config.seed, self.config.rules_version
            )
            self.parts = game_parts(self.config.game)
            self.match = self.parts.new_match(
                self.engine.rules, self.config.seed, self.config.games, self.config.rules_version
            )
            if self.match is not None:
                self.engine = self.match.game
        elif kind == "joined":
            self.names[_seat(data)] = str(data["name"]).strip()
        elif kind == "started":
            config = self._require_config()
            t = _time(data)
            for s in SEATS:
                spec = config.seats[s]
                if spec.kind == "bot" or s in data.get("filled", []):
                    self.bots[s] = spec.level if spec.kind == "bot" else config.level
                    if self.names[s] is None:
                        self.names[s] = f"{str(self.bots[s]).capitalize()} bot"
            self._clock = VirtualClock(t)
            self.time = t
            names = [n or f"Seat {s}" for s, n in enumerate(self.names)]
            self.arbiter = Arbiter(self.engine, self._clock, names)
            self.status = "playing"
        elif kind == "timeout":
            assert self.arbiter is not None and self.arbiter.deadline is not None
            game = self.arbiter.deadline  # exactly, whatever the pauses before
            self._clock.advance_to(game)
            self.arbiter.tick(game)
            self.time = _time(data)
        elif kind == "action":
            assert self.arbiter is not None
            t = _time(data)
            game = self.game_time(t)
            self._clock.advance_to(game)
            seat = _seat(data)
            self.arbiter.submit(seat, parsed, game)
            if seat in self.taken and data.get("by") == "bot":
                played = [e for e in self.arbiter.log[-3:] if e.seat == seat]
                if played:
                    self._for_seat.add(id(played[-1]))
            self.time = t
        elif kind in ("away", "back", "takeover"):
            self._apply_presence(kind, data)
        elif kind == "next":
            assert self.match is not None and self.arbiter is not None
            t = _time(data)
            game = self.game_time(t)
            self.past.append(self.arbiter)
            self.past_log += len(self.arbiter.log)
            self.engine = self.match.next_game()
            self._clock = VirtualClock(game)
            self.arbiter = Arbiter(self.engine, self._clock, self.arbiter.names)
            self.ended_at = None
            self.time = t
        elif kind == "rematch":
            self.rematch = str(data["table"])
        elif kind == "seat-token":
            pass  # the service keeps the seats' token hashes
        else:
            self.closed = str(data["reason"])
            self.status = "over"
            if self.closed == "forfeit":
                self.forfeit = _seat(data)
                self._note("forfeit", self.forfeit, _time(data))
            elif self.closed == "abandoned" and self.arbiter is not None:
                self._note("abandoned", None, _time(data))
            if self.arbiter is not None:
                self.time = max(self.time, _time(data))
        if self.engine is not None and self.engine.over and self.status == "playing":
            if self.match is None or self.match.over:
                self.status = "over"
            elif self.ended_at is None:
                self.ended_at = self.time
        self.seq = entry.seq

    def _apply_presence(self, kind: str, data: Mapping[str, Any]) -> None:
        config = self._require_config()
        seat = _seat(data)
        t = _time(data)
        if kind == "away":
            since = _time({"t": data.get("since", t)})
            self.away[seat] = t  # the limit counts from when it is known (after a restart too)
            if self.paused_at is None:
                self.paused_at = since
        elif kind == "back":
            if seat in self.taken:
                self.taken.discard(seat)
                self.bots[seat] = None
            self.away.pop(seat, None)
        else:
            del self.away[seat]
            self.taken.add(seat)
            self.bots[seat] = config.level
        self._note(kind, seat, t)
        self._resume(t)
        self.time = t

    def _note(self, kind: str, seat: int | None, t: float) -> None:
        self.notes.append({"kind": kind, "seat": seat, "t": t, "at": self.log_length})
        del self.notes[:-NOTES_KEPT]

    # -- what a connection sees -----------------------------------------------------------------

    def frame(self, seat: int | None, since: int | None = None) -> dict[str, Any]:
        """The ``state`` frame for ``seat`` (None: a spectator), as JSON-ready data. With
        ``since``, ``log`` holds only the lines from that index on (``log_from`` says where)."""
        config = self._require_config()
        out: dict[str, Any] = {
            "type": "state",
            "table": self.table_id,
            "game": config.game,
            "seq": self.seq,
            "you": seat,
            "status": self.status,
            "closed": self.closed,
            "rules": self.engine.rules.to_json(),
            "seats": [
                {"seat": s, "name": self.names[s], "kind": config.seats[s].kind, "bot": b,
                 "away": self.away.get(s), "taken": s in self.taken,
                 "limit_at": self.limit_at(s) if s in self.away else None}
                for s, b in zip(SEATS, self.bots, strict=True)
            ],
            "deadline": None,
            "paused": None,
            "away_then": config.then(),
            "away_limit": config.away_limit,
            "forfeit": self.forfeit,
            "notes": list(self.notes),
            "winner": self.winner,
        }  # fmt: skip
        if self.match is not None:
            out["match"] = {
                **self._require_parts().match_frame(self.match),  # its unit and target
                "game": self.match.number,
                "scores": list(self.match.scores),
                "between": self.between,
                "next_at": self.next_at,
                "winner": self.match.winner,
            }  # fmt: skip
        if self.arbiter is None:
            return out
        view = self.engine.view(0 if seat is None else seat)
        out["table_view"] = self._view_json(view, seat)
        deadline = self.deadline
        if deadline is not None:
            out["deadline"] = {"kind": "countdown", "at": deadline}
        if self.paused_at is not None:
            standing = self.arbiter.deadline
            game = self.game_time(self.paused_at)
            out["paused"] = {
                "since": self.paused_at,
                "seats": sorted(self.away),
                "countdown_left": None if standing is None else max(0.0, standing - game),
            }
        start = 0 if since is None else max(0, min(since, self.log_length))
        out["log_from"] = start
        out["log"] = [self._log_json(e, seat) for e in self._lines_from(start)]

        return out

    def _view_json(self, view: Any, seat: int | None) -> dict[str, Any]:
        """A view's public fields, plus the seat's own hand and legal actions."""
        common: dict[str, Any] = {
            "phase": view.phase,
            "centre": [_card(c) for c in view.centre],
            "centre_sizes": list(view.centre_sizes),
            "called": list(view.called),
            "stalemate": view.stalemate,
            "winner": view.winner,
        }
        common.update(self._require_parts().view_frame(view, seat))
        if seat is not None:
            common["legal"] = [self.engine.action_to_json(a) for a in view.legal_actions]
        return common

    def _lines_from(self, start: int) -> list[Entry]:
        """The table talk's entries from line ``start`` on, across a match's games."""
        assert self.arbiter is not None
        if start >= self.past_log:
            return self.arbiter.log[start - self.past_log :]
        earlier = [e for arbiter in self.past for e in arbiter.log]
        return earlier[start:] + self.arbiter.log

    def _log_json(self, entry: Entry, seat: int | None) -> dict[str, Any]:
        """A log line for ``seat``: the other seat's refused actions without their cards."""
        names = list(self.arbiter.names) if self.arbiter is not None else ["", ""]
        taken = id(entry) in self._for_seat and entry.seat is not None
        if taken:
            assert entry.seat is not None
            names[entry.seat] = f"Bot (for {names[entry.seat]})"
        line: dict[str, Any] = {
            "t": entry.t, "seat": entry.seat, "accepted": entry.accepted,
            "text": entry_text(
                entry, names, viewer=-1 if seat is None else seat, public=public_what
            ),
        }  # fmt: skip
        # the fields of the text, so that each connection reads it in its own language
        line["events"] = [event_fields(e) for e in entry.events]
        if taken:
            line["for_seat"] = True
        if entry.timeout:
            line["timeout"] = True
        if entry.seat is not None and (entry.accepted or entry.seat == seat):
            line["action"] = self.engine.action_to_json(entry.action)
            if entry.reason is not None:
                line["reason"] = entry.reason
                line["engine_reason"] = entry.reason  # `reason` is put into words later
                line["reason_msg"] = message_json(entry.reason)  # its id and fields
        elif entry.seat is not None:
            line["refused"] = public_refusal(entry.action, entry.reason)
        return line

    # -- after the game -------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The game's record (``cardroom replay`` reads it): full information, for after the
        game only (the service must refuse it while the game goes on)."""
        if self.arbiter is None:
            raise RealtimeTableError("not-started", NOT_STARTED)
        if self.match is None:
            return self._ended(self.arbiter.record())
        raise LogError("a match's record is a list: use records()")

    def _ended(self, record: dict[str, Any]) -> dict[str, Any]:
        """The last game's record, told how the table closed when the game itself did not end
        it: ``ended`` ``{"reason": "forfeit", "seat": s}`` (seat ``s`` away too long, the other
        wins) or ``{"reason": "abandoned"}`` (both away as long: nobody wins)."""
        if self.closed == "forfeit" and self.forfeit is not None:
            record["ended"] = {"reason": "forfeit", "seat": self.forfeit}
        elif self.closed == "abandoned" and not (self.engine is not None and self.engine.over):
            record["ended"] = {"reason": "abandoned"}
        return record

    def records(self) -> dict[str, Any] | list[dict[str, Any]]:
        """The record: one game's, or a match's list of every game's (``cardroom replay`` and
        the replay viewer read both)."""
        if self.match is None:
            return self.record()
        assert self.arbiter is not None
        names = self.arbiter.names
        header = self._require_parts().record_header
        arbiters = [*self.past, self.arbiter]
        out = [arbiter.record(header(arbiter.engine, names, self.match)) for arbiter in arbiters]
        out[-1] = self._ended(out[-1])
        return out
