"""The Speed engine: one game (deal, start, plays, stalemate flips, winning) and a match.

A :class:`SpeedGame` is mutable and pure: :meth:`SpeedGame.apply` checks one action of one seat,
applies it and returns the events it caused; an illegal action raises
:class:`~cardroom.games.realtime_engine.RealtimeIllegal` and changes nothing. Time never enters
here: the arbiter (``cardroom.arbiter``) orders the actions and runs the countdown.

The deal is the 52 cards in this order (:func:`split_deal`), each pile listed from the top down:
side pile 0, side pile 1 (``side_piles`` cards each), the middle card of centre pile 0, the
middle card of centre pile 1, seat 0's draw pile, seat 1's draw pile (15 cards each, or 20 with
side piles of 5). Each player at once draws the top five cards of his draw pile into his hand.
Side pile ``i`` and the middle card ``i`` feed centre pile ``i``; seat 0 turns middle card 0 and
slides side pile 0, seat 1 middle card 1 and side pile 1.

One concern: Speed's rules, as one state machine (actions, events, the checks of
:meth:`SpeedGame.why_illegal`, plays, stalemate flips and the rebuild, the winner) and
:class:`SpeedMatch`, its games in a row. Every phase reads and changes the same hands and piles,
so the rules stay in one file.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from cardroom.cards import Card, CardError, parse_card, shuffled_deck
from cardroom.games.errors import RecordError
from cardroom.games.messages import Message, message_of
from cardroom.games.realtime_engine import (
    SEATS,
    RealtimeIllegal,
    adjacent,
    centre_name,
    derive_seed,
)
from cardroom.games.records import shown
from cardroom.games.speed.rules import (
    FLIP_CALLED_FROM,
    HAND_SIZE,
    HAND_WHEN_NO_DRAW_FROM,
    RENEWED_COUNTDOWN_FROM,
    RULES_VERSION,
    SpeedRules,
)

if TYPE_CHECKING:
    from cardroom.games.speed.view import SpeedView

__all__ = [
    "Action",
    "Blocked",
    "CallFlip",
    "Called",
    "CardPlayed",
    "Drew",
    "Event",
    "Flipped",
    "GameWon",
    "NoStalemate",
    "Play",
    "Rebuilt",
    "SpeedGame",
    "SpeedMatch",
    "SpeedResult",
    "action_from_json",
    "action_to_json",
    "derive_seed",
    "split_deal",
]

# ----------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` from the hand onto centre pile ``pile`` (0 or 1).

    ``seen`` is the top card the player saw on that pile; if the pile's top is another card when
    the action arrives, it is rejected as stale. ``None`` = don't check.
    """

    card: Card
    pile: int
    seen: Card | None = None

    def __str__(self) -> str:
        seen = f" (on {self.seen.code})" if self.seen is not None else ""
        return f"play {self.card.code} on {centre_name(self.pile)}{seen}"


@dataclass(frozen=True, slots=True)
class CallFlip:
    """Call for the flip: at the start (turn the middle cards), or when the caller cannot play.

    The flip comes when both have called (or the table's countdown, running from the first
    call, runs out); a card played clears the calls.
    """

    stalemate_call: ClassVar[bool] = True
    """An action that breaks a stalemate (the analysis counts these calls)."""

    def __str__(self) -> str:
        return "call flip"


Action = Play | CallFlip
CALL = CallFlip()


class NoStalemate(ValueError):
    """``resolve_stalemate`` was called while no stalemate (nor the start) was waiting."""


def action_to_json(action: Action) -> dict[str, Any]:
    """The record form: ``{"type": "play", "card": "7D", "pile": 0, "seen": "8C"}`` or
    ``{"type": "call"}``."""
    if isinstance(action, Play):
        return {
            "type": "play",
            "card": action.card.code,
            "pile": action.pile,
            "seen": action.seen.code if action.seen is not None else None,
        }
    if isinstance(action, CallFlip):
        return {"type": "call"}
    raise TypeError(f"not a Speed action: {action!r}")


