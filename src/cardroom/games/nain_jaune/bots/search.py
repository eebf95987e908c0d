"""The ``search`` bot: determinized Monte Carlo over deals that agree with what the seat knows.

The first expert, kept for comparison: :mod:`cardroom.games.nain_jaune.bots.expert` runs the same
search on the
compiled fast path, a few hundred times as many worlds per decision. This module also holds
the view-only helpers both share (sampling, rebuilding, the opponents' leads, candidates).

For each decision with more than one distinct choice, the bot repeatedly samples a *world*: the
hidden cards (the other hands and the talon) dealt at random among the cards it has not seen,
respecting every hand size, the talon size and, unless ``may_stop`` is on, every "without X"
(whoever said it holds no X). In each world it tries every candidate action and plays the
round out with the ``heuristic`` policy for every seat, through the readable engine; it keeps
the action with the highest weighted total of its own chips at the end (ties: the first legal
one). A world's weight (``model=on``, the default) is ``MISMATCH`` (0.2) to the power of the
number of the opponents' free leads this round that the heuristic, holding that world's cards,
would not have made: worlds that explain what the others chose count more.

Options: ``search:ms=N`` (time budget per decision, default 150: a move then takes at most
about 200 ms on a loaded two-core machine) or ``search:iterations=N`` (N worlds per decision:
deterministic for a seed, for tests and reproducible tournaments); ``policy=heuristic|greedy``
chooses the rollout policy; ``model=off`` gives every world the same weight.

Sampling is uniform over consistent deals when rejection sampling finds one within a few
tries; otherwise a randomized matching of cards to holders (always consistent, close to but
not exactly uniform) is used.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardroom.bots.base import REGISTRY, BotError, not_valid, parse_budget, unknown_options
from cardroom.cards import DECK, Card
from cardroom.games.nain_jaune.bots.heuristic import decide
from cardroom.games.nain_jaune.bots.simple import GreedyBot
from cardroom.games.nain_jaune.engine import (
    CLAIM,
    PASS,
    Action,
    CardPlayed,
    Forgot,
    FreeSequence,
    Play,
    Round,
    Staked,
    Takes,
    Without,
)
from cardroom.games.nain_jaune.view import RoundView, view_of

DEFAULT_MS = 150
REJECTION_TRIES = 30
MISMATCH = 0.2

Hidden = tuple[list[list[Card]], list[Card]]
"""Sampled hidden cards: a hand for every seat (the searcher's own is its real hand), a talon."""


def known_lacks(view: RoundView) -> list[int]:
    """Per seat, a bit mask of the ranks it is known not to hold (empty when ``may_stop``)."""
    lacks = [0] * view.players
    if not view.rules.may_stop:
        for seat, rank in view.passes:
            lacks[seat] |= 1 << rank
    return lacks


def unseen_cards(view: RoundView) -> list[Card]:
    """The cards the seat has not seen: in the other hands or the talon, in deck order."""
    seen = view.cards_seen()
    return [c for c in DECK if c not in seen]


def sample_hidden(view: RoundView, rng: random.Random) -> Hidden:
    """Deal the unseen cards among the other hands and the talon, consistently with the view."""
    cards = unseen_cards(view)
    lacks = known_lacks(view)
    holders = [p for p in range(view.players) if p != view.seat]
    sizes = [view.hand_sizes[p] for p in holders] + [view.talon_size]
    masks = [lacks[p] for p in holders] + [0]
    if sum(sizes) != len(cards):
        raise ValueError("the view is inconsistent: hidden card count does not match")
    assignment: list[int] | None = None
    if not any(masks):
        assignment = _deal_in_order(cards, sizes, rng)
    else:
        for _ in range(REJECTION_TRIES):
            trial = _deal_in_order(cards, sizes, rng)
            if all(not masks[h] >> int(c.rank) & 1 for c, h in zip(cards, trial, strict=True)):
                assignment = trial
                break
        if assignment is None:
            assignment = _matching(cards, sizes, masks, rng)
    hands: list[list[Card]] = [[] for _ in range(view.players)]
    hands[view.seat] = list(view.hand)
    talon: list[Card] = []
    for card, h in zip(cards, assignment, strict=True):
        if h == len(holders):
            talon.append(card)
        else:
            hands[holders[h]].append(card)
    for hand in hands:
        hand.sort()
    return hands, talon


def _deal_in_order(cards: Sequence[Card], sizes: Sequence[int], rng: random.Random) -> list[int]:
    slots = [h for h, size in enumerate(sizes) for _ in range(size)]
    rng.shuffle(slots)
    return slots


def _matching(
    cards: Sequence[Card], sizes: Sequence[int], masks: Sequence[int], rng: random.Random
) -> list[int]:
    """Assign every card to a holder that may hold it, via augmenting paths (Kuhn)."""
    slots = [h for h, size in enumerate(sizes) for _ in range(size)]
    owner: list[int | None] = [None] * len(slots)
    order = list(range(len(cards)))
    rng.shuffle(order)
    slot_order = list(range(len(slots)))

    def allowed(ci: int, si: int) -> bool:
        return not masks[slots[si]] >> int(cards[ci].rank) & 1

    def augment(ci: int, visited: list[bool]) -> bool:
        for si in slot_order:
            if visited[si] or not allowed(ci, si):
                continue
            visited[si] = True
            current = owner[si]
            if current is None or augment(current, visited):
                owner[si] = ci
                return True
        return False

    for ci in order:
        rng.shuffle(slot_order)
        if not augment(ci, [False] * len(slots)):
            raise ValueError("no deal agrees with this view")
    assignment = [0] * len(cards)
    for si, holder in enumerate(owner):
        assert holder is not None
        assignment[holder] = slots[si]
    return assignment


def public_actions(view: RoundView) -> list[Action]:
    """Every action taken this round, in order, as the view shows them (plays, passes,
    claims and unannounced plays)."""
    actions: list[Action] = []
    events = view.events
    for i, event in enumerate(events):
        if isinstance(event, Takes):
            if view.rules.announce == "manual":
                actions.append(CLAIM)
        elif isinstance(event, CardPlayed):
            follow = events[i + 1] if i + 1 < len(events) else None
            forget = isinstance(follow, Forgot) and follow.card is event.card
            actions.append(Play(event.card, forget=forget))
        elif isinstance(event, Without):
            actions.append(PASS)
    return actions


def dealt(view: RoundView, hidden: Hidden) -> Round:
    """The round as dealt, with ``hidden`` as the unknown cards: the sampled hands plus every
    card each seat has played, the chips and boxes before the stakes; no action applied."""
    hands, talon = hidden
    initial = [list(h) for h in hands]
    for seat, card in view.played:
        initial[seat].append(card)
    chips = list(view.chips)
    board = list(view.board)
    box_of = {c: i for i, c in enumerate(view.rules.board_cards)}
    for event in view.events:
        if isinstance(event, Staked):
            chips[event.seat] += event.amount
            board[event.box] -= event.amount
        elif isinstance(event, Takes):
            chips[event.seat] -= event.amount
            board[box_of[event.card]] += event.amount
    return Round(view.rules, chips, board, view.dealer, initial, talon)


def rebuild(view: RoundView, hidden: Hidden) -> Round:
    """A round whose public state equals the view's, with ``hidden`` as the unknown cards.

    The deal is :func:`dealt`, and the view's public actions (cards played, passes, claims,
    forgotten announcements) are replayed on it.
    """
    rnd = dealt(view, hidden)
    for action in public_actions(view):
        rnd.apply(action)
    return rnd


def with_hidden(base: Round, seat: int, hidden: Hidden) -> Round:
    """A copy of ``base`` with the other seats' hands and the talon replaced by ``hidden``."""
    events, base.events = base.events, []  # a rollout never reads past events: skip the copy
    rnd = base.clone()
    base.events = events
    hands, talon = hidden
    for p in range(rnd.n):
        if p != seat:
            rnd.hands[p] = list(hands[p])
    rnd.talon = tuple(talon)
    return rnd


@dataclass(frozen=True, slots=True)
class Lead:
    """An opponent started a new sequence with ``card``: a choice the heuristic can explain."""

    seat: int
    card: Card
    played: int
    """How many cards had been played before it."""
    passes: int
    """How many "without X" had been said before it."""
    board: tuple[int, ...]
    """The boxes at that moment."""


def opponent_leads(view: RoundView) -> list[Lead]:
    """Every free lead of another seat this round, with what was public at that moment."""
    box_of = {c: i for i, c in enumerate(view.rules.board_cards)}
    board = [0] * 5
    leads: list[Lead] = []
    free, played, passes = True, 0, 0
    for event in view.events:
        if isinstance(event, Staked):
            board[event.box] += event.amount
        elif isinstance(event, Takes):
            board[box_of[event.card]] -= event.amount
        elif isinstance(event, FreeSequence):
            free = True
        elif isinstance(event, Without):
            passes += 1
        elif isinstance(event, CardPlayed):
            if free and event.seat != view.seat:
                leads.append(Lead(event.seat, event.card, played, passes, tuple(board)))
            free = False
            played += 1
    if leads:  # the boxes before the stakes may have held chips from earlier rounds
        start = [b - s for b, s in zip(view.board, board, strict=True)]
        leads = [
            Lead(
                x.seat,
                x.card,
                x.played,
                x.passes,
                tuple(a + b for a, b in zip(start, x.board, strict=True)),
            )
            for x in leads
        ]
    return leads


def lead_weight(view: RoundView, leads: Sequence[Lead], hands: Sequence[Sequence[Card]]) -> float:
    """How well a world explains the opponents' leads: ``MISMATCH`` per lead the heuristic,
    holding that world's hand then, would not have chosen (same rank, board card or not)."""
    weight = 1.0
    board = set(view.rules.board_cards)
    for lead in leads:
        later = view.played[lead.played :]
        hand_then = sorted([*hands[lead.seat], *(c for s, c in later if s == lead.seat)])
        sizes = [len(hands[p]) + sum(1 for s, _ in later if s == p) for p in range(view.players)]
        choice = decide(
            lead.seat,
            None,
            hand_then,
            sizes,
            view.played[: lead.played],
            view.passes[: lead.passes],
            lead.board,
            view.rules,
            [Play(c) for c in hand_then],
        )
        assert isinstance(choice, Play)
        if choice.card.rank != lead.card.rank or (choice.card in board) != (lead.card in board):
            weight *= MISMATCH
    return weight


Policy = Callable[[Round, int, list[Action]], Action]


def heuristic_policy(rnd: Round, seat: int, legal: list[Action]) -> Action:
    """The heuristic bot's choice, computed from the seat's own knowledge in ``rnd``."""
    return decide(
        seat,
        rnd.need,
        rnd.hands[seat],
        [len(h) for h in rnd.hands],
        rnd.played,
        rnd.passes,
        rnd.board,
        rnd.rules,
        legal,
    )


_GREEDY = GreedyBot()
_GREEDY_RNG = random.Random(0)


def greedy_policy(rnd: Round, seat: int, legal: list[Action]) -> Action:
    """The greedy bot's choice (deterministic: it never draws from its rng)."""
    return _GREEDY.act(view_of(rnd, seat), _GREEDY_RNG)


POLICIES: dict[str, Policy] = {"heuristic": heuristic_policy, "greedy": greedy_policy}


def rollout(rnd: Round, policy: Policy) -> Round:
    """Play ``rnd`` to its end with ``policy`` for every seat (forced moves skip the policy)."""
    while rnd.result is None:
        legal = rnd.legal_actions()
        seat = rnd.to_act
        rnd.apply(legal[0] if len(legal) == 1 else policy(rnd, seat, legal))
    return rnd


def candidates(view: RoundView) -> list[Action]:
    """The distinct choices: plays of the same rank that are not board cards are equivalent."""
    board = set(view.board_cards)
    out: list[Action] = []
    ranks_seen: set[int] = set()
    for action in view.legal_actions:
        if isinstance(action, Play) and action.card not in board and not action.forget:
            if action.card.rank in ranks_seen:
                continue
            ranks_seen.add(action.card.rank)
        out.append(action)
    return out


@dataclass
class SearchBot:
    """Determinized Monte Carlo with heuristic rollouts (see the module docstring)."""

    ms: int | None = DEFAULT_MS
    iterations: int | None = None
    policy: str = "heuristic"
    model: bool = True
    """Weigh each world by how well the heuristic explains the opponents' leads in it."""
    name: str = "search"
    last_iterations: int = 0
    """Worlds sampled for the last decision (for benchmarks)."""

    def act(self, view: RoundView, rng: random.Random) -> Action:
        """The candidate with the best total chips over the sampled worlds."""
        cands = candidates(view)
        if len(cands) == 1:
            self.last_iterations = 0
            return cands[0]
        policy = POLICIES[self.policy]
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        first = sample_hidden(view, rng)
        base = rebuild(view, first)
        leads = opponent_leads(view) if self.model else []
        totals = [0.0] * len(cands)
        worlds = 0
        hidden = first
        while True:
            weight = lead_weight(view, leads, hidden[0]) if leads else 1.0
            for i, action in enumerate(cands):
                rnd = with_hidden(base, view.seat, hidden)
                rnd.apply(action)
                totals[i] += weight * rollout(rnd, policy).chips[view.seat]
            worlds += 1
            if self.iterations is not None and worlds >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            hidden = sample_hidden(view, rng)
        self.last_iterations = worlds
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]


def _search(options: dict[str, str]) -> SearchBot:
    unknown = set(options) - {"ms", "iterations", "policy", "model"}
    if unknown:
        raise BotError(
            unknown_options(
                "search", unknown, "ms=N, iterations=N, policy=heuristic|greedy or model=on|off"
            )
        )
    bot = SearchBot()
    ms, iterations = parse_budget("search", options)
    if ms is not None or iterations is not None:
        bot.ms, bot.iterations = ms, iterations
    policy = options.get("policy", "heuristic")
    if policy not in POLICIES:
        raise BotError(not_valid("search", "policy", policy, ("heuristic", "greedy")))
    bot.policy = policy
    model = options.get("model", "on")
    if model not in ("on", "off"):
        raise BotError(not_valid("search", "model", model, ("on", "off")))
    bot.model = model == "on"
    return bot


REGISTRY["search"] = _search
