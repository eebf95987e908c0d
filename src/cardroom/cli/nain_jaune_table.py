"""A game of Nain Jaune between one person and bots: the controller both terminal UIs drive.

The table owns the :class:`Game`; the person's UI sees only ``view_of(round, own seat)`` and each
bot only ``view_of(round, its seat)`` with its own ``random.Random`` derived from the seed. The
record (finished rounds plus the round in progress) is written atomically after every round and
whenever the UI asks, so quitting at any moment loses nothing.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from cardroom.bots.base import Bot
from cardroom.cards import Card, CardError, Rank, parse_card
from cardroom.games.nain_jaune.engine import (
    CLAIM,
    PASS,
    Action,
    Event,
    Game,
    Play,
    Round,
    RoundResult,
    round_record,
)
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.view import RoundView, view_of

Phase = Literal["human", "bot", "round-over", "game-over"]


class InputError(ValueError):
    """Input the table refuses; the message says why and what to type instead."""


@dataclass(frozen=True, slots=True)
class Command:
    """A non-game command typed or pressed by the person."""

    name: Literal["help", "quit", "next", "state", "hand"]


class Table:
    """One person (seat ``human``) against bots; seats are the game's seats."""

    def __init__(
        self,
        rules: Rules,
        names: Sequence[str],
        human: int,
        bots: dict[int, Bot],
        seed: int,
        records_dir: Path | None = None,
    ) -> None:
        n = len(names)
        if sorted([human, *bots]) != list(range(n)):
            raise ValueError("every seat but the person's needs a bot")
        self.seed = seed
        self.human = human
        self.bots = bots
        self.rngs = {seat: random.Random(f"{seed}/seat/{seat}") for seat in bots}
        dealer = random.Random(f"{seed}/dealer").randrange(n)
        self.game = Game(rules, list(names), dealer=dealer)
        self.records_dir = records_dir
        self.path: Path | None = None
        if records_dir is not None:
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            self.path = records_dir / f"nain-jaune-{stamp}-seed{seed}.json"
            count = 1
            while self.path.exists():
                count += 1
                self.path = records_dir / f"nain-jaune-{stamp}-seed{seed}-{count}.json"
        self.last_result: RoundResult | None = None
        self.labels: dict[int, str] = {}
        """A short description of each bot (its level or spec), by seat."""

    # -- the state, as the person may see it -----------------------------------

    @property
    def names(self) -> list[str]:
        """Every player's name, by game seat."""
        return self.game.names

    @property
    def round(self) -> Round | None:
        """The round being played or just finished (None before the first)."""
        return self.game.round

    @property
    def round_names(self) -> list[str]:
        """The names of the round's seats (all players unless some dropped out)."""
        return [self.names[s] for s in self.game.round_seats]

    @property
    def human_pos(self) -> int | None:
        """The person's seat in the current round, or None if he dropped out."""
        seats = self.game.round_seats
        return seats.index(self.human) if self.human in seats else None

    def view(self) -> RoundView | None:
        """The person's view of the current round (None before the first or after dropping out)."""
        rnd, pos = self.round, self.human_pos
        if rnd is None or pos is None:
            return None
        return view_of(rnd, pos)

    def public_view(self) -> RoundView | None:
        """What anyone at the table sees of the current round: the person's own view, or (once
        he has dropped out) a seat's view with its hand and choices taken out."""
        rnd = self.round
        if rnd is None:
            return None
        pos = self.human_pos
        if pos is not None:
            return view_of(rnd, pos)
        return replace(view_of(rnd, 0), hand=(), legal_actions=(), pending_claim=None)

    @property
    def phase(self) -> Phase:
        """Who or what the table is waiting for."""
        if self.game.result is not None:
            return "game-over"
        rnd = self.round
        if rnd is None or rnd.over:
            return "round-over"
        seat = self.game.round_seats[rnd.to_act]
        return "human" if seat == self.human else "bot"

    @property
    def to_act_name(self) -> str | None:
        """The name of the player to act, if a round is being played."""
        rnd = self.round
        if rnd is None or rnd.over:
            return None
        return self.names[self.game.round_seats[rnd.to_act]]

    # -- moving the game on ----------------------------------------------------

    def start_round(self) -> list[Event]:
        """Deal the next round (``random.Random(f"{seed}/deal/{k}")``); returns its stake events."""
        rng = random.Random(f"{self.seed}/deal/{self.game.rounds_played}")
        rnd = self.game.start_round(rng)
        self.last_result = None
        return list(rnd.events)

    def human_act(self, action: Action) -> list[Event]:
        """Apply the person's action; raises ``IllegalAction`` or :class:`InputError` unchanged."""
        if self.phase != "human":
            raise InputError(self._not_your_turn())
        events = self._apply(action)
        self.save()
        return events

    def bot_act(self) -> list[Event]:
        """Let the bot to act choose from its own view and apply its action."""
        return self.bot_apply(self.bot_choose())

    def bot_choose(self) -> Action:
        """The action the bot to act chooses from its own view; changes nothing.

        Safe to call from a worker thread while the UI reads the table: the bot gets a view
        (a snapshot), and only :meth:`bot_apply` changes the round.
        """
        rnd = self.round
        if rnd is None or self.phase != "bot":
            raise InputError("no bot is to act now")
        seat = self.game.round_seats[rnd.to_act]
        return self.bots[seat].act(view_of(rnd, rnd.to_act), self.rngs[seat])

    def bot_apply(self, action: Action) -> list[Event]:
        """Apply an action chosen by :meth:`bot_choose`."""
        if self.phase != "bot":
            raise InputError("no bot is to act now")
        return self._apply(action)

    def _apply(self, action: Action) -> list[Event]:
        rnd = self.round
        assert rnd is not None
        events = rnd.apply(action)
        if rnd.over:
            self.last_result = self.game.finish_round()
            self.save()
        return events

    def _not_your_turn(self) -> str:
        phase = self.phase
        if phase == "bot":
            return f"it is {self.to_act_name}'s turn, not yours: wait"
        if phase == "round-over":
            return "the round is over: type next (key n) for the next round"
        return "the game is over"

    # -- records ---------------------------------------------------------------

    def record(self) -> list[dict[str, object]]:
        """The whole game so far: finished rounds, then the round in progress if any."""
        records = list(self.game.records)
        rnd = self.round
        if rnd is not None and not rnd.over:
            records.append(round_record(rnd, self.round_names))
        return records

    def save(self) -> Path | None:
        """Write the record (atomically) if a round was dealt; returns its path."""
        if self.path is None or self.round is None:
            return None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(self.record(), ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)
        return self.path


