"""The ``expert`` bot: the ``search`` bot's determinized Monte Carlo, compiled.

For a decision with more than one distinct choice it prepares, once, the position as the fast path's
state (the view's public actions replayed on one consistent deal), the unseen cards and who may hold
them (hand sizes, talon size, every "without X" unless ``may_stop``), and what was public at each
opponent's free lead. Then :func:`cardroom.games.nain_jaune.kernel.search_worlds` samples worlds,
weighs
each by how well the heuristic explains the opponents' leads in it, and plays every candidate out in
every world with compiled rollouts, thousands of worlds per decision where the readable ``search``
manages dozens. It plays the candidate with the highest weighted mean of its own final chips. It
sees only the view: the true hidden cards never enter.

With ``lookahead=on`` the searcher's own later choices in each world are made by lookahead: at
each of them every distinct choice is played out once in that world with the rollout policy and
the best is kept. Issue 22 measured it against the default (the rollout policy makes those
choices too) at 30 and 150 ms of CPU a decision and found no significant difference, so the
default stays ``off`` (docs/bots.md). ``lookahead=all`` makes every seat's later choices so
(each for its own chips, seeing the world's cards); ``lookahead=guess`` every seat's, each
choice tried in ``guesses=K`` worlds (default 1) re-dealt from that seat's own view, as a
searcher that does not see the cards would; ``guess-self`` only the searcher's own, and
``guess-opp`` only the opponents'. Issue 22's screens of these are in docs/bots.md.

Options: ``expert:ms=N`` (time budget per decision, default 100) or ``expert:iterations=N``
(exactly N worlds: the same seed gives the same decision); ``clock=wall|cpu`` (what ``ms``
counts: wall time, the default, or CPU time of the thinking thread, for benchmarks on a loaded
machine); ``lookahead=off|on|all|guess|guess-self|guess-opp`` and ``guesses=K``;
``policy=heuristic|greedy|random|learned`` (the rollout policy of every seat; ``learned``:
the lead policy trained by expert iteration, issue 31, docs/bots.md);
``model=on|leads|off|fit|learned`` (weigh worlds by how well the heuristic explains the
opponents' free leads and follows, the leads only, or not at all; ``learned`` weighs as ``on``
with each free lead explained by the learned lead policy instead of the heuristic, as the game
analysis does; ``fit`` weighs as ``on`` and also plays each opponent's rollouts by
the policy of :data:`FIT_POLICIES` that best explains that seat's free leads so far, each lead
scored by each policy's probability of it from that seat's view over a few deals of the hidden
cards consistent with the searcher's view) and ``mismatch=X`` (the factor per unexplained
choice, default 0.2). Issue 22 screened ``model=fit`` against the default and found no gain
(docs/bots.md, "Issue 22, session 15"), so it is an option, not the default.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from cardroom.bots.base import (
    REGISTRY,
    BotError,
    not_valid,
    parse_budget,
    parse_clock,
    unknown_options,
)
from cardroom.cards import Card
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.bots.search import (
    MISMATCH,
    Hidden,
    Lead,
    candidates,
    dealt,
    known_lacks,
    opponent_leads,
    public_actions,
    rebuild,
    sample_hidden,
    unseen_cards,
)
from cardroom.games.nain_jaune.engine import (
    Action,
    CardPlayed,
    Claim,
    FreeSequence,
    Pass,
    Play,
    Round,
)
from cardroom.games.nain_jaune.view import RoundView, view_of

DEFAULT_MS = 100
ROLLOUT_POLICIES = {"random": 0, "greedy": 1, "heuristic": 2, "learned": 12}
LOOKAHEAD = 3
GUESS = 4
"""``cardroom.games.nain_jaune.kernel.GUESS``: ``GUESS + k - 1`` makes a seat's later choices by
trying each in ``k`` worlds re-dealt from that seat's own view."""
MAX_GUESSES = 8
FIT_POLICIES = ("heuristic", "guess1", "guess4")
"""``model=fit``: the rollout policies an opponent may be fitted to, in order of preference
on a tie (the prior is uniform): ``heuristic``, and the ``guess`` lookahead with 1 and 4
re-dealt worlds a choice (a one- and a four-world search from the seat's own view)."""
FIT_SAMPLES = 8
"""``model=fit``: deals of the hidden cards (consistent with the view) over which each
policy's probability of an opponent's free lead is averaged."""
FIT_FLOOR = 0.1
"""``model=fit``: a policy's probability of a lead is ``(1 - FIT_FLOOR) p + FIT_FLOOR / n``
(n distinct choices), so one surprising lead never rules a policy out."""
MAX_DEPTH = 8
"""The largest ``depth=D``: lookahead for the first D choices of each rollout (0: all)."""
MAX_FOCUS = 4
"""The largest ``focus=K``: the lookahead's search over the K best candidates of a plain one."""
LOOKAHEADS = ("off", "on", "all", "guess", "guess-self", "guess-opp")
"""``cardroom.games.nain_jaune.kernel.PAUSE``: the searcher's own later choices by lookahead in each
world."""
_CLAIM_CODE, _PASS_CODE = 52, 53


