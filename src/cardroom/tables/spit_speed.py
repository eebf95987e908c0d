"""A Spit or Speed table for the web service: synchronous, deterministic, rebuilt from its log.

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
=========== ====================================================================================

The service (not here) stamps each arrival with its clock, asks :meth:`RealtimeTable.check`
(which changes nothing), appends the entry to the store, then :meth:`RealtimeTable.apply` s it
and sends :meth:`RealtimeTable.frame` to each connection. Before an action stamped at or after
:attr:`RealtimeTable.deadline` it must log the ``timeout`` first (``check`` refuses the action
otherwise), so the log alone says when every countdown ran out.

Frames hold only what their seat may see: they are built from ``engine.view(seat)`` (the one
place a seat's view is made) and never carry a face-down card, the order of a face-down pile,
or, in Speed, the other player's hand. A spectator gets the public part only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from cardroom.arbiter import Arbiter, Entry, VirtualClock, entry_text
from cardroom.bots.base import BotError
from cardroom.bots.reaction import LEVELS, check_spec
from cardroom.cards import Card
from cardroom.games.messages import message_json
from cardroom.games.realtime_engine import SEATS, client_action
from cardroom.games.speed import SpeedGame, SpeedRules
from cardroom.games.speed.rules import RULES_VERSION as SPEED_RULES_VERSION
from cardroom.games.spit import SpitGame, SpitRules
from cardroom.games.spit.rules import RULES_VERSION as SPIT_RULES_VERSION
from cardroom.i18n.spit_speed_words import event_fields, public_refusal
from cardroom.tables.config import SeatSpec, TableError

RealtimeTableError = TableError
"""The error of the real-time table is the service's :class:`TableError` (one type for both)."""
RealtimeSeat = SeatSpec
"""A seat as created: a person (named when he joins) or a bot of a level."""

Status = Literal["waiting", "playing", "over"]
KINDS = ("created", "joined", "started", "action", "timeout", "over", "rematch")
GAMES = ("spit", "speed")


def make_engine(
    game: str, options: Mapping[str, str], seed: int, rules_version: int | None = None
) -> Any:
    """A new Spit or Speed game with ``key=value`` options, dealt by ``seed``, under
    ``rules_version`` of its rules (None: today's)."""
    if game == "spit":
        return SpitGame.new(SpitRules.from_options(options), seed, rules_version)
    if game == "speed":
        return SpeedGame.new(SpeedRules.from_options(options), seed, rules_version)
    raise RealtimeTableError("bad-request", f"game must be spit or speed, not {game!r}")


RULES_VERSIONS = {"spit": SPIT_RULES_VERSION, "speed": SPEED_RULES_VERSION}
"""Today's version of each game's rules (a table's ``created`` entry keeps the one it plays)."""


MAX_NAME = 24


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
    """Everything fixed when a Spit or Speed table is created."""

    game: str
    """``spit`` or ``speed``."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Rule options as ``key=value`` values (``{"countdown": "3"}``); checked by the rules."""
    seats: tuple[RealtimeSeat, RealtimeSeat]
    seed: int
    level: str = "medium"
    """The level of the bots that fill empty person seats."""
    rules_version: int | None = None
    """The version of the game's rules played (None: today's); kept in the log so that a table
    goes on, and replays, under the rules it began with."""

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the ``created`` entry's ``config``), rules written out in full."""
        rules = make_engine(self.game, {k: str(v) for k, v in self.options.items()}, 0).rules
        return {
            "game": self.game,
            "rules_version": self.rules_version or RULES_VERSIONS[self.game],
            "rules": rules.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "seed": self.seed,
            "level": self.level,
        }

    @classmethod
    def from_json(cls, data: Any) -> RealtimeConfig:
        """Read :meth:`to_json`'s form; raise RealtimeTableError naming the problem."""
        if not isinstance(data, Mapping):
            raise RealtimeTableError("bad-request", "config must be an object")
        game = data.get("game")
        if game not in GAMES:
            raise RealtimeTableError("bad-request", f"game must be spit or speed, not {game!r}")
        seats_raw = data.get("seats")
        if not isinstance(seats_raw, list) or len(seats_raw) != len(SEATS):
            raise RealtimeTableError("bad-request", "a real-time table has two seats")
        seats: list[RealtimeSeat] = []
        for raw in seats_raw:
            if not isinstance(raw, Mapping) or raw.get("kind") not in ("person", "bot"):
                raise RealtimeTableError("bad-request", "a seat is {kind: person|bot, level, name}")
            level = raw.get("level")
            if raw["kind"] == "bot":
                _check_bot(level, game)
            seats.append(RealtimeSeat(raw["kind"], level, raw.get("name")))
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RealtimeTableError("bad-request", f"seed must be a whole number, not {seed!r}")
        level = data.get("level", "medium")
        _check_bot(level, game)
        rules = data.get("rules", {})
        if not isinstance(rules, Mapping):
            raise RealtimeTableError("bad-request", "rules must be an object")
        # tables were first logged under today's rules of both games (their rules changed
        # before web tables existed): a log without the field is of today's version
        version = data.get("rules_version", RULES_VERSIONS[game])
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise RealtimeTableError("bad-request", f"rules_version must be 1, 2…, not {version!r}")
        if version > RULES_VERSIONS[game]:
            raise RealtimeTableError(
                "bad-request",
                f"this table was made by a newer cardroom (rules version {version}): upgrade",
            )
        config = cls(
            game=game,
            options=dict(rules),
            seats=(seats[0], seats[1]),
            seed=seed,
            level=level,
            rules_version=version,
        )
        if config.rules_target() > 0:
            raise RealtimeTableError("bad-request", "a Speed match (target) is not offered here")
        return config

    def rules_target(self) -> int:
        """Speed's target score (0: a single game); checks the options."""
        try:
            rules = make_engine(self.game, {k: str(v) for k, v in self.options.items()}, 0).rules
        except ValueError as exc:
            raise RealtimeTableError("bad-request", f"rules: {exc}") from None
        return int(getattr(rules, "target", 0))


