"""The replay viewer's frames: a record played step by step by the engine, every hand face up.

The page never re-implements the rules: it shows the steps computed here, one per action
(each card and each "without"), plus the settlement of each round.
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
    parse_game,
    replay_game,
    result_json,
)
from cardroom.games.nain_jaune.rules import STAKE_PER_ROUND
from cardroom.i18n.words import engine_event_text, rules_note, stakes_text

__all__ = ["RecordError", "replay_frames"]


def replay_frames(data: Any, lang: str = "en") -> dict[str, Any]:
    """Check and replay a parsed JSON record (a game or one round) and return its frames, with
    ``rules_notes``: the line saying which earlier rules it was played under, if any.

    Raises :class:`RecordError` (the engine's message) for a malformed record or illegal move.
    """
    replays = replay_game(parse_game(data))
    rounds = [_round_frames(rep, number, lang) for number, rep in enumerate(replays, start=1)]
    notes = {rules_note("nain-jaune", rep.record.rules_version, lang) for rep in replays}
    return {
        "players": list(replays[0].record.players),
        "rounds": rounds,
        "rules_notes": sorted(n for n in notes if n is not None),
    }


def _round_frames(rep: Replay, number: int, lang: str = "en") -> dict[str, Any]:
    record = rep.record
    names = record.players
    rnd = record.new_round()
    steps = [_step(rnd, _texts(rnd.events, names, lang))]
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
    result = result_json(rep)
    settlement: dict[str, Any] | None = None
    res = rep.result
    if res is not None:
        settlement = {
            **result,
            "rows": [
                {
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
            out.append(engine_event_text(event, names, lang))
    if stakes:
        out.insert(0, stakes_text(stakes, names.__getitem__, STAKE_PER_ROUND, lang))
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
        "played": [[seat, card.code] for seat, card in rnd.played],
        "text": text,
    }