def _fast(card_index: int) -> int:
    return (card_index % 13) * 4 + card_index // 13


def action_code(action: Action) -> int:
    """The fast path's code of an action: a card's fast index, 52 claim, 53 pass."""
    if isinstance(action, Play):
        return _fast(action.card.index)
    if isinstance(action, Claim):
        return _CLAIM_CODE
    assert isinstance(action, Pass)
    return _PASS_CODE


@dataclass
class Prepared:
    """Everything the compiled search needs about one decision (built from the view only)."""

    base: Any
    rules: Any
    seat: int
    cards: Any
    holders: Any
    forbid: Any
    assign: Any
    leads: Any
    lead_lacks: Any
    lead_boards: Any
    cands: list[Action]
    codes: Any


def _round_at(view: RoundView, hidden: Hidden, lead: Lead) -> Round:
    """The round of :func:`cardroom.games.nain_jaune.bots.search.rebuild` (``hidden`` as the
    unknown cards),
    replayed only up to just before ``lead``."""
    rnd = dealt(view, hidden)
    played = 0
    for action in public_actions(view):
        if isinstance(action, Play):
            if played == lead.played:
                break
            played += 1
        rnd.apply(action)
    return rnd


def fit_likelihoods(view: RoundView, lead: Lead, seed: str) -> list[float]:
    """Each of :data:`FIT_POLICIES`' probability of ``lead`` from the leading seat's view,
    averaged over :data:`FIT_SAMPLES` deals of the hidden cards consistent with ``view``
    (drawn from ``seed``, so the same view gives the same figures), floored (:data:`FIT_FLOOR`)."""
    from cardroom.games.nain_jaune.bots.heuristic import HeuristicBot

    rng = random.Random(seed)
    players: list[Any] = [
        HeuristicBot(),
        ExpertBot(ms=None, iterations=1, model="off"),
        ExpertBot(ms=None, iterations=4, model="off"),
    ]
    hits = [0.0] * len(players)
    floor = 0.0
    for _ in range(FIT_SAMPLES):
        rnd = _round_at(view, sample_hidden(view, rng), lead)
        seen = view_of(rnd, lead.seat)
        floor += 1 / len(candidates(seen))
        for i, bot in enumerate(players):
            if _same(seen, bot.act(seen, random.Random(rng.getrandbits(63))), lead.card):
                hits[i] += 1
    return [((1 - FIT_FLOOR) * h + FIT_FLOOR * floor) / FIT_SAMPLES for h in hits]


def _same(view: RoundView, choice: Action, card: Card) -> bool:
    """Whether playing ``choice`` is the same choice as playing ``card`` (same rank, and both
    board cards or neither: :func:`cardroom.games.nain_jaune.bots.search.candidates` folds the
    others)."""
    if not isinstance(choice, Play) or choice.card.rank != card.rank:
        return False
    board = set(view.rules.board_cards)
    return (choice.card in board) == (card in board)


def fitted_policies(likelihoods: dict[int, list[list[float]]], players: int) -> list[int]:
    """Each seat's most likely index in :data:`FIT_POLICIES` given the likelihoods of its
    observed leads (uniform prior; a tie goes to the earlier policy)."""
    out = [0] * players
    for seat, rows in likelihoods.items():
        logs = [sum(math.log(row[i]) for row in rows) for i in range(len(FIT_POLICIES))]
        out[seat] = max(range(len(FIT_POLICIES)), key=lambda i: (logs[i], -i))
    return out


def opponent_follows(view: RoundView) -> list[tuple[int, int]]:
    """Every card another seat played when a rank was asked: ``(seat, index in played)``.

    The heuristic follows with its board card of the rank if it holds one, else with its
    lowest card of the rank: a world where that seat then held another preferred card
    explains the choice less well."""
    out: list[tuple[int, int]] = []
    free, played = True, 0
    for event in view.events:
        if isinstance(event, FreeSequence):
            free = True
        elif isinstance(event, CardPlayed):
            if not free and event.seat != view.seat:
                out.append((event.seat, played))
            free = False
            played += 1
    return out


