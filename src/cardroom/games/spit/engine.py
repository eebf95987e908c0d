"""The Spit engine: two players, no turns, every rule and variant of seed 004.

A :class:`SpitGame` is mutable and deterministic: its deal, its seed (which drives every later
shuffle, through its own ``random.Random``) and the ordered actions of both seats always give
the same state. ``apply(seat, action)`` checks one action and applies it, or raises
:class:`~cardroom.games.realtime_engine.RealtimeIllegal` and changes nothing.

The deal (52 cards in dealing order): cards 0-25 are seat 0's packet, 26-51 seat 1's. From a
packet the first 1 + 2 + 3 + 4 + 5 cards (1 + 2 + 3 + 4 with four piles) make stock piles 0, 1,
2 … in order, each listed bottom to top (its last card is its face-up top); the rest is the spit
pile in the order its cards are turned. Re-dealt layouts use the same rule on a packet shuffled
by the engine's random generator. Centre pile 0 is the one seat 0 spits on, pile 1 seat 1's.

One concern: Spit's rules, as one state machine (its actions, the events it emits, the
checks of :meth:`SpitGame.why_illegal` and the moves of :meth:`SpitGame.apply`, and the actions'
JSON that records and the wire carry). The phases (play, stalemate, slap race, choosing a
pile, new layouts) read and change the same piles, so splitting them would spread one
invariant over several files.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from cardroom.cards import DECK, Card, CardError, parse_card, shuffled_deck
from cardroom.games.errors import RecordError
from cardroom.games.messages import Message, message_of
from cardroom.games.realtime_engine import SEATS, RealtimeIllegal, adjacent, centre_name
from cardroom.games.records import shown
from cardroom.games.spit.rules import RENEWED_COUNTDOWN_FROM, RULES_VERSION, SpitRules

if TYPE_CHECKING:
    from cardroom.games.spit.view import SpitView

PACKET = 26

_ADJACENT = tuple(adjacent(a, b) for a in DECK for b in DECK)
_ALTERNATING = tuple(adjacent(a, b) and a.red != b.red for a in DECK for b in DECK)
"""Whether card ``a`` may go on top card ``b``, indexed ``a.index * 52 + b.index``."""


def stock_name(stock: object) -> str:
    """A stock pile as players read it: numbered from 1 (records count from 0)."""
    if isinstance(stock, int) and not isinstance(stock, bool):
        return f"stock pile {stock + 1}"
    return f"stock pile {stock!r}"


# ----------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` (a face-up stock top) onto centre pile ``pile`` (0 or 1).

    ``seen`` is the top card the player saw on that pile (None: don't check); if the pile's top
    is another card when the action arrives, it is rejected as stale.
    """

    card: Card
    pile: int
    seen: Card | None = None

    def __str__(self) -> str:
        seen = f" (on {self.seen.code})" if self.seen is not None else ""
        return f"play {self.card.code} on {centre_name(self.pile)}{seen}"


