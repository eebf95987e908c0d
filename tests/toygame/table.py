"""The toy game's table (its registry entry's ``table`` piece): the turn-based table protocol
of ``cardroom.tables.protocol.TurnTable``, rebuilt from its log, so the table service creates,
runs, stores and tells it like any other game's, and the websocket plays it.

One round: ``round`` is logged once the game starts (its deal is the table's seed), then one
``action`` per card (its code, e.g. ``"7D"``); the table is over when both hands are empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.cards import Card, CardError, parse_card
from cardroom.games.errors import RulesError
from cardroom.games.messages import Message
from cardroom.games.table import (
    ALREADY_STARTED,
    NOT_CREATED,
    REMATCH_ONCE,
    SEAT_ENTRIES,
    LogEntry,
    TableConfig,
    TableError,
    check_seat,
    check_seat_entry,
    clean_name,
)
from tests.toygame.engine import ToyGame
from tests.toygame.record import to_record
from tests.toygame.rules import ToyRules
from tests.toygame.view import ToyView, view_of

KINDS = frozenset(
    {"created", "joined", "started", "round", "action", "takeover", "returned", "ready",
     "left", "rematch", "seat-token"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Turn:
    """Who acts now, and the bot deciding for that seat (None: its person)."""

    seat: int
    bot: str | None


class ToyTable:
    """One table of higher card, driven only by :meth:`apply`."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.seq = 0
        self.config: TableConfig[ToyRules] | None = None
        self.status = "waiting"
        self.names: list[str] = []
        self.joined: list[bool] = []
        self.left: set[int] = set()
        self.taken_over: dict[int, str] = {}
        self.token_hashes: dict[int, str] = {}
        self.events: list[dict[str, Any]] = []
        self.round_ended_at: float | None = None
        self.rematch: str | None = None
        self.filled: set[int] = set()
        self.game: ToyGame | None = None

    @classmethod
    def replay(cls, table_id: str, entries: Sequence[LogEntry]) -> ToyTable:
        """The table after every entry of ``entries``, each checked first."""
        table = cls(table_id)
        for entry in entries:
            table.check(entry.kind, entry.data)
            table.apply(entry)
        return table

    # -- reading

    @property
    def cfg(self) -> TableConfig[ToyRules]:
        """The table's config (once created)."""
        if self.config is None:
            raise TableError("not-found", NOT_CREATED)
        return self.config

    @property
    def n(self) -> int:
        """The number of seats."""
        return len(self.names)

    def is_person(self, seat: int) -> bool:
        """A person's seat, not a bot's nor one a bot filled at the start."""
        return self.cfg.seats[seat].kind == "person" and seat not in self.filled

    def person_seats(self) -> list[int]:
        """The seats persons play."""
        return [g for g in range(self.n) if self.is_person(g)]

    def _bot_for(self, seat: int) -> str | None:
        spec = self.cfg.seats[seat]
        if spec.kind == "bot":
            return spec.level or self.cfg.level
        return self.cfg.level if seat in self.filled else self.taken_over.get(seat)

    def turn(self) -> Turn | None:
        """Who must act now (None unless a card is due)."""
        game = self.game
        if self.status != "playing" or game is None or game.turn is None:
            return None
        return Turn(game.turn, self._bot_for(game.turn))

    def needs_deal(self) -> bool:
        """True once started and before the one round is dealt."""
        return self.status == "playing" and self.game is None

    def waiting_for_ready(self) -> list[int]:
        """Nobody: the game is one round."""
        return []

    def bot_view(self, seat: int) -> ToyView:
        """What ``seat`` sees now."""
        if self.game is None:
            raise TableError("not-your-turn", "no round is being played")
        return view_of(self.game, seat)

    @staticmethod
    def action_text(action: Card) -> str:
        """A card as an ``action`` entry holds it."""
        return action.code

    # -- proposing

    def entry(self, kind: str, data: dict[str, Any], at: float) -> LogEntry:
        """The next entry, checked first."""
        self.check(kind, data)
        return LogEntry(self.seq + 1, kind, data, at)

    def deal(self) -> dict[str, Any]:
        """The one round's entry: the deal is the table's seed."""
        return {"k": 0}

    def check(self, kind: str, data: dict[str, Any]) -> None:
        """Refuse an entry that may not follow now (``TableError``); change nothing."""
        if kind == "created":
            if self.config is not None:
                raise TableError("bad-request", "the table already exists")
            TableConfig.from_json(data.get("config"))
            return
        if self.config is None:
            raise TableError("not-found", NOT_CREATED)
        if kind not in KINDS:
            raise TableError("bad-request", f"unknown log entry {kind!r}")
        if self.status == "over" and kind not in ("rematch", "seat-token"):
            raise TableError("over", "the game is over")
        if kind == "rematch":
            if self.status != "over" or self.rematch is not None:
                raise TableError("forbidden", REMATCH_ONCE)
            return
        if kind == "started":
            if self.status != "waiting":
                raise TableError("bad-request", ALREADY_STARTED)
            return
        if kind == "round":
            if not self.needs_deal():
                raise TableError("bad-request", "the round is dealt already")
            return
        seat = check_seat(self, data)
        if kind in SEAT_ENTRIES:
            check_seat_entry(self, kind, seat, data)
        elif kind == "action":
            self._check_action(seat, data)
        elif kind == "ready":
            raise TableError("bad-request", "there is no next round")

    def _check_action(self, seat: int, data: dict[str, Any]) -> None:
        turn = self.turn()
        if turn is None or turn.seat != seat:
            raise TableError("not-your-turn", Message("toy.turn", "it is not your turn"))
        if (data.get("by") == "bot") != (turn.bot is not None):
            raise TableError("forbidden", "this seat is played by another")
        card = _card(data.get("action"))
        assert self.game is not None
        if card not in self.game.hands[seat]:
            raise TableError("illegal", Message("toy.not-held", f"{card.code} is not in your hand"))

    # -- applying

    def apply(self, entry: LogEntry) -> None:
        """Apply an entry that :meth:`check` accepted."""
        kind, data = entry.kind, entry.data
        self.seq = entry.seq
        seat = data.get("seat")
        if kind == "created":
            self.config = TableConfig.from_json(data["config"])
            self.token_hashes = {int(k): str(v) for k, v in data.get("tokens", {}).items()}
            self.names = [
                s.name or (f"Seat {g + 1}" if s.kind == "person" else f"Bot {g + 1}")
                for g, s in enumerate(self.config.seats)
            ]
            self.joined = [s.kind == "bot" or s.name is not None for s in self.config.seats]
        elif kind == "joined" and isinstance(seat, int):
            self.names[seat], self.joined[seat] = clean_name(data["name"]), True
            self._event("toy-seated", f"{self.names[seat]} sits down", seat=seat)
        elif kind == "started":
            self.filled = set(data["filled"])
            for g in self.filled:
                self.names[g] = f"Bot {g + 1}"
            self.status = "playing"
            self._event("toy-start", "the game starts")
        elif kind == "round":
            self.game = ToyGame(self.cfg.rules, self.cfg.seed)
            self._event("toy-deal", "the cards are dealt")
        elif kind == "action" and isinstance(seat, int):
            assert self.game is not None
            card = _card(data["action"])
            taker = self.game.play(seat, card)
            self._event("toy-play", f"{self.names[seat]}: {card.code}", seat=seat, card=card.code)
            if taker is not None:
                self._event("toy-trick", f"{self.names[taker]} takes the trick", seat=taker)
            if self.game.over:
                self.status, self.round_ended_at = "over", entry.at
                self._event("toy-over", "the game is over", winner=self.game.winner)
        elif kind == "takeover" and isinstance(seat, int):
            self.taken_over[seat] = str(data["level"])
        elif kind == "returned" and isinstance(seat, int):
            self.taken_over.pop(seat, None)
        elif kind == "left" and isinstance(seat, int):
            self.left.add(seat)
            self.taken_over[seat] = str(data["level"])
        elif kind == "rematch":
            self.rematch = str(data["table"])
        elif kind == "seat-token" and isinstance(seat, int):
            self.token_hashes[seat] = str(data["hash"])

    def _event(self, kind: str, text: str, **fields: Any) -> None:
        # the toy game's own kinds, written in English; a page reads them in its language
        # through the game's words piece (tests/toygame/words.py)
        self.events.append({"kind": kind, **fields, "text": text})

    # -- what a seat sees

    def frame(
        self,
        seat: int | None,
        since: int | None = None,
        present: frozenset[int] | set[int] = frozenset(),
        deadline: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """``seat``'s state frame (None: a spectator): its own hand only."""
        game, turn = self.game, self.turn()
        rnd: dict[str, Any] | None = None
        if game is not None:
            mine = seat is not None and 0 <= seat < self.n
            hand = sorted(c.code for c in game.hands[seat]) if mine and seat is not None else []
            legal = hand if turn is not None and turn.seat == seat and turn.bot is None else []
            rnd = {
                "hand": hand,
                "legal": legal,
                "cards": [len(h) for h in game.hands],
                "trick": [[s, c.code] for s, c in game.trick],
                "tricks": list(game.tricks),
                "turn": None if turn is None else turn.seat,
            }
        return {
            "type": "state",
            "game": self.cfg.game,
            "seq": self.seq,
            "table": self.table_id,
            "you": seat,
            "status": self.status,
            "title": self.cfg.title,
            "seats": [
                {
                    "seat": g,
                    "name": self.names[g],
                    "person": self.is_person(g),
                    "present": g in present,
                }
                for g in range(self.n)
            ],
            "round": rnd,
            "game_result": None if game is None or not game.over else {"winner": game.winner},
            "ready": [],
            "left": sorted(self.left),
            "rematch": f"/t/{self.rematch}" if self.rematch else None,
            "events": self.events[since or 0 :],
            "deadline": deadline,
        }

    def forget_shared(self) -> None:
        """Nothing is kept between frames."""

    def summary(self) -> dict[str, Any]:
        """The lobby's and My games' summary: the players and, once over, the winner."""
        game = self.game
        out: dict[str, Any] = {"players": self.names}
        if game is not None and game.over:
            out["winner"] = game.winner
        return out

    def record(self) -> list[dict[str, object]]:
        """The game's record (the toy game's own format), as a list of one."""
        return [] if self.game is None else [to_record(self.game)]

    def round_events(self, k: int) -> list[dict[str, Any]]:
        """The events of the one round."""
        if k != 0 or self.game is None:
            raise TableError("not-found", "no such round")
        return list(self.events)


def _card(text: object) -> Card:
    try:
        return parse_card(str(text))
    except (CardError, RulesError) as exc:
        said = Message("toy.card", f"cannot read the card {text!r}: {exc}")
        raise TableError("bad-request", said) from None
