"""One Nain Jaune table as a deterministic state machine over its log.

:class:`NainJauneTable` is rebuilt by applying log entries one by one (``created``, ``joined``,
``started``, ``round``, ``action``, ``takeover``, ``returned``, ``ready``, ``left``, and
after the game ``rematch``; a rematch's own table takes ``seat-token``). :meth:`check`
validates a proposed entry without changing anything; :meth:`apply` applies an entry that was
checked (and stored). No I/O, no clock, no randomness but the seeded deal. :meth:`frame` builds
what one seat (or a spectator) may see: only that seat's hand and choices, never the talon.

One concern: one Nain Jaune table over its log, the state machine and the frames it hands out
together. They stay one module because the frames are built from the state's own keepsakes
(the seat rows, the round's parts and the shared public frame are kept between changes and
rebuilt only when an entry changes what they show, ``_seats_changed`` and the round's values
being the keys), so apply and frame must change together.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal

from cardroom.cards import Card, CardError, parse_card
from cardroom.games.errors import RulesError
from cardroom.games.messages import Message, message_json, message_of
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.engine import (
    CLAIM,
    PASS,
    Action,
    CardPlayed,
    Doubled,
    Event,
    Forgot,
    FreeSequence,
    Game,
    GrandOperaSwept,
    NextRank,
    OutOfCards,
    Paid,
    Play,
    Round,
    RoundResult,
    Staked,
    Takes,
    Without,
    action_text,
    deal_hands,
    round_record,
    shared_play,
)
from cardroom.games.nain_jaune.rules import STAKE_PER_ROUND, Rules
from cardroom.games.nain_jaune.settlement import breakdown
from cardroom.games.nain_jaune.view import RoundView, view_of
from cardroom.games.records import brief
from cardroom.games.table import (
    ALREADY_STARTED,
    NOT_CREATED,
    REMATCH_ONCE,
    ROUND_NOT_OVER,
    SEAT_ENTRIES,
    LogEntry,
    TableError,
    check_seat,
    check_seat_entry,
    clean_name,
    hash_token,
)

Status = Literal["waiting", "playing", "round-over", "over"]
ROUND_EVENTS_MAX = 1000
"""A ``history`` frame carries at most this many events of a round."""
CHART_ROUNDS = 100
"""A frame carries the chips of at most this many last rounds (the end screen's chart)."""
KINDS = (
    "created", "joined", "started", "round", "action", "takeover", "returned", "ready", "left",
    "rematch", "seat-token",
)  # fmt: skip
_AFTER_THE_GAME = frozenset({"rematch", "seat-token"})
"""Entries a finished table still takes: its rematch's id, and seat tokens of a rematch."""

_EVENT_KIND: dict[type, str] = {
    CardPlayed: "play",
    Takes: "takes",
    Forgot: "forgot",
    Without: "without",
    NextRank: "next-rank",
    FreeSequence: "new-sequence",
    OutOfCards: "out",
    Paid: "paid",
    Doubled: "doubled",
    GrandOperaSwept: "grand-opera",
}
_SEAT_FIELDS = frozenset({"seat", "payer", "payee"})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""An engine event class -> its fields' names but ``label`` (``dataclasses.fields`` once)."""


def _field_names(event: object) -> tuple[str, ...]:
    kind = type(event)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(
            f.name
            for f in fields(event)  # type: ignore[arg-type]
            if f.name != "label"
        )
    return names


def parse_action(text: str) -> Action:
    """``"pass"``, ``"claim"`` or a card code (``"7D"``); raises ``TableError('bad-request')``."""
    word = str(text).strip().lower()
    if word == "pass":
        return PASS
    if word == "claim":
        return CLAIM
    try:
        return shared_play(parse_card(str(text).strip()))
    except CardError as exc:
        if exc.near:
            said = Message(
                "table.unreadable-card",
                f"cannot read the action {text!r}: {exc}",
                detail=message_of(exc),
            )
            raise TableError("bad-request", said) from None
        said = Message(
            "table.unreadable-action",
            f"cannot read the action {text!r}: send a card (7D), pass or claim",
            typed=brief(text),
        )
        raise TableError("bad-request", said) from None


@dataclass(frozen=True, slots=True)
class Turn:
    """Who acts now: the game seat and whether a bot decides for it (and at which level)."""

    seat: int
    bot: str | None
    """The bot spec or level deciding for the seat, None for a person."""


_ACTOR_KINDS = frozenset({"play", "takes", "forgot", "without"})
"""Events whose ``seat`` is the one who acted."""


class NainJauneTable:
    """The state of one table, driven only by :meth:`apply`."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.seq = 0
        self.config: TableConfig | None = None
        self.token_hashes: dict[int, str] = {}
        self.names: list[str] = []
        self.joined: list[bool] = []
        self.status: Status = "waiting"
        self.game: Game | None = None
        self.filled: set[int] = set()
        """Person seats that stayed empty at the start: bots of the table's level play them."""
        self.taken_over: dict[int, str] = {}
        """Person seats a bot plays for while the person is away: seat -> level."""
        self.left: set[int] = set()
        """Persons who left the table: a bot plays their seat to the end (in ``taken_over``)."""
        self.rematch: str | None = None
        """The id of this table's rematch (``rematch`` entry), once someone asked for it."""
        self.rematch_of: str | None = None
        """The table this one is the rematch of."""
        self._passed: list[int] = []
        """The seats that said "without" since the last card (grouped into one log line)."""
        self._passed_rank = 0
        self.chips_history: list[tuple[int, ...]] = []
        """Chips by game seat at the start and after every finished round (for the chart)."""
        self.ready_seats: set[int] = set()
        self.events: list[dict[str, Any]] = []
        """Every public event of the table so far (subscribers keep a cursor into it)."""
        self.round_start = 0
        """Index in :attr:`events` where the current round's events begin."""
        self.round_starts: list[int] = []
        """Index in :attr:`events` where each round's events begin, round 0 first."""
        self.last_result: dict[str, Any] | None = None
        self.created_at = 0.0
        self.round_ended_at: float | None = None
        self._shared: tuple[tuple[Any, ...], dict[str, Any], dict[str, Any] | None] | None = None
        """The parts of the frames every seat shares, built once per (seq, present, deadline)."""
        self._rules_json: tuple[Rules, dict[str, Any], str | None] | None = None
        """The rules as JSON and their preset's name, made once (the rules never change)."""
        self._turn: tuple[int, Turn | None] | None = None
        """:meth:`turn`'s answer and the seq it is for."""
        self._seats_changed = 0
        """Counts the entries that may change a seat row but its chips, presence or round:
        every kind but ``action`` (names, joined, bots, takeovers, the status leaving waiting)."""
        self._rows: tuple[tuple[Any, ...], list[dict[str, Any]]] | None = None
        """The frame's seat rows and what they were built from: kept while it is unchanged
        (a change's frames, and the next changes', share the one list; nobody changes it)."""
        self._round_parts: _RoundParts | None = None
        """The current round's board, hand sizes, chips and hands as JSON, each kept while
        the round's value is the same, and its current sequence, played cards and passes,
        grown as the round goes."""

    # -- rebuilding --------------------------------------------------------------------------

    @classmethod
    def replay(cls, table_id: str, entries: Sequence[LogEntry]) -> NainJauneTable:
        """A table rebuilt from its log (each entry checked, then applied)."""
        table = cls(table_id)
        for entry in entries:
            table.check(entry.kind, entry.data, seq=entry.seq)
            table.apply(entry)
        return table

    # -- reading ------------------------------------------------------------------------------

    @property
    def cfg(self) -> TableConfig:
        """The table's config (once created)."""
        if self.config is None:
            raise TableError("not-found", NOT_CREATED)
        return self.config

    @property
    def n(self) -> int:
        """The number of seats."""
        return len(self.names)

    @property
    def round(self) -> Round | None:
        """The round being played or just finished."""
        return self.game.round if self.game is not None else None

    @property
    def round_seats(self) -> list[int]:
        """The game seats of the current round's positions."""
        return self.game.round_seats if self.game is not None else []

    @property
    def round_names(self) -> list[str]:
        """Names by position in the current round."""
        return [self.names[s] for s in self.round_seats]

    def is_person(self, seat: int) -> bool:
        """A person's seat (not a bot seat, not filled by a bot at the start)."""
        return self.cfg.seats[seat].kind == "person" and seat not in self.filled

    def bot_for(self, seat: int) -> str | None:
        """The bot spec or level playing ``seat`` now, None if a person plays it."""
        spec = self.cfg.seats[seat]
        if spec.kind == "bot":
            return spec.level or self.cfg.level
        if seat in self.filled:
            return self.cfg.level
        return self.taken_over.get(seat)

    def turn(self) -> Turn | None:
        """Who must act now (None unless a round is being played)."""
        kept = self._turn
        if kept is not None and kept[0] == self.seq:  # (only an entry changes it)
            return kept[1]
        rnd = self.round
        if self.status != "playing" or rnd is None or rnd.over:
            turn = None
        else:
            seat = self.round_seats[rnd.to_act]
            turn = Turn(seat, self.bot_for(seat))
        self._turn = (self.seq, turn)
        return turn

    def needs_deal(self) -> bool:
        """True when the game is on and no round is dealt yet."""
        return self.status == "playing" and self.round is None

    def bot_view(self, seat: int) -> RoundView:
        """What ``seat`` sees of the current round (the view its bot or hint decides on)."""
        rnd = self.round
        if rnd is None:
            raise TableError("not-your-turn", "no round is being played")
        return view_of(rnd, self.round_seats.index(seat))

    @staticmethod
    def action_text(action: Action) -> str:
        """The wire form of an action (``"7D"``, ``"pass"``, ``"claim"``)."""
        return action_text(action)

    def person_seats(self) -> list[int]:
        """The seats persons play (joined or not)."""
        return [g for g in range(self.n) if self.is_person(g)]

    def waiting_for_ready(self) -> list[int]:
        """Persons still in the game who have not asked for the next round."""
        game = self.game
        if game is None:
            return []
        return [
            g
            for g in self.person_seats()
            if g in game.active and g not in self.ready_seats and g not in self.taken_over
        ]

    # -- proposing ----------------------------------------------------------------------------

    def entry(self, kind: str, data: dict[str, Any], at: float) -> LogEntry:
        """The next entry of the log (checked first: raises :class:`TableError`)."""
        self.check(kind, data)
        return LogEntry(self.seq + 1, kind, data, at)

    def deal(self) -> dict[str, Any]:
        """The data of the next ``round`` entry: dealt with ``Random(f"{seed}/deal/{k}")``."""
        game = self.game
        if game is None:
            raise TableError("bad-request", "the table has not started")
        k = game.rounds_played
        seats = list(game.active)
        hands, talon = deal_hands(
            len(seats), seats.index(game.dealer), random.Random(f"{self.cfg.seed}/deal/{k}")
        )
        return {
            "k": k,
            "hands": [[c.code for c in h] for h in hands],
            "talon": [c.code for c in talon],
        }

    def check(self, kind: str, data: dict[str, Any], *, seq: int | None = None) -> None:
        """Raise :class:`TableError` unless the entry may be applied now; changes nothing."""
        if seq is not None and seq != self.seq + 1:
            raise TableError("stale", f"entry {seq} does not follow entry {self.seq}")
        if kind == "created":
            if self.config is not None:
                raise TableError("bad-request", "the table already exists")
            TableConfig.from_json(data.get("config"))
            return
        if self.config is None:
            raise TableError("not-found", NOT_CREATED)
        if kind not in KINDS:
            raise TableError("bad-request", f"unknown log entry {kind!r}")
        if self.status == "over" and kind not in _AFTER_THE_GAME:
            raise TableError("over", "the game is over")
        if kind == "rematch":
            if self.status != "over" or self.rematch is not None:
                raise TableError("forbidden", REMATCH_ONCE)
            if not isinstance(data.get("table"), str):
                raise TableError("bad-request", "a rematch names its table")
            return
        if kind in ("started", "round"):
            self._check_table_entry(kind, data)
            return
        seat = check_seat(self, data)
        if kind in SEAT_ENTRIES:
            check_seat_entry(self, kind, seat, data)
        elif kind == "action":
            self._check_action(seat, data)
        elif kind == "ready":
            if self.status != "round-over":
                raise TableError("bad-request", ROUND_NOT_OVER)
            if not self.is_person(seat) or seat in self.ready_seats:
                raise TableError(
                    "bad-request",
                    Message(
                        "table.already-ready", "this seat has already asked for the next round"
                    ),
                )

    def _check_table_entry(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "started":
            if self.status != "waiting":
                raise TableError("bad-request", ALREADY_STARTED)
            filled = data.get("filled")
            empty = [g for g in range(self.n) if self.cfg.seats[g].kind == "person"]
            if not isinstance(filled, list) or sorted(filled) != [
                g for g in empty if not self.joined[g]
            ]:
                raise TableError("bad-request", "started must fill exactly the empty seats")
            dealer = data.get("dealer")
            if not (isinstance(dealer, int) and 0 <= dealer < self.n):
                raise TableError("bad-request", "started needs the first dealer")
        elif kind == "round":
            game = self.game
            if game is None or self.status not in ("playing", "round-over"):
                raise TableError("bad-request", "the table has not started")
            if game.round is not None and not game.round.over:
                raise TableError("bad-request", ROUND_NOT_OVER)
            if data.get("k") != game.rounds_played:
                raise TableError("stale", f"round {data.get('k')} is not the next round")
            try:
                self._new_round(data, trial=True)
            except (CardError, RulesError, TypeError, ValueError) as exc:
                raise TableError("bad-request", f"bad deal: {exc}") from None

    def _check_action(self, seat: int, data: dict[str, Any]) -> None:
        rnd = self.round
        if self.status == "round-over":
            raise TableError("not-your-turn", "the round is over: wait for the next one")
        if self.status != "playing" or rnd is None or rnd.over:
            raise TableError("not-your-turn", "no round is being played")
        turn = self.turn()
        assert turn is not None
        if turn.seat != seat:
            name = self.names[turn.seat]
            raise TableError(
                "not-your-turn",
                Message("table.turn", f"it is {name}'s turn, not yours", name=name),
            )
        by = data.get("by")
        if by not in ("person", "bot"):
            raise TableError("bad-request", "an action is by a person or a bot")
        if (by == "bot") != (turn.bot is not None):
            who = "a bot plays this seat now" if turn.bot else "a person plays this seat"
            raise TableError("forbidden", who)
        action = parse_action(data.get("action", ""))
        if data.get("forget"):
            if not isinstance(action, Play):
                raise TableError(
                    "bad-request",
                    Message("table.unannounced", "only a card can be played unannounced"),
                )
            action = Play(action.card, forget=True)
        reason = rnd.why_illegal(action)
        if reason is not None:
            raise TableError("illegal", reason)

    # -- applying -----------------------------------------------------------------------------

    def apply(self, entry: LogEntry) -> None:
        """Apply one entry that :meth:`check` accepted (and the store holds)."""
        kind, data = entry.kind, entry.data
        self.seq = entry.seq
        if kind != "action":
            self._seats_changed += 1
        if kind == "created":
            cfg = TableConfig.from_json(data["config"])
            self.config = cfg
            self.created_at = entry.at
            self.token_hashes = {int(k): str(v) for k, v in data.get("tokens", {}).items()}
            of = data.get("rematch_of")
            self.rematch_of = of if isinstance(of, str) else None
            self.names = [
                spec.name or (f"Seat {g + 1}" if spec.kind == "person" else f"Bot {g + 1}")
                for g, spec in enumerate(cfg.seats)
            ]
            self.joined = [spec.kind == "bot" or spec.name is not None for spec in cfg.seats]
            return
        cfg = self.cfg
        seat = data.get("seat")
        if kind == "joined":
            assert isinstance(seat, int)
            self.names[seat] = clean_name(data["name"])
            self.joined[seat] = True
            self._event({"kind": "joined", "seat": seat}, f"{self.names[seat]} sits down")
        elif kind == "started":
            self.filled = set(data["filled"])
            for g in self.filled:
                self.names[g] = f"Bot {g + 1}"
            self.game = Game(cfg.rules, list(self.names), dealer=int(data["dealer"]))
            self.chips_history = [tuple(self.game.chips)]
            self.status = "playing"
            self._event({"kind": "started"}, "the game starts")
        elif kind == "round":
            self._new_round(data, trial=False)
        elif kind == "action":
            assert isinstance(seat, int)
            self._act(data)
        elif kind == "takeover":
            assert isinstance(seat, int)
            self.taken_over[seat] = str(data["level"])
            self._event(
                {"kind": "takeover", "seat": seat},
                f"{self.names[seat]} is away: a bot plays for them",
            )
        elif kind == "returned":
            assert isinstance(seat, int)
            self.taken_over.pop(seat, None)
            self._event({"kind": "returned", "seat": seat}, f"{self.names[seat]} is back")
        elif kind == "ready":
            assert isinstance(seat, int)
            self.ready_seats.add(seat)
        elif kind == "left":
            assert isinstance(seat, int)
            self.left.add(seat)
            self.taken_over[seat] = str(data["level"])
            self.ready_seats.discard(seat)
            self._event(
                {"kind": "left", "seat": seat},
                f"{self.names[seat]} left the table: a bot plays for them",
            )
        elif kind == "rematch":
            self.rematch = str(data["table"])
        elif kind == "seat-token":
            assert isinstance(seat, int)
            self.token_hashes[seat] = str(data["hash"])
        if kind == "action" and self.status in ("round-over", "over"):
            self.round_ended_at = entry.at

    def _new_round(self, data: dict[str, Any], trial: bool) -> None:
        game = self.game
        assert game is not None
        hands = [[parse_card(c) for c in h] for h in data["hands"]]
        talon = [parse_card(c) for c in data["talon"]]
        if trial:
            seats = list(game.active)
            Round(
                game.rules,
                [game.chips[s] for s in seats],
                game.board,
                seats.index(game.dealer),
                hands,
                talon,
            )
            return
        rnd = game.start_round(deal=(hands, talon))
        self.status = "playing"
        self.ready_seats.clear()
        self.last_result = None
        self.round_ended_at = None
        self.round_start = len(self.events)
        self.round_starts.append(self.round_start)
        self._passed.clear()
        names = self.round_names
        opener = names[rnd.to_act]
        self._event(
            {
                "kind": "round",
                "k": int(data["k"]),
                "dealer": self.round_seats[rnd.dealer],
                "opener": self.round_seats[rnd.to_act],
            },
            f"Round {data['k'] + 1}: {names[rnd.dealer]} deals, {opener} opens",
        )
        self._engine_events(rnd.events)

    def _act(self, data: dict[str, Any]) -> None:
        rnd, game = self.round, self.game
        assert rnd is not None and game is not None
        action = parse_action(data["action"])
        if data.get("forget") and isinstance(action, Play):
            action = Play(action.card, forget=True)
        start = len(self.events)
        self._engine_events(rnd.apply(action))
        seat = data.get("seat")
        if data.get("by") == "bot" and isinstance(seat, int) and self.is_person(seat):
            # a bot in a person's seat plays under its own name: "Bot (for Ann)"
            for ev in self.events[start:]:
                if ev.get("seat") == seat and ev.get("kind") in _ACTOR_KINDS:
                    ev["for_seat"] = True
        if not rnd.over:
            return
        names = self.round_names
        res = game.finish_round()
        self.chips_history.append(tuple(game.chips))
        self.last_result = self._result_json(rnd, res, names)
        self._event(
            {"kind": "round-over", "seat": self.round_seats[res.winner]},
            f"{names[res.winner]} wins the round",
        )
        if game.result is not None:
            self.status = "over"
            who = " and ".join(self.names[s] for s in game.result.winners)
            self._event(
                {
                    "kind": "game-over",
                    "winners": list(game.result.winners),
                    "reason": game.result.reason,
                    "reason_msg": message_json(game.result.reason),
                },
                f"Game over ({game.result.reason}): {who} "
                + ("win" if len(game.result.winners) > 1 else "wins"),
            )
        else:
            self.status = "round-over"

    def _result_json(self, rnd: Round, res: RoundResult, names: list[str]) -> dict[str, Any]:
        seats = self.round_seats
        columns = breakdown(rnd.events, rnd.n)
        rows = [
            {
                **columns[pos].to_json(),
                "seat": g,
                "name": names[pos],
                "paid": res.chips[pos] - rnd.chips_before[pos],
                "chips": res.chips[pos],
                "cards_left": len(rnd.hands[pos]),
            }
            for pos, g in enumerate(seats)
        ]
        boxes = [
            {"card": c.code, "before": before, "after": after}
            for c, before, after in zip(
                rnd.rules.board_cards, rnd.board_before, res.board, strict=True
            )
        ]
        return {
            "winner": seats[res.winner],
            "rows": rows,
            "boxes": boxes,
            "grand_opera": res.grand_opera,
            "next_dealer": seats[res.next_dealer],
            "short": [seats[p] for p in res.short],
        }

    def _event(self, fields_: dict[str, Any], text: str) -> None:
        self.events.append({**fields_, "text": text})

    def _engine_events(self, events: list[Event]) -> None:
        names = self.round_names
        seats = self.round_seats
        stakes: dict[int, int] = {}
        for event in events:
            if isinstance(event, Staked):
                stakes[event.seat] = stakes.get(event.seat, 0) + event.amount
                continue
            out: dict[str, Any] = {"kind": _EVENT_KIND[type(event)]}
            if isinstance(event, Paid):
                out["seat"] = seats[event.payer]
            elif isinstance(event, Without):
                self._passed.append(seats[event.seat])
                self._passed_rank = event.rank
            elif isinstance(event, CardPlayed):
                self._passed.clear()
            elif isinstance(event, NextRank | FreeSequence) and self._passed:
                # one line for the run: "Ann, Bob and Cid have no queen: Dee may now play a king"
                out["passed"] = [g for g in self._passed if g != seats[event.seat]]
                out["passed_rank"] = self._passed_rank
                self._passed.clear()
            for name in _field_names(event):
                value = getattr(event, name)
                if name in _SEAT_FIELDS:
                    value = seats[value]
                elif isinstance(value, Card):
                    value = value.code
                out[name] = value
                if isinstance(value, Message):
                    out[f"{name}_msg"] = message_json(value)
            out["text"] = event.describe(names)  # (as _event: the text last)
            self.events.append(out)
        if stakes:
            if all(v == STAKE_PER_ROUND for v in stakes.values()):
                text = f"Stakes: {STAKE_PER_ROUND} chips each on the board"
            else:
                text = "Stakes: " + ", ".join(
                    f"{names[p]} {v}" + ("" if v == STAKE_PER_ROUND else " (all they had)")
                    for p, v in sorted(stakes.items())
                )
            by_seat = {str(seats[p]): v for p, v in sorted(stakes.items())}
            self._event({"kind": "stakes", "stakes": by_seat, "per_round": STAKE_PER_ROUND}, text)

    # -- what a seat sees -------------------------------------------------------------------

    def frame(
        self,
        seat: int | None,
        since: int | None = None,
        present: frozenset[int] | set[int] = frozenset(),
        deadline: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The ``state`` frame for ``seat`` (None: a spectator).

        ``events`` holds the public events from index ``since`` (None: the current round's).
        Only ``seat``'s own hand, legal actions and pending claim are in it. The parts every
        seat shares are built once per change and shared by the frames (read them only).
        """
        here = present if isinstance(present, frozenset) else frozenset(present)
        key = (self.seq, here, None if deadline is None else tuple(deadline.items()))
        shared = self._shared
        if shared is None or shared[0] != key:
            rnd_public = self._round_json(None) if self.round is not None else None
            shared = self._shared = (key, self._public_frame(here, deadline), rnd_public)
        out = dict(shared[1])
        out["you"] = seat
        rnd_public = shared[2]
        if rnd_public is not None:
            out["round"] = self._round_seat(rnd_public, seat)
        out["events"] = self.events[self.round_start if since is None else since :]
        return out

    def forget_shared(self) -> None:
        """Drop the change's shared frame parts kept by :meth:`frame` (the service calls it
        once a change's frames are built): kept until the next change, they lived through the
        GC keeper's step and were walked by it (``web/gcpause.py``). The seat rows and the
        round's parts stay: they are the same objects for many changes."""
        self._shared = None

    def _forget_frame_parts(self) -> None:
        """Drop every part kept between frames (the next frame is built from scratch)."""
        self._shared = self._rows = self._round_parts = self._turn = None

    def _seat_rows(self, present: frozenset[int]) -> list[dict[str, Any]]:
        """The frame's ``seats``: the last list again while nothing in it can have changed."""
        game = self.game
        rnd = self.round
        key = (
            self._seats_changed,
            present,
            None if game is None else tuple(game.chips),
            rnd,  # (a Round compares by identity: a new round, new ``in_round``)
        )
        rows = self._rows
        if rows is not None and rows[0] == key:
            return rows[1]
        cfg = self.cfg
        seats = []
        in_round = set(self.round_seats) if rnd is not None else set()
        for g, spec in enumerate(cfg.seats):
            bot = self.bot_for(g) if self.status != "waiting" or spec.kind == "bot" else None
            seats.append(
                {
                    "seat": g,
                    "name": self.names[g],
                    "kind": "bot" if spec.kind == "bot" or g in self.filled else "person",
                    "level": bot if spec.kind == "bot" or g in self.filled else None,
                    "joined": self.joined[g],
                    "present": g in present,
                    "bot_playing": bot is not None,
                    "chips": game.chips[g] if game is not None else cfg.rules.starting_chips,
                    "in_round": g in in_round,
                }
            )
        self._rows = (key, seats)
        return seats

    def _public_frame(
        self, present: frozenset[int], deadline: dict[str, Any] | None
    ) -> dict[str, Any]:
        cfg = self.cfg
        game = self.game
        seats = self._seat_rows(present)
        result = game.result if game is not None else None
        rules = self._rules_json
        if rules is None or rules[0] is not cfg.rules:
            rules = self._rules_json = (cfg.rules, cfg.rules.to_json(), cfg.rules.preset_name)
        return {
            "type": "state",
            "seq": self.seq,
            "table": self.table_id,
            "you": None,
            "status": self.status,
            "title": cfg.title,
            "seats": seats,
            "rules": rules[1],
            "preset": rules[2],
            "creator": 0,
            "hints": cfg.hints,
            "learning": cfg.learning,
            "round": None,
            "last_result": self.last_result,
            "game_result": None
            if result is None
            else {
                "winners": list(result.winners),
                "reason": result.reason,
                "reason_msg": message_json(result.reason),
                "chips": list(result.chips),
                "rounds": result.rounds,
            },
            "ready": sorted(self.ready_seats),
            "left": sorted(self.left),
            "rematch": f"/t/{self.rematch}" if self.rematch else None,
            # the end screen's chart: sent once the game is over (frames stay small meanwhile)
            "chips_by_round": self.chips_by_round()[-CHART_ROUNDS:]
            if self.status == "over"
            else [],
            "chips_rounds_from": max(0, len(self.chips_history) - CHART_ROUNDS),
            "events": [],
            "deadline": deadline,
        }

    def _round_json(self, seat: int | None) -> dict[str, Any]:
        rnd = self.round
        game = self.game
        assert rnd is not None and game is not None
        seats = self.round_seats
        to_act = rnd.current_player
        parts = self._parts(rnd, seats)
        played, passes = parts.played_and_passes()
        out: dict[str, Any] = {
            "k": game.rounds_played - (1 if rnd.over else 0),
            "dealer": seats[rnd.dealer],
            "to_act": seats[to_act] if to_act is not None else None,
            "need": rnd.need,
            "leader": seats[rnd.leader] if rnd.leader is not None else None,
            "board": parts.board_json(),
            "hand_sizes": parts.hand_sizes_json(),
            "talon_size": len(rnd.talon),
            "chips": parts.chips_json(),
            "played": played,
            "sequence": parts.sequence_json(),
            "passes": passes,
            "winner": seats[rnd.result.winner] if rnd.result is not None else None,
        }
        return self._round_seat(out, seat)

    def _parts(self, rnd: Round, seats: list[int]) -> _RoundParts:
        """The kept JSON parts of ``rnd`` (new ones for a new round or other seats)."""
        parts = self._round_parts
        if parts is None or parts.rnd is not rnd or parts.seats != seats:
            parts = self._round_parts = _RoundParts(rnd, seats)
        return parts

    def _round_seat(self, public: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """``public`` (the round's shared part) with ``seat``'s hand, legal actions, claim."""
        rnd = self.round
        assert rnd is not None
        seats = self.round_seats
        if seat is None or seat not in seats:
            return public
        pos = seats.index(seat)
        out = dict(public)
        mine = rnd.current_player == pos
        out["hand"] = self._parts(rnd, seats).hand_json(pos)
        out["legal"] = [action_text(a) for a in rnd.legal_actions()] if mine else []
        claim = rnd.pending_claim if mine else None
        out["pending_claim"] = claim.code if claim is not None else None
        return out

    def round_events(self, k: int) -> list[dict[str, Any]]:
        """The public events of round ``k`` (at most ``ROUND_EVENTS_MAX``, the last ones)."""
        if not 0 <= k < len(self.round_starts):
            raise TableError("not-found", "there is no such round")
        end = self.round_starts[k + 1] if k + 1 < len(self.round_starts) else len(self.events)
        start = max(self.round_starts[k], end - ROUND_EVENTS_MAX)
        return self.events[start:end]

    def chips_by_round(self) -> list[list[int]]:
        """Every player's chips (by game seat) at the start, then after each finished round."""
        return [list(row) for row in self.chips_history]

    # -- records ------------------------------------------------------------------------------

    def record(self) -> list[dict[str, object]]:
        """The game's record (finished rounds, then the round in progress if any)."""
        game = self.game
        if game is None:
            return []
        records = list(game.records)
        rnd = game.round
        if rnd is not None and not rnd.over:
            records.append(round_record(rnd, self.round_names))
        return records

    def summary(self) -> dict[str, Any]:
        """A short description for the lobby (no hidden information)."""
        game = self.game
        return {
            "players": self.names,
            "rounds": game.rounds_played if game is not None else 0,
            "chips": list(game.chips) if game is not None else None,
            "winners": list(game.result.winners) if game and game.result else None,
        }


class _RoundParts:
    """Parts of one round's frames as JSON, each rebuilt only when its value changed.

    The lists and dicts handed out are shared by every frame until the value changes (they
    are never changed once made), so frames of earlier changes still waiting to be sent keep
    what they were built with.
    """

    __slots__ = (
        "_board",
        "_chips",
        "_hands",
        "_passes",
        "_played",
        "_run",
        "_run_seen",
        "_sizes",
        "rnd",
        "seats",
    )

    def __init__(self, rnd: Round, seats: list[int]) -> None:
        self.rnd = rnd
        self.seats = list(seats)
        self._board: tuple[tuple[int, ...], list[dict[str, Any]]] | None = None
        self._sizes: tuple[tuple[int, ...], dict[str, int]] | None = None
        self._chips: tuple[tuple[int, ...], dict[str, int]] | None = None
        self._hands: dict[int, tuple[int, list[str]]] = {}
        self._run: list[str] = []
        self._run_seen = 0
        """How many of the round's events :attr:`_run` has read (they only grow)."""
        self._played: list[list[Any]] = []
        self._passes: list[list[Any]] = []

    def board_json(self) -> list[dict[str, Any]]:
        board = tuple(self.rnd.board)
        kept = self._board
        if kept is None or kept[0] != board:
            cards = self.rnd.rules.board_cards
            kept = self._board = (
                board,
                [{"card": c.code, "chips": v} for c, v in zip(cards, board, strict=True)],
            )
        return kept[1]

    def hand_sizes_json(self) -> dict[str, int]:
        sizes = tuple(map(len, self.rnd.hands))
        kept = self._sizes
        if kept is None or kept[0] != sizes:
            kept = self._sizes = (sizes, {str(g): sizes[p] for p, g in enumerate(self.seats)})
        return kept[1]

    def chips_json(self) -> dict[str, int]:
        chips = tuple(self.rnd.chips)
        kept = self._chips
        if kept is None or kept[0] != chips:
            kept = self._chips = (chips, {str(g): chips[p] for p, g in enumerate(self.seats)})
        return kept[1]

    def hand_json(self, pos: int) -> list[str]:
        # a hand only loses cards within a round: its size dates it
        hand = self.rnd.hands[pos]
        kept = self._hands.get(pos)
        if kept is None or kept[0] != len(hand):
            kept = self._hands[pos] = (len(hand), [c.code for c in hand])
        return kept[1]

    def played_and_passes(self) -> tuple[list[list[Any]], list[list[Any]]]:
        """Fresh copies of the round's played cards and passes as JSON (``[seat, card code]``,
        ``[seat, rank]``), reading only the entries new since the last call (they only grow)."""
        rnd, seats, played, passes = self.rnd, self.seats, self._played, self._passes
        if len(played) > len(rnd.played) or len(passes) > len(rnd.passes):
            played.clear()
            passes.clear()
        played.extend([seats[p], c.code] for p, c in rnd.played[len(played) :])
        passes.extend([seats[p], r] for p, r in rnd.passes[len(passes) :])
        return list(played), list(passes)

    def sequence_json(self) -> list[str]:
        """:func:`current_run`'s cards as codes, reading only the events new since the last
        call (a fresh list each time: the run grows in place)."""
        events = self.rnd.events
        run = self._run
        for event in events[self._run_seen :]:
            if isinstance(event, FreeSequence | OutOfCards):
                run.clear()
            elif isinstance(event, CardPlayed):
                run.append(event.card.code)
        self._run_seen = len(events)
        return list(run)


def current_run(rnd: Round) -> list[Card]:
    """The cards of the sequence being played (since the last new sequence)."""
    cards: list[Card] = []
    for event in reversed(rnd.events):
        if isinstance(event, FreeSequence | OutOfCards):
            break
        if isinstance(event, CardPlayed):
            cards.append(event.card)
    cards.reverse()
    return cards


__all__ = [
    "NainJauneTable",
    "Status",
    "Turn",
    "action_text",
    "clean_name",
    "current_run",
    "hash_token",
    "parse_action",
]