@dataclass(frozen=True, slots=True)
class TurnUp:
    """Turn up the face-down top card of stock pile ``stock`` (0-based)."""

    stock: int

    def __str__(self) -> str:
        return f"turn up {stock_name(self.stock)}"


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``card`` (a face-up stock top) into the empty stock space ``to_stock``."""

    card: Card
    to_stock: int

    def __str__(self) -> str:
        return f"move {self.card.code} to {stock_name(self.to_stock)}"


@dataclass(frozen=True, slots=True)
class CallSpit:
    """Call "Spit!" (at the start, after a new layout, or at a stalemate)."""

    stalemate_call: ClassVar[bool] = True
    """An action that breaks a stalemate (the analysis counts these calls)."""

    def __str__(self) -> str:
        return "call Spit!"


@dataclass(frozen=True, slots=True)
class Slap:
    """Slap centre pile ``pile`` in the race for the piles before a new layout."""

    pile: int

    def __str__(self) -> str:
        return f"slap {centre_name(self.pile)}"


@dataclass(frozen=True, slots=True)
class Choose:
    """Take centre pile ``pile`` (variant ``slap=chooser``: the player who cleared chooses)."""

    pile: int

    def __str__(self) -> str:
        return f"choose {centre_name(self.pile)}"


Action = Play | TurnUp | Move | CallSpit | Slap | Choose
CALL_SPIT = CallSpit()
_TURN_UP = tuple(TurnUp(i) for i in range(5))
_PLAYS: dict[tuple[Card, int, Card], Play] = {}
_MOVES: dict[tuple[Card, int], Move] = {}


def _play(card: Card, pile: int, seen: Card) -> Play:
    """The one Play object for these values (legal_actions is a hot path)."""
    key = (card, pile, seen)
    action = _PLAYS.get(key)
    if action is None:
        action = _PLAYS[key] = Play(card, pile, seen)
    return action


def _move(card: Card, to_stock: int) -> Move:
    key = (card, to_stock)
    action = _MOVES.get(key)
    if action is None:
        action = _MOVES[key] = Move(card, to_stock)
    return action


# ----------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Called:
    """``seat`` called "Spit!"."""

    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f'{names[self.seat]} calls "Spit!"'


@dataclass(frozen=True, slots=True)
class Spat:
    """``seat`` turned his top spit card ``card`` onto centre pile ``pile``."""

    seat: int
    card: Card
    pile: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} spits {self.card.pretty} onto {centre_name(self.pile)}"


@dataclass(frozen=True, slots=True)
class Played:
    """``seat`` played ``card`` from stock pile ``stock`` onto centre pile ``pile``."""

    seat: int
    card: Card
    stock: int
    pile: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} plays {self.card.pretty} onto {centre_name(self.pile)}"


@dataclass(frozen=True, slots=True)
class TurnedUp:
    """``seat`` turned up ``card`` on stock pile ``stock``."""

    seat: int
    stock: int
    card: Card

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} turns up {self.card.pretty} on {stock_name(self.stock)}"


@dataclass(frozen=True, slots=True)
class Moved:
    """``seat`` moved ``card`` from stock pile ``from_stock`` into the empty ``to_stock``."""

    seat: int
    card: Card
    from_stock: int
    to_stock: int

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"{names[self.seat]} moves {self.card.pretty} from {stock_name(self.from_stock)} "
            f"to the empty {stock_name(self.to_stock)}"
        )


@dataclass(frozen=True, slots=True)
class Stalemate:
    """Neither player can play: "Spit!" is due."""

    def describe(self, names: Sequence[str]) -> str:
        return 'stalemate: nobody can play, "Spit!" is due'


@dataclass(frozen=True, slots=True)
class NewLayout:
    """A new layout is due; ``seat`` cleared his stock (None: both were out of spit cards)."""

    seat: int | None

    def describe(self, names: Sequence[str]) -> str:
        if self.seat is None:
            return "both players are out of spit cards: a new layout"
        return f"{names[self.seat]} has cleared the stock: a new layout"


@dataclass(frozen=True, slots=True)
class Slapped:
    """``seat`` slapped centre pile ``pile`` first."""

    seat: int
    pile: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} slaps {centre_name(self.pile)} first"


@dataclass(frozen=True, slots=True)
class Chose:
    """``seat`` chose centre pile ``pile`` (variant ``slap=chooser``)."""

    seat: int
    pile: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} chooses {centre_name(self.pile)}"


@dataclass(frozen=True, slots=True)
class Took:
    """``seat`` took centre pile ``pile`` (``cards`` cards; pile None: nothing from the middle)."""

    seat: int
    pile: int | None
    cards: int

    def describe(self, names: Sequence[str]) -> str:
        if self.pile is None:
            return f"{names[self.seat]} takes nothing from the middle"
        return f"{names[self.seat]} takes {centre_name(self.pile)} ({self.cards} cards)"


@dataclass(frozen=True, slots=True)
class Dealt:
    """``seat`` shuffled his cards and laid out stock piles of ``piles`` cards and ``spit``."""

    seat: int
    piles: tuple[int, ...]
    spit: int

    def describe(self, names: Sequence[str]) -> str:
        layout = "-".join(str(n) for n in self.piles if n)
        return f"{names[self.seat]} lays out {layout} with {self.spit} spit cards"


@dataclass(frozen=True, slots=True)
class OnePile:
    """From this layout on there is one spit pile, ``pile``: a player has no spit cards."""

    pile: int

    def describe(self, names: Sequence[str]) -> str:
        return f"only one spit pile from now on: {centre_name(self.pile)}"


@dataclass(frozen=True, slots=True)
class Won:
    """``seat`` has no cards left and wins."""

    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} has no cards left and wins!"


Event = (
    Called
    | Spat
    | Played
    | TurnedUp
    | Moved
    | Stalemate
    | NewLayout
    | Slapped
    | Chose
    | Took
    | Dealt
    | OnePile
    | Won
)

# ----------------------------------------------------------------------------- layouts


def lay_out(cards: Sequence[Card], piles: int) -> tuple[list[list[Card]], list[Card]]:
    """Stock piles (bottom to top) and spit pile (top last) from a packet, in dealing order.

    Pile ``i`` takes the next ``i + 1`` cards while cards last (a short packet leaves the last
    piles short or empty); whatever is left after a full layout is the spit pile, its first card
    the first to be turned.
    """
    stock: list[list[Card]] = []
    pos = 0
    for i in range(piles):
        stock.append(list(cards[pos : pos + i + 1]))
        pos += len(stock[-1])
    return stock, list(reversed(cards[pos:]))


def _check_deal(deal: Sequence[Card]) -> tuple[Card, ...]:
    cards = tuple(deal)
    if len(cards) != len(DECK):
        said = f"a Spit deal is the 52 cards of the pack, not {len(cards)} cards"
        raise RecordError(Message("rec.rt.deal-size", said, n=len(cards)))
    if not all(isinstance(c, Card) for c in cards):
        raise RecordError(
            Message("rec.rt.deal-list", "a Spit deal must be a list of cards", field="deal")
        )
    if len(set(cards)) != len(DECK):
        seen: set[Card] = set()
        twice: list[Card] = []
        for c in cards:
            if c in seen:
                twice.append(c)
            seen.add(c)
        said = f"the deal holds {', '.join(c.code for c in twice)} twice: each card once"
        raise RecordError(Message("rec.spit.deal-twice", said, card=twice[0]))
    return cards


# ----------------------------------------------------------------------------- the game


class SpitGame:
    """One game of Spit, from the first "Spit!" to the player with no cards left."""

    game = "spit"

    def __init__(
        self, rules: SpitRules, deal: Sequence[Card], seed: int, rules_version: int = RULES_VERSION
    ) -> None:
        if not 1 <= rules_version <= RULES_VERSION:
            raise ValueError(f"Spit's rules go from version 1 to {RULES_VERSION}")
        self.rules = rules
        self.rules_version = rules_version
        """The version of Spit's rules played (``rules.RULES_VERSION``; older ones only to
        replay records)."""
        self.renews_countdown = rules_version >= RENEWED_COUNTDOWN_FROM
        """The arbiter starts the countdown again after a "Spit!" both players called."""
        self.deal: tuple[Card, ...] = _check_deal(deal)
        self.seed = seed
        self._rng = random.Random(f"spit:{seed}")
        self._fit_table = _ALTERNATING if rules.alternate_colours else _ADJACENT
        self._stuck_memo: bool | None = None
        self._views: dict[int, SpitView] = {}
        n = rules.piles
        self._stock: list[list[list[Card]]] = [[[] for _ in range(n)] for _ in SEATS]
        self._up: list[list[bool]] = [[False] * n for _ in SEATS]
        self._spit: list[list[Card]] = [[], []]
        self._centre: list[list[Card]] = [[], []]
        self._open = [True, True]
        self._called = [False, False]
        self._kind = "start"  # start | play | slap | choose | over
        self._chooser: int | None = None
        self._winner: int | None = None
        self._one_pile = False
        self._slapped = False
        self.redeals = 0
        """New layouts dealt after the first."""
        self.stalemates = 0
        """Stalemates resolved by a "Spit!" (not counting the starts)."""
        self.events: list[Event] = []
        """Every event so far, in order."""
        self.events.extend(self._deal_layouts([list(self.deal[:PACKET]), list(self.deal[PACKET:])]))

    @classmethod
    def new(
        cls, rules: SpitRules | None = None, seed: int = 0, rules_version: int | None = None
    ) -> SpitGame:
        """A game dealt from a pack shuffled by ``random.Random(seed)`` (under today's rules
        unless ``rules_version`` says otherwise)."""
        deal = shuffled_deck(random.Random(seed))
        return cls(rules or SpitRules(), deal, seed, rules_version or RULES_VERSION)

    # ------------------------------------------------------------------ state queries

    @property
    def phase(self) -> str:
        """``start``, ``play``, ``stalemate``, ``slap``, ``choose`` or ``over``."""
        if self._kind == "play" and self._stuck():
            return "stalemate"
        return self._kind

    @property
    def stalemate(self) -> bool:
        """True while the engine waits for "Spit!" (the start, after a new layout, or stuck)."""
        return self._kind == "start" or (self._kind == "play" and self._stuck())

    @property
    def winner(self) -> int | None:
        """The seat with no cards left, once there is one."""
        return self._winner

    @property
    def over(self) -> bool:
        """True once a player has won."""
        return self._winner is not None

    @property
    def one_pile(self) -> bool:
        """True while there is only one spit pile (a player could not deal a spit pile)."""
        return self._one_pile

    @property
    def chooser(self) -> int | None:
        """The seat that chooses a pile (phase ``choose``)."""
        return self._chooser if self._kind == "choose" else None

    @property
    def called(self) -> tuple[bool, bool]:
        """Which seats have called "Spit!" since the stalemate / start began."""
        return (self._called[0], self._called[1])

    def stock(self, seat: int) -> tuple[tuple[Card, ...], ...]:
        """``seat``'s stock piles, bottom to top (hidden cards included: not for players)."""
        return tuple(tuple(p) for p in self._stock[seat])

    def face_up(self, seat: int) -> tuple[bool, ...]:
        """Whether the top card of each of ``seat``'s stock piles is face up."""
        return tuple(self._up[seat])

    def spit_pile(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s spit cards, the next to be turned first (hidden: not for players)."""
        return tuple(reversed(self._spit[seat]))

    def centre(self, pile: int) -> tuple[Card, ...]:
        """Centre pile ``pile``, bottom to top."""
        return tuple(self._centre[pile])

    def top(self, pile: int) -> Card | None:
        """The top card of centre pile ``pile``."""
        p = self._centre[pile]
        return p[-1] if p else None

    def is_open(self, pile: int) -> bool:
        """False for the unused pile while there is only one spit pile."""
        return self._open[pile]

    def stock_count(self, seat: int) -> int:
        """Cards in ``seat``'s stock piles."""
        return sum(len(p) for p in self._stock[seat])

    def cards_left(self, seat: int) -> int:
        """Cards ``seat`` still holds: stock piles and spit pile."""
        return self.stock_count(seat) + len(self._spit[seat])

    def snapshot(self) -> tuple[Any, ...]:
        """The complete state, comparable with ``==`` (for tests)."""
        return (
            tuple(self.stock(s) for s in SEATS),
            tuple(self.face_up(s) for s in SEATS),
            tuple(tuple(p) for p in self._spit),
            tuple(tuple(p) for p in self._centre),
            tuple(self._open),
            tuple(self._called),
            self._kind,
            self._slapped,
            self._chooser,
            self._winner,
            self._one_pile,
            self.redeals,
            self.stalemates,
            len(self.events),
            self._rng.getstate(),
        )

    def locations(self) -> dict[Card, str]:
        """Where each of the 52 cards is: ``stock<seat>.<pile>``, ``spit<seat>``, ``centre<p>``."""
        out: dict[Card, str] = {}
        for seat in SEATS:
            for i, pile in enumerate(self._stock[seat]):
                for c in pile:
                    out[c] = f"stock{seat}.{i}"
            for c in self._spit[seat]:
                out[c] = f"spit{seat}"
        for p, pile in enumerate(self._centre):
            for c in pile:
                out[c] = f"centre{p}"
        return out

    # ------------------------------------------------------------------ legality

    def _stock_top(self, seat: int, card: Card) -> int | None:
        for i, pile in enumerate(self._stock[seat]):
            if pile and pile[-1] is card and self._up[seat][i]:
                return i
        return None

    def _fits(self, card: Card, top: Card) -> bool:
        return self._fit_table[card.index * 52 + top.index]

    def _can_progress(self, seat: int) -> bool:
        """Whether ``seat`` can play, turn up a card, or uncover one by a move."""
        stock, up = self._stock[seat], self._up[seat]
        tops = [self._centre[p][-1] for p in (0, 1) if self._open[p] and self._centre[p]]
        empty_space = any(not p for p in stock)
        for i, pile in enumerate(stock):
            if not pile:
                continue
            if not up[i]:
                return True
            card = pile[-1]
            if any(self._fits(card, t) for t in tops):
                return True
            if empty_space and len(pile) > 1:
                return True
        return False

    def _progress(self, seat: int) -> Message | None:
        """One move by which ``seat`` makes progress, in words (``_can_progress``'s witness)."""
        stock, up = self._stock[seat], self._up[seat]
        tops = [(p, self._centre[p][-1]) for p in (0, 1) if self._open[p] and self._centre[p]]
        empties = [i for i, p in enumerate(stock) if not p]
        for i, pile in enumerate(stock):
            if pile and not up[i]:
                return Message("spit.move.turn-up", f"turn up {stock_name(i)}", stock=i)
        for pile in stock:  # every top is face up now
            if pile:
                for p, top in tops:
                    if self._fits(pile[-1], top):
                        return Message(
                            "spit.move.play",
                            f"play {pile[-1].code} on {centre_name(p)}",
                            card=pile[-1],
                            pile=p,
                        )
        for i, pile in enumerate(stock):
            if empties and len(pile) > 1:
                return Message(
                    "spit.move.move",
                    f"move {pile[-1].code} from {stock_name(i)} into the empty "
                    f"{stock_name(empties[0])}, uncovering a card",
                    card=pile[-1],
                    stock=i,
                    target=empties[0],
                )
        return None

    def move_left(self, seat: int) -> Message:
        """Why there is no stalemate, told to ``seat``: a move he or the other player can still
        make (every card it names is face up)."""
        mine = self._progress(seat)
        if mine is not None:
            return Message("spit.you-can-still", f"you can still {mine}", move=mine)
        theirs = self._progress(1 - seat)
        if theirs is not None:
            return Message(
                "spit.they-can-still", f"the other player can still {theirs}", move=theirs
            )
        return Message("spit.nobody-stuck", "nobody is stuck yet")

    def _stuck(self) -> bool:
        """Neither seat can make progress (memoised until the next change of state)."""
        if self._stuck_memo is None:
            self._stuck_memo = not (self._can_progress(0) or self._can_progress(1))
        return self._stuck_memo

    def why_illegal(self, seat: int, action: Action) -> Message | None:
        """Why ``action`` of ``seat`` is not legal now, or None if it is."""
        if seat not in SEATS:
            return Message("rt.no-seat", f"there is no seat {seat!r}: Spit has seats 0 and 1")
        if self._winner is not None:
            return Message("rt.game-over", "the game is over")
        if isinstance(action, Play):
            return self._why_play(seat, action)
        if isinstance(action, TurnUp):
            if self._kind != "play":
                return self._not_now("turn-up", "turn up a card")
            if not _index_ok(action.stock, self.rules.piles):
                return Message(
                    "spit.no-stock",
                    f"there is no stock pile {action.stock!r}: use 0 to {self.rules.piles - 1}",
                    count=self.rules.piles,
                )
            if not self._stock[seat][action.stock]:
                return Message(
                    "spit.stock-empty", f"{stock_name(action.stock)} is empty", stock=action.stock
                )
            if self._up[seat][action.stock]:
                return Message(
                    "spit.already-up",
                    f"the top card of {stock_name(action.stock)} is already face up",
                    stock=action.stock,
                )
            return None
        if isinstance(action, Move):
            if self._kind != "play":
                return self._not_now("move", "move a card")
            if not _index_ok(action.to_stock, self.rules.piles):
                return Message(
                    "spit.no-stock",
                    f"there are only {self.rules.piles} stock spaces: "
                    f"use 0 to {self.rules.piles - 1}",
                    count=self.rules.piles,
                )
            if self._stock_top(seat, action.card) is None:
                return _not_up(action.card)
            if self._stock[seat][action.to_stock]:
                return Message(
                    "spit.not-empty",
                    f"{stock_name(action.to_stock)} is not an empty space",
                    stock=action.to_stock,
                )
            return None
        if isinstance(action, CallSpit):
            if not self.stalemate:
                if self._kind in ("slap", "choose"):
                    return self._not_now("call", 'call "Spit!"')
                left = self.move_left(seat)
                return Message(
                    "spit.not-stalemate",
                    f'not a stalemate: {left} ("Spit!" is only called when nobody can move)',
                    move=left,
                )
            if self._called[seat]:
                return Message("spit.already-called", 'you have already called "Spit!"')
            return None
        if isinstance(action, Slap):
            if self._kind != "slap":
                if self._kind == "start" and self._slapped:
                    return Message(
                        "spit.stale-slap",
                        "stale: the other player slapped first and the piles are shared",
                    )
                return self._not_now("slap", "slap a pile")
            if action.pile not in (0, 1) or isinstance(action.pile, bool):
                return _no_pile(action.pile)
            return None
        if isinstance(action, Choose):
            if self._kind != "choose":
                return self._not_now("choose", "choose a pile")
            if seat != self._chooser:
                return Message(
                    "spit.other-chooses",
                    f"seat {self._chooser} cleared the stock and chooses the pile",
                    seat=self._chooser,
                )
            if action.pile not in (0, 1) or isinstance(action.pile, bool):
                return _no_pile(action.pile)
            return None
        return Message("rt.not-an-action", f"{action!r} is not a Spit action")

    def _not_now(self, what: str, text: str) -> Message:
        """``what`` (``play``, ``turn-up``, ``move``, ``call``, ``slap``, ``choose``) cannot be
        done in this phase of the game."""
        if self._kind == "start":
            return Message(
                "spit.not-before-spit", f'cannot {text} before "Spit!": call it to start', what=what
            )
        if self._kind == "slap":
            return Message(
                "spit.not-now-slap",
                f"cannot {text} now: slap a centre pile for the new layout",
                what=what,
            )
        if self._kind == "choose":
            return Message(
                "spit.not-now-choosing",
                f"cannot {text} now: seat {self._chooser} is choosing a pile",
                what=what,
                seat=self._chooser,
            )
        return Message("spit.not-now", f"cannot {text} now", what=what)

    def _why_play(self, seat: int, action: Play) -> Message | None:
        if self._kind != "play":
            return self._not_now("play", "play")
        pile = action.pile
        if isinstance(pile, bool) or pile not in (0, 1):
            return _no_pile(pile)
        if self._stock_top(seat, action.card) is None:
            return _not_up(action.card)
        if not self._open[pile]:
            return Message(
                "spit.one-pile",
                f"there is only one spit pile now: play on {centre_name(1 - pile)}",
                pile=1 - pile,
            )
        top = self.top(pile)
        if top is None:
            return Message("rt.pile-empty", f"{centre_name(pile)} is empty", pile=pile)
        if action.seen is not None and action.seen is not top:
            return Message(
                "rt.stale",
                f"stale: {centre_name(pile)} now shows {top.code}, not {_code(action.seen)}",
                pile=pile,
                top=top,
                seen=action.seen if isinstance(action.seen, Card) else None,
            )
        if not adjacent(action.card, top):
            return Message(
                "rt.not-next",
                f"{action.card.code} is not one rank above or below {top.code}",
                card=action.card,
                top=top,
            )
        if self.rules.alternate_colours and action.card.red == top.red:
            return Message(
                "spit.same-colour",
                f"{action.card.code} must be the other colour to {top.code} (alternate colours)",
                card=action.card,
                top=top,
            )
        return None

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (plays carry the top card as ``seen``)."""
        if self._winner is not None or seat not in SEATS:
            return []
        kind = self._kind
        if kind == "slap":
            return [Slap(0), Slap(1)]
        if kind == "choose":
            return [Choose(0), Choose(1)] if seat == self._chooser else []
        if kind == "start":
            return [] if self._called[seat] else [CALL_SPIT]
        out: list[Action] = []
        stock, up = self._stock[seat], self._up[seat]
        empties = [i for i, p in enumerate(stock) if not p]
        tops = [(p, c[-1]) for p, c in enumerate(self._centre) if c and self._open[p]]
        fits = self._fit_table
        for i, pile in enumerate(stock):
            if not pile:
                continue
            if not up[i]:
                out.append(_TURN_UP[i])
                continue
            card = pile[-1]
            for p, top in tops:
                if fits[card.index * 52 + top.index]:
                    out.append(_play(card, p, top))
            out.extend(_move(card, e) for e in empties)
        if not self._called[seat] and self._stuck():
            out.append(CALL_SPIT)
        return out

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` of ``seat`` and return the events; raise RealtimeIllegal if illegal."""
        why = self.why_illegal(seat, action)
        if why is not None:
            raise RealtimeIllegal(seat, action, why)
        events: list[Event] = []
        self._stuck_memo = None
        self._views.clear()
        if isinstance(action, Play):
            i = self._stock_top(seat, action.card)
            assert i is not None
            self._stock[seat][i].pop()
            self._up[seat][i] = False
            self._centre[action.pile].append(action.card)
            events.append(Played(seat, action.card, i, action.pile))
            if not any(self._stock[seat]):
                events.extend(self._stock_cleared(seat))
        elif isinstance(action, TurnUp):
            self._up[seat][action.stock] = True
            card = self._stock[seat][action.stock][-1]
            events.append(TurnedUp(seat, action.stock, card))
        elif isinstance(action, Move):
            i = self._stock_top(seat, action.card)
            assert i is not None
            self._stock[seat][i].pop()
            self._up[seat][i] = False
            self._stock[seat][action.to_stock].append(action.card)
            self._up[seat][action.to_stock] = True
            events.append(Moved(seat, action.card, i, action.to_stock))
        elif isinstance(action, CallSpit):
            self._called[seat] = True
            events.append(Called(seat))
            if all(self._called):
                events.extend(self._spit_now())
        elif isinstance(action, Slap):
            events.append(Slapped(seat, action.pile))
            events.extend(self._share({seat: action.pile, 1 - seat: 1 - action.pile}))
            self._slapped = True
        else:
            events.append(Chose(seat, action.pile))
            events.extend(self._share({seat: action.pile, 1 - seat: 1 - action.pile}))
        if self._kind == "play" and isinstance(action, (Play, TurnUp, Move)) and self._stuck():
            events.append(Stalemate())
        self.events.extend(events)
        return events

    def resolve_stalemate(self) -> list[Event]:
        """Do the "Spit!" now (the countdown ran out); raise RealtimeIllegal if none is due."""
        if not self.stalemate:
            raise RealtimeIllegal(
                -1, "timeout", Message("spit.not-due", 'no stalemate: "Spit!" is not due')
            )
        self._views.clear()
        events = self._spit_now()
        self.events.extend(events)
        return events

    def _spit_now(self) -> list[Event]:
        """Each player with spit cards turns one onto his own pile; none left: a new layout."""
        starting = self._kind == "start"
        self._called = [False, False]
        self._slapped = False
        spitters = [s for s in SEATS if self._spit[s]]
        if not spitters:
            return self._no_spit_cards_left()
        if not starting:
            self.stalemates += 1
        events: list[Event] = []
        for s in spitters:
            card = self._spit[s].pop()
            self._centre[s].append(card)
            events.append(Spat(s, card, s))
        self._stuck_memo = None
        self._kind = "play"
        if self._stuck():
            events.append(Stalemate())
        return events

    def _no_spit_cards_left(self) -> list[Event]:
        """A stalemate with no spit cards on either side but stock on both: a new layout."""
        events: list[Event] = [NewLayout(None)]
        if not self._one_pile:
            self._kind = "slap"
            return events
        pile = 0 if self._open[0] else 1
        counts = [self.stock_count(s) for s in SEATS]
        taker = pile if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1)
        events.extend(self._share({taker: pile, 1 - taker: None}))
        return events

    def _stock_cleared(self, seat: int) -> list[Event]:
        if not self._spit[seat]:
            self._winner = seat
            self._kind = "over"
            return [Won(seat)]
        events: list[Event] = [NewLayout(seat)]
        if self._one_pile:
            pile = 0 if self._open[0] else 1
            events.extend(self._share({seat: None, 1 - seat: pile}))
        elif self.rules.slap == "chooser":
            self._kind = "choose"
            self._chooser = seat
        else:
            self._kind = "slap"
        return events

    def _share(self, piles: dict[int, int | None]) -> list[Event]:
        """Each seat takes its centre pile (or none), gathers all its cards, shuffles, deals."""
        events: list[Event] = []
        packets: list[list[Card]] = []
        for seat in SEATS:
            pile = piles[seat]
            taken = self._centre[pile] if pile is not None else []
            events.append(Took(seat, pile, len(taken)))
            packet = list(taken)
            for p in self._stock[seat]:
                packet.extend(p)
            packet.extend(reversed(self._spit[seat]))
            packets.append(packet)
        self._centre = [[], []]
        for packet in packets:
            self._rng.shuffle(packet)
        self.redeals += 1
        events.extend(self._deal_layouts(packets))
        return events

    def _deal_layouts(self, packets: list[list[Card]]) -> list[Event]:
        events: list[Event] = []
        self._stuck_memo = None
        n = self.rules.piles
        for seat in SEATS:
            stock, spit = lay_out(packets[seat], n)
            self._stock[seat] = stock
            self._up[seat] = [bool(p) for p in stock]
            self._spit[seat] = spit
            events.append(Dealt(seat, tuple(len(p) for p in stock), len(spit)))
        spitters = [s for s in SEATS if self._spit[s]]
        was_one_pile, was_open = self._one_pile, self._open
        self._one_pile = len(spitters) < 2
        self._open = [True, True] if not self._one_pile else [s in spitters for s in SEATS]
        if self._one_pile and spitters and (not was_one_pile or self._open != was_open):
            events.append(OnePile(spitters[0]))
        self._called = [False, False]
        self._chooser = None
        self._kind = "start"
        return events

    # ------------------------------------------------------------------ views and records

    def view(self, seat: int) -> SpitView:
        """What ``seat`` may see (built by :func:`cardroom.games.spit.view.view_of`)."""
        cached = self._views.get(seat)
        if cached is None:
            from cardroom.games.spit.view import view_of

            cached = self._views[seat] = view_of(self, seat)
        return cached

    def action_to_json(self, action: Action) -> dict[str, Any]:
        """The record form of an action."""
        return action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        """Read an action's record form; raise RecordError naming the problem."""
        return action_from_json(data)


