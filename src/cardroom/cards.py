"""Cards of the 52-card pack: ranks, suits, parsing, formatting, seeded shuffles and deals.

Cards are written rank + suit letter (``10D``, ``QS``, ``7D``); :func:`parse_card` also accepts
``T`` for ten, lower case and the suit symbols (``10♦``). Every card is one interned object, so
``Card.parse("qs") is Card(Rank.QUEEN, Suit.SPADES)``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from enum import Enum, IntEnum
from typing import ClassVar


class CardError(ValueError):
    """A card (or list of cards) could not be read: the English sentence, an ``id`` and its
    ``fields`` (the words a person reads are chosen from those, in ``cardroom.i18n``; a
    ``Message`` of them is :func:`cardroom.games.messages.message_of` the error).

    The ids: ``card.not-text`` (``value``), ``card.too-short`` (``value``), ``card.rank``
    (``value``, ``rank``: the part read as the rank), ``card.suit`` (``value``, ``suit``),
    ``card.deal`` (``players``, ``size``, ``cards``). ``value``, ``rank`` and ``suit`` are the
    text as typed, quoted and cut short."""

    id: str
    fields: dict[str, object]
    near: bool
    """Half of the text reads as a card (its rank or its suit): it was meant as one."""

    def __init__(self, text: str, id: str = "card.unreadable", /, **fields: object) -> None:
        super().__init__(text)
        self.id = id
        self.fields = fields
        self.near = False

    def __reduce__(self) -> tuple[object, ...]:
        return (_card_error, (self.args[0] if self.args else "", self.id, self.fields))


def _card_error(text: str, id: str, fields: dict[str, object]) -> CardError:
    return CardError(text, id, **fields)


class Rank(IntEnum):
    """Ranks from ace (1) to king (13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """``A 2 … 10 J Q K``."""
        return _RANK_SYMBOLS[self.value]

    @property
    def label(self) -> str:
        """The English name: ``ace``, ``2``, ``queen``."""
        return _RANK_NAMES.get(self.value, str(self.value))

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank: ``A``, ``2``…``10``, ``T``, ``J``, ``Q``, ``K`` (any case)."""
        key = text.strip().upper()
        if key in _RANK_BY_SYMBOL:
            return cls(_RANK_BY_SYMBOL[key])
        said = f"unknown rank {_shown(text)}: use A, 2-10 (or T), J, Q or K"
        raise CardError(said, "card.rank", value=_typed(text), rank=_typed(text))


_RANK_SYMBOLS = {1: "A", 11: "J", 12: "Q", 13: "K"} | {v: str(v) for v in range(2, 11)}
_RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
_RANK_BY_SYMBOL = {s: v for v, s in _RANK_SYMBOLS.items()} | {"T": 10, "1": 1}


class Suit(Enum):
    """The four suits; ``value`` is the letter used in records."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """``♣ ♦ ♥ ♠``."""
        return _SUIT_SYMBOLS[self]

    @property
    def red(self) -> bool:
        """Diamonds and hearts are red."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def order(self) -> int:
        """0 for clubs, 1 diamonds, 2 hearts, 3 spades."""
        return _SUIT_ORDER[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter (C D H S, any case) or symbol (♣ ♦ ♥ ♠, also ♧ ♢ ♡ ♤)."""
        key = text.strip()
        suit = _SUIT_BY_TEXT.get(key.upper()) or _SUIT_BY_TEXT.get(key)
        if suit is None:
            said = f"unknown suit {_shown(text)}: use C, D, H, S or ♣ ♦ ♥ ♠"
            raise CardError(said, "card.suit", value=_typed(text), suit=_typed(text))
        return suit


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_ORDER = {s: i for i, s in enumerate(Suit)}
_SUIT_BY_TEXT: dict[str, Suit] = (
    {s.value: s for s in Suit}
    | {sym: s for s, sym in _SUIT_SYMBOLS.items()}
    | {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}
)


class Card:
    """One playing card. Instances are interned: one object per card, compared by identity."""

    __slots__ = ("code", "index", "rank", "sort_key", "suit")
    _interned: ClassVar[dict[tuple[Rank, Suit], Card]] = {}
    rank: Rank
    suit: Suit
    index: int
    sort_key: int
    """Orders cards by rank, then suit (clubs, diamonds, hearts, spades)."""
    code: str
    """The record form: ``10D``, ``QS``."""

    def __new__(cls, rank: Rank | int, suit: Suit) -> Card:
        rank = Rank(rank)
        card = cls._interned.get((rank, suit))
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "index", suit.order * 13 + rank.value - 1)
            object.__setattr__(card, "sort_key", rank.value * 4 + suit.order)
            object.__setattr__(card, "code", rank.symbol + suit.value)
            cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``10D``, ``TD``, ``10♦``, ``qs`` …; raise :class:`CardError` otherwise."""
        return parse_card(text)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this index (0..51: clubs A..K, diamonds, hearts, spades)."""
        return DECK[index]

    @property
    def pretty(self) -> str:
        """The display form: ``10♦``, ``Q♠``."""
        return self.rank.symbol + self.suit.symbol

    @property
    def red(self) -> bool:
        """True for diamonds and hearts."""
        return self.suit.red

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key

    def __hash__(self) -> int:
        return self.index


def _shown(value: object) -> str:
    """``repr(value)``, cut short: an error never echoes input of any size."""
    text = repr(value) if not isinstance(value, (list, dict)) or len(value) < 8 else "a long list"
    return text if len(text) <= 24 else text[:24] + "…"


def _typed(value: object) -> str:
    """``value`` as a field of a message: text as JSON text (``"7X"``), like a record's values;
    cut short like :func:`_shown`."""
    if isinstance(value, str):
        cut = value if len(value) <= 22 else value[:22] + "…"
        return '"' + cut.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[…]"
    if isinstance(value, dict):
        return "{…}"
    text = repr(value)
    return text if len(text) <= 24 else text[:24] + "…"


def parse_card(text: str) -> Card:
    """Read one card written rank + suit: ``10D``, ``TD``, ``10♦``, ``qs``."""
    if not isinstance(text, str):
        said = f"a card must be written as text like '10D', not {_shown(text)}"
        raise CardError(said, "card.not-text", value=_typed(text))
    card = _BY_CODE.get(text)
    if card is not None:
        return card
    raw = text.strip()
    if len(raw) < 2:
        said = f"cannot read card {_shown(text)}: write rank then suit, like 10D or QS"
        raise CardError(said, "card.too-short", value=_typed(text))
    try:
        return Card(Rank.parse(raw[:-1]), Suit.parse(raw[-1]))
    except CardError as exc:
        error = CardError(str(exc), exc.id, **(exc.fields | {"value": _typed(text)}))
        suit_read = raw[-1].upper() in _SUIT_BY_TEXT or raw[-1] in _SUIT_BY_TEXT
        error.near = exc.id == "card.suit" or suit_read
        raise error from None


def parse_cards(items: Iterable[str] | str) -> list[Card]:
    """Read several cards, from a list or a space/comma separated string."""
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    return [parse_card(item) for item in items]


def format_cards(cards: Iterable[Card], pretty: bool = False) -> str:
    """Cards joined by spaces, in record form (or with suit symbols when ``pretty``)."""
    return " ".join(c.pretty if pretty else c.code for c in cards)


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
"""The 52 cards in index order."""
_BY_CODE = {card.code: card for card in DECK}


def new_deck() -> list[Card]:
    """A fresh, ordered 52-card pack."""
    return list(DECK)


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A pack shuffled by ``rng`` (never the global random state)."""
    deck = new_deck()
    rng.shuffle(deck)
    return deck


def deal_in_packets(
    deck: Sequence[Card], hand_size: int, players: int, packet: int = 3
) -> tuple[list[list[Card]], list[Card]]:
    """Deal ``hand_size`` cards to each of ``players`` seats, ``packet`` at a time.

    Seat 0 receives first. The last round of packets is short when ``hand_size`` is not a multiple
    of ``packet``. Returns the hands and the undealt rest of the deck (the talon), in deck order.
    """
    if hand_size * players > len(deck):
        said = f"cannot deal {players} hands of {hand_size} from {len(deck)} cards"
        raise CardError(said, "card.deal", players=players, size=hand_size, cards=len(deck))
    hands: list[list[Card]] = [[] for _ in range(players)]
    pos = 0
    while any(len(h) < hand_size for h in hands):
        for hand in hands:
            take = min(packet, hand_size - len(hand))
            hand.extend(deck[pos : pos + take])
            pos += take
    return hands, list(deck[pos:])
