"""Round records (the public JSON contract) and their replay.

A round record holds the rules, the players, the chips and board before the stakes, the dealer,
the deal and every card played in order (a forgotten announcement as
``{"card": "QS", "announced": false}``). A whole game is a JSON list of round records. Who played
each card follows from the deal (every card has one holder) and the passes between two cards
follow from the rules, so the moves list is all a replay needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.cards import Card, CardError, Rank, parse_card
from cardroom.games.nain_jaune.engine import (
    CLAIM,
    PASS,
    Event,
    IllegalAction,
    Play,
    Round,
    RoundResult,
)
from cardroom.games.nain_jaune.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError


class RecordError(ValueError):
    """A record is malformed or holds an illegal move; the message says which and why."""

    def __init__(self, message: str, move: int | None = None, round_no: int | None = None):
        prefix = f"round {round_no}: " if round_no is not None else ""
        super().__init__(prefix + message)
        self.move = move
        self.round_no = round_no


@dataclass(frozen=True, slots=True)
class Move:
    """One recorded card and whether its "who takes" was announced."""

    card: Card
    announced: bool = True


@dataclass(slots=True)
class RoundRecord:
    """A parsed, checked round record."""

    rules: Rules
    players: list[str]
    chips: list[int]
    board: list[int]
    dealer: int
    hands: list[list[Card]]
    talon: list[Card]
    moves: list[Move]

    def new_round(self) -> Round:
        """The round as dealt, stakes taken, no card played."""
        return Round(self.rules, self.chips, self.board, self.dealer, self.hands, self.talon)


@dataclass(slots=True)
class Replay:
    """A replayed round: the final state and every event, in order."""

    record: RoundRecord
    round: Round
    events: list[Event]

    @property
    def result(self) -> RoundResult | None:
        """The settlement, or None if the record stops before the round ended."""
        return self.round.result


def _card(value: Any, where: str) -> Card:
    try:
        return parse_card(value)
    except CardError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _int(value: Any, where: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise RecordError(f"{where} must be a whole number of at least {minimum}, not {value!r}")
    return value


def parse_round(data: Any) -> RoundRecord:
    """Check and read one round record; raise :class:`RecordError` naming the problem."""
    if not isinstance(data, dict):
        raise RecordError("a round record must be a JSON object")
    game = data.get("game", "nain-jaune")
    if game != "nain-jaune":
        raise RecordError(f"game is {game!r}, not 'nain-jaune'")
    for key in ("players", "hands", "talon", "moves"):
        if key not in data:
            raise RecordError(f"the record has no {key!r}")
    try:
        rules = Rules.from_json(data.get("rules"))
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RecordError(f"Nain Jaune is played by 2 to 8 players, the record names {n}")
    chips_raw = data.get("chips", [rules.starting_chips] * n)
    if not isinstance(chips_raw, list) or len(chips_raw) != n:
        raise RecordError(f"chips must be a list of {n} numbers, one per player")
    chips = [_int(c, f"chips[{i}]") for i, c in enumerate(chips_raw)]
    board_raw = data.get("board", {c.code: 0 for c in rules.board_cards})
    if not isinstance(board_raw, dict):
        raise RecordError('board must be an object from board card to chips, like {"10D": 0}')
    board_by_card: dict[Card, int] = {}
    for key, value in board_raw.items():
        card = _card(key, f"board key {key!r}")
        if card not in rules.board_cards:
            raise RecordError(f"board: {card.code} is not a board card under these rules")
        if card in board_by_card:
            raise RecordError(f"board: {card.code} is given twice")
        board_by_card[card] = _int(value, f"board[{key}]")
    missing = [c.code for c in rules.board_cards if c not in board_by_card]
    if missing:
        raise RecordError(f"board: no amount for {', '.join(missing)}")
    board = [board_by_card[c] for c in rules.board_cards]
    dealer = data.get("dealer", 0)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise RecordError(f"dealer must be a seat number from 0 to {n - 1}, not {dealer!r}")
    hands_raw = data["hands"]
    if not isinstance(hands_raw, list) or len(hands_raw) != n:
        raise RecordError(f"hands must be a list of {n} hands, one per player")
    hands: list[list[Card]] = []
    for seat, hand in enumerate(hands_raw):
        if not isinstance(hand, list):
            raise RecordError(f"hands[{seat}] must be a list of cards")
        hands.append([_card(c, f"hands[{seat}]") for c in hand])
    if not isinstance(data["talon"], list):
        raise RecordError("talon must be a list of cards")
    talon = [_card(c, "talon") for c in data["talon"]]
    moves_raw = data["moves"]
    if not isinstance(moves_raw, list):
        raise RecordError("moves must be a list of cards")
    moves: list[Move] = []
    for i, move in enumerate(moves_raw, start=1):
        if isinstance(move, dict):
            unknown = set(move) - {"card", "announced"}
            if unknown or "card" not in move:
                raise RecordError(
                    f'move {i}: write a card, or {{"card": ..., "announced": false}}', i
                )
            announced = move.get("announced", True)
            if not isinstance(announced, bool):
                raise RecordError(f"move {i}: announced must be true or false", i)
            moves.append(Move(_card(move["card"], f"move {i}"), announced))
        else:
            moves.append(Move(_card(move, f"move {i}")))
    record = RoundRecord(rules, list(players), chips, board, dealer, hands, talon, moves)
    try:
        record.new_round()
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    return record


def replay_round(record: RoundRecord) -> Replay:
    """Play a record's moves; raise :class:`RecordError` naming the first illegal move."""
    rnd = record.new_round()
    events: list[Event] = list(rnd.events)
    holder = {card: seat for seat, hand in enumerate(rnd.hands) for card in hand}
    talon = set(record.talon)
    played: set[Card] = set()
    for number, move in enumerate(record.moves, start=1):
        card = move.card
        where = f"move {number} ({card.code})"
        if rnd.over:
            raise RecordError(f"{where}: the round is already over", number)
        if card in played:
            raise RecordError(f"{where}: this card was already played", number)
        if card in talon:
            raise RecordError(f"{where}: this card is in the talon, nobody holds it", number)
        seat = holder[card]
        if not move.announced and rnd.board_box(card) is None:
            raise RecordError(f"{where}: only a board card can go unannounced", number)
        for _ in range(14 * rnd.n + 1):
            if rnd.to_act == seat and rnd.why_illegal(Play(card)) is None:
                break
            if rnd.why_illegal(PASS) is not None:
                why = rnd.why_illegal(Play(card)) if rnd.to_act == seat else None
                reason = why or (
                    f"{record.players[rnd.to_act]} (seat {rnd.to_act}) must play now"
                    + (f": he holds a {_rank(rnd.need)}" if rnd.need is not None else "")
                )
                raise RecordError(f"{where} by seat {seat} is illegal: {reason}", number)
            events.extend(rnd.apply(PASS))
        else:
            raise RecordError(f"{where}: this card can never be played here", number)
        try:
            if rnd.rules.announce == "manual" and move.announced:
                events.extend(rnd.apply(Play(card)))
                if rnd.pending_claim is card:
                    events.extend(rnd.apply(CLAIM))
            else:
                events.extend(rnd.apply(Play(card, forget=not move.announced)))
        except IllegalAction as exc:
            raise RecordError(f"{where}: {exc.reason}", number) from None
        played.add(card)
    return Replay(record, rnd, events)


