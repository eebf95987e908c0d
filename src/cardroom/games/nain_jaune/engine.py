"""The Nain Jaune engine: one round (stakes, play, settlement) and a whole game across rounds.

Seats are numbered 0..n-1 in turn order (``direction`` only changes how a screen lays them out).
A :class:`Round` is mutable: :meth:`Round.apply` checks an action, applies it and returns the
events it caused; an illegal action raises :class:`IllegalAction` and changes nothing. The deal
is always explicit (hands and talon, or an ``random.Random`` passed in): no hidden randomness.

One concern: Nain Jaune's rules, as one state machine: :class:`Round` (stakes, the legal
actions, play, settlement in the documented order) and :class:`Game` (chips, board and dealer
from round to round, the end condition), with the actions and events they exchange. A round's
play and its settlement read the same hands and boxes, and :class:`Game` only carries what a
round settled; parts of them in other files would share private state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter

from cardroom.cards import DECK, Card, Rank, deal_in_packets, shuffled_deck
from cardroom.games.errors import RulesError
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.rules import (
    HAND_SIZES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULES_VERSION,
    STAKE_PER_ROUND,
    STAKES,
    Rules,
    card_value,
    unreachable_target,
)
from cardroom.games.options import players_error
from cardroom.games.records import written_version

KING = int(Rank.KING)

# ----------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``. ``forget=True`` plays a board card without announcing "… who takes"."""

    card: Card
    forget: bool = False

    def __str__(self) -> str:
        return f"{self.card.code}{' (unannounced)' if self.forget else ''}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Announce "without X" (cannot or, with ``may_stop``, will not play the next rank).

    After playing his last card, a board card he has not claimed (``announce=manual``), a
    player passes to end the round without claiming it.
    """

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Claim:
    """Announce "<rank> who takes" for the board card just played (``announce=manual``)."""

    def __str__(self) -> str:
        return "claim"


Action = Play | Pass | Claim
PASS = Pass()
CLAIM = Claim()


def action_text(action: Action) -> str:
    """The wire form of an action (``"7D"``, ``"pass"``, ``"claim"``)."""
    if isinstance(action, Play):
        return action.card.code
    return "claim" if isinstance(action, Claim) else "pass"
_PLAY = {card: Play(card) for card in DECK}
_PLAY_OF = [_PLAY[card] for card in DECK]  # by card index: no call to Card.__hash__
_SHARED_PLAY = {id(play): play for play in _PLAY_OF}  # the shared plays, by identity


def shared_play(card: Card) -> Play:
    """The shared instance of the announced play of ``card``: :meth:`Round.apply` checks it
    inline instead of calling ``why_illegal`` again (a table checks an action before storing it)."""
    return _PLAY_OF[card.index]


_DECK_IDS = frozenset(map(id, DECK))  # cards are interned: the same 52 objects, by identity
_BOX_OF: dict[tuple[Card, ...], tuple[int, ...]] = {}  # board cards -> box by card index
_SORT_KEY = attrgetter("sort_key")  # the order of Card.__lt__, without a Python call per comparison
_LegalCache = tuple[list["Event"], int, list[Card], int, list[Action]]
_NO_CACHE: _LegalCache = ([], -1, [], -1, [])


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the state is unchanged."""

    def __init__(self, action: Action, reason: str) -> None:
        super().__init__(f"illegal action {action}: {reason}")
        self.action = action
        self.reason = reason


class GameOver(ValueError):
    """The round or game is over: no action can be applied."""


# ----------------------------------------------------------------------------- events


_RANK_LABELS = {int(r): r.label for r in Rank}


def _rank_name(rank: int) -> str:
    label = _RANK_LABELS.get(rank)  # (Rank(rank) costs an enum lookup per event's words)
    return label if label is not None else Rank(rank).label


def _a_rank(rank: int) -> str:
    """``a 7``, ``an 8``, ``an ace`` (English; the other languages are in ``cardroom.i18n``)."""
    name = _rank_name(rank)
    return f"an {name}" if name in ("8", "ace") else f"a {name}"


