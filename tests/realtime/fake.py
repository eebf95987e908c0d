"""A tiny real-time game ("fake") implementing the engine protocol, to test the arbiter alone.

Each seat holds a visible hand; two centre piles; a face-down side deck. The game starts in a
stalemate (phase "start"): both ``Call()`` or the countdown turns the side deck's top two cards
onto the piles. A seat plays a card one rank from a pile's top (``seen`` checks staleness). When
neither seat can play, it is a stalemate again. The first seat to empty its hand opens a slap
race: the first ``Slap(pile)`` takes that pile (the other seat the other one) and the seat that
emptied its hand wins. If the side deck runs short at a stalemate, the game ends with the seat
holding fewer cards the winner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.cards import Card, parse_card
from cardroom.games.realtime_engine import SEATS, RealtimeIllegal, adjacent


@dataclass(frozen=True, slots=True)
class Play:
    card: Card
    pile: int
    seen: Card | None = None


@dataclass(frozen=True, slots=True)
class Call:
    pass


@dataclass(frozen=True, slots=True)
class Slap:
    pile: int


Action = Play | Call | Slap


@dataclass(frozen=True, slots=True)
class FakeRules:
    countdown: float = 3.0


@dataclass(frozen=True, slots=True)
class FakeView:
    seat: int
    phase: str
    centre: tuple[Card | None, Card | None]
    centre_sizes: tuple[int, int]
    hand: tuple[Card, ...]
    other_count: int
    stalemate: bool
    called: tuple[bool, bool]
    winner: int | None
    legal_actions: tuple[Action, ...]


class FakeGame:
    game = "fake"

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        side: Sequence[Card],
        rules: FakeRules | None = None,
    ) -> None:
        self.rules = rules or FakeRules()
        self.hands = [list(h) for h in hands]
        self.initial_hands = [list(h) for h in hands]
        self.initial_side = list(side)
        self.side = list(side)
        self.centre: list[list[Card]] = [[], []]
        self.called = [False, False]
        self._phase = "start"
        self._stalemate = True
        self._winner: int | None = None
        self.took: list[int | None] = [None, None]
        self.redeals = 0

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def stalemate(self) -> bool:
        return self._stalemate and self._winner is None

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def over(self) -> bool:
        return self._phase == "over"

    def snapshot(self) -> Any:
        return (
            [list(h) for h in self.hands], list(self.side), [list(p) for p in self.centre],
            list(self.called), self._phase, self._stalemate, self._winner, list(self.took),
        )

    def cards_left(self, seat: int) -> int:
        return len(self.hands[seat])

    def _can_play(self, seat: int) -> bool:
        return any(
            p and adjacent(c, p[-1]) for c in self.hands[seat] for p in self.centre
        )

    def why_illegal(self, seat: int, action: Action) -> str | None:
        if self._phase == "over":
            return "the game is over"
        if isinstance(action, Call):
            if not self.stalemate:
                return "no stalemate"
            if self.called[seat]:
                return "already called"
            return None
        if isinstance(action, Slap):
            if self._phase != "slap":
                return "no slap now"
            return None
        if self._phase != "play":
            return f"cannot play in phase {self._phase}"
        if action.card not in self.hands[seat]:
            return f"{action.card} is not in your hand"
        top = self.centre[action.pile][-1]
        if action.seen is not None and action.seen is not top:
            return f"stale: pile {action.pile} now shows {top}, not {action.seen}"
        if not adjacent(action.card, top):
            return f"{action.card} does not fit on {top}"
        return None

    def apply(self, seat: int, action: Action) -> list[Any]:
        reason = self.why_illegal(seat, action)
        if reason is not None:
            raise RealtimeIllegal(seat, action, reason)
        if isinstance(action, Call):
            self.called[seat] = True
            if all(self.called):
                return [("called", seat), *self.resolve_stalemate()]
            return [("called", seat)]
        if isinstance(action, Slap):
            self.took[seat] = action.pile
            self.took[1 - seat] = 1 - action.pile
            self._phase = "over"
            return [("slap", seat, action.pile)]
        self.hands[seat].remove(action.card)
        self.centre[action.pile].append(action.card)
        if not self.hands[seat]:
            self._winner = seat
            self._phase = "slap"
            self._stalemate = False
            return [("played", seat, action.card), ("won", seat)]
        self._check()
        return [("played", seat, action.card)]

    def _check(self) -> None:
        self._stalemate = not (self._can_play(0) or self._can_play(1))
        self._phase = "stalemate" if self._stalemate else "play"

    def resolve_stalemate(self) -> list[Any]:
        assert self.stalemate
        self.called = [False, False]
        if len(self.side) < 2:
            a, b = len(self.hands[0]), len(self.hands[1])
            self._winner = None if a == b else (0 if a < b else 1)
            self._phase = "over"
            return [("blocked",)]
        flipped = (self.side.pop(), self.side.pop())
        for i in SEATS:
            self.centre[i].append(flipped[i])
        self._check()
        return [("flip", flipped)]

    def legal_actions(self, seat: int) -> list[Action]:
        out: list[Action] = []
        if self._phase == "slap":
            return [Slap(0), Slap(1)]
        if self.stalemate:
            return [] if self.called[seat] else [Call()]
        if self._phase != "play":
            return out
        for pile in (0, 1):
            top = self.centre[pile][-1]
            out.extend(Play(c, pile, top) for c in self.hands[seat] if adjacent(c, top))
        return out

    def view(self, seat: int) -> FakeView:
        return FakeView(
            seat,
            self._phase,
            (self.top(0), self.top(1)),
            (len(self.centre[0]), len(self.centre[1])),
            tuple(self.hands[seat]),
            len(self.hands[1 - seat]),
            self.stalemate,
            (self.called[0], self.called[1]),
            self._winner,
            tuple(self.legal_actions(seat)),
        )

    def top(self, pile: int) -> Card | None:
        return self.centre[pile][-1] if self.centre[pile] else None

    def locations(self) -> dict[Card, str]:
        out = {c: f"hand:{s}" for s in SEATS for c in self.hands[s]}
        out |= {c: "side" for c in self.side}
        out |= {c: f"centre:{i}" for i in SEATS for c in self.centre[i]}
        return out

    def action_to_json(self, action: Action) -> dict[str, Any]:
        if isinstance(action, Play):
            seen = action.seen.code if action.seen else None
            return {"type": "play", "card": action.card.code, "pile": action.pile, "seen": seen}
        if isinstance(action, Slap):
            return {"type": "slap", "pile": action.pile}
        return {"type": "call"}

    def action_from_json(self, data: Any) -> Action:
        if not isinstance(data, dict):
            raise ValueError("an action is an object")
        kind = data.get("type")
        if kind == "call":
            return Call()
        if kind == "slap":
            return Slap(int(data["pile"]))
        if kind == "play":
            seen = data.get("seen")
            return Play(
                parse_card(data["card"]), int(data["pile"]), parse_card(seen) if seen else None
            )
        raise ValueError(f"unknown action type {kind!r}")


def record_header(game: FakeGame, players: Sequence[str]) -> dict[str, Any]:
    return {
        "game": "fake",
        "rules": {"countdown": game.rules.countdown},
        "players": list(players),
        "hands": [[c.code for c in h] for h in game.initial_hands],
        "side": [c.code for c in game.initial_side],
    }


def game_from_header(data: Mapping[str, Any]) -> FakeGame:
    try:
        hands = [[parse_card(c) for c in h] for h in data["hands"]]
        side = [parse_card(c) for c in data["side"]]
        countdown = float(data["rules"]["countdown"])
    except (KeyError, TypeError) as exc:
        raise ValueError(f"bad fake header: {exc}") from None
    return new_game(hands, side, FakeRules(countdown))


def new_game(
    hands: Sequence[Sequence[Card]], side: Sequence[Card], rules: FakeRules | None = None
) -> FakeGame:
    return FakeGame(hands, side, rules)
