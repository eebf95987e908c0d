"""Helpers for hand-made Nain Jaune deals."""

from __future__ import annotations

from cardroom.cards import DECK, Card, parse_cards
from cardroom.games.nain_jaune import Round, Rules
from cardroom.games.nain_jaune.engine import Action, Event, Pass, Play


def make_deal(n: int, hands: dict[int, str], talon: str) -> tuple[list[list[Card]], list[Card]]:
    """Hands given as strings; at most one seat left out receives every remaining card."""
    out: list[list[Card]] = [[] for _ in range(n)]
    used: set[Card] = set(parse_cards(talon))
    for seat, text in hands.items():
        out[seat] = parse_cards(text)
        used |= set(out[seat])
    rest = [c for c in DECK if c not in used]
    missing = [s for s in range(n) if s not in hands]
    assert len(missing) <= 1
    for seat in missing:
        out[seat] = rest
    return out, parse_cards(talon)


def new_round(
    rules: Rules,
    n: int,
    hands: dict[int, str],
    talon: str,
    dealer: int = 0,
    chips: int = 60,
) -> Round:
    deal_hands, deal_talon = make_deal(n, hands, talon)
    return Round(rules, [chips] * n, [0] * 5, dealer, deal_hands, deal_talon)


def play(rnd: Round, *steps: str) -> list[Event]:
    """Apply steps written as card codes, 'pass' or 'claim' (``-`` prefix: forget)."""
    from cardroom.games.nain_jaune import CLAIM, PASS

    events: list[Event] = []
    for step in steps:
        action: Action
        if step == "pass":
            action = PASS
        elif step == "claim":
            action = CLAIM
        elif step.startswith("-"):
            action = Play(parse_cards(step[1:])[0], forget=True)
        else:
            action = Play(parse_cards(step)[0])
        events.extend(rnd.apply(action))
    return events


def passes_until_someone_can_play(rnd: Round) -> int:
    """Apply passes while the only legal action is a pass; return how many."""
    count = 0
    while not rnd.over and rnd.legal_actions() == [Pass()]:
        rnd.apply(Pass())
        count += 1
    return count
