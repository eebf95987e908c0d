"""Sample where the hidden cards are, consistently with everything one seat knows.

A seat knows its own hand, every card played and by whom, every hand size and the talon size,
and every "without X" said: unless ``may_stop`` is on, a seat that said "without X" holds no
card of rank X (hands only shrink). :func:`sample_hidden` deals the unknown cards to the other
hands and the talon so that all of this holds. It reads only a :class:`RoundView`.

The sample is uniform over all consistent deals when one of ``tries`` plain shuffles satisfies
every "without" (rejection sampling, almost always the case); otherwise a card-by-card sampler
that checks feasibility with a small max-flow returns a consistent deal that is close to, but
not exactly, uniform.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cardroom.cards import DECK, Card
from cardroom.games.nain_jaune.view import RoundView

TALON = -1
"""The holder id of the talon in :func:`sample_hidden`'s internal bookkeeping."""


class InconsistentView(ValueError):
    """No deal agrees with the view (it cannot come from a real round)."""


def unknown_cards(view: RoundView) -> list[Card]:
    """Cards the seat cannot place: neither in its hand nor played, in deck order."""
    known = set(view.hand) | {c for _, c in view.played}
    return [c for c in DECK if c not in known]


def forbidden_ranks(view: RoundView) -> list[frozenset[int]]:
    """For every seat, the ranks it cannot hold now (empty with ``may_stop``)."""
    out: list[set[int]] = [set() for _ in range(view.players)]
    if not view.rules.may_stop:
        for seat, rank in view.passes:
            out[seat].add(rank)
    out[view.seat] = set()
    return [frozenset(s) for s in out]


def sample_hidden(
    view: RoundView, rng: random.Random, tries: int = 200
) -> tuple[list[list[Card]], list[Card]]:
    """Current hands of every seat (the viewer's own unchanged) and the talon, sampled.

    Raises :class:`InconsistentView` if no deal agrees with the view.
    """
    me, n = view.seat, view.players
    pool = unknown_cards(view)
    holders = [s for s in range(n) if s != me] + [TALON]
    sizes = {s: view.hand_sizes[s] for s in range(n) if s != me}
    sizes[TALON] = view.talon_size
    if sum(sizes.values()) != len(pool):
        raise InconsistentView(
            f"{len(pool)} unknown cards but {sum(sizes.values())} hidden places"
        )
    forbidden = forbidden_ranks(view)
    banned = {s: forbidden[s] for s in holders if s != TALON and forbidden[s]}
    deal: dict[int, list[Card]] | None = None
    for _ in range(tries):
        rng.shuffle(pool)
        start = 0
        trial: dict[int, list[Card]] = {}
        for h in holders:
            trial[h] = pool[start : start + sizes[h]]
            start += sizes[h]
        if all(c.rank not in ranks for s, ranks in banned.items() for c in trial[s]):
            deal = trial
            break
    if deal is None:
        deal = _sequential(pool, holders, sizes, banned, rng)
    hands = [sorted(deal[s]) if s != me else sorted(view.hand) for s in range(n)]
    return hands, sorted(deal[TALON])


def initial_hands(view: RoundView, current: Sequence[Sequence[Card]]) -> list[list[Card]]:
    """The hands as dealt: each seat's current hand plus the cards it has played."""
    out = [list(h) for h in current]
    for seat, card in view.played:
        out[seat].append(card)
    return [sorted(h) for h in out]


def _sequential(
    pool: list[Card],
    holders: list[int],
    sizes: dict[int, int],
    banned: dict[int, frozenset[int]],
    rng: random.Random,
) -> dict[int, list[Card]]:
    """Place cards one at a time, each where a consistent completion is still possible."""
    caps = dict(sizes)
    left = Counter(int(c.rank) for c in pool)
    if not _feasible(left, caps, banned):
        raise InconsistentView("no deal gives every 'without' seat a hand without those ranks")
    deal: dict[int, list[Card]] = {h: [] for h in holders}
    order = list(pool)
    rng.shuffle(order)
    for card in order:
        rank = int(card.rank)
        left[rank] -= 1
        options = [h for h in holders if caps[h] > 0 and rank not in banned.get(h, ())]
        while options:
            weights = [caps[h] for h in options]
            h = rng.choices(options, weights)[0]
            caps[h] -= 1
            if _feasible(left, caps, banned):
                deal[h].append(card)
                break
            caps[h] += 1
            options.remove(h)
        else:  # pragma: no cover - the check before the loop makes this unreachable
            raise InconsistentView("no consistent place for " + card.code)
    return deal


def _feasible(left: Counter[int], caps: dict[int, int], banned: dict[int, frozenset[int]]) -> bool:
    """Whether the remaining cards (by rank) fit the remaining places: a small max-flow."""
    ranks = [r for r, k in left.items() if k > 0]
    holders = [h for h, k in caps.items() if k > 0]
    need = sum(left[r] for r in ranks)
    if need > sum(caps[h] for h in holders):
        return False
    flow: dict[tuple[int, int], int] = {}
    used = dict.fromkeys(holders, 0)
    sent = dict.fromkeys(ranks, 0)

    def augment(rank: int, seen: set[int]) -> bool:
        for h in holders:
            if h in seen or rank in banned.get(h, ()):
                continue
            seen.add(h)
            if used[h] < caps[h]:
                used[h] += 1
                flow[rank, h] = flow.get((rank, h), 0) + 1
                return True
            # h is full: try to move one of its cards of another rank elsewhere
            for other in ranks:
                if flow.get((other, h), 0) > 0 and augment(other, seen):
                    flow[other, h] -= 1
                    flow[rank, h] = flow.get((rank, h), 0) + 1
                    return True
        return False

    for r in ranks:
        while sent[r] < left[r]:
            if not augment(r, set()):
                return False
            sent[r] += 1
    return True