@dataclass(frozen=True, slots=True)
class Staked:
    """``seat`` put ``amount`` chips on box ``box`` (less than the stake if short)."""

    seat: int
    box: int
    label: str
    """The board card of the box, for display (``7♦``)."""
    amount: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} stakes {self.amount} on {self.label}"


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card``."""

    seat: int
    card: Card

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} plays {self.card.pretty}"


@dataclass(frozen=True, slots=True)
class Takes:
    """``seat`` announced "<rank> who takes" and took ``amount`` chips from the box."""

    seat: int
    card: Card
    amount: int

    def describe(self, names: Sequence[str]) -> str:
        call = "Yellow Dwarf" if self.card.code == "7D" else _rank_name(self.card.rank)
        return f'{names[self.seat]}: "{call} who takes" ({self.amount} chips)'


@dataclass(frozen=True, slots=True)
class Forgot:
    """``seat`` played board card ``card`` without announcing it: the box stays."""

    seat: int
    card: Card

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} forgot to announce {self.card.pretty}: the box stays"


@dataclass(frozen=True, slots=True)
class Without:
    """``seat`` announced "without <rank>" and passed."""

    seat: int
    rank: int

    def describe(self, names: Sequence[str]) -> str:
        return f'{names[self.seat]}: "without {_rank_name(self.rank)}"'


@dataclass(frozen=True, slots=True)
class NextRank:
    """Nobody played ``rank``: ``seat`` (who placed the last card) goes on from ``rank`` + 1."""

    seat: int
    rank: int

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"nobody has {_a_rank(self.rank)}: {names[self.seat]} may now play "
            f"{_a_rank(self.rank + 1)}"
        )


@dataclass(frozen=True, slots=True)
class FreeSequence:
    """``seat`` starts a new sequence with any card (after a king, a missing king, or a block)."""

    seat: int
    reason: str

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} starts a new sequence ({self.reason})"


@dataclass(frozen=True, slots=True)
class OutOfCards:
    """``seat`` has no card left: the round ends."""

    seat: int

    def describe(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} has no card left and wins the round"


@dataclass(frozen=True, slots=True)
class Paid:
    """``payer`` owed ``owed`` chips to ``payee`` for the cards left in hand and paid ``paid``."""

    payer: int
    payee: int
    owed: int
    paid: int

    def describe(self, names: Sequence[str]) -> str:
        short = "" if self.paid == self.owed else f" of {self.owed} owed (all they have)"
        return f"{names[self.payer]} pays {self.paid}{short} to {names[self.payee]}"


@dataclass(frozen=True, slots=True)
class Doubled:
    """``seat`` doubled the box of ``card`` (``held``: kept the card; ``forgot``: forgot it)."""

    seat: int
    card: Card
    owed: int
    paid: int
    reason: str

    def describe(self, names: Sequence[str]) -> str:
        why = "still holds" if self.reason == "held" else "forgot to announce"
        short = "" if self.paid == self.owed else f" of {self.owed} (all they have)"
        return f"{names[self.seat]} {why} {self.card.pretty}: doubles its box, {self.paid}{short}"


@dataclass(frozen=True, slots=True)
class GrandOperaSwept:
    """Grand opéra: ``seat`` went out all at once and swept ``amount`` chips off the board."""

    seat: int
    amount: int

    def describe(self, names: Sequence[str]) -> str:
        return f"Grand opéra! {names[self.seat]} sweeps the board: {self.amount} chips"


Event = (
    Staked
    | CardPlayed
    | Takes
    | Forgot
    | Without
    | NextRank
    | FreeSequence
    | OutOfCards
    | Paid
    | Doubled
    | GrandOperaSwept
)

# Events are frozen values: the frequent ones are built once and shared (building a frozen
# dataclass costs more than the rest of a pass).
_SEATS = range(MAX_PLAYERS)
_CARD_PLAYED = [[CardPlayed(seat, card) for card in DECK] for seat in _SEATS]  # by card index
_AFTER_A_KING = [FreeSequence(seat, Message("nj.after-king", "after a king")) for seat in _SEATS]
_WITHOUT = [[Without(seat, rank) for rank in range(KING + 1)] for seat in _SEATS]
_NEXT_RANK = [[NextRank(seat, rank) for rank in range(KING + 1)] for seat in _SEATS]
_STAKED: dict[tuple[int, int, str, int], Staked] = {}


def _staked(seat: int, box: int, label: str, amount: int) -> Staked:
    key = (seat, box, label, amount)
    event = _STAKED.get(key)
    if event is None:
        event = _STAKED[key] = Staked(seat, box, label, amount)
    return event


def _not_a_dealer(dealer: int, n: int) -> Message:
    return Message(
        "nj.not-a-dealer", f"dealer {dealer} is not a seat (0..{n - 1})", dealer=dealer, most=n - 1
    )


# ----------------------------------------------------------------------------- round


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended, after settlement."""

    winner: int
    grand_opera: bool
    chips: tuple[int, ...]
    board: tuple[int, ...]
    next_dealer: int
    short: tuple[int, ...]
    """Seats that could not pay something in full."""