def _check_bot(level: Any, game: str) -> None:
    """A bot is a level (``easy`` … ``expert``) or a reaction-bot spec (``reaction:min=…``)."""
    if level in LEVELS:
        return
    try:
        if not isinstance(level, str):
            raise BotError(f"{level!r}")
        check_spec(level, game)
    except BotError:
        raise RealtimeTableError(
            "bad-request", f"a bot's level is one of {list(LEVELS)}, not {level!r}"
        ) from None


def _time(data: Mapping[str, Any]) -> float:
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t):
        raise RealtimeTableError("bad-request", f"t must be a number of seconds, not {t!r}")
    return float(t)


def _seat(data: Mapping[str, Any]) -> int:
    seat = data.get("seat")
    if isinstance(seat, bool) or seat not in SEATS:
        raise RealtimeTableError("bad-request", f"seat must be 0 or 1, not {seat!r}")
    assert isinstance(seat, int)
    return seat


def _card(card: Card | None) -> str | None:
    return card.code if card is not None else None


class RealtimeTable:
    """One Spit or Speed table, rebuilt by applying its log entries in order."""

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
        """When the running countdown runs out (log a ``timeout`` then), or None."""
        if self.arbiter is None or self.status != "playing":
            return None
        return self.arbiter.deadline

    def _require_config(self) -> RealtimeConfig:
        if self.config is None:
            raise RealtimeTableError("bad-request", "the first entry must be 'created'")
        return self.config

    # -- checking and applying ------------------------------------------------------------------

    def check(self, kind: str, data: Mapping[str, Any], *, person: bool = True) -> Any:
        """Raise RealtimeTableError if the entry cannot be applied now; change nothing. For an
        ``action`` return the parsed action (from a person, a play must carry ``seen``)."""
        if kind not in KINDS:
            raise RealtimeTableError("bad-request", f"unknown entry kind {kind!r}")
        if kind == "created":
            if self.config is not None:
                raise RealtimeTableError("bad-request", "the table is already created")
            RealtimeConfig.from_json(data.get("config"))
            return None
        config = self._require_config()
        if kind == "rematch":
            if self.status != "over" or self.rematch is not None:
                raise RealtimeTableError("forbidden", "a rematch is offered once, after the game")
            if not isinstance(data.get("table"), str) or not data["table"]:
                raise RealtimeTableError("bad-request", "a rematch names its table")
            return None
        if self.closed is not None:
            raise RealtimeTableError("over", "the table is closed")
        if kind == "joined":
            seat = _seat(data)
            if config.seats[seat].kind != "person" or self.status != "waiting":
                raise RealtimeTableError("forbidden", f"seat {seat} cannot be joined now")
            name = data.get("name")
            if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
                raise RealtimeTableError("bad-request", f"a name has 1 to {MAX_NAME} characters")
            return None
        if kind == "started":
            if self.status != "waiting":
                raise RealtimeTableError("bad-request", "the table has already started")
            _time(data)
            filled = data.get("filled", [])
            if not isinstance(filled, list) or not all(s in SEATS for s in filled):
                raise RealtimeTableError("bad-request", "filled is a list of seats")
            for s in SEATS:
                if config.seats[s].kind == "person" and self.names[s] is None and s not in filled:
                    raise RealtimeTableError("bad-request", f"seat {s} is empty: fill it or wait")
            return None
        if kind == "over":
            _time(data)
            if data.get("reason") not in ("won", "abandoned"):
                raise RealtimeTableError("bad-request", "reason is won or abandoned")
            if data.get("reason") == "won" and not (self.engine is not None and self.engine.over):
                raise RealtimeTableError("bad-request", "nobody has won yet")
            return None
        if self.status == "waiting" or self.arbiter is None:
            raise RealtimeTableError("not-started", "the game has not started yet")
        if self.status == "over":
            raise RealtimeTableError("over", "the game is over")
        t = _time(data)
        if t < self.arbiter.time:
            raise RealtimeTableError("bad-request", f"time {t} is before the last entry's")
        deadline = self.arbiter.deadline
        if kind == "timeout":
            if deadline != t:
                raise RealtimeTableError("bad-request", f"no countdown runs out at {t}")
            return None
        if deadline is not None and deadline <= t:
            raise RealtimeTableError(
                "bad-request", f"the countdown ran out at {deadline}: log the timeout first"
            )
        seat = _seat(data)
        try:
            if person and data.get("by", "person") == "person":
                return client_action(self.engine, data.get("action"))
            return self.engine.action_from_json(data.get("action"))
        except ValueError as exc:
            raise RealtimeTableError("bad-request", f"seat {seat}: {exc}") from None

    def apply(self, entry: LogEntryLike) -> None:
        """Apply the next entry (its ``seq`` must follow); refused entries raise and change
        nothing. An ``action`` may still be refused *by the arbiter* (stale, illegal): that is
        part of the game and goes into its record."""
        if entry.seq != self.seq + 1:
            raise RealtimeTableError("bad-request", f"entry {entry.seq} does not follow {self.seq}")
        data = entry.data
        parsed = self.check(entry.kind, data, person=False)
        kind = entry.kind
        if kind == "created":
            self.config = RealtimeConfig.from_json(data["config"])
            self.names = [s.name for s in self.config.seats]
            options = {k: str(v) for k, v in self.config.options.items()}
            self.engine = make_engine(
                self.config.game, options, self.config.seed, self.config.rules_version
            )
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
            names = [n or f"Seat {s}" for s, n in enumerate(self.names)]
            self.arbiter = Arbiter(self.engine, self._clock, names)
            self.status = "playing"
        elif kind == "timeout":
            assert self.arbiter is not None
            t = _time(data)
            self._clock.advance_to(t)
            self.arbiter.tick(t)
        elif kind == "action":
            assert self.arbiter is not None
            t = _time(data)
            self._clock.advance_to(t)
            self.arbiter.submit(_seat(data), parsed, t)
        elif kind == "rematch":
            self.rematch = str(data["table"])
        else:
            self.closed = str(data["reason"])
            self.status = "over"
        if self.engine is not None and self.engine.over and self.status == "playing":
            self.status = "over"
        self.seq = entry.seq

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
                {"seat": s, "name": self.names[s], "kind": config.seats[s].kind, "bot": b}
                for s, b in zip(SEATS, self.bots, strict=True)
            ],
            "deadline": None,
        }
        if self.arbiter is None:
            return out
        view = self.engine.view(0 if seat is None else seat)
        out["table_view"] = self._view_json(view, seat)
        deadline = self.deadline
        if deadline is not None:
            out["deadline"] = {"kind": "countdown", "at": deadline}
        start = 0 if since is None else max(0, min(since, len(self.arbiter.log)))
        out["log_from"] = start
        out["log"] = [self._log_json(e, seat) for e in self.arbiter.log[start:]]
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
        if self.config is not None and self.config.game == "spit":
            by_seat = {view.seat: view.stock, 1 - view.seat: view.opponent_stock}
            spit = {view.seat: view.spit_left, 1 - view.seat: view.opponent_spit_left}
            common.update(
                stocks=[[[_card(top), n] for top, n in by_seat[s]] for s in SEATS],
                spit_left=[spit[s] for s in SEATS],
                open_piles=list(view.open_piles),
                one_pile=view.one_pile,
                chooser=view.chooser,
                redeals=view.redeals,
            )
        else:
            common.update(
                side_sizes=list(view.side_sizes),
                hand_sizes=list(view.hand_sizes),
                draw_sizes=list(view.draw_sizes),
                middle_down=view.middle_down,
                flips=view.flips,
                blocked=view.blocked,
                points=view.points,
            )
            if seat is not None:
                common["hand"] = [c.code for c in view.hand]
        if seat is not None:
            common["legal"] = [self.engine.action_to_json(a) for a in view.legal_actions]
        return common

    def _log_json(self, entry: Entry, seat: int | None) -> dict[str, Any]:
        """A log line for ``seat``: the other seat's refused actions without their cards."""
        names = self.arbiter.names if self.arbiter is not None else ["", ""]
        line: dict[str, Any] = {
            "t": entry.t, "seat": entry.seat, "accepted": entry.accepted,
            "text": entry_text(entry, names, viewer=-1 if seat is None else seat),
        }  # fmt: skip
        # the fields of the text, so that each connection reads it in its own language
        line["events"] = [event_fields(e) for e in entry.events]
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
            raise RealtimeTableError("not-started", "the game has not started yet")
        return self.arbiter.record()
