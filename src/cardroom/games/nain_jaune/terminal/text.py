"""Nain Jaune as text lines: the replay account, the plain mode and the log of the Textual UI."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

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
from cardroom.games.nain_jaune.rules import STAKE_PER_ROUND, Rules
from cardroom.games.nain_jaune.settlement import breakdown
from cardroom.games.nain_jaune.view import RoundView
from cardroom.games.nain_jaune.words import rules_text as options_rules_text
from cardroom.i18n import Translator
from cardroom.i18n.names import shown_names
from cardroom.i18n.words import (
    a_rank,
    engine_event_text,
    game_over_reason,
    pretty,
    stakes_text,
    tr_of,
)
from cardroom.i18n.words import rank_name as _rank_name

Lang = str | Translator | None


def rank_name(rank: int, lang: Lang = None) -> str:
    """``ace``, ``2`` … ``10``, ``jack``, ``queen``, ``king`` (in ``lang``)."""
    return _rank_name(Rank(rank), tr_of(lang))


def cards_text(cards: Iterable[Card], letters: Lang = None) -> str:
    """Cards with suit symbols, separated by spaces (``3♣ 4♦ 5♠``); with ``letters`` a language,
    the court cards carry its letters (French ``D♠``). The terminal game prints the letters a
    player types (``Q♠``, typed ``qs``), the replay those of the reader's language."""
    return " ".join(pretty(c, tr_of(letters)) for c in cards)


def board_text(board_cards: Sequence[Card], board: Sequence[int], letters: Lang = None) -> str:
    """The five boxes and their chips: ``10♦ 3 · J♣ 6 · Q♠ 9 · K♥ 12 · 7♦ 15`` (``letters``: as
    :func:`cards_text`)."""
    return " · ".join(
        f"{pretty(c, tr_of(letters))} {v}" for c, v in zip(board_cards, board, strict=True)
    )


def chips_text(names: Sequence[str], chips: Sequence[int]) -> str:
    """``Ann 60 · Bob 45``."""
    return " · ".join(f"{n} {c}" for n, c in zip(names, chips, strict=True))


def rules_text(rules: Rules, lang: Lang = None) -> str:
    """The preset the rules are closest to, and every option that differs from it, in words."""
    return options_rules_text(rules, tr_of(lang))


def event_lines(
    events: Iterable[Event], names: Sequence[str], lang: Lang = None, *, letters: bool = False
) -> Iterator[str]:
    """One line per event; the stakes are summed per player, the settlement indented (cards
    with the language's letters with ``letters``, else with the letters typed)."""
    tr = tr_of(lang)
    stakes: dict[int, int] = {}
    settling = False
    for event in events:
        if isinstance(event, Staked):
            stakes[event.seat] = stakes.get(event.seat, 0) + event.amount
            continue
        if stakes:
            yield stakes_line(stakes, names, tr)
            stakes = {}
        yield ("  " if settling else "") + engine_event_text(event, names, tr, letters=letters)
        if isinstance(event, OutOfCards):
            settling = True
            yield tr._("Settlement:")
    if stakes:
        yield stakes_line(stakes, names, tr)


def stakes_line(stakes: dict[int, int], names: Sequence[str], lang: Lang = None) -> str:
    """``Stakes: 15 chips each`` or the amount of every player when someone ran short."""
    return stakes_text(stakes, names.__getitem__, STAKE_PER_ROUND, tr_of(lang))


def signed(n: int) -> str:
    """``+12``, ``-15``, ``0``."""
    return f"+{n}" if n > 0 else str(n)


def _two_lines(head: str) -> tuple[str, str]:
    """A heading cut at the space that makes its longer half shortest (``Boxes`` / ``taken``)."""
    cuts = [i for i, ch in enumerate(head) if ch == " "]
    if not cuts:
        return "", head
    at = min(cuts, key=lambda i: max(i, len(head) - i - 1))
    return head[:at], head[at + 1 :]