# -- reading what the person types -------------------------------------------------

HELP_LINES = (
    "Commands: a card (7D, 10♦, td, qs; or just the rank, 7, when you hold one card of it),",
    'pass (or p: say "without X"), claim (or c: "… who takes", with announce=manual),',
    "next (or n, or an empty line: the next round), state (or s), hand (or h), help (or ?),",
    "quit (or q: the game is saved).",
)

_WORDS: dict[str, Action | Command] = {
    "pass": PASS,
    "p": PASS,
    "without": PASS,
    "claim": CLAIM,
    "c": CLAIM,
    "take": CLAIM,
    "help": Command("help"),
    "?": Command("help"),
    "h": Command("hand"),
    "hand": Command("hand"),
    "s": Command("state"),
    "state": Command("state"),
    "board": Command("state"),
    "q": Command("quit"),
    "quit": Command("quit"),
    "exit": Command("quit"),
    "n": Command("next"),
    "next": Command("next"),
    "": Command("next"),
}


def parse_input(text: str, hand: Sequence[Card], need: int | None = None) -> Action | Command:
    """Read one line: a card, a rank, or a command word; raises :class:`InputError`.

    A bare rank stands for the card of that rank in ``hand``; when several could be played now
    (``need`` is the rank wanted, None for any), the person is asked which.
    """
    word = text.strip().lower()
    if word in _WORDS:
        return _WORDS[word]
    try:
        return Play(parse_card(word))
    except CardError as card_error:
        try:
            rank = Rank.parse(word)
        except CardError:
            raise InputError(
                f"cannot read {text.strip()!r}: {card_error}; type help for the commands"
            ) from None
    held = [c for c in hand if c.rank == rank]
    if not held:
        raise InputError(f"you hold no {rank.label}")
    if len(held) == 1 or (need is not None and need != rank):
        return Play(held[0])
    options = " or ".join(c.code for c in held)
    raise InputError(f"you hold {len(held)} cards of rank {rank.symbol}: type {options}")