class Round:
    """One round of Nain Jaune from the stakes to the settlement."""

    __slots__ = (
        "_board_index",
        "_box_of",
        "_legal_cache",
        "awaiting_final_claim",
        "board",
        "board_before",
        "chips",
        "chips_before",
        "dealer",
        "events",
        "forgotten",
        "hands",
        "initial_hands",
        "leader",
        "n",
        "need",
        "passes",
        "passes_in_row",
        "pending_claim",
        "played",
        "result",
        "rules",
        "talon",
        "to_act",
        "voluntary",
    )

    def __init__(
        self,
        rules: Rules,
        chips: Sequence[int],
        board: Sequence[int],
        dealer: int,
        hands: Sequence[Sequence[Card]],
        talon: Sequence[Card],
    ) -> None:
        """Start a round from an explicit deal; the stakes are taken at once.

        ``chips`` and ``board`` (five amounts in board order) are before this round's stakes.
        """
        n = len(hands)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RulesError(players_error("nain-jaune", n, MIN_PLAYERS, MAX_PLAYERS))
        if len(chips) != n:
            raise RulesError(
                Message(
                    "nj.chip-counts",
                    f"{len(chips)} chip counts for {n} players",
                    count=len(chips),
                    players=n,
                )
            )
        if len(board) != 5 or any(b < 0 for b in board):
            raise RulesError(
                Message("nj.board-boxes", "the board has five boxes holding zero or more chips")
            )
        if any(c < 0 for c in chips):
            raise RulesError(Message("nj.negative-chips", "chip counts cannot be negative"))
        if not 0 <= dealer < n:
            raise RulesError(_not_a_dealer(dealer, n))
        size = HAND_SIZES[n]
        for seat, hand in enumerate(hands):
            if len(hand) != size:
                raise RulesError(
                    f"seat {seat} holds {len(hand)} cards: with {n} players each gets {size}"
                )
        dealt = [c for h in hands for c in h]
        dealt += talon
        if len(dealt) != 52 or set(map(id, dealt)) != _DECK_IDS:  # say exactly what is wrong
            everything = Counter(dealt)
            dupes = sorted(c for c, k in everything.items() if k > 1)
            if dupes:
                raise RulesError(f"card dealt twice: {', '.join(c.code for c in dupes)}")
            if len(everything) != 52:
                missing = sorted(set(DECK) - set(everything))
                raise RulesError(
                    f"cards missing from the deal: {', '.join(c.code for c in missing)}"
                )
        self.rules = rules
        self.n = n
        self.dealer = dealer
        self.chips_before = tuple(chips)
        self.board_before = tuple(board)
        self.chips = list(chips)
        self.board = list(board)
        self.hands: list[list[Card]] = [sorted(h, key=_SORT_KEY) for h in hands]
        self.initial_hands = tuple(tuple(h) for h in self.hands)
        self.talon = tuple(talon)
        self.to_act = (dealer + 1) % n
        self.need: int | None = None
        self.leader: int | None = None
        self.passes_in_row = 0
        self.played: list[tuple[int, Card]] = []
        self.passes: list[tuple[int, int]] = []
        self.forgotten: list[tuple[int, Card]] = []
        # each voluntary "without" (may_stop), as the number of cards played before it
        self.voluntary: list[int] = []
        self.pending_claim: Card | None = None
        self.awaiting_final_claim = False
        self.result: RoundResult | None = None
        self._board_index = {c: i for i, c in enumerate(rules.board_cards)}
        box_of = _BOX_OF.get(rules.board_cards)
        if box_of is None:
            box_of = _BOX_OF[rules.board_cards] = tuple(
                self._board_index.get(c, -1) for c in DECK
            )
        self._box_of = box_of
        self._legal_cache: _LegalCache = _NO_CACHE
        self.events: list[Event] = []
        labels = [card.pretty for card in rules.board_cards]
        for seat in range(n):
            for box, stake in enumerate(STAKES):
                amount = min(stake, self.chips[seat])
                self.chips[seat] -= amount
                self.board[box] += amount
                self.events.append(_staked(seat, box, labels[box], amount))

    @classmethod
    def deal(
        cls,
        rules: Rules,
        chips: Sequence[int],
        board: Sequence[int],
        dealer: int,
        rng: random.Random,
    ) -> Round:
        """Shuffle with ``rng`` and deal three at a time from the seat after the dealer."""
        n = len(chips)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RulesError(players_error("nain-jaune", n, MIN_PLAYERS, MAX_PLAYERS))
        hands, talon = deal_hands(n, dealer, rng)
        return cls(rules, chips, board, dealer, hands, talon)

    # -- queries ---------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the round is settled."""
        return self.result is not None

    @property
    def current_player(self) -> int | None:
        """The seat whose decision it is, or None when the round is over."""
        return None if self.result is not None else self.to_act

    def board_box(self, card: Card) -> int | None:
        """The index of ``card``'s box on the board, or None if it is not a board card."""
        return self._board_index.get(card)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act: plays by card, then Claim, then Pass."""
        if self.result is not None:
            return []
        if self.awaiting_final_claim:
            return [CLAIM, PASS]
        hand = self.hands[self.to_act]
        need = self.need
        actions: list[Action]
        if need is None:
            actions = [_PLAY_OF[c.index] for c in hand]
        else:
            actions = [_PLAY_OF[c.index] for c in hand if c.rank == need]
        can_pass = need is not None and (not actions or self.rules.may_stop)
        if self.pending_claim is not None:
            actions.append(CLAIM)
        if can_pass:
            actions.append(PASS)
        # Every apply adds events, so the event list and its length date this answer; apply
        # trusts it (skips why_illegal) only for the same lists, hand and length.
        self._legal_cache = (self.events, len(self.events), hand, len(hand), actions)
        return list(actions)

    def why_illegal(self, action: Action) -> str | None:
        """None if ``action`` is legal now, else the reason it is not."""
        if self.result is not None:
            return Message("nj.round-over", "the round is over")
        seat = self.to_act
        if isinstance(action, Claim):
            if self.pending_claim is None:
                return Message("nj.nothing-to-claim", "there is no board card of yours to claim")
            return None
        if self.awaiting_final_claim:
            if isinstance(action, Pass):
                return None
            return Message(
                "nj.claim-or-pass", "you have played your last card: claim its box or pass"
            )
        if isinstance(action, Pass):
            if self.need is None:
                return Message(
                    "nj.must-lead", "you start a new sequence and must play a card"
                )
            if not self.rules.may_stop and any(c.rank == self.need for c in self.hands[seat]):
                return Message(
                    "nj.must-play-rank",
                    f"you hold {_a_rank(self.need)} and must play it",
                    rank=self.need,
                )
            return None
        if isinstance(action, Play):
            card = action.card
            if card not in self.hands[seat]:
                return Message(
                    "nj.not-held", f"seat {seat} does not hold {card.code}", card=card, seat=seat
                )
            if self.need is not None and card.rank != self.need:
                return Message(
                    "nj.wrong-rank", f"the next card must be {_a_rank(self.need)}", rank=self.need
                )
            if action.forget and self.board_box(card) is None:
                return Message(
                    "nj.not-board-card",
                    f"{card.code} is not a board card: there is nothing to forget",
                    card=card,
                )
            return None
        return Message("nj.not-an-action", f"{action!r} is not a Nain Jaune action")

    # -- the one place the state changes ---------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply the action of the seat to act and return the events it caused.

        Raises :class:`IllegalAction` (state unchanged) when the action is not legal now.
        """
        at = -1  # where a play's card is in the hand, once found
        play = _SHARED_PLAY.get(id(action)) if type(action) is Play else None
        if play is not None:
            # the shared instance of an announced play: why_illegal's test for it, inline; the
            # hand is searched by card index (comparing Card objects costs a Python call each)
            card = play.card
            need = self.need
            if self.result is None and not self.awaiting_final_claim and (
                need is None or card.rank == need
            ):
                held = [c.index for c in self.hands[self.to_act]]
                if card.index in held:
                    at = held.index(card.index)
            if at < 0:
                reason = self.why_illegal(action)
                assert reason is not None
                raise IllegalAction(action, reason)
        else:
            events_then, count, hand, size, cached = self._legal_cache
            if (
                events_then is not self.events
                or count != len(events_then)
                or hand is not self.hands[self.to_act]
                or size != len(hand)
                or self.result is not None
                or action not in cached
                or (isinstance(action, Play) and action.card not in hand)
            ):
                reason = self.why_illegal(action)
                if reason is not None:
                    raise IllegalAction(action, reason)
        seat = self.to_act
        events: list[Event] = []
        if isinstance(action, Claim):
            self._claim(seat, events)
            if self.awaiting_final_claim:
                self._finish(seat, events)
        elif isinstance(action, Pass):
            if self.pending_claim is not None:
                self._lapse_claim(seat, events)
            if self.awaiting_final_claim:
                self._finish(seat, events)
            else:
                self._pass(seat, events)
        else:
            if self.pending_claim is not None:
                self._lapse_claim(seat, events)
            self._play(seat, action, events, at)
        self.events.extend(events)
        return events

    def _claim(self, seat: int, events: list[Event]) -> None:
        card = self.pending_claim
        assert card is not None
        box = self._board_index[card]
        amount = self.board[box]
        self.board[box] = 0
        self.chips[seat] += amount
        self.pending_claim = None
        events.append(Takes(seat, card, amount))

    def _lapse_claim(self, seat: int, events: list[Event]) -> None:
        if self.pending_claim is not None:
            self.forgotten.append((seat, self.pending_claim))
            events.append(Forgot(seat, self.pending_claim))
            self.pending_claim = None

    def _play(self, seat: int, action: Play, events: list[Event], at: int) -> None:
        card = action.card
        hand = self.hands[seat]
        if at >= 0:
            del hand[at]
        else:
            hand.remove(card)
        self.played.append((seat, card))
        events.append(_CARD_PLAYED[seat][card.index])
        if self._box_of[card.index] >= 0:
            if action.forget:
                self.forgotten.append((seat, card))
                events.append(Forgot(seat, card))
            elif self.rules.announce == "auto":
                self.pending_claim = card
                self._claim(seat, events)
            else:
                self.pending_claim = card
        self.leader = seat
        self.passes_in_row = 0
        if not hand:
            if self.pending_claim is not None:
                self.awaiting_final_claim = True
            else:
                self._finish(seat, events)
            return
        if card.rank == KING:
            self.need = None
            events.append(_AFTER_A_KING[seat])
        else:
            self.need = int(card.rank) + 1

    def _pass(self, seat: int, events: list[Event]) -> None:
        need = self.need
        assert need is not None and self.leader is not None
        events.append(_WITHOUT[seat][need])
        self.passes.append((seat, need))
        if self.rules.may_stop and any(c.rank == need for c in self.hands[seat]):
            self.voluntary.append(len(self.played))
        self.passes_in_row += 1
        if self.passes_in_row < self.n:
            self.to_act = (seat + 1) % self.n
            return
        leader = self.leader
        self.to_act = leader
        self.passes_in_row = 0
        if self.rules.when_blocked == "free-restart":
            self.need = None
            events.append(
                FreeSequence(
                    leader, Message("nj.nobody-played", f"nobody played {_a_rank(need)}", rank=need)
                )
            )
        elif need == KING:
            self.need = None
            events.append(FreeSequence(leader, Message("nj.no-king", "nobody has a king", rank=13)))
        else:
            self.need = need + 1
            events.append(_NEXT_RANK[leader][need])

    # -- settlement ------------------------------------------------------------

    def _finish(self, winner: int, events: list[Event]) -> None:
        self.awaiting_final_claim = False
        events.append(OutOfCards(winner))
        rules = self.rules
        chips, board = self.chips, self.board
        short: set[int] = set()

        def pay(seat: int, owed: int) -> int:
            paid = min(owed, chips[seat])
            chips[seat] -= paid
            if paid < owed:
                short.add(seat)
            return paid

        for offset in range(1, self.n):
            seat = (winner + offset) % self.n
            owed = sum(card_value(c, rules.payment) for c in self.hands[seat])
            paid = pay(seat, owed)
            chips[winner] += paid
            events.append(Paid(seat, winner, owed, paid))
        for seat in range(self.n):
            held = sorted(
                (self._board_index[c], c) for c in self.hands[seat] if c in self._board_index
            )
            for box, card in held:
                owed = board[box]
                paid = pay(seat, owed)
                board[box] += paid
                events.append(Doubled(seat, card, owed, paid, "held"))
        if rules.forgotten_announcement == "double-box":
            for seat, card in self.forgotten:
                box = self._board_index[card]
                owed = board[box]
                paid = pay(seat, owed)
                board[box] += paid
                events.append(Doubled(seat, card, owed, paid, "forgot"))
        opera = self._is_grand_opera(winner)
        if opera:
            swept = sum(board)
            chips[winner] += swept
            for box in range(5):
                board[box] = 0
            events.append(GrandOperaSwept(winner, swept))
        self.result = RoundResult(
            winner=winner,
            grand_opera=opera,
            chips=tuple(chips),
            board=tuple(board),
            next_dealer=self.played[0][0],
            short=tuple(sorted(short)),
        )

    def _is_grand_opera(self, winner: int) -> bool:
        mode = self.rules.grand_opera
        if mode == "off":
            return False
        size = len(self.initial_hands[winner])
        if mode == "no-one-else-played":
            return len(self.played) == size
        run = 0
        for seat, _ in reversed(self.played):
            if seat != winner:
                break
            run += 1
        return run == size

    # -- copying ---------------------------------------------------------------

    def clone(self) -> Round:
        """An independent copy (for search): later actions on one do not touch the other."""
        other = object.__new__(Round)
        for name in Round.__slots__:
            setattr(other, name, getattr(self, name))
        other.chips = list(self.chips)
        other.board = list(self.board)
        other.hands = [list(h) for h in self.hands]
        other._legal_cache = _NO_CACHE
        other.played = list(self.played)
        other.passes = list(self.passes)
        other.forgotten = list(self.forgotten)
        other.voluntary = list(self.voluntary)
        other.events = list(self.events)
        return other

    def moves(self) -> list[str | dict[str, object]]:
        """The round's ``moves`` in record form: card codes, a forgotten one as an object, and
        ``"pass"`` for a voluntary "without" (``may_stop``: the player held the rank)."""
        forgot = {card for _, card in self.forgotten}
        out: list[str | dict[str, object]] = []
        passes = iter(self.voluntary)
        at = next(passes, None)
        for number, (_, card) in enumerate(self.played):
            while at == number:
                out.append("pass")
                at = next(passes, None)
            out.append({"card": card.code, "announced": False} if card in forgot else card.code)
        while at is not None:
            out.append("pass")
            at = next(passes, None)
        return out