def prepare(
    view: RoundView,
    first: Hidden,
    model: bool = True,
    follow: bool = True,
    learned_model: bool = False,
) -> Prepared:
    """The arrays of :func:`cardroom.games.nain_jaune.kernel.search_worlds` for ``view``, with
    ``first`` (a consistent deal of the hidden cards) as the starting deal; with
    ``learned_model`` the opponents' free leads are explained by the learned lead policy
    instead of the heuristic."""
    from cardroom.games.nain_jaune import kernel as fast

    rnd = rebuild(view, first)
    base = fast.encode_round(rnd)
    seat = view.seat
    unseen = unseen_cards(view)
    others = [p for p in range(view.players) if p != seat]
    holders = np.array([*others, -1], np.int64)
    lacks = known_lacks(view)
    forbid = np.array([lacks[p] for p in others] + [0], np.int64)
    where: dict[int, int] = {}
    hands, talon = first
    for h, p in enumerate(others):
        for c in hands[p]:
            where[c.index] = h
    for c in talon:
        where[c.index] = len(others)
    assign = np.array([where[c.index] for c in unseen], np.int64)
    leads = opponent_leads(view) if model else []
    follows = opponent_follows(view) if model and follow else []
    lead_rows = np.zeros((len(leads) + len(follows), 5 + view.players), np.int64)
    lead_lacks = np.zeros((len(leads), view.players), np.int64)
    lead_boards = np.zeros((len(leads), 5), np.int64)
    for i, lead in enumerate(leads):
        before = view.played[: lead.played]
        later = view.played[lead.played :]
        lead_rows[i, 0] = lead.seat
        lead_rows[i, 1] = _fast(lead.card.index)
        lead_rows[i, 2] = sum(1 << _fast(c.index) for _, c in before)
        lead_rows[i, 3] = sum(1 << _fast(c.index) for s, c in later if s == lead.seat)
        if not view.rules.may_stop:
            for p, rank in view.passes[: lead.passes]:
                lead_lacks[i, p] |= 1 << rank
        lead_boards[i, :] = lead.board
        if learned_model:
            lead_rows[i, 4] = 2
            for p in range(view.players):
                lead_rows[i, 5 + p] = view.hand_sizes[p] + sum(1 for q, _ in later if q == p)
    for i, (who, at) in enumerate(follows, start=len(leads)):
        lead_rows[i, 0] = who
        lead_rows[i, 1] = _fast(view.played[at][1].index)
        lead_rows[i, 3] = sum(1 << _fast(c.index) for s, c in view.played[at:] if s == who)
        lead_rows[i, 4] = 1
    cands = candidates(view)
    return Prepared(
        base,
        fast.encode_rules(view.rules),
        seat,
        np.array([_fast(c.index) for c in unseen], np.int64),
        holders,
        forbid,
        assign,
        lead_rows,
        lead_lacks,
        lead_boards,
        cands,
        np.array([action_code(a) for a in cands], np.int64),
    )


def run_worlds(
    prep: Prepared,
    policies: Any,
    mismatch: float,
    n_worlds: int,
    state: Any,
    totals: Any,
    sample: bool = True,
    depth: int = 0,
    sub: int = -1,
) -> float:
    """Play ``n_worlds`` worlds of ``prep`` into ``totals``; returns their total weight.
    ``depth``: with a lookahead, how many choices of each rollout it makes (0: all); ``sub``:
    the policy of the lookahead's rollouts (-1: the kernel's choice, see ``search_worlds``)."""
    from cardroom.games.nain_jaune.kernel import search_worlds

    return float(
        search_worlds(
            prep.base,
            prep.rules,
            prep.seat,
            prep.cards,
            prep.holders,
            prep.forbid,
            prep.assign,
            sample,
            prep.leads,
            prep.lead_lacks,
            prep.lead_boards,
            mismatch,
            prep.codes,
            policies,
            n_worlds,
            state,
            totals,
            depth,
            sub,
        )
    )