def action_from_json(data: Any) -> Action:
    """Read the record form of an action; raise :class:`RecordError` saying what is wrong."""
    if not isinstance(data, dict):
        said = f'a Speed action is a JSON object like {{"type": "call"}}, not {data!r}'
        raise RecordError(Message("rec.speed.action-object", said, value=shown(data)))
    kind = data.get("type")
    if kind == "call":
        if set(data) - {"type"}:
            said = f"a call action has no other fields: {data!r}"
            raise RecordError(Message("rec.speed.call-fields", said, value=shown(data)))
        return CALL
    if kind == "play":
        unknown = set(data) - {"type", "card", "pile", "seen"}
        if unknown:
            typed = ", ".join(sorted(unknown))
            said = f"a play action has no field {typed}"
            raise RecordError(Message("rec.rt.action-extra", said, kind='"play"', typed=typed))
        if "card" not in data or "pile" not in data:
            said = (
                'a play action needs "card" and "pile", like {"type": "play", '
                '"card": "7D", "pile": 0, "seen": "8C"}'
            )
            raise RecordError(
                Message("rec.rt.action-missing", said, kind='"play"', typed='"card", "pile"')
            )
        pile = data["pile"]
        if isinstance(pile, bool) or pile not in (0, 1):
            said = f"pile must be 0 or 1, not {pile!r}"
            raise RecordError(Message("rec.speed.pile", said, field="pile", value=shown(pile)))
        try:
            card = parse_card(data["card"])
            seen_raw = data.get("seen")
            seen = None if seen_raw is None else parse_card(seen_raw)
        except CardError as exc:
            said = f"play action: {exc}"
            raise RecordError(Message("rec.speed.card", said, detail=message_of(exc))) from None
        return Play(card, pile, seen)
    said = f'unknown Speed action type {kind!r}: use "play" or "call"'
    raise RecordError(Message("rec.speed.action-type", said, value=shown(kind)))


# ----------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Called:
    """``seat`` called for the flip."""

    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} calls for the flip"