def _index_ok(value: object, n: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n


def _code(card: object) -> str:
    return card.code if isinstance(card, Card) else repr(card)


def _no_pile(pile: object) -> Message:
    return Message("rt.no-pile", f"there is no centre pile {pile!r}: use 0 or 1")


def _not_up(card: object) -> Message:
    return Message(
        "spit.not-up",
        f"{_code(card)} is not a face-up top card of your stock",
        card=card if isinstance(card, Card) else None,
    )


# ----------------------------------------------------------------------------- JSON actions


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"type": "play", "card": "7D", "pile": 0, "seen": "8C"}``, ``{"type": "turn-up",
    "stock": 2}``, ``{"type": "move", "card": "5H", "to_stock": 3}``, ``{"type": "spit"}``,
    ``{"type": "slap", "pile": 1}``, ``{"type": "choose", "pile": 0}``."""
    if isinstance(action, Play):
        seen = action.seen.code if action.seen is not None else None
        return {"type": "play", "card": action.card.code, "pile": action.pile, "seen": seen}
    if isinstance(action, TurnUp):
        return {"type": "turn-up", "stock": action.stock}
    if isinstance(action, Move):
        return {"type": "move", "card": action.card.code, "to_stock": action.to_stock}
    if isinstance(action, CallSpit):
        return {"type": "spit"}
    if isinstance(action, Slap):
        return {"type": "slap", "pile": action.pile}
    if isinstance(action, Choose):
        return {"type": "choose", "pile": action.pile}
    raise TypeError(f"not a Spit action: {action!r}")


_FIELDS: dict[str, tuple[str, ...]] = {
    "play": ("card", "pile", "seen"),
    "turn-up": ("stock",),
    "move": ("card", "to_stock"),
    "spit": (),
    "slap": ("pile",),
    "choose": ("pile",),
}


def action_from_json(data: Any) -> Action:
    """Read an action's record form; raise :class:`RecordError` naming the problem."""
    if not isinstance(data, dict):
        said = f'a Spit action is a JSON object like {{"type": "spit"}}, not {data!r}'
        raise RecordError(Message("rec.spit.action-object", said, value=shown(data)))
    kind = data.get("type")
    if kind not in _FIELDS:
        said = f"unknown Spit action type {kind!r}: use one of {', '.join(_FIELDS)}"
        choices = ", ".join(_FIELDS)
        raise RecordError(Message("rec.spit.action-type", said, value=shown(kind), choices=choices))
    allowed = {"type", *_FIELDS[kind]}
    extra = sorted(set(data) - allowed)
    if extra:
        typed = ", ".join(map(repr, extra))
        said = f"a {kind} action has no {typed}"
        raise RecordError(Message("rec.rt.action-extra", said, kind=shown(kind), typed=typed))
    required = [k for k in _FIELDS[kind] if k != "seen"]
    missing = [k for k in required if k not in data]
    if missing:
        typed = ", ".join(map(repr, missing))
        said = f"a {kind} action needs {typed}"
        raise RecordError(Message("rec.rt.action-missing", said, kind=shown(kind), typed=typed))

    def card(key: str) -> Card:
        try:
            return parse_card(data[key])
        except CardError as exc:
            said = f"{kind} action, {key}: {exc}"
            raise RecordError(
                Message(
                    "rec.rt.action-card-said", said, kind=shown(kind), field=key,
                    detail=message_of(exc),
                )
            ) from None  # fmt: skip

    def number(key: str, limit: int) -> int:
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
            said = (
                f"{kind} action, {key} must be a whole number from 0 to {limit - 1}, not {value!r}"
            )
            raise RecordError(
                Message(
                    "rec.rt.action-number",
                    said,
                    kind=shown(kind),
                    field=key,
                    most=limit - 1,
                    value=shown(value),
                )
            )
        return value

    if kind == "play":
        seen = None if data.get("seen") is None else card("seen")
        return Play(card("card"), number("pile", 2), seen)
    if kind == "turn-up":
        return TurnUp(number("stock", 5))
    if kind == "move":
        return Move(card("card"), number("to_stock", 5))
    if kind == "slap":
        return Slap(number("pile", 2))
    if kind == "choose":
        return Choose(number("pile", 2))
    return CALL_SPIT
