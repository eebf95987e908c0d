"""Round records (the public JSON contract) and their replay.

A round record holds the rules, the players, the chips and board before the stakes, the dealer,
the deal and every card played in order (a forgotten announcement as
``{"card": "QS", "announced": false}``, a voluntary "without" under ``may_stop`` as ``"pass"``).
A whole game is a JSON list of round records. Who played each card follows from the deal (every
card has one holder) and the forced passes between two cards follow from the rules, so the moves
list is all a replay needs. Records written before ``"pass"`` existed still read: a player to
act who holds the rank but is not the next card's holder is then taken to have stopped.

A whole game is replayed through :class:`~cardroom.games.nain_jaune.engine.Game`, the code that
runs play, so its end condition, who drops out, who deals and the chips carried over are checked
by the same rules as in play.

One concern: the Nain Jaune record format, read (every field checked, each refusal a
:class:`RecordError` with a Message) and replayed through the engine, a round and a whole game.
The parser and the replay share the record's types and the refusal helpers, and an old
record's reading (``"pass"``) lives in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardroom.cards import Card, CardError, Rank, parse_card
from cardroom.games.errors import RecordError as BaseRecordError
from cardroom.games.errors import RulesError
from cardroom.games.messages import Message, message_of
from cardroom.games.nain_jaune.engine import (
    CLAIM,
    PASS,
    Event,
    Game,
    GameOver,
    GameResult,
    IllegalAction,
    Play,
    Round,
    RoundResult,
)
from cardroom.games.nain_jaune.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULES_VERSION,
    STAKE_PER_ROUND,
    Rules,
)
from cardroom.games.nain_jaune.settlement import breakdown
from cardroom.games.records import (
    MAX_COUNT,
    brief,
    get_bool,
    get_int,
    get_list,
    get_names,
    placed,
    read_version,
    shown,
)


class RecordError(BaseRecordError):
    """A record is malformed or holds an illegal move; the message says which and why.

    ``message`` is a :class:`~cardroom.games.messages.Message` (see the base class); the round
    of a whole game is not glued to it but kept as a field: ``rec.in-round`` (``round 2: …``)
    with ``round`` and the inner message as ``detail``. ``detail`` is the inner message, for a
    re-raise with another round number.
    """

    def __init__(self, message: str, move: int | None = None, round_no: int | None = None):
        if round_no is not None:
            super().__init__(placed("rec.in-round", f"round {round_no}: ", message, round=round_no))
        else:
            super().__init__(message)
        self.detail = message
        self.move = move
        self.round_no = round_no


PASS_MOVE = "pass"
"""A voluntary "without" in ``moves`` (``may_stop``: the player to act holds the rank)."""
MAX_MOVES = 2000
"""More entries than any round can hold (52 cards and the voluntary passes between them)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One recorded card and whether its "who takes" was announced; ``card=None`` is a
    voluntary "without" (``"pass"``)."""

    card: Card | None
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
    rules_version: int = RULES_VERSION
    """The version of the rules the round was played under (the record's ``version``)."""

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


@dataclass(slots=True)
class GameReplay:
    """A replayed whole game: its rounds and the game as they leave it."""

    replays: list[Replay]
    game: Game

    @property
    def result(self) -> GameResult | None:
        """How the game ended, or None if the record stops before it did."""
        return self.game.result


def _field(path: str) -> Message:
    """Where in the record: a JSON path (``hands[1]``), the person's own key."""
    return Message("rec.at-field", path, field=path)


def _at_move(i: int) -> Message:
    """Where in the record: entry ``i`` of ``moves`` (from 1)."""
    return Message("rec.nj.at-move", f"move {i}", move=i)


def _card(value: Any, where: Message) -> Card:
    if not isinstance(value, str) or len(value) > 8:
        raise RecordError(
            Message(
                "rec.nj.not-a-card",
                f"{where}: {brief(value)} is not a card (write it like 10D or QS)",
                at=where,
                value=shown(value),
            )
        )
    try:
        return parse_card(value)
    except CardError as exc:
        raise RecordError(
            Message("rec.nj.card", f"{where}: {exc}", at=where, detail=message_of(exc))
        ) from None
    except (TypeError, ValueError):
        raise RecordError(
            Message(
                "rec.nj.bad-card", f"{where}: {brief(value)} is not a card", at=where,
                value=shown(value),
            )
        ) from None  # fmt: skip


def _cards(value: Any, where: str) -> list[Card]:
    return [_card(c, _field(where)) for c in get_list(value, where, 52)]


def parse_round(data: Any) -> RoundRecord:
    """Check and read one round record; raise :class:`RecordError` naming the problem."""
    try:
        return _parse_round(data)
    except RecordError:
        raise
    except BaseRecordError as exc:  # from a shared field reader: its message and id kept
        raise RecordError(exc.message) from None


def _parse_round(data: Any) -> RoundRecord:
    if not isinstance(data, dict):
        raise RecordError(Message("rec.nj.not-object", "a round record must be a JSON object"))
    game = data.get("game", "nain-jaune")
    if game != "nain-jaune":
        raise RecordError(
            Message(
                "rec.nj.other-game", f"game is {brief(game)}, not 'nain-jaune'", value=shown(game)
            )
        )
    for key in ("players", "hands", "talon", "moves"):
        if key not in data:
            raise RecordError(Message("rec.no-key", f"the record has no {key!r}", field=key))
    version = read_version(data, "Nain Jaune", RULES_VERSION)
    try:
        rules = Rules.from_json(data.get("rules"))
    except RulesError as exc:
        raise RecordError(
            Message("rec.nj.rules", f"rules: {exc}", reason=exc.message)
        ) from None  # the rules' message keeps its id
    raw_players = data["players"]
    if isinstance(raw_players, list) and not MIN_PLAYERS <= len(raw_players) <= MAX_PLAYERS:
        raise RecordError(
            Message(
                "rec.nj.players",
                f"Nain Jaune is played by 2 to 8 players, the record names {len(raw_players)}",
                count=len(raw_players),
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
            )
        )
    players = get_names(raw_players, (MIN_PLAYERS, MAX_PLAYERS))
    n = len(players)
    chips_raw = get_list(data.get("chips", [rules.starting_chips] * n), "chips", n)
    if len(chips_raw) != n:
        raise RecordError(
            Message(
                "rec.nj.chips-count", f"chips must be a list of {n} numbers, one per player", n=n
            )
        )
    chips = [get_int(c, f"chips[{i}]", 0, MAX_COUNT) for i, c in enumerate(chips_raw)]
    board_raw = data.get("board", {c.code: 0 for c in rules.board_cards})
    if not isinstance(board_raw, dict) or len(board_raw) > 5:
        raise RecordError(
            Message(
                "rec.nj.board-object",
                'board must be an object from board card to chips, like {"10D": 0}',
            )
        )
    board_by_card: dict[Card, int] = {}
    for key, value in board_raw.items():
        at_key = Message("rec.nj.at-board-key", f"board key {brief(key)}", value=shown(key))
        card = _card(key, at_key)
        if card not in rules.board_cards:
            raise RecordError(
                Message(
                    "rec.nj.board-not-box",
                    f"board: {card.code} is not a board card under these rules",
                    card=card,
                )
            )
        if card in board_by_card:
            raise RecordError(
                Message("rec.nj.board-twice", f"board: {card.code} is given twice", card=card)
            )
        board_by_card[card] = get_int(value, f"board[{card.code}]", 0, MAX_COUNT)
    missing = [c for c in rules.board_cards if c not in board_by_card]
    if missing:
        codes = ", ".join(c.code for c in missing)
        raise RecordError(  # the words name the first card missing (the English, every one)
            Message("rec.nj.board-missing", f"board: no amount for {codes}", card=missing[0])
        )
    board = [board_by_card[c] for c in rules.board_cards]
    dealer = data.get("dealer", 0)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise RecordError(
            Message(
                "rec.nj.dealer",
                f"dealer must be a seat number from 0 to {n - 1}, not {brief(dealer)}",
                most=n - 1,
                value=shown(dealer),
            )
        )
    hands_raw = get_list(data["hands"], "hands", n)
    if len(hands_raw) != n:
        raise RecordError(
            Message("rec.nj.hands-count", f"hands must be a list of {n} hands, one per player", n=n)
        )
    hands = [_cards(hand, f"hands[{seat}]") for seat, hand in enumerate(hands_raw)]
    talon = _cards(data["talon"], "talon")
    moves_raw = get_list(data["moves"], "moves", MAX_MOVES)
    moves = [_move(move, i) for i, move in enumerate(moves_raw, start=1)]
    record = RoundRecord(
        rules, list(players), chips, board, dealer, hands, talon, moves, version.rules
    )
    try:
        record.new_round()
    except RulesError as exc:
        raise RecordError(exc.message) from None  # the engine's message keeps its id
    return record


def _move(move: Any, i: int) -> Move:
    if move == PASS_MOVE:
        return Move(None)
    if isinstance(move, dict):
        unknown = set(move) - {"card", "announced"}
        if unknown or "card" not in move:
            raise RecordError(
                Message(
                    "rec.nj.move-shape",
                    f'move {i}: write a card, or {{"card": ..., "announced": false}}',
                    move=i,
                ),
                i,
            )
        try:
            announced = get_bool(move.get("announced", True), "announced")
        except BaseRecordError as exc:
            raise RecordError(
                placed("rec.nj.in-move", f"move {i}: ", exc.message, move=i), i
            ) from None
        return Move(_card(move["card"], _at_move(i)), announced)
    return Move(_card(move, _at_move(i)))


def _move_error(number: int, card: Card, id: str, text: str, **fields: Any) -> RecordError:
    """The error of move ``number`` (``card``): "move 12 (QS): …" in English, the move and the
    card as fields of message ``id``."""
    where = f"move {number} ({card.code})"
    return RecordError(Message(id, f"{where}: {text}", move=number, card=card, **fields), number)


def replay_round(record: RoundRecord, rnd: Round | None = None) -> Replay:
    """Play a record's moves (on ``rnd``, the round as dealt, if given); raise
    :class:`RecordError` naming the first illegal move. A round alone (no ``rnd``) is checked
    as a game would start it: under ``broke`` or ``last-standing`` every player listed can
    stake (one who cannot would have ended the game or dropped out)."""
    if rnd is None:
        _check_stakes(record, None)
        rnd = record.new_round()
    events: list[Event] = list(rnd.events)
    holder = {card: seat for seat, hand in enumerate(rnd.hands) for card in hand}
    talon = set(record.talon)
    played: set[Card] = set()
    for number, move in enumerate(record.moves, start=1):
        if move.card is None:
            events.extend(_voluntary_pass(rnd, record, number))
            continue
        card = move.card
        where = f"move {number} ({card.code})"
        if rnd.over:
            raise _move_error(number, card, "rec.nj.over", "the round is already over")
        if card in played:
            raise _move_error(number, card, "rec.nj.played-twice", "this card was already played")
        if card in talon:
            raise _move_error(
                number, card, "rec.nj.in-talon", "this card is in the talon, nobody holds it"
            )
        seat = holder[card]
        if not move.announced and rnd.board_box(card) is None:
            raise _move_error(
                number, card, "rec.nj.unannounced", "only a board card can go unannounced"
            )
        if not move.announced and rnd.rules.announce == "auto":
            raise _move_error(
                number,
                card,
                "rec.nj.auto-announce",
                "with announce=auto every board card is announced, none is forgotten",
            )
        for _ in range(14 * rnd.n + 1):
            if rnd.to_act == seat and rnd.why_illegal(Play(card)) is None:
                break
            if rnd.why_illegal(PASS) is not None:
                why = rnd.why_illegal(Play(card)) if rnd.to_act == seat else None
                name = record.players[rnd.to_act]
                reason = why or (
                    f"{name} (seat {rnd.to_act}) must play now"
                    + (f": he holds a {_rank(rnd.need)}" if rnd.need is not None else "")
                )
                text = f"{where} by seat {seat} is illegal: {reason}"
                if why is not None:  # the engine's reason, its id kept
                    raise RecordError(
                        Message(
                            "rec.nj.illegal-by", text, move=number, card=card, seat=seat,
                            reason=why,
                        ),
                        number,
                    )  # fmt: skip
                other = {"move": number, "card": card, "seat": seat, "name": name}
                if rnd.need is not None:
                    raise RecordError(
                        Message(
                            "rec.nj.other-holds", text, **other, other=rnd.to_act, rank=rnd.need
                        ),
                        number,
                    )
                raise RecordError(
                    Message("rec.nj.other-must-play", text, **other, other=rnd.to_act), number
                )
            events.extend(rnd.apply(PASS))
        else:
            raise _move_error(
                number, card, "rec.nj.never-playable", "this card can never be played here"
            )
        try:
            if rnd.rules.announce == "manual":
                # as in play: an unclaimed box lapses with the next action (the last card's
                # with a pass that ends the round)
                events.extend(rnd.apply(Play(card)))
                if rnd.pending_claim is card and move.announced:
                    events.extend(rnd.apply(CLAIM))
                elif rnd.pending_claim is card and rnd.awaiting_final_claim:
                    events.extend(rnd.apply(PASS))
            else:
                events.extend(rnd.apply(Play(card, forget=not move.announced)))
        except IllegalAction as exc:  # the engine's reason, its id kept
            raise _move_error(
                number, card, "rec.nj.illegal", f"{exc.reason}", reason=exc.reason
            ) from None
        played.add(card)
    return Replay(record, rnd, events)


def _voluntary_pass(rnd: Round, record: RoundRecord, number: int) -> list[Event]:
    """A recorded "pass": the forced passes before it, then the first player holding the rank
    declines to play it (only ``may_stop`` allows that)."""
    where = f"move {number} (pass)"
    if rnd.over:
        raise RecordError(
            Message("rec.nj.pass-over", f"{where}: the round is already over", move=number),
            number,
        )
    if not rnd.rules.may_stop:
        raise RecordError(
            Message(
                "rec.nj.pass-not-allowed",
                f"{where}: only with may_stop=true may a player stop",
                move=number,
            ),
            number,
        )
    events: list[Event] = []
    for _ in range(14 * rnd.n + 1):  # forced passes, through "nobody has …" cascades
        if rnd.need is None or rnd.awaiting_final_claim:
            break
        if any(c.rank == rnd.need for c in rnd.hands[rnd.to_act]):
            break
        events.extend(rnd.apply(PASS))
    if rnd.need is None or rnd.awaiting_final_claim:
        name = record.players[rnd.to_act]
        who = f"{name} (seat {rnd.to_act})"
        raise RecordError(
            Message(
                "rec.nj.pass-no-rank",
                f"{where}: {who} must play a card now, there is no rank to pass",
                move=number,
                name=name,
                seat=rnd.to_act,
            ),
            number,
        )
    events.extend(rnd.apply(PASS))
    return events


def _rank(rank: int | None) -> str:
    return Rank(rank).label if rank is not None else "card"


def result_json(rep: Replay) -> dict[str, Any]:
    """The replay result: ``winner``, ``grand_opera``, ``chips``, ``board``, ``next_dealer``,
    ``settlement`` (per player: stake, taken, cards, doubled, grand_opera, total)."""
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
        "settlement": [row.to_json() for row in breakdown(rnd.events, rnd.n)] if res else [],
    }


