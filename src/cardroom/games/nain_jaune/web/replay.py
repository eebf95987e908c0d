"""Nain Jaune's replay frames: a record played step by step by the engine, every hand face up.

The page never re-implements the rules: it shows the steps computed here, one per action
(each card and each "without"), plus the settlement of each round. The web layer reaches this
through the game's face (``checked`` and ``page``, see :mod:`cardroom.web.faces`).
"""

from __future__ import annotations

from typing import Any

from cardroom.games.nain_jaune.engine import (
    CLAIM,
    PASS,
    CardPlayed,
    Event,
    FreeSequence,
    OutOfCards,
    Play,
    Round,
    Staked,
)
from cardroom.games.nain_jaune.record import (
    RecordError,
    Replay,
    RoundRecord,
    parse_game,
    replay_game,
    replay_round,
    result_json,
)
from cardroom.games.nain_jaune.rules import STAKE_PER_ROUND
from cardroom.games.nain_jaune.settlement import breakdown
from cardroom.i18n import translator
from cardroom.i18n.names import shown_name, shown_names
from cardroom.i18n.words import engine_event_text, rules_note, stakes_text
from cardroom.web.replay_frames import ReplayTooLarge

__all__ = [
    "RecordError",
    "checked",
    "checked_rounds",
    "page",
    "page_frames",
    "replay_frames",
    "rounds_page",
]

NAME = "nain-jaune"
"""The game's name in its records and frames."""


def replay_frames(
    data: Any, lang: str = "en", max_rounds: int | None = None, max_steps: int | None = None
) -> dict[str, Any]:
    """Check and replay a parsed JSON record (a game or one round) and return its frames, with
    ``rules_notes``: the line saying which earlier rules it was played under, if any.

    Raises :class:`RecordError` (the engine's message) for a malformed record or illegal move,
    :class:`ReplayTooLarge` past ``max_rounds`` rounds (before anything is replayed) or
    ``max_steps`` steps (as soon as they are reached).
    """
    if max_rounds is not None and isinstance(data, list) and len(data) > max_rounds:
        checked_rounds(data, max_rounds)  # (raises ReplayTooLarge)
    replays = replay_game(parse_game(data))
    return page_frames(replays, 0, len(replays), lang, max_steps)


def checked_rounds(data: Any, max_rounds: int | None = None) -> list[RoundRecord]:
    """The rounds of a record, checked by the engine as a whole game (the costly part, done once
    per record; what is kept is the parsed rounds, a page is replayed from them again);
    :class:`ReplayTooLarge` past ``max_rounds`` rounds, before anything is replayed."""
    if max_rounds is not None and isinstance(data, list) and len(data) > max_rounds:
        raise ReplayTooLarge("bounds.replay-rounds", n=len(data), most=max_rounds)
    rounds = parse_game(data)
    replay_game(rounds)
    return rounds


def checked(data: Any, max_rounds: int | None = None) -> list[RoundRecord]:
    """The face's replay check (:func:`checked_rounds`)."""
    return checked_rounds(data, max_rounds)


def page(
    rounds: list[RoundRecord],
    first: int,
    count: int,
    lang: str = "en",
    max_steps: int | None = None,
) -> dict[str, Any]:
    """The face's replay page (:func:`rounds_page`)."""
    return rounds_page(rounds, first, count, lang, max_steps)


def rounds_page(
    rounds: list[RoundRecord],
    first: int,
    count: int,
    lang: str = "en",
    max_steps: int | None = None,
) -> dict[str, Any]:
    """The frames of rounds ``first`` to ``first + count - 1`` (0-based) of checked rounds,
    each replayed again from its record (a round starts from its record's deal and chips)."""
    chosen = [replay_round(record) for record in rounds[first : first + count]]
    return _frames(chosen, first, rounds, lang, max_steps)


def page_frames(
    replays: list[Replay], first: int, count: int, lang: str = "en", max_steps: int | None = None
) -> dict[str, Any]:
    """The frames of rounds ``first`` to ``first + count - 1`` (0-based) of replayed rounds;
    :class:`ReplayTooLarge` as soon as they reach ``max_steps`` steps."""
    records = [rep.record for rep in replays]
    return _frames(replays[first : first + count], first, records, lang, max_steps)