@dataclass(frozen=True, slots=True)
class Flipped:
    """New centre cards: at the start each middle card was turned (``start``), at a stalemate
    each side pile's top card slid onto its centre pile (``None``: that side pile was empty)."""

    cards: tuple[Card | None, Card | None]
    start: bool
    timeout: bool
    """True when the countdown ran out rather than both players calling."""

    def describe(self, names: Sequence[str]) -> str:
        shown = " and ".join(c.pretty for c in self.cards if c is not None)
        how = " (countdown)" if self.timeout else ""
        if self.start:
            return f"the middle cards are turned{how}: {shown}"
        return f"stalemate: the side piles flip{how}: {shown}"


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """The side piles were used up: the centre cards under the tops, shuffled, made new side
    piles of ``sizes`` cards."""

    sizes: tuple[int, int]

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"the side piles are used up: the centre piles are shuffled into new side piles "
            f"of {self.sizes[0]} and {self.sizes[1]}"
        )


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card`` onto centre pile ``pile``."""

    seat: int
    card: Card
    pile: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} plays {self.card.pretty} on {centre_name(self.pile)}"


@dataclass(frozen=True, slots=True)
class Drew:
    """``seat`` drew ``count`` cards from his draw pile (which cards is his secret)."""

    seat: int
    count: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} draws {self.count} card{'s' if self.count != 1 else ''}"


@dataclass(frozen=True, slots=True)
class GameWon:
    """``seat`` played his last card; he scores ``points`` (the loser's draw pile; with
    ``score_hand`` his hand too)."""

    seat: int
    points: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} has played every card and wins ({self.points} points)"


@dataclass(frozen=True, slots=True)
class Blocked:
    """No card that can ever come up on the centre piles fits either hand: the game ends and
    the player with fewer cards left wins (``winner`` None: equal, a draw)."""

    winner: int | None
    cards_left: tuple[int, int]
    points: int

    def describe(self, names: Sequence[str]) -> str:
        left = f"cards left: {self.cards_left[0]} to {self.cards_left[1]}"
        if self.winner is None:
            return f"the game is blocked: nobody can ever play again; {left}, a draw"
        return (
            f"the game is blocked: nobody can ever play again; {left}: "
            f"{names[self.winner]} wins ({self.points} point{'' if self.points == 1 else 's'})"
        )


Event = Called | Flipped | Rebuilt | CardPlayed | Drew | GameWon | Blocked


@dataclass(frozen=True, slots=True)
class SpeedResult:
    """How a game ended."""

    winner: int | None
    """The winning seat, or None for a blocked game with equal cards left."""
    points: int
    """What the winner scores: one point per card in the loser's draw pile (with the rules'
    ``score_hand``, his hand too)."""
    cards_left: tuple[int, int]
    """Cards each seat has left in hand and draw pile."""
    blocked: bool
    """True when the game ended because nobody could ever play again."""


# ----------------------------------------------------------------------------- the deal


def split_deal(
    rules: SpeedRules, deal: Sequence[Card]
) -> tuple[list[list[Card]], list[Card], list[list[Card]]]:
    """Cut a deal into (side piles, middle cards, draw piles), each pile listed top first."""
    if len(deal) != 52:
        raise ValueError(f"a Speed deal is the 52 cards of the pack, not {len(deal)} cards")
    seen: set[Card] = set()
    for card in deal:
        if not isinstance(card, Card):
            raise ValueError(f"the deal holds {card!r}, which is not a card")
        if card in seen:
            raise ValueError(f"the deal holds {card.code} twice")
        seen.add(card)
    s, d = rules.side_piles, rules.draw_pile
    sides = [list(deal[0:s]), list(deal[s : 2 * s])]
    middle = [deal[2 * s], deal[2 * s + 1]]
    start = 2 * s + 2
    draws = [list(deal[start : start + d]), list(deal[start + d : start + 2 * d])]
    return sides, middle, draws


# ----------------------------------------------------------------------------- the game


class SpeedGame:
    """One game of Speed between seats 0 and 1 (see the module docstring for the deal)."""

    game = "speed"

    def __init__(
        self, rules: SpeedRules, deal: Sequence[Card], seed: int, rules_version: int = RULES_VERSION
    ) -> None:
        sides, middle, draws = split_deal(rules, deal)
        if not 1 <= rules_version <= RULES_VERSION:
            raise ValueError(f"Speed's rules go from version 1 to {RULES_VERSION}")
        self.rules = rules
        self.rules_version = rules_version
        """The version of the rules played (``rules.RULES_VERSION``; older ones only to replay
        records: up to 2 the flip is due when nobody can play, see ``rules.RULES_VERSION``)."""
        self.renews_countdown = rules_version >= RENEWED_COUNTDOWN_FROM
        """The arbiter starts the countdown again after a flip both players called."""
        self._stuck_rule = rules_version < FLIP_CALLED_FROM
        self.deal: tuple[Card, ...] = tuple(deal)
        self.seed = seed
        self._rng = random.Random(f"speed-rebuild:{seed}")
        # Piles are stored bottom first, so the top card is the last one.
        self._side: list[list[Card]] = [p[::-1] for p in sides]
        self._middle: list[Card | None] = list(middle)
        self._draw: list[list[Card]] = [p[::-1] for p in draws]
        self._hand: list[list[Card]] = [[], []]
        self._centre: list[list[Card]] = [[], []]
        self._called = [False, False]
        self._started = False
        self._result: SpeedResult | None = None
        self.flips = 0
        """Stalemate flips so far (the start does not count)."""
        self.rebuilds = 0
        """Times the side piles were rebuilt from the centre piles."""
        self.plays = 0
        """Cards played so far."""
        for seat in SEATS:
            self._refill(seat)

    @classmethod
    def new(
        cls, rules: SpeedRules | None = None, seed: int = 0, rules_version: int | None = None
    ) -> SpeedGame:
        """A game dealt from a pack shuffled by ``random.Random(seed)`` (under today's rules
        unless ``rules_version`` says otherwise)."""
        deal = shuffled_deck(random.Random(seed))
        return cls(rules or SpeedRules(), deal, seed, rules_version or RULES_VERSION)

    # --------------------------------------------------------------------- state

    @property
    def phase(self) -> str:
        """``start``, ``play``, ``stalemate`` (a player has called for the flip) or ``over``."""
        if self._result is not None:
            return "over"
        if not self._started:
            return "start"
        return "stalemate" if self.stalemate else "play"

    @property
    def stalemate(self) -> bool:
        """True while a flip is due and the countdown runs: before the start, or once a player
        who cannot play has called for it. Public: it never depends on a hidden card."""
        if self._result is not None:
            return False
        if self._stuck_rule:  # due as soon as nobody can play
            return not self._started or self.stuck
        return not self._started or self._called[0] or self._called[1]

    @property
    def stuck(self) -> bool:
        """True when neither seat can play (the full-information fact; not shown to seats)."""
        return self._started and self._result is None and not (self.can_play(0) or self.can_play(1))

    @property
    def started(self) -> bool:
        """True once the middle cards have been turned."""
        return self._started

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over (None before, or for a drawn blocked game)."""
        return self._result.winner if self._result else None

    @property
    def over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> SpeedResult | None:
        """How the game ended, or None while it goes on."""
        return self._result

    @property
    def called(self) -> tuple[bool, bool]:
        """Which seats have called for the pending flip."""
        return (self._called[0], self._called[1])

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's hand in the order drawn (hidden from the other seat: use views)."""
        return tuple(self._hand[seat])

    def top(self, pile: int) -> Card | None:
        """The top card of centre pile ``pile`` (None before the start)."""
        cards = self._centre[pile]
        return cards[-1] if cards else None

    def cards_left(self, seat: int) -> int:
        """Cards the seat still has to play: hand and draw pile."""
        return len(self._hand[seat]) + len(self._draw[seat])

    def centre_pile(self, pile: int) -> tuple[Card, ...]:
        """Every card of a centre pile, bottom first (face up, but only the top is shown)."""
        return tuple(self._centre[pile])

    def side_pile(self, pile: int) -> tuple[Card, ...]:
        """A face-down side pile, top first (hidden: for tests and replays only)."""
        return tuple(reversed(self._side[pile]))

    def draw_pile(self, seat: int) -> tuple[Card, ...]:
        """A seat's face-down draw pile, top first (hidden: for tests and replays only)."""
        return tuple(reversed(self._draw[seat]))

    def side_sizes(self) -> tuple[int, int]:
        """Cards in each face-down side pile."""
        return (len(self._side[0]), len(self._side[1]))

    def centre_sizes(self) -> tuple[int, int]:
        """Cards in each centre pile."""
        return (len(self._centre[0]), len(self._centre[1]))

    def draw_sizes(self) -> tuple[int, int]:
        """Cards in each seat's draw pile."""
        return (len(self._draw[0]), len(self._draw[1]))

    def hand_sizes(self) -> tuple[int, int]:
        """Cards in each seat's hand."""
        return (len(self._hand[0]), len(self._hand[1]))

    def snapshot(self) -> tuple[Any, ...]:
        """The whole state as a comparable value (tests: a rejected action changes nothing)."""
        return (
            tuple(tuple(p) for p in self._side),
            tuple(self._middle),
            tuple(tuple(p) for p in self._draw),
            tuple(tuple(h) for h in self._hand),
            tuple(tuple(p) for p in self._centre),
            tuple(self._called),
            self._started,
            self._result,
            self.flips,
            self.rebuilds,
            self.plays,
            self._rng.getstate(),
        )

    def locations(self) -> dict[Card, str]:
        """Where each of the 52 cards is: ``side:i``, ``middle:i``, ``centre:i``, ``draw:s``,
        ``hand:s``."""
        out: dict[Card, str] = {}
        for i in SEATS:
            for c in self._side[i]:
                out[c] = f"side:{i}"
            m = self._middle[i]
            if m is not None:
                out[m] = f"middle:{i}"
            for c in self._centre[i]:
                out[c] = f"centre:{i}"
            for c in self._draw[i]:
                out[c] = f"draw:{i}"
            for c in self._hand[i]:
                out[c] = f"hand:{i}"
        return out

    # --------------------------------------------------------------------- legality

    def can_play(self, seat: int) -> bool:
        """True when ``seat`` holds a card that fits either centre pile now."""
        if not self._started or self._result is not None:
            return False
        tops = [p[-1] for p in self._centre]
        return any(adjacent(c, t) for c in self._hand[seat] for t in tops)

    def why_illegal(self, seat: int, action: Action) -> Message | None:
        """Why ``seat`` may not take ``action`` now, or None when it may."""
        if seat not in SEATS:
            return Message(
                "rt.no-seat", f"seat {seat!r} is not at this table: Speed seats are 0 and 1"
            )
        if self._result is not None:
            return Message("rt.game-over", "the game is over")
        if isinstance(action, Play):
            if not self._started:
                return Message(
                    "speed.not-turned",
                    "the middle cards are not turned yet: call for the flip first",
                )
            if action.card not in self._hand[seat]:
                return Message(
                    "speed.not-in-hand", f"{action.card.code} is not in your hand", card=action.card
                )
            if action.pile not in (0, 1):
                return Message("rt.no-pile", f"pile must be 0 or 1, not {action.pile!r}")
            top = self._centre[action.pile][-1]
            if action.seen is not None and action.seen is not top:
                return Message(
                    "rt.stale",
                    f"stale: {centre_name(action.pile)} now shows {top.code}, "
                    f"not {action.seen.code}",
                    pile=action.pile,
                    top=top,
                    seen=action.seen,
                )
            if not adjacent(action.card, top):
                return Message(
                    "rt.not-next",
                    f"{action.card.code} cannot go on {top.code}: it must be one rank above "
                    "or below (K-A-2 wraps)",
                    card=action.card,
                    top=top,
                )
            return None
        if isinstance(action, CallFlip):
            if self._stuck_rule and not self.stalemate:
                return Message(
                    "speed.not-stuck",
                    "no stalemate: a card can still be played, so there is nothing to flip",
                )
            if self._called[seat]:
                return Message(
                    "speed.already-called",
                    "you have already called: waiting for the other player or the countdown",
                )
            playable = self._playable(seat)
            if playable is not None:
                card, pile = playable
                return Message(
                    "speed.can-play",
                    f"no stalemate: you can still play {card.code} on {centre_name(pile)}, "
                    "so there is nothing to flip",
                    card=card,
                    pile=pile,
                )
            return None
        return Message(
            "rt.not-an-action", f"{action!r} is not a Speed action: send Play or CallFlip"
        )

    def _playable(self, seat: int) -> tuple[Card, int] | None:
        """A card of ``seat``'s hand that fits a centre pile now, and the pile; or None."""
        if not self._started:
            return None
        for pile in (0, 1):
            top = self._centre[pile][-1]
            for card in self._hand[seat]:
                if adjacent(card, top):
                    return card, pile
        return None

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, each Play with ``seen`` filled in: its plays, or
        the call for the flip when it has none (and has not called yet). They depend only on the
        seat's hand and the public table."""
        if self._result is not None or seat not in SEATS:
            return []
        if self._stuck_rule and self.stalemate:
            return [] if self._called[seat] else [CALL]
        out: list[Action] = []
        if self._started:
            for pile in (0, 1):
                top = self._centre[pile][-1]
                for card in self._hand[seat]:
                    if adjacent(card, top):
                        out.append(Play(card, pile, top))
        if not out and not self._called[seat]:
            out.append(CALL)
        return out

    # --------------------------------------------------------------------- applying

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` of ``seat``; return the events; raise RealtimeIllegal if illegal."""
        reason = self.why_illegal(seat, action)
        if reason is not None:
            raise RealtimeIllegal(seat, action, reason)
        if isinstance(action, Play):
            return self._play(seat, action)
        self._called[seat] = True
        events: list[Event] = [Called(seat)]
        if all(self._called):
            events.extend(self._flip(timeout=False))
        return events

    def resolve_stalemate(self) -> list[Event]:
        """Do the flip now (the countdown ran out); raise :class:`NoStalemate` if none is due."""
        if not self.stalemate:
            raise NoStalemate("there is no flip to do: nobody has called for one")
        return self._flip(timeout=True)

    def points(self, loser: int) -> int:
        """What the winner scores from ``loser``: his draw pile (with ``score_hand``, his hand
        too); from rules version 4, his hand when his draw pile is empty (decision 9)."""
        points = len(self._draw[loser])
        if self.rules.score_hand or (points == 0 and self.rules_version >= HAND_WHEN_NO_DRAW_FROM):
            points += len(self._hand[loser])
        return points

    def _refill(self, seat: int) -> int:
        hand, draw = self._hand[seat], self._draw[seat]
        n = 0
        while len(hand) < HAND_SIZE and draw:
            hand.append(draw.pop())
            n += 1
        return n

    def _play(self, seat: int, action: Play) -> list[Event]:
        self._hand[seat].remove(action.card)
        self._centre[action.pile].append(action.card)
        self.plays += 1
        self._called = [False, False]  # the table changed: a call made before it lapses
        events: list[Event] = [CardPlayed(seat, action.card, action.pile)]
        drawn = self._refill(seat)
        if drawn:
            events.append(Drew(seat, drawn))
        if not self._hand[seat]:
            points = self.points(1 - seat)
            left = (self.cards_left(0), self.cards_left(1))
            self._result = SpeedResult(seat, points, left, blocked=False)
            events.append(GameWon(seat, points))
        elif self._stuck_rule:
            events.extend(self._blocked_now())
        return events

    def _blocked_now(self) -> list[Event]:
        """Rules before version 3: a game nobody can ever finish ends at once (not at a flip)."""
        blocked = self._blocked()
        return [] if blocked is None else [blocked]

    def _flip(self, timeout: bool) -> list[Event]:
        events: list[Event] = []
        if not self._started:
            cards: tuple[Card | None, Card | None] = (self._middle[0], self._middle[1])
            for i in SEATS:
                card = self._middle[i]
                assert card is not None
                self._centre[i].append(card)
                self._middle[i] = None
            self._started = True
            events.append(Flipped(cards, start=True, timeout=timeout))
        else:
            blocked = self._blocked()
            if blocked is not None:
                self._called = [False, False]
                return [blocked]
            if not self._side[0] and not self._side[1]:
                events.append(self._rebuild())
            slid: list[Card | None] = [None, None]
            for i in SEATS:
                if self._side[i]:
                    card = self._side[i].pop()
                    self._centre[i].append(card)
                    slid[i] = card
            self.flips += 1
            events.append(Flipped((slid[0], slid[1]), start=False, timeout=timeout))
        self._called = [False, False]
        if self._stuck_rule:
            events.extend(self._blocked_now())
        return events

    def _rebuild(self) -> Rebuilt:
        under: list[Card] = []
        for pile in self._centre:
            under.extend(pile[:-1])
            del pile[:-1]
        self._rng.shuffle(under)
        # Dealt alternately, one card to each side pile, starting with side pile 0.
        self._side = [under[0::2][::-1], under[1::2][::-1]]
        self.rebuilds += 1
        return Rebuilt((len(self._side[0]), len(self._side[1])))

    def _blocked(self) -> Blocked | None:
        """At a flip: end the game if nobody can play now nor after any flip (see the docs)."""
        if not self.stuck or self._can_ever_play():
            return None
        left = (self.cards_left(0), self.cards_left(1))
        if left[0] == left[1]:
            winner: int | None = None
            points = 0
        else:
            winner = 0 if left[0] < left[1] else 1
            points = self.points(1 - winner)
        self._result = SpeedResult(winner, points, left, blocked=True)
        return Blocked(winner, left, points)

    def _can_ever_play(self) -> bool:
        """True when some card that flips can bring up fits a hand (see docs: blocked games).

        Every card in the side piles and the centre piles comes up as a top card sooner or
        later (the side piles slide, the centre piles are rebuilt into side piles), and nothing
        else changes while nobody plays: so if none of them fits a hand, nobody ever will.
        """
        wanted = 0
        for hand in self._hand:
            for c in hand:
                r = int(c.rank) - 1
                wanted |= 1 << ((r + 1) % 13) | 1 << ((r - 1) % 13)
        for piles in (self._side, self._centre):
            for pile in piles:
                for c in pile:
                    if wanted >> (int(c.rank) - 1) & 1:
                        return True
        return False

    # --------------------------------------------------------------------- views and records

    def view(self, seat: int) -> SpeedView:
        """What ``seat`` may see: built in one place, :func:`cardroom.games.speed.view.view_of`."""
        from cardroom.games.speed.view import view_of

        return view_of(self, seat)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def __repr__(self) -> str:
        tops = " ".join(c.code if c else "-" for c in (self.top(0), self.top(1)))
        return f"<SpeedGame seed={self.seed} phase={self.phase} centre={tops}>"


# ----------------------------------------------------------------------------- a match


class SpeedMatch:
    """Games of Speed played until a player's score reaches ``rules.target``.

    Game ``n`` (from 1) is dealt by ``SpeedGame.new(rules, derive_seed(seed, n))``; the seats
    stay the same and nothing but the scores carries over from one game to the next. With
    ``target=0`` the match is a single game.
    """

    def __init__(
        self, rules: SpeedRules | None = None, seed: int = 0, rules_version: int | None = None
    ) -> None:
        self.rules = rules or SpeedRules()
        self.seed = seed
        self.rules_version = rules_version
        """The version of the rules every game is played under (None: today's)."""
        self.games: list[SpeedGame] = [
            SpeedGame.new(self.rules, derive_seed(seed, 1), rules_version)
        ]

    @property
    def game(self) -> SpeedGame:
        """The game being played (or the last one, once the match is over)."""
        return self.games[-1]

    @property
    def number(self) -> int:
        """The current game's number, from 1."""
        return len(self.games)

    @property
    def scores(self) -> tuple[int, int]:
        """Points of each seat over the finished games."""
        return self.scores_before(len(self.games) + 1)

    def scores_before(self, number: int) -> tuple[int, int]:
        """Points of each seat before game ``number`` was dealt."""
        s = [0, 0]
        for g in self.games[: number - 1]:
            res = g.result
            if res is not None and res.winner is not None:
                s[res.winner] += res.points
        return (s[0], s[1])

    @property
    def over(self) -> bool:
        """True when the current game is over and (with a target) someone reached it."""
        if not self.game.over:
            return False
        if self.rules.target <= 0:
            return True
        return max(self.scores) >= self.rules.target

    @property
    def winner(self) -> int | None:
        """The seat that won the match (the single game's winner when ``target=0``)."""
        if not self.over:
            return None
        if self.rules.target <= 0:
            return self.game.winner
        s = self.scores
        return 0 if s[0] >= self.rules.target else 1

    def next_game(self) -> SpeedGame:
        """Deal the next game once the current one is over and the match goes on."""
        if not self.game.over:
            raise ValueError("the current game is not over yet: finish it first")
        if self.over:
            raise ValueError("the match is over: a player has reached the target")
        game = SpeedGame.new(
            self.rules, derive_seed(self.seed, len(self.games) + 1), self.rules_version
        )
        self.games.append(game)
        return game