def game_json(rep: GameReplay) -> dict[str, Any]:
    """How the whole game ended: ``over``, ``reason``, ``winners`` (seats of the game, which
    are the first round's), ``winner_names``, ``players``, ``chips`` and ``rounds_played``."""
    game = rep.game
    res = game.result
    return {
        "over": res is not None,
        "reason": res.reason if res else None,
        "winners": list(res.winners) if res else [],
        "winner_names": [game.names[s] for s in res.winners] if res else [],
        "players": list(game.names),
        "chips": list(game.chips),
        "rounds_played": game.rounds_played,
        "still_in": list(game.active),
    }


_NOT_A_GAME = Message("rec.nj.not-a-game", "a game record is a non-empty list of round records")


def parse_game(data: Any) -> list[RoundRecord]:
    """Read a whole-game record (a list of rounds) or a single round (a list of one)."""
    if isinstance(data, dict):
        return [parse_round(data)]
    if not isinstance(data, list) or not data:
        raise RecordError(_NOT_A_GAME)
    out = []
    for i, item in enumerate(data, start=1):
        try:
            out.append(parse_round(item))
        except RecordError as exc:
            raise RecordError(exc.detail, exc.move, i) from None
    return out


def replay_game(rounds: Sequence[RoundRecord]) -> list[Replay]:
    """Replay each round and check that each one starts where the game left it."""
    return replay_whole_game(rounds).replays