@dataclass
class ExpertBot:
    """Compiled determinized Monte Carlo with the lead model (see the module docstring)."""

    ms: int | None = DEFAULT_MS
    iterations: int | None = None
    policy: str = "heuristic"
    model: str = "on"
    """``on``: weigh worlds by the opponents' leads and follows; ``leads``: leads only;
    ``off``: every world the same; ``fit``: as ``on``, and each opponent's rollouts are played
    by the policy of :data:`FIT_POLICIES` that best explains its free leads so far."""
    mismatch: float = MISMATCH
    """A world's weight is multiplied by this for each choice the heuristic would not make."""
    lookahead: str = "off"
    """``on``: make the searcher's own later choices in a rollout by trying each one in that
    world; ``all``: every seat's (each for its own chips); ``guess``, ``guess-self``,
    ``guess-opp``: every seat's, the searcher's, the opponents', each choice tried in
    ``guesses`` worlds re-dealt from that seat's own view."""
    guesses: int = 1
    """Re-dealt worlds per choice for the ``guess`` lookaheads (1 to ``MAX_GUESSES``)."""
    clock: Callable[[], float] = time.perf_counter
    """What ``ms`` counts (``clock=wall|cpu``, see :data:`cardroom.bots.base.CLOCKS`)."""
    name: str = "expert"
    last_iterations: int = 0
    """Worlds sampled for the last decision (for benchmarks)."""
    last_scores: list[tuple[Action, float]] = field(default_factory=list)
    """Each candidate of the last decision with its weighted mean final chips."""
    last_fit: list[int] = field(default_factory=list)
    """``model=fit``: each seat's index in :data:`FIT_POLICIES` at the last decision."""
    _fit_cache: dict[str, list[float]] = field(default_factory=dict, repr=False)

    depth: int = 0
    """With a lookahead, how many choices of each rollout it makes (0: every one); the later
    choices are the rollout policy's."""
    focus: int = 0
    """0: one search over every candidate. ``K`` ≥ 1: first a third of the budget (with
    ``iterations=N``, N worlds) of plain rollouts over every candidate, then the rest (N more
    worlds) with the lookahead over the ``K`` best of those only; the choice is the best of
    the ``K`` by the second search."""

    def _guess_code(self) -> int:
        return GUESS + self.guesses - 1

    def _fit(self, view: RoundView) -> list[int]:
        """``model=fit``: each seat's index in :data:`FIT_POLICIES` from its free leads so far
        (the searcher's own seat: 0). Each lead's likelihoods are computed once (kept by a key
        made of the view's public cards up to it, so the same view gives the same figures)."""
        rows: dict[int, list[list[float]]] = {}
        for lead in opponent_leads(view):
            upto = [c.index for _, c in view.played[: lead.played + 1]]
            key = repr((view.seat, lead.seat, lead.passes, upto))
            if key not in self._fit_cache:
                if len(self._fit_cache) > 4096:
                    self._fit_cache.clear()
                self._fit_cache[key] = fit_likelihoods(view, lead, key)
            rows.setdefault(lead.seat, []).append(self._fit_cache[key])
        return fitted_policies(rows, view.players)

    def _policies(self, view: RoundView) -> Any:
        """Each seat's rollout policy code for this bot's lookahead."""
        policies = np.full(view.players, ROLLOUT_POLICIES[self.policy], np.int64)
        if self.model == "fit":
            self.last_fit = self._fit(view)
            codes = (ROLLOUT_POLICIES[self.policy], GUESS, GUESS + 3)
            for p, i in enumerate(self.last_fit):
                if p != view.seat:
                    policies[p] = codes[i]
        if self.lookahead == "all":
            policies[:] = LOOKAHEAD
        elif self.lookahead == "guess":
            policies[:] = self._guess_code()
        elif self.lookahead == "guess-opp":
            policies[:] = self._guess_code()
            policies[view.seat] = ROLLOUT_POLICIES[self.policy]
        elif self.lookahead == "guess-self":
            policies[view.seat] = self._guess_code()
        elif self.lookahead == "on":
            policies[view.seat] = LOOKAHEAD
        return policies

    def _search(
        self, prep: Prepared, policies: Any, state: Any, start: float, deadline: float
    ) -> tuple[list[float], int]:
        """Each candidate of ``prep``'s weighted mean chips, and the worlds played: with
        ``iterations=N`` N worlds, else until the clock reaches ``deadline`` (the pace is
        measured from ``start``)."""
        totals = np.zeros(len(prep.cands), np.float64)
        if self.iterations is not None:
            weight = run_worlds(
                prep, policies, self.mismatch, self.iterations, state, totals, depth=self.depth
            )
            return [t / weight for t in totals], self.iterations
        weight = 0.0
        worlds = 0
        batch = 4
        while True:
            weight += run_worlds(
                prep, policies, self.mismatch, batch, state, totals, depth=self.depth
            )
            worlds += batch
            now = self.clock()
            if now >= deadline:
                break
            per_world = (now - start) / worlds
            # at most half the time left per call: a busy machine may stretch a batch
            batch = max(1, min(4 * batch, int((deadline - now) / per_world / 2)))
        return [t / weight for t in totals], worlds

    def act(self, view: RoundView, rng: random.Random) -> Action:
        """The candidate with the best weighted mean chips over the sampled worlds."""
        cands = candidates(view)
        if len(cands) == 1:
            self.last_iterations = 0
            self.last_scores = [(cands[0], 0.0)]
            return cands[0]
        start = self.clock()
        deadline = start + (self.ms or 0) / 1000
        prep = prepare(
            view,
            sample_hidden(view, rng),
            self.model != "off",
            self.model != "leads",
            learned_model=self.model == "learned",
        )
        policies = self._policies(view)
        state = np.array([rng.getrandbits(63), 0], np.int64)
        if 0 < self.focus < len(cands):
            plain = np.full(view.players, ROLLOUT_POLICIES[self.policy], np.int64)
            means, worlds = self._search(
                prep, plain, state, start, start + (self.ms or 0) / 3000
            )
            kept = sorted(sorted(range(len(cands)), key=lambda i: (-means[i], i))[: self.focus])
            narrow = replace(prep, cands=[cands[i] for i in kept], codes=prep.codes[kept])
            second, more = self._search(narrow, policies, state, self.clock(), deadline)
            for j, i in enumerate(kept):
                means[i] = second[j]
            self.last_iterations = worlds + more
            best = max(kept, key=lambda i: (means[i], -i))
        else:
            means, self.last_iterations = self._search(prep, policies, state, start, deadline)
            best = max(range(len(cands)), key=lambda i: (means[i], -i))
        self.last_scores = list(zip(cands, means, strict=True))
        return cands[best]