def deal_hands(
    players: int, dealer: int, rng: random.Random
) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle with ``rng`` and deal three at a time, starting with the seat after the dealer.

    Returns the hands indexed by seat and the talon.
    """
    dealt, talon = deal_in_packets(shuffled_deck(rng), HAND_SIZES[players], players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, hand in enumerate(dealt):
        hands[(dealer + 1 + i) % players] = hand
    return hands, talon


# ----------------------------------------------------------------------------- game


@dataclass(slots=True)
class GameResult:
    """How a whole game ended."""

    winners: tuple[int, ...]
    reason: str
    chips: tuple[int, ...]
    rounds: int


@dataclass
class Game:
    """A whole game: chips and board carried across rounds until an end condition is met.

    Seats are the game's seats (0..n-1); with ``end=last-standing`` a player who cannot stake
    drops out and the rounds are played by the ``active`` seats only.
    """

    rules: Rules
    names: list[str]
    chips: list[int] = field(default_factory=list)
    board: list[int] = field(default_factory=lambda: [0] * 5)
    dealer: int = 0
    active: list[int] = field(default_factory=list)
    rounds_played: int = 0
    result: GameResult | None = None
    round: Round | None = None
    round_seats: list[int] = field(default_factory=list)
    records: list[dict[str, object]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.names)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RulesError(players_error("nain-jaune", n, MIN_PLAYERS, MAX_PLAYERS))
        if not self.chips:
            self.chips = [self.rules.starting_chips] * n
        if not self.active:
            self.active = list(range(n))
        if not 0 <= self.dealer < n:
            raise RulesError(_not_a_dealer(self.dealer, n))
        unreachable = unreachable_target(self.rules, sum(self.chips) + sum(self.board))
        if unreachable is not None:
            raise RulesError(unreachable)

    @property
    def over(self) -> bool:
        """True once an end condition is met."""
        return self.result is not None

    def start_round(
        self,
        rng: random.Random | None = None,
        deal: tuple[Sequence[Sequence[Card]], Sequence[Card]] | None = None,
    ) -> Round:
        """Start the next round, dealt by ``rng`` or from an explicit ``deal`` (hands, talon).

        The hands of an explicit deal are indexed by position among the active seats.
        """
        if self.result is not None:
            raise GameOver("the game is over")
        if self.round is not None and not self.round.over:
            raise GameOver("the current round is not finished")
        seats = list(self.active)
        dealer_pos = seats.index(self.dealer)
        chips = [self.chips[s] for s in seats]
        if deal is not None:
            rnd = Round(self.rules, chips, self.board, dealer_pos, deal[0], deal[1])
        elif rng is not None:
            rnd = Round.deal(self.rules, chips, self.board, dealer_pos, rng)
        else:
            raise ValueError("start_round needs an rng or an explicit deal")
        self.round_seats = seats
        self.round = rnd
        return rnd

    def finish_round(self) -> RoundResult:
        """Carry the settled round's chips and board into the game and check the end."""
        rnd = self.round
        if rnd is None or rnd.result is None:
            raise GameOver("the round is not over yet")
        res = rnd.result
        self.records.append(round_record(rnd, [self.names[s] for s in self.round_seats]))
        for pos, seat in enumerate(self.round_seats):
            self.chips[seat] = res.chips[pos]
        self.board = list(res.board)
        self.rounds_played += 1
        first = self.round_seats[res.next_dealer]
        self._check_end(res, [self.round_seats[s] for s in res.short])
        if self.result is None:
            self.dealer = first if first in self.active else self._next_active(first)
        return res

    def _next_active(self, seat: int) -> int:
        n = len(self.names)
        for step in range(1, n + 1):
            if (seat + step) % n in self.active:
                return (seat + step) % n
        raise GameOver("no player is left")

    def _most_chips(self, among: Sequence[int]) -> tuple[int, ...]:
        best = max(self.chips[s] for s in among)
        return tuple(s for s in among if self.chips[s] == best)

    def _check_end(self, res: RoundResult, short: Sequence[int]) -> None:
        end = self.rules.end
        chips = self.chips
        reason: str | None = None
        among: Sequence[int] = self.active
        if end.kind == "broke":
            broke = [s for s in self.active if chips[s] < STAKE_PER_ROUND]
            if short:
                reason = Message("nj.end.short", "a player could not pay in full")
            elif broke:
                reason = Message("nj.end.cannot-stake", "a player cannot stake for the next round")
        elif end.kind == "last-standing":
            still = [s for s in self.active if chips[s] >= STAKE_PER_ROUND]
            if len(still) <= 1:
                among = still or self.active
                reason = (
                    Message("nj.end.one-left", "only one player can still stake")
                    if still
                    else Message("nj.end.nobody-can-stake", "nobody can stake")
                )
            self.active = still or self.active
        elif end.kind == "rounds":
            if self.rounds_played >= end.number:
                reason = Message(
                    "nj.end.rounds", f"{end.number} rounds played", n=end.number
                )
        elif end.kind == "target":
            reached = [s for s in self.active if chips[s] >= end.number]
            if reached:
                among = reached
                reason = Message("nj.end.reached", f"reached {end.number} chips", n=end.number)
        if reason is not None:
            self.result = GameResult(
                self._most_chips(among), reason, tuple(chips), self.rounds_played
            )


def round_record(rnd: Round, names: Sequence[str]) -> dict[str, object]:
    """The JSON-ready record of a round (see the record contract)."""
    return {
        "game": "nain-jaune",
        "version": written_version(RULES_VERSION),
        "rules": rnd.rules.to_json(),
        "players": list(names),
        "chips": list(rnd.chips_before),
        "board": {c.code: v for c, v in zip(rnd.rules.board_cards, rnd.board_before, strict=True)},
        "dealer": rnd.dealer,
        "hands": [[c.code for c in h] for h in rnd.initial_hands],
        "talon": [c.code for c in rnd.talon],
        "moves": rnd.moves(),
    }