def replay_whole_game(rounds: Sequence[RoundRecord]) -> GameReplay:
    """Replay a game's rounds through :class:`Game`: each round must start where the game
    left it (the same rules, the players still in, their chips, the board, the next dealer)
    and none may follow the game's end; raise :class:`RecordError` naming the round."""
    if not rounds:
        raise RecordError(_NOT_A_GAME)
    first = rounds[0]
    several = len(rounds) > 1
    try:
        game = Game(first.rules, list(first.players), list(first.chips), list(first.board))
        game.dealer = first.dealer
    except RulesError as exc:  # the engine's message keeps its id
        raise RecordError(exc.message, round_no=1 if several else None) from None
    replays: list[Replay] = []
    for number, record in enumerate(rounds, start=1):
        label = number if several else None
        if number > 1:
            _check_continuity(game, record, number)
        _check_stakes(record, label)
        try:
            rnd = game.start_round(deal=(record.hands, record.talon))
            replays.append(replay_round(record, rnd))
        except RecordError as exc:
            raise RecordError(exc.detail, exc.move, label) from None
        except RulesError as exc:  # the engine's message keeps its id
            raise RecordError(exc.message, round_no=label) from None
        except GameOver as exc:  # the engine says it in English only: words of its own here
            raise RecordError(Message("rec.nj.no-more-rounds", str(exc)), round_no=label) from None
        if rnd.result is not None:
            game.finish_round()
        elif number < len(rounds):
            raise RecordError(
                Message("rec.nj.round-unfinished", "this round never ended, yet another follows"),
                round_no=number,
            )
    return GameReplay(replays, game)