def _rank(rank: int | None) -> str:
    return Rank(rank).label if rank is not None else "card"


def result_json(rep: Replay) -> dict[str, Any]:
    """The replay result: ``winner``, ``grand_opera``, ``chips``, ``board``, ``next_dealer``."""
    rnd = rep.round
    res = rnd.result
    board_cards = rnd.rules.board_cards
    return {
        "finished": res is not None,
        "winner": res.winner if res else None,
        "winner_name": rep.record.players[res.winner] if res else None,
        "grand_opera": res.grand_opera if res else False,
        "chips": list(rnd.chips),
        "board": {c.code: v for c, v in zip(board_cards, rnd.board, strict=True)},
        "next_dealer": res.next_dealer if res else None,
        "short": list(res.short) if res else [],
        "cards_played": len(rnd.played),
    }


def parse_game(data: Any) -> list[RoundRecord]:
    """Read a whole-game record (a list of rounds) or a single round (a list of one)."""
    if isinstance(data, dict):
        return [parse_round(data)]
    if not isinstance(data, list) or not data:
        raise RecordError("a game record is a non-empty list of round records")
    out = []
    for i, item in enumerate(data, start=1):
        try:
            out.append(parse_round(item))
        except RecordError as exc:
            raise RecordError(str(exc), exc.move, i) from None
    return out


def replay_game(rounds: Sequence[RoundRecord]) -> list[Replay]:
    """Replay each round and check that each one starts where the one before ended."""
    replays: list[Replay] = []
    for i, record in enumerate(rounds, start=1):
        if replays:
            _check_continuity(replays[-1], record, i)
        try:
            replays.append(replay_round(record))
        except RecordError as exc:
            raise RecordError(str(exc), exc.move, i if len(rounds) > 1 else None) from None
    return replays


def _check_continuity(prev: Replay, record: RoundRecord, number: int) -> None:
    res = prev.result
    if res is None:
        raise RecordError("the round before this one never ended", round_no=number)
    before = dict(zip(prev.record.players, res.chips, strict=True))
    for name, chips in zip(record.players, record.chips, strict=True):
        if name not in before:
            raise RecordError(f"{name!r} did not play the round before", round_no=number)
        if before[name] != chips:
            raise RecordError(
                f"{name} starts with {chips} chips but ended the round before with {before[name]}",
                round_no=number,
            )
    if list(res.board) != record.board:
        raise RecordError(
            f"the board {record.board} is not what the round before left: {list(res.board)}",
            round_no=number,
        )
    dealer_name = prev.record.players[res.next_dealer]
    if dealer_name in record.players and record.players[record.dealer] != dealer_name:
        raise RecordError(
            f"the dealer should be {dealer_name}, who placed the first card of the round before",
            round_no=number,
        )