def settlement_lines(events: Sequence[Event], names: Sequence[str], lang: Lang = None) -> list[str]:
    """The round's settlement in columns, one row per player: stake, boxes taken during the
    round, cards paid or received, doubled boxes, Grand Opéra, total (headings on two lines, so
    that it fits a terminal's log pane)."""
    tr = tr_of(lang)
    heads = [
        tr._("Player"), tr._("Stake"), tr._("Boxes taken"), tr._("Cards"),
        tr._("Doubled boxes"), tr._("Grand Opéra"), tr._("Total"),
    ]  # fmt: skip
    top, bottom = zip(*map(_two_lines, heads), strict=True)
    rows = [
        [names[r.seat], *map(signed, (r.stake, r.taken, r.cards, r.doubled, r.grand_opera,
                                      r.total))]
        for r in breakdown(events, len(names))
    ]  # fmt: skip
    table = [list(top), list(bottom), *rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(heads))]

    def line(cells: list[str]) -> str:
        padded = [c.rjust(w) for c, w in zip(cells, widths, strict=True)]
        return ("  " + "  ".join([cells[0].ljust(widths[0]), *padded[1:]])).rstrip()

    return [line(row) for row in table]


def result_lines(
    result: RoundResult,
    rules: Rules,
    names: Sequence[str],
    lang: Lang = None,
    events: Sequence[Event] = (),
    *,
    letters: bool = False,
) -> list[str]:
    """The outcome of a settled round (given its ``events``: the settlement in columns; the
    board's cards with the language's letters with ``letters``)."""
    tr = tr_of(lang)
    shown = tr if letters else None
    winner = names[result.winner]
    lines = [
        tr._("{name} wins the round with a grand opéra.", name=winner)
        if result.grand_opera
        else tr._("{name} wins the round.", name=winner),
        *(settlement_lines(events, names, tr) if events else []),
        tr._("Chips: {list}", list=chips_text(names, result.chips)),
        tr._("Board: {list}", list=board_text(rules.board_cards, result.board, shown)),
        tr._("Next dealer: {name}", name=names[result.next_dealer]),
    ]
    if result.short:
        short = ", ".join(names[s] for s in result.short)
        lines.insert(1, tr.ngettext(
            "Could not pay in full: {names}", "{n} players could not pay in full: {names}",
            len(result.short), names=short,
        ))  # fmt: skip
    return lines


def game_over_lines(result: GameResult, names: Sequence[str], lang: Lang = None) -> list[str]:
    """The final standings, most chips first."""
    tr = tr_of(lang)
    winners = [names[s] for s in result.winners]
    rounds = tr.ngettext("{n} round", "{n} rounds", result.rounds)
    lines = [
        tr.ngettext(
            "Game over after {rounds} ({reason}): {names} wins.",
            "Game over after {rounds} ({reason}): {names} win.",
            len(winners), rounds=rounds, reason=game_over_reason(result.reason, tr),
            names=tr.join(winners),
        )
    ]
    order = sorted(range(len(names)), key=lambda s: (-result.chips[s], s))
    for place, seat in enumerate(order, start=1):
        lines.append("  " + tr.ngettext(
            "{place}. {name}: {n} chip", "{place}. {name}: {n} chips", result.chips[seat],
            place=place, name=names[seat],
        ))
    return lines


def replay_lines(replays: Sequence[Replay], lang: Lang = None) -> Iterator[str]:
    """A readable account of replayed rounds: every card, announcement and settlement line."""
    tr = tr_of(lang)
    for number, rep in enumerate(replays, start=1):
        rec = rep.record
        names = shown_names(rec.players, tr)
        if number > 1:
            yield ""
        fields_ = {
            "number": number, "players": ", ".join(names), "dealer": names[rec.dealer],
            "rules": rules_text(rec.rules, tr),
        }
        if len(replays) > 1:
            yield tr._("Round {number}: {players}; {dealer} deals; {rules}", **fields_)
        else:
            yield tr._("Round: {players}; {dealer} deals; {rules}", **fields_)
        yield tr._("Chips: {list}", list=chips_text(names, rec.chips))
        yield tr._("Board: {list}", list=board_text(rec.rules.board_cards, rec.board, tr))
        yield from event_lines(rep.events, names, tr, letters=True)
        res = rep.result
        if res is None:
            left = ", ".join(f"{n} {len(h)}" for n, h in zip(names, rep.round.hands, strict=True))
            yield tr._(
                "The record stops here: the round was not finished (cards left: {list}).", list=left
            )
            yield tr._("Chips: {list}", list=chips_text(names, rep.round.chips))
            yield tr._("Board: {list}", list=board_text(rec.rules.board_cards, rep.round.board, tr))
        else:
            yield from result_lines(res, rec.rules, names, tr, rep.events, letters=True)


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


def need_text(view: RoundView, lang: Lang = None) -> str:
    """What must be played next: ``a 5``, ``an 8`` or ``any card (new sequence)``."""
    if view.need is None:
        return tr_of(lang)._("any card (new sequence)")
    return a_rank(view.need, tr_of(lang))