def _expert(options: dict[str, str]) -> ExpertBot:
    unknown = set(options) - {
        "ms", "iterations", "policy", "model", "mismatch", "lookahead", "clock", "guesses",
        "depth", "focus",
    }
    if unknown:
        raise BotError(
            unknown_options(
                "expert",
                unknown,
                "ms=N, iterations=N, policy=heuristic|greedy|random|learned, "
                "model=on|leads|off|fit|learned, mismatch=X (0 < X ≤ 1), "
                "lookahead=off|on|all|guess|guess-self|guess-opp, "
                "guesses=K (1 to 8), depth=D (0 to 8), focus=K (0 to 4) or clock=wall|cpu",
            )
        )
    bot = ExpertBot(clock=parse_clock("expert", options))
    ms, iterations = parse_budget("expert", options)
    if ms is not None or iterations is not None:
        bot.ms, bot.iterations = ms, iterations
    policy = options.get("policy", "heuristic")
    if policy not in ROLLOUT_POLICIES:
        raise BotError(
            not_valid("expert", "policy", policy, ("heuristic", "greedy", "random", "learned"))
        )
    bot.policy = policy
    model = options.get("model", "on")
    models = ("on", "leads", "off", "fit", "learned")
    if model not in models:
        raise BotError(not_valid("expert", "model", model, models))
    bot.model = model
    lookahead = options.get("lookahead", "off")
    if lookahead not in LOOKAHEADS:
        raise BotError(not_valid("expert", "lookahead", lookahead, tuple(LOOKAHEADS)))
    bot.lookahead = lookahead
    guesses = options.get("guesses", "1")
    counts = tuple(str(k) for k in range(1, MAX_GUESSES + 1))
    if guesses not in counts:
        raise BotError(not_valid("expert", "guesses", guesses, counts))
    bot.guesses = int(guesses)
    depth = options.get("depth", "0")
    depths = tuple(str(k) for k in range(MAX_DEPTH + 1))
    if depth not in depths:
        raise BotError(not_valid("expert", "depth", depth, depths))
    bot.depth = int(depth)
    focus = options.get("focus", "0")
    foci = tuple(str(k) for k in range(MAX_FOCUS + 1))
    if focus not in foci:
        raise BotError(not_valid("expert", "focus", focus, foci))
    bot.focus = int(focus)
    if "mismatch" in options:
        try:
            bot.mismatch = float(options["mismatch"])
        except ValueError:
            bot.mismatch = -1.0
        if not 0 < bot.mismatch <= 1:
            typed = options["mismatch"]
            raise BotError(
                Message(
                    "bot.mismatch",
                    f"bot 'expert': mismatch={typed!r} must be a number in (0, 1]",
                    typed=typed,
                )
            )
    return bot


REGISTRY["expert"] = _expert