def _check_stakes(record: RoundRecord, number: int | None) -> None:
    end = record.rules.end
    if end.kind not in ("broke", "last-standing"):
        return
    for name, chips in zip(record.players, record.chips, strict=True):
        if chips < STAKE_PER_ROUND:
            rule = "the game ends" if end.kind == "broke" else "he drops out"
            raise RecordError(
                Message(
                    "rec.nj.broke-ends" if end.kind == "broke" else "rec.nj.broke-drops",
                    f"{name} has {chips} chips and cannot stake {STAKE_PER_ROUND}: under "
                    f"end={end}, {rule} before this round",
                    name=name,
                    n=chips,
                    stake=STAKE_PER_ROUND,
                ),
                round_no=number,
            )


def _check_continuity(game: Game, record: RoundRecord, number: int) -> None:
    def fail(id: str, text: str, **fields: Any) -> RecordError:
        return RecordError(Message(id, text, **fields), round_no=number)

    if game.result is not None:
        raise fail(
            "rec.nj.after-end",
            f"the game ended after round {number - 1} ({game.result.reason}, end={game.rules.end})"
            ": no round may follow",
            last=number - 1,
            reason=game.result.reason,
        )
    if record.rules != game.rules:
        raise fail(
            "rec.nj.rules-changed",
            "the rules differ from the first round's: they cannot change during a game",
        )
    seats = game.active
    expected = [game.names[s] for s in seats]
    if record.players != expected:
        gone = [game.names[s] for s in range(len(game.names)) if s not in seats]
        out = f" ({', '.join(gone)} dropped out)" if gone else ""
        text = f"the players should be {', '.join(expected)}{out}, not {', '.join(record.players)}"
        names = {"expected": ", ".join(expected), "given": ", ".join(record.players)}
        if gone:
            raise fail("rec.nj.players-gone", text, gone=", ".join(gone), **names)
        raise fail("rec.nj.players-changed", text, **names)
    for seat, chips in zip(seats, record.chips, strict=True):
        if game.chips[seat] != chips:
            raise fail(
                "rec.nj.chips-changed",
                f"{game.names[seat]} starts with {chips} chips but ended the round before "
                f"with {game.chips[seat]}",
                name=game.names[seat],
                n=chips,
                before=game.chips[seat],
            )
    if list(game.board) != record.board:
        raise fail(
            "rec.nj.board-changed",
            f"the board {record.board} is not what the round before left: {game.board}",
            given=shown(record.board),
            before=shown(list(game.board)),
        )
    dealer = seats.index(game.dealer)
    if record.dealer != dealer:
        raise fail(
            "rec.nj.dealer-changed",
            f"the dealer should be {game.names[game.dealer]} (seat {dealer}), the next player "
            "still in after the one who placed the first card of the round before",
            name=game.names[game.dealer],
            seat=dealer,
        )
