"""Nain Jaune as text lines: the replay account, the plain mode and the log of the Textual UI."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import fields

from cardroom.cards import Card, Rank
from cardroom.games.nain_jaune.engine import (
    CardPlayed,
    Event,
    FreeSequence,
    GameResult,
    OutOfCards,
    RoundResult,
    Staked,
    Without,
)
from cardroom.games.nain_jaune.record import Replay
from cardroom.games.nain_jaune.rules import PRESETS, STAKE_PER_ROUND, Rules
from cardroom.games.nain_jaune.view import RoundView


def rank_name(rank: int) -> str:
    """``ace``, ``2`` … ``10``, ``jack``, ``queen``, ``king``."""
    return Rank(rank).label


def cards_text(cards: Iterable[Card]) -> str:
    """Cards with suit symbols, separated by spaces (``3♣ 4♦ 5♠``)."""
    return " ".join(c.pretty for c in cards)


def board_text(board_cards: Sequence[Card], board: Sequence[int]) -> str:
    """The five boxes and their chips: ``10♦ 3 · J♣ 6 · Q♠ 9 · K♥ 12 · 7♦ 15``."""
    return " · ".join(f"{c.pretty} {v}" for c, v in zip(board_cards, board, strict=True))


def chips_text(names: Sequence[str], chips: Sequence[int]) -> str:
    """``Ann 60 · Bob 45``."""
    return " · ".join(f"{n} {c}" for n, c in zip(names, chips, strict=True))


def rules_text(rules: Rules) -> str:
    """The preset the rules are closest to, and every option that differs from it."""
    mine = rules.to_json()
    best_name, best_diff = "", list(mine)
    for name, preset in PRESETS.items():
        theirs = preset.to_json()
        diff = [f.name for f in fields(Rules) if mine[f.name] != theirs[f.name]]
        if len(diff) < len(best_diff):
            best_name, best_diff = name, diff
    extra = ", ".join(f"{k}={_option_value(mine[k])}" for k in best_diff)
    return f"{best_name} rules" + (f" with {extra}" if extra else "")


def _option_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def event_lines(events: Iterable[Event], names: Sequence[str]) -> Iterator[str]:
    """One line per event; the stakes are summed per player, the settlement indented."""
    stakes: dict[int, int] = {}
    settling = False
    for event in events:
        if isinstance(event, Staked):
            stakes[event.seat] = stakes.get(event.seat, 0) + event.amount
            continue
        if stakes:
            yield stakes_line(stakes, names)
            stakes = {}
        yield ("  " if settling else "") + event.describe(names)
        if isinstance(event, OutOfCards):
            settling = True
            yield "Settlement:"
    if stakes:
        yield stakes_line(stakes, names)


def stakes_line(stakes: dict[int, int], names: Sequence[str]) -> str:
    """``Stakes: 15 chips each`` or the amount of every player when someone ran short."""
    if all(v == STAKE_PER_ROUND for v in stakes.values()):
        return f"Stakes: {STAKE_PER_ROUND} chips each on the board"
    parts = [
        f"{names[s]} {v}" + ("" if v == STAKE_PER_ROUND else " (all he had)")
        for s, v in sorted(stakes.items())
    ]
    return "Stakes: " + ", ".join(parts)


def result_lines(result: RoundResult, rules: Rules, names: Sequence[str]) -> list[str]:
    """The outcome of a settled round."""
    opera = " with a grand opéra" if result.grand_opera else ""
    lines = [
        f"{names[result.winner]} wins the round{opera}.",
        f"Chips: {chips_text(names, result.chips)}",
        f"Board: {board_text(rules.board_cards, result.board)}",
        f"Next dealer: {names[result.next_dealer]}",
    ]
    if result.short:
        lines.insert(1, "Could not pay in full: " + ", ".join(names[s] for s in result.short))
    return lines


def game_over_lines(result: GameResult, names: Sequence[str]) -> list[str]:
    """The final standings, most chips first."""
    who = " and ".join(names[s] for s in result.winners)
    verb = "win" if len(result.winners) > 1 else "wins"
    lines = [f"Game over after {result.rounds} round(s) ({result.reason}): {who} {verb}."]
    order = sorted(range(len(names)), key=lambda s: (-result.chips[s], s))
    for place, seat in enumerate(order, start=1):
        lines.append(f"  {place}. {names[seat]}: {result.chips[seat]} chips")
    return lines


def replay_lines(replays: Sequence[Replay]) -> Iterator[str]:
    """A readable account of replayed rounds: every card, announcement and settlement line."""
    for number, rep in enumerate(replays, start=1):
        rec = rep.record
        names = rec.players
        if number > 1:
            yield ""
        heading = f"Round {number}" if len(replays) > 1 else "Round"
        yield f"{heading}: {', '.join(names)}; {names[rec.dealer]} deals; {rules_text(rec.rules)}"
        yield f"Chips: {chips_text(names, rec.chips)}"
        yield f"Board: {board_text(rec.rules.board_cards, rec.board)}"
        yield from event_lines(rep.events, names)
        res = rep.result
        if res is None:
            left = ", ".join(f"{n} {len(h)}" for n, h in zip(names, rep.round.hands, strict=True))
            yield f"The record stops here: the round was not finished (cards left: {left})."
            yield f"Chips: {chips_text(names, rep.round.chips)}"
            yield f"Board: {board_text(rec.rules.board_cards, rep.round.board)}"
        else:
            yield from result_lines(res, rec.rules, names)


def current_sequence(view: RoundView) -> tuple[list[tuple[int, Card]], list[int]]:
    """The cards of the sequence being played and the seats that said "without" the needed rank.

    A sequence starts at the round's first card and after every free new sequence.
    """
    cards: list[tuple[int, Card]] = []
    without: list[int] = []
    for event in reversed(view.events):
        if isinstance(event, FreeSequence | OutOfCards):
            break
        if isinstance(event, CardPlayed):
            cards.append((event.seat, event.card))
        elif isinstance(event, Without) and not cards and event.rank == view.need:
            without.append(event.seat)
    cards.reverse()
    without.reverse()
    return cards, without


def need_text(view: RoundView) -> str:
    """What must be played next: ``a 5`` or ``any card (new sequence)``."""
    if view.need is None:
        return "any card (new sequence)"
    return f"a {rank_name(view.need)}"