def _frames(
    chosen: list[Replay],
    first: int,
    records: list[RoundRecord],
    lang: str,
    max_steps: int | None,
) -> dict[str, Any]:
    budget = _Budget(max_steps)
    frames = [
        _round_frames(rep, number, lang, budget)
        for number, rep in enumerate(chosen, start=first + 1)
    ]
    tr = translator(lang)
    notes = {rules_note(NAME, v, tr) for v in {r.rules_version for r in records}}
    return {
        "game": NAME,
        "players": shown_names(records[0].players, tr),
        "rounds": frames,
        "rules_notes": sorted(n for n in notes if n is not None),
    }


class _Budget:
    """The steps a replay may still compute (None: no bound)."""

    def __init__(self, most: int | None) -> None:
        self.most = most
        self.spent = 0

    def spend(self, steps: int = 1) -> None:
        self.spent += steps
        if self.most is not None and self.spent > self.most:
            raise ReplayTooLarge("bounds.replay-steps", most=self.most)


def _round_frames(
    rep: Replay, number: int, lang: str = "en", budget: _Budget | None = None
) -> dict[str, Any]:
    record = rep.record
    names = shown_names(record.players, translator(lang))
    rnd = record.new_round()
    steps = [_step(rnd, _texts(rnd.events, names, lang))]
    counted = 0
    holder = {card: seat for seat, hand in enumerate(rnd.hands) for card in hand}
    # the record was checked by replay_game: every move below is legal, passes included
    for move in record.moves:
        card = move.card
        if card is None:  # a voluntary "without" (may_stop): the forced passes, then it
            while not rnd.awaiting_final_claim and rnd.need is not None and not any(
                c.rank == rnd.need for c in rnd.hands[rnd.to_act]
            ):
                steps.append(_step(rnd, _texts(rnd.apply(PASS), names, lang)))
            steps.append(_step(rnd, _texts(rnd.apply(PASS), names, lang)))
            continue
        seat = holder[card]
        while not (rnd.to_act == seat and rnd.why_illegal(Play(card)) is None):
            steps.append(_step(rnd, _texts(rnd.apply(PASS), names, lang)))
        events = rnd.apply(Play(card, forget=not move.announced))
        if rnd.rules.announce == "manual" and move.announced and rnd.pending_claim is card:
            events += rnd.apply(CLAIM)
        steps.append(_step(rnd, _texts(events, names, lang)))
        if budget is not None:  # the passes before it too
            budget.spend(len(steps) - counted)
            counted = len(steps)
    if budget is not None:
        budget.spend(len(steps) - counted)
    result = result_json(rep)
    if isinstance(result.get("winner_name"), str):
        result["winner_name"] = shown_name(result["winner_name"], translator(lang))
    settlement: dict[str, Any] | None = None
    res = rep.result
    if res is not None:
        columns = breakdown(rep.round.events, len(names))  # the table's end-of-round columns
        settlement = {
            **result,
            "rows": [
                {
                    **columns[seat].to_json(),
                    "seat": seat,
                    "name": names[seat],
                    "paid": res.chips[seat] - record.chips[seat],
                    "chips": res.chips[seat],
                    "cards_left": len(rep.round.hands[seat]),
                }
                for seat in range(len(names))
            ],
        }
    return {
        "number": number,
        "players": list(names),
        "dealer": record.dealer,
        "rules": record.rules.to_json(),
        "board_cards": [c.code for c in record.rules.board_cards],
        "steps": steps,
        "settlement": settlement,
        "finished": res is not None,
    }


def _texts(events: list[Event], names: list[str], lang: str = "en") -> list[str]:
    stakes: dict[int, int] = {}
    out: list[str] = []
    for event in events:
        if isinstance(event, Staked):
            stakes[event.seat] = stakes.get(event.seat, 0) + event.amount
        else:
            out.append(engine_event_text(event, names, translator(lang)))
    if stakes:
        out.insert(0, stakes_text(stakes, names.__getitem__, STAKE_PER_ROUND, translator(lang)))
    return out


def _sequence(rnd: Round) -> list[str]:
    cards: list[str] = []
    for event in reversed(rnd.events):
        if isinstance(event, FreeSequence | OutOfCards):
            break
        if isinstance(event, CardPlayed):
            cards.append(event.card.code)
    cards.reverse()
    return cards


def _step(rnd: Round, text: list[str]) -> dict[str, Any]:
    return {
        "hands": [[c.code for c in hand] for hand in rnd.hands],
        "board": [
            {"card": c.code, "chips": v}
            for c, v in zip(rnd.rules.board_cards, rnd.board, strict=True)
        ],
        "chips": list(rnd.chips),
        "sequence": _sequence(rnd),
        "to_act": rnd.current_player,
        "need": rnd.need,
        "text": text,
    }
