"""What every real-time engine (Spit, Speed) offers the arbiter, the bots and the UIs.

Spit and Speed have no turns: both seats act whenever they like and the arbiter
(``cardroom.arbiter``) applies their time-stamped actions one at a time, in time order. An
engine is pure and deterministic: it never reads a clock and never draws hidden randomness
(every shuffle it needs comes from the ``seed`` it was built with), so the deal, the seed and
the ordered actions always give the same state.

An engine exposes:

- ``why_illegal(seat, action)`` / ``apply(seat, action)``: checking and applying one action of
  one seat. ``apply`` raises :class:`RealtimeIllegal` and changes nothing when the action is not
  legal *now*; an action aimed at a pile whose top card is no longer the one the player saw is
  illegal with a reason starting ``"stale: "``.
- ``stalemate``: True while a "Spit!" / side-pile flip is due and the table's countdown runs
  (a public fact: in Spit, nobody can make progress; in Speed, a player who cannot play has
  called for the flip). Seats may then send the game's call action; when both have called, the
  engine resolves the stalemate itself. ``resolve_stalemate()`` resolves it at once: the arbiter
  calls it when the table's countdown runs out.
- Text for players numbers piles from 1 (``centre_name``); records and actions count from 0.
- ``phase``: a short string a UI can show (``"start"``, ``"play"``, ``"stalemate"``,
  ``"slap"``, ``"choose"``, ``"over"``).
- ``winner`` (a seat or None) and ``over``.
- ``view(seat)``: everything the seat may see and nothing else (never a face-down card, the
  other hand in Speed, or the order of any face-down pile). A view, and the seat's legal
  actions, depend only on what the seat may see: swapping hidden cards changes neither.
- ``locations()``: where each of the 52 cards is, for invariant tests.
- ``legal_actions(seat)``: every action the seat could take now (for bots and tests).
- ``action_to_json`` / ``action_from_json``: the record form of an action.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from cardroom.cards import Card, CardError, parse_card
from cardroom.games.errors import RecordError, RulesError
from cardroom.games.messages import Message, message_of
from cardroom.games.records import MAX_SECONDS, brief, get_int, get_list, get_names, shown

SEATS = (0, 1)


class RealtimeIllegal(ValueError):
    """An action that is not legal now; the state is unchanged. ``reason`` says why."""

    def __init__(self, seat: int, action: object, reason: str) -> None:
        super().__init__(f"seat {seat}: illegal action {action}: {reason}")
        self.seat = seat
        self.action = action
        self.reason = reason

    @property
    def stale(self) -> bool:
        """True when the action was aimed at a pile that changed before it arrived."""
        return self.reason.startswith("stale: ")


def adjacent(a: Card, b: Card) -> bool:
    """True when the ranks differ by one, turning the corner (K-A-2): suits are ignored."""
    d = abs(int(a.rank) - int(b.rank))
    return d in (1, 12)


def centre_name(pile: object) -> str:
    """A centre pile as players read it: numbered from 1, left to right (records count from 0)."""
    if isinstance(pile, int) and not isinstance(pile, bool) and pile in (0, 1):
        return f"pile {pile + 1}"
    return f"pile {pile!r}"


A = TypeVar("A")
V = TypeVar("V", covariant=True)


class RealtimeEngine(Protocol[A, V]):
    """The interface of :mod:`cardroom.games.spit` and :mod:`cardroom.games.speed` engines."""

    game: str
    """The record's ``game`` name: ``"spit"`` or ``"speed"``."""

    @property
    def phase(self) -> str: ...

    @property
    def stalemate(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def over(self) -> bool: ...

    def why_illegal(self, seat: int, action: A) -> str | None: ...

    def apply(self, seat: int, action: A) -> Sequence[Any]:
        """Apply ``action`` of ``seat``; return the events; raise RealtimeIllegal if illegal."""
        ...

    def resolve_stalemate(self) -> Sequence[Any]:
        """Do the "Spit!" / flip now (countdown elapsed); returns the events."""
        ...

    def legal_actions(self, seat: int) -> list[A]: ...

    def view(self, seat: int) -> V: ...

    def locations(self) -> dict[Card, str]: ...

    def action_to_json(self, action: A) -> dict[str, Any]: ...

    def action_from_json(self, data: Any) -> A: ...


def client_action(engine: RealtimeEngine[A, Any], data: Any) -> A:
    """Read an action sent by a player's client (the web, later): the record form, except that a
    play must carry ``seen``, the top card its sender saw, so that a play aimed at a pile that
    changed is refused as stale rather than landing on another card. Raise RecordError."""
    if isinstance(data, Mapping) and data.get("type") == "play" and data.get("seen") is None:
        raise RecordError(
            Message(
                "rt.play-seen",
                'a play must carry "seen", the top card of the pile as you saw it, like '
                '{"type": "play", "card": "7D", "pile": 0, "seen": "8C"}',
            )
        )
    return engine.action_from_json(data)


R = TypeVar("R")


def parse_deal(raw: Any) -> list[Card]:
    """Read a record's ``deal``: the 52 different cards; raise :class:`RecordError` otherwise."""
    if not isinstance(raw, list) or len(raw) > 52:
        raise RecordError(
            Message(
                "rec.rt.deal-list",
                'deal must be a list of the 52 cards, like ["4H", "QS", ...]',
                field="deal",
            )
        )
    cards: list[Card] = []
    seen: set[Card] = set()
    for i, code in enumerate(raw, start=1):
        if not isinstance(code, str) or len(code) > 8:
            said = f"deal card {i}: {brief(code)} is not a card (write it like 10D)"
            raise RecordError(Message("rec.rt.deal-card", said, n=i, value=shown(code)))
        try:
            card = parse_card(code)
        except CardError as exc:
            said = f"deal card {i}: {exc}"
            said_card = Message("rec.rt.deal-card-said", said, n=i, detail=message_of(exc))
            raise RecordError(said_card) from None
        except (TypeError, ValueError):
            said = f"deal card {i}: {brief(code)} is not a card"
            raise RecordError(Message("rec.rt.deal-card", said, n=i, value=shown(code))) from None
        if card in seen:
            said = f"deal card {i}: {card.code} is already in the deal"
            raise RecordError(Message("rec.rt.deal-twice", said, n=i, card=card))
        seen.add(card)
        cards.append(card)
    if len(cards) != 52:
        said = f"the deal has {len(cards)} cards: it must hold all 52 cards once"
        raise RecordError(Message("rec.rt.deal-size", said, n=len(cards)))
    return cards


def read_header(
    data: Any, game: str, read_rules: Callable[[Any], R]
) -> tuple[R, list[str], int, list[Card]]:
    """Check the header shared by Spit and Speed records (``game``, ``rules``, ``players``,
    ``seed``, ``deal``); return the rules, players, seed and deal, or raise RecordError."""
    title = game.capitalize()
    if not isinstance(data, Mapping):
        said = f"a {title} record must be a JSON object"
        raise RecordError(Message("rec.rt.header-object", said, game=game))
    if data.get("game") != game:
        said = f"game is {brief(data.get('game'))}, not {game!r}"
        value = shown(data.get("game"))
        raise RecordError(Message("rec.rt.wrong-game", said, field="game", value=value, game=game))
    for key in ("players", "seed", "deal"):
        if key not in data:
            raise RecordError(Message("rec.rt.no-key", f"the record has no {key!r}", field=key))
    try:
        rules = read_rules(data.get("rules"))
    except RulesError as exc:
        said = f"rules: {exc}"
        raise RecordError(Message("rec.rt.rules", said, detail=message_of(exc))) from None
    countdown = getattr(rules, "countdown", 0.0)
    if isinstance(countdown, (int, float)) and countdown > MAX_SECONDS:
        said = f"rules: countdown={countdown:g} is too long: at most {MAX_SECONDS} s"
        raise RecordError(
            Message(
                "rec.rt.countdown-long", said, seconds=float(countdown), most=float(MAX_SECONDS)
            )
        )
    try:
        players = get_names(data["players"], 2)
        seed = get_int(data["seed"], "seed", 0, 2**63 - 1)
        get_list(data["deal"], "deal", 52)
    except ValueError as exc:
        raise RecordError(message_of(exc)) from None
    return rules, players, seed, parse_deal(data["deal"])


def derive_seed(match_seed: int, number: int) -> int:
    """The seed of game ``number`` (1, 2, …) of the match played from ``match_seed`` (a Spit or
    a Speed match: the text hashed says ``speed-match`` for both, as records always had it)."""
    return random.Random(f"speed-match:{match_seed}:{number}").getrandbits(32)
