"""Shared helpers for the research adapter tests."""

from __future__ import annotations

import random

from cardroom.cards import Card
from cardroom.games.nain_jaune import Round, Rules
from cardroom.games.nain_jaune.rules import MAX_PLAYERS

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"announce": "manual", "forgotten_announcement": "double-box"},
    {"may_stop": True, "payment": "card-count"},
    {"when_blocked": "free-restart", "grand_opera": "no-one-else-played"},
    {"board_cards": "regional", "payment": "points-ace-high", "grand_opera": "off"},
]


def hidden_holders(rnd: Round, seat: int) -> list[int]:
    """Seats other than ``seat`` holding cards, plus -1 for the talon when it is not empty."""
    out = [s for s in range(rnd.n) if s != seat and rnd.hands[s]]
    if rnd.talon:
        out.append(-1)
    return out


def swap_hidden(rnd: Round, seat: int, rng: random.Random) -> bool:
    """Swap one random card between two places ``seat`` cannot see (others' hands, talon).

    Mutates the round in place (a test-only trick); returns False when there is nothing to swap.
    """
    holders = hidden_holders(rnd, seat)
    if len(holders) < 2:
        return False
    a, b = rng.sample(holders, 2)

    def cards(h: int) -> list[Card]:
        return list(rnd.talon) if h == -1 else rnd.hands[h]

    ca, cb = cards(a), cards(b)
    i, j = rng.randrange(len(ca)), rng.randrange(len(cb))
    ca[i], cb[j] = cb[j], ca[i]
    for h, new in ((a, ca), (b, cb)):
        if h == -1:
            rnd.talon = tuple(new)
        else:
            rnd.hands[h] = sorted(new)
    return True


def random_rules(rng: random.Random) -> Rules:
    """One of the option sets above on a random preset."""
    preset = rng.choice(["classic", "count", "ace-high"])
    return Rules.from_options(preset, rng.choice(OPTION_SETS))


def random_players(rng: random.Random) -> int:
    return rng.randint(2, MAX_PLAYERS)
