"""Analysis of a Nain Jaune game: the expert's value of every choice of every decision.

For each decision with more than one distinct choice (which card to play, whether to stop under
``may_stop``, whether to claim under ``announce=manual``), the round is replayed to that moment,
the deciding seat's view is taken (:func:`~cardroom.games.nain_jaune.view.view_of`: its own hand
and what is public, never the hidden cards) and the expert's compiled search values every choice
from that view alone: the same worlds (sampled consistently with the view, weighed by how well
the learned lead policy explains the opponents' leads and the heuristic their follows) for every
choice, each played out to the end of the round by the learned policy at every seat; the
deciding seat's own later moves are played out both by the learned policy and by the
heuristic, and each choice is worth the better of the two plans. A choice's value is the
seat's expected chips at the end of the round.

- **loss**: the best choice's value minus the chosen one's, in expected chips;
- **marks** (see ``MARKS`` and docs/bots.md): a loss of at least 1, 3 and 6 chips is an
  inaccuracy, a mistake and a blunder. Every would-be mark (a first loss of at least 1 chip)
  is re-valued before it is given (:func:`revalue`): the chosen and the best choice over fresh
  worlds, paired (the same worlds and random numbers for both), where every later choice of
  every seat is searched (each distinct choice tried by a rollout in that world) instead of
  played by a policy. The loss,
  its noise and the mark are then the re-valuation's, and the mark is earned by the low end of
  the loss's interval (the loss minus twice its standard error; the worlds are drawn in
  ``DEEP_BATCHES`` batches to estimate it). A mark so confirmed is kept only when a second
  opinion agrees: the same two choices re-valued once more with every seat searching from its
  own view (each choice tried in worlds re-dealt from what that seat sees, as a player who does
  not see the cards would), a loss of at least 1 chip. So a mark means the choice lost at least
  that much against strong play, not that it may have;
- **accuracy** per player: of the chips at stake in the player's choices (the best choice's
  value minus the worst's, summed over the decisions), the share the choices made kept (100 %:
  every choice was the best);
- **in hindsight** (optional): what the true deal allowed against what happened. Each other
  choice is played on the true deal with every seat's later choices searched with every card
  known (strong play by all, not the heuristic); the chosen one's figure is what really
  happened (the seat's chips at the end of the round). A player's "lost in hindsight" adds, for
  each round, that figure at the player's first decision: the best the true deal allowed from
  there minus what happened.

Deterministic: the worlds of each decision are drawn from a seed derived from the record (its
canonical JSON), the round and the decision's number, so two runs agree to the last digit.

One concern: valuing a record's decisions with the expert's search (the moments of a
round, each choice's value, the re-valuation and second opinion behind a mark, a player's
accuracy), and the result's types. Each step feeds the next with the same worlds, seeds and
constants above, which are tuned together.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from cardroom.analysis import AnalysisError as BaseAnalysisError
from cardroom.games.nain_jaune.bots.expert import (
    GUESS,
    LOOKAHEAD,
    ROLLOUT_POLICIES,
    prepare,
    run_worlds,
)
from cardroom.games.nain_jaune.bots.search import (
    MISMATCH,
    Hidden,
    candidates,
    rebuild,
    sample_hidden,
)
from cardroom.games.nain_jaune.engine import CLAIM, Action, Claim, Event, Pass, Play, Round
from cardroom.games.nain_jaune.record import (
    RecordError,
    RoundRecord,
    parse_game,
    replay_round,
    replay_whole_game,
)
from cardroom.games.nain_jaune.view import RoundView, view_of

DEFAULT_WORLDS = 4000
"""Worlds sampled per decision (the same for every choice of that decision)."""
MIN_WORLDS, MAX_WORLDS = 16, 20000
BATCHES = 8
"""The worlds of a decision are drawn in this many batches; their spread gives the noise."""
MARKS: tuple[tuple[str, float], ...] = (("blunder", 6.0), ("mistake", 3.0), ("inaccuracy", 1.0))
"""A mark and the least loss (expected chips) that earns it, worst first."""
NOISE_FACTOR = 2.0
"""A mark is earned by the loss minus this many standard errors (the low end of its ~95 %
interval), so sampling noise alone never marks a choice."""
TIE = 0.05
"""A choice within this many chips of the best is the best (it shows as a loss of 0.0)."""
DEEP_FACTOR = 1
"""The re-valuation of a would-be mark plays this many times the decision's worlds (each
costs about 10 of the first valuation's: every seat searches)."""
MIN_DEEP = 256
ROLLOUT = ROLLOUT_POLICIES["learned"]
"""Every seat's policy in the rollouts (the learned lead policy, issue 31)."""
OWN_PLANS = (ROLLOUT, ROLLOUT_POLICIES["heuristic"])
"""The deciding seat's own later moves in the first valuation: each choice is played out with
each of these policies for the seat (the others' with ``ROLLOUT``) and is worth the better."""
DEEP_SEARCH = LOOKAHEAD
"""Every seat's later choices in the re-valuation: each distinct choice tried by a rollout in
that world (the expert's ``lookahead=all``: strong play by every seat)."""
DEEP_ROLLOUT = ROLLOUT_POLICIES["heuristic"]
"""The policy of the re-valuation's rollouts. Not the learned one: with it, holding the four
kings with a king asked for, K♣ came out 17 chips better than K♥ (whose box it takes at once)
where strong play finds no difference (docs/bots.md, issue 31)."""
SECOND_OPINION = True
SECOND_SEARCH = GUESS + 3
"""The second opinion on a confirmed mark: every seat's later choices searched from its own
view, each choice tried in 4 worlds re-dealt from that view (``lookahead=guess,guesses=4``)."""
SECOND_WORLDS = 1000
"""The second opinion's worlds at most (each costs about 4 of the re-valuation's; only its mean
is used)."""
DEEP_BATCHES = 32
"""The re-valuation's worlds are drawn in this many batches (a sounder standard error than
``BATCHES`` gives, since the mark rests on it)."""
MIN_LIKE = 30
"""A player is said to play like a level only past this many decisions with chips at stake."""
LIKE_RESAMPLES = 400
"""Bootstrap resamples of a player's decisions for the interval of its accuracy and rating."""
MAX_DECISIONS = 6000
"""The most decisions one analysis takes on (a long game of many rounds has about 3000)."""

Progress = Callable[[int, int], None]
"""Called with (decisions done, decisions in all) as the analysis goes."""


class AnalysisError(BaseAnalysisError):
    """A record cannot be analysed; ``code`` says why (``bad-record``, ``unfinished``,
    ``too-long``, ``bad-worlds``) and the message says it in English."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Choice:
    """One distinct choice of a decision and its expected final chips for the deciding seat."""

    action: str
    """``claim``, ``pass`` or a card's code (for two equivalent plays, the first one's)."""
    value: float
    hindsight: float | None = None
    """Only when asked for: for the choice made, the chips the seat really ended the round
    with; for the others, the choice played on the true deal, every seat searching."""


@dataclass(slots=True)
class Decision:
    """One decision of one seat, valued from that seat's view at that moment."""

    round: int
    """The round's number in the game, from 1."""
    step: int
    """The decision's number in its round, from 1 (every seat's decisions counted)."""
    played: int
    """Cards played in the round before it."""
    seat: int
    chips: int
    """The seat's chips at that moment."""
    chosen: str
    """The action made (a card's code, ``claim`` or ``pass``)."""
    choice: str
    """The choice (as listed in ``choices``) the action made belongs to."""
    choices: list[Choice]
    best: str
    value: float
    """The expected final chips of the choice made."""
    loss: float
    noise: float
    """The standard error of ``loss`` (from the spread of the batches)."""
    mark: str | None
    frame: int = 0
    """The replay viewer's step (in the round, 0: the deal) showing the decision's position."""
    deep: tuple[float, float] | None = None
    """When the first valuation found a loss worth a mark: the chosen and the best choice
    re-valued with the seat's own later choices searched (see :func:`revalue`); ``loss`` and
    ``noise`` are then this re-valuation's."""
    second: float | None = None
    """When the re-valuation confirmed a mark: the loss re-valued again with every seat
    searching from its own view (``SECOND_SEARCH``); the mark is kept only when this second
    opinion finds a loss of at least 1 chip too."""

    @property
    def spread(self) -> float:
        """The best choice's value minus the worst's: the chips at stake in the decision (at
        least the loss, which the re-valuation may have made larger)."""
        values = [c.value for c in self.choices]
        return max(max(values) - min(values), self.loss)

    @property
    def hindsight_loss(self) -> float | None:
        """What the true deal allowed (the best of the choices' hindsight figures) minus what
        happened (see :attr:`Choice.hindsight`)."""
        known = [c.hindsight for c in self.choices if c.hindsight is not None]
        mine = next(c.hindsight for c in self.choices if c.action == self.choice)
        return None if mine is None or not known else max(known) - mine



@dataclass(slots=True)
class RoundAnalysis:
    """The decisions of one round and how it ended."""

    number: int
    start_chips: list[int]
    """Each seat's chips once the stakes are on the board."""
    final_chips: list[int]
    decisions: list[Decision] = field(default_factory=list)


@dataclass(slots=True)
class PlayerSummary:
    """One player over the whole game."""

    seat: int
    name: str
    decisions: int
    accuracy: float | None
    """Percent of the chips at stake kept (None when no decision had anything at stake)."""
    lost: float
    """Expected chips lost to choices other than the best, summed."""
    marks: dict[str, int]
    hindsight_lost: float | None = None
    like: str | None = None
    """The bot level whose accuracy is closest (see ``cardroom.games.nain_jaune.bots.strength``);
    only past
    ``MIN_LIKE`` decisions with chips at stake."""
    like_rating: tuple[float, float, float] | None = None
    """With ``like``: the rating (the bots' scale) the accuracy corresponds to, with its 95 %
    interval (low, value, high) from resampling the player's decisions."""


@dataclass(slots=True)
class Analysis:
    """A whole game's analysis (see the module docstring)."""

    players: list[str]
    rounds: list[RoundAnalysis]
    summary: list[PlayerSummary]
    worlds: int
    seed: int
    hindsight: bool

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (the stored form, the web's and ``--json``'s)."""
        return {
            "game": "nain-jaune",
            "players": self.players,
            "worlds": self.worlds,
            "seed": self.seed,
            "hindsight": self.hindsight,
            "marks": {name: least for name, least in MARKS},
            "summary": [
                {
                    "seat": p.seat,
                    "name": p.name,
                    "decisions": p.decisions,
                    "accuracy": _round(p.accuracy),
                    "lost": _round(p.lost),
                    "marks": p.marks,
                    "hindsight_lost": _round(p.hindsight_lost),
                    "like": p.like,
                    "like_rating": None
                    if p.like_rating is None
                    else [round(x, 2) for x in p.like_rating],
                }
                for p in self.summary
            ],
            "rounds": [
                {
                    "number": r.number,
                    "start_chips": r.start_chips,
                    "final_chips": r.final_chips,
                    "decisions": [
                        {
                            "step": d.step,
                            "frame": d.frame,
                            "played": d.played,
                            "seat": d.seat,
                            "chips": d.chips,
                            "chosen": d.chosen,
                            "choice": d.choice,
                            "best": d.best,
                            "value": _round(d.value),
                            "loss": _round(d.loss),
                            "noise": _round(d.noise),
                            "mark": d.mark,
                            "deep": None if d.deep is None else [_round(v) for v in d.deep],
                            "hindsight_loss": _round(d.hindsight_loss),
                            "choices": [
                                {
                                    "action": c.action,
                                    "value": _round(c.value),
                                    "hindsight": _round(c.hindsight),
                                }
                                for c in d.choices
                            ],
                        }
                        for d in r.decisions
                    ],
                }
                for r in self.rounds
            ],
        }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


# --- the decisions of a record ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Moment:
    """A decision as it was met in play: the seat's view, the action made, the true deal."""

    view: RoundView
    action: Action
    hidden: Hidden
    frame: int = 0
    """The replay viewer's step showing the position of the decision (0: the deal; every
    action after it one step, a claim with the play it claims)."""


class _Recorder(Round):
    """A round that notes every decision with more than one legal action as it is applied."""

    __slots__ = ("frames", "moments")
    moments: list[Moment]
    frames: int

    def apply(self, action: Action) -> list[Event]:
        frame = self.frames
        if not isinstance(action, Claim):
            self.frames += 1
        if self.result is None and len(self.legal_actions()) > 1:
            view = view_of(self, self.to_act)
            if len(candidates(view)) < 2:  # equivalent plays: no choice to value
                return super().apply(action)
            self.moments.append(
                Moment(view, action, ([list(h) for h in self.hands], list(self.talon)), frame)
            )
        return super().apply(action)


def moments(record: RoundRecord) -> tuple[list[Moment], Round]:
    """Every decision of a (checked) round record, in order, and the round as it ended."""
    rnd = _Recorder(
        record.rules, record.chips, record.board, record.dealer, record.hands, record.talon
    )
    rnd.moments = []
    rnd.frames = 0
    replay_round(record, rnd)
    return rnd.moments, rnd


def action_label(action: Action) -> str:
    """An action as the analysis names it: a card's code, ``claim`` or ``pass``."""
    if isinstance(action, Play):
        return action.card.code
    if isinstance(action, Claim):
        return "claim"
    assert isinstance(action, Pass)
    return "pass"


def _same_choice(a: Action, b: Action, view: RoundView) -> bool:
    if isinstance(a, Play) and isinstance(b, Play):
        board = view.board_cards
        if a.card in board or b.card in board:
            return a.card == b.card
        return a.card.rank == b.card.rank
    return type(a) is type(b)


def record_seed(data: Any) -> int:
    """The seed of a record's analysis: a hash of its canonical JSON."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


# --- valuing one decision --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Valuation:
    """The distinct choices of a view and their values (see :func:`value_choices`)."""

    actions: list[Action]
    values: list[float]
    batches: list[list[float]]
    """Each batch's value of each choice (for the noise)."""
    hindsight: list[float] | None


def value_choices(
    view: RoundView, worlds: int, seed: int, hidden: Hidden | None = None
) -> Valuation:
    """The expert's value of every distinct choice of ``view`` (the seat to act's own view).

    ``worlds`` worlds drawn from ``seed``, in ``BATCHES`` batches; with ``hidden`` (the true
    deal) each choice is also played out once on it (in hindsight).

    A claim that leaves the seat to play on (``announce=manual``: the box is taken, then the
    seat leads or follows) is worth its best continuation: the value of the view after the
    claim's best choice, from the same worlds (the same seed), so a claim is never valued by
    what the rollout policy would play after it.
    """
    cands = candidates(view)
    rng = random.Random(seed)
    first = sample_hidden(view, rng)
    prep = prepare(view, first, learned_model=True)
    start = rng.getrandbits(63)
    sizes = [worlds // BATCHES + (1 if b < worlds % BATCHES else 0) for b in range(BATCHES)]
    plans: list[tuple[list[float], list[list[float]]]] = []
    for own in OWN_PLANS:
        # the same worlds (the same random stream) for every plan of the seat's own moves
        policies = np.full(view.players, ROLLOUT, np.int64)
        policies[view.seat] = own
        state = np.array([start, 0], np.int64)
        totals = np.zeros(len(cands), np.float64)
        weight = 0.0
        runs: list[list[float]] = []
        for size in sizes:
            if size == 0:
                continue
            part = np.zeros(len(cands), np.float64)
            w = run_worlds(prep, policies, MISMATCH, size, state, part)
            runs.append([float(t) / w for t in part])
            totals += part
            weight += w
        plans.append(([float(t) / weight for t in totals], runs))
    # each choice is worth its better plan of the seat's own later moves
    pick = [max(range(len(plans)), key=lambda p: (plans[p][0][i], -p)) for i in range(len(cands))]
    values = [plans[p][0][i] for i, p in enumerate(pick)]
    batches = [
        [plans[p][1][b][i] for i, p in enumerate(pick)] for b in range(len(plans[0][1]))
    ]
    known: list[float] | None = None
    if hidden is not None:
        truth = prepare(view, hidden)
        part = np.zeros(len(cands), np.float64)
        strong = np.full(view.players, LOOKAHEAD, np.int64)
        w = run_worlds(
            truth, strong, MISMATCH, 1, np.array([0, 0], np.int64), part, False, sub=DEEP_ROLLOUT
        )
        known = [float(t) / w for t in part]
    claim = next((i for i, a in enumerate(cands) if isinstance(a, Claim)), None)
    if claim is not None:
        rnd = rebuild(view, first)
        rnd.apply(CLAIM)
        after = view_of(rnd, view.seat)
        if after.my_turn and len(candidates(after)) > 1:
            sub = value_choices(after, worlds, seed, hidden)
            best = max(range(len(sub.values)), key=lambda i: sub.values[i])
            values[claim] = sub.values[best]
            for mine, theirs in zip(batches, sub.batches, strict=True):
                mine[claim] = theirs[best]
            if known is not None and sub.hindsight is not None:
                known[claim] = max(sub.hindsight)
    return Valuation(cands, values, batches, known)


def revalue(
    view: RoundView,
    pair: tuple[Action, Action],
    worlds: int,
    seed: int,
    search: int = DEEP_SEARCH,
) -> tuple[float, float, float]:
    """Two choices of ``view`` (the chosen one, the best) re-valued against strong play.

    The same worlds for both (each world plays both choices with the same random numbers, so
    the difference is paired), and every later choice of every seat (the deciding seat's own
    included) is searched rather than played by a policy: at each one, every distinct choice
    is tried by a rollout (``DEEP_ROLLOUT``) in that world and the best is played
    (``DEEP_SEARCH``). Returns the two values and the standard error of their difference (over
    ``DEEP_BATCHES`` batches). ``search``: every seat's policy code (``SECOND_SEARCH`` for
    the second opinion).
    """
    rng = random.Random(seed)
    prep = prepare(view, sample_hidden(view, rng), learned_model=True)
    keep = [next(i for i, a in enumerate(prep.cands) if a == act) for act in pair]
    prep = replace(prep, cands=[prep.cands[i] for i in keep], codes=prep.codes[keep])
    policies = np.full(view.players, search, np.int64)
    state = np.array([rng.getrandbits(63), 0], np.int64)
    totals = np.zeros(2, np.float64)
    weight = 0.0
    diffs: list[float] = []
    for b in range(DEEP_BATCHES):
        size = worlds // DEEP_BATCHES + (1 if b < worlds % DEEP_BATCHES else 0)
        if size == 0:
            continue
        part = np.zeros(2, np.float64)
        w = run_worlds(prep, policies, MISMATCH, size, state, part, sub=DEEP_ROLLOUT)
        diffs.append(float(part[1] - part[0]) / w)
        totals += part
        weight += w
    return float(totals[0]) / weight, float(totals[1]) / weight, _stderr(diffs)


def _stderr(xs: Sequence[float]) -> float:
    if len(xs) < 2:
        return 0.0
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1) / len(xs))


def mark_of(loss: float, noise: float) -> str | None:
    """The mark a loss earns (None: no mark): the worst mark of ``MARKS`` whose least loss the
    low end of the loss's interval (``loss - NOISE_FACTOR * noise``) still reaches, so a mark
    is only given when the loss is sure to be that large, not when it may be noise."""
    low = loss - NOISE_FACTOR * noise
    for name, least in MARKS:
        if low >= least:
            return name
    return None


def _decision(
    moment: Moment, number: int, step: int, worlds: int, seed: int, hindsight: bool
) -> Decision:
    view = moment.view
    val = value_choices(view, worlds, seed, moment.hidden if hindsight else None)
    at = next(i for i, a in enumerate(val.actions) if _same_choice(a, moment.action, view))
    best = max(range(len(val.actions)), key=lambda i: (val.values[i], -i))
    if val.values[best] - val.values[at] < TIE:
        best = at
    loss = val.values[best] - val.values[at]
    noise = _stderr([b[best] - b[at] for b in val.batches])
    deep: tuple[float, float] | None = None
    second: float | None = None
    if loss >= MARKS[-1][1] and not _is_claim_pair(val.actions[at], val.actions[best]):
        # a would-be mark: re-value the two choices against stronger play before marking
        pair = (val.actions[at], val.actions[best])
        deep_worlds = max(MIN_DEEP, worlds * DEEP_FACTOR)
        mine, top, noise = revalue(view, pair, deep_worlds, seed ^ 0x5EED)
        deep = (mine, top)
        loss = top - mine
        if loss < TIE:
            best, loss = at, min(loss, 0.0)
        elif SECOND_OPINION and mark_of(loss, noise) is not None:
            worlds2 = min(deep_worlds, SECOND_WORLDS)
            mine2, top2, _ = revalue(view, pair, worlds2, seed ^ 0x5EC0, SECOND_SEARCH)
            second = top2 - mine2
    choices = [
        Choice(
            action_label(a),
            val.values[i],
            None if val.hindsight is None else val.hindsight[i],
        )
        for i, a in enumerate(val.actions)
    ]
    return Decision(
        round=number,
        step=step,
        played=len(view.played),
        seat=view.seat,
        chips=view.chips[view.seat],
        chosen=action_label(moment.action),
        choice=choices[at].action,
        choices=choices,
        best=choices[best].action,
        value=val.values[at],
        loss=max(0.0, loss),
        noise=noise,
        mark=None if second is not None and second < MARKS[-1][1] else mark_of(loss, noise),
        deep=deep,
        second=second,
    )


def _is_claim_pair(a: Action, b: Action) -> bool:
    """A claim's value is that of its best continuation (see :func:`value_choices`): the
    re-valuation does not replay it."""
    return isinstance(a, Claim) or isinstance(b, Claim)


# --- a whole game ----------------------------------------------------------------------------


def check_worlds(worlds: int) -> None:
    """Refuse a number of worlds out of ``MIN_WORLDS``..``MAX_WORLDS``."""
    if not MIN_WORLDS <= worlds <= MAX_WORLDS:
        raise AnalysisError(
            "bad-worlds", f"worlds must be from {MIN_WORLDS} to {MAX_WORLDS}, not {worlds}"
        )


def read_game(data: Any) -> list[RoundRecord]:
    """A finished game's checked rounds; :class:`AnalysisError` if malformed or unfinished."""
    try:
        rounds = parse_game(data)
        replays = replay_whole_game(rounds).replays
    except RecordError as exc:
        raise AnalysisError("bad-record", exc.message) from None  # its id kept for the words
    if replays[-1].result is None:
        raise AnalysisError("unfinished", "the game's last round is not finished")
    return rounds


def analyse(
    data: Any,
    *,
    worlds: int = DEFAULT_WORLDS,
    hindsight: bool = False,
    progress: Progress | None = None,
) -> Analysis:
    """Analyse a finished Nain Jaune game (a parsed JSON record: a list of rounds or one).

    Raises :class:`AnalysisError` for a malformed or unfinished record, too many decisions or
    a number of worlds out of bounds.
    """
    check_worlds(worlds)
    rounds = read_game(data)
    seed = record_seed(data)
    found = [moments(r) for r in rounds]
    total = sum(len(m) for m, _ in found)
    if total > MAX_DECISIONS:
        raise AnalysisError(
            "too-long", f"the game has {total} decisions; at most {MAX_DECISIONS} are analysed"
        )
    players = list(rounds[0].players)
    out: list[RoundAnalysis] = []
    done = 0
    if progress is not None:
        progress(0, total)
    for number, (record, (moms, end)) in enumerate(zip(rounds, found, strict=True), start=1):
        start = list(record.new_round().chips)
        seats = game_seats(players, record.players)
        final = [0] * len(players)
        begin = [0] * len(players)
        for pos, seat in enumerate(seats):
            final[seat], begin[seat] = end.chips[pos], start[pos]
        analysed = RoundAnalysis(number, begin, final)
        for step, moment in enumerate(moms, start=1):
            sub = random.Random(f"{seed}:{number}:{step}").getrandbits(63)
            decision = _decision(moment, number, step, worlds, sub, hindsight)
            decision.frame = moment.frame
            if hindsight:  # the choice made: what really happened
                decision.choices = [
                    replace(c, hindsight=float(end.chips[decision.seat]))
                    if c.action == decision.choice
                    else c
                    for c in decision.choices
                ]
            decision.seat = seats[decision.seat]
            analysed.decisions.append(decision)
            done += 1
            if progress is not None:
                progress(done, total)
        out.append(analysed)
    return Analysis(players, out, summarise(players, out), worlds, seed, hindsight)


def game_seats(players: Sequence[str], in_round: Sequence[str]) -> list[int]:
    """The game seat of each of a round's positions (under ``end=last-standing`` the players
    who dropped out are missing, the others keep their order)."""
    seats: list[int] = []
    for name in in_round:
        start = seats[-1] + 1 if seats else 0
        seats.append(next(i for i in range(start, len(players)) if players[i] == name))
    return seats


def accuracy(decisions: Sequence[Decision]) -> float | None:
    """Percent of the chips at stake in ``decisions`` that the choices made kept."""
    stake = sum(d.spread for d in decisions)
    if stake <= 1e-9:
        return None
    return 100.0 * (1.0 - sum(d.loss for d in decisions) / stake)


def summarise(players: Sequence[str], rounds: Sequence[RoundAnalysis]) -> list[PlayerSummary]:
    """Per player: decisions, accuracy, expected chips lost, marks (and the level it is like)."""
    from cardroom.games.nain_jaune.bots.strength import level_like, rating_of

    out = []
    for seat, name in enumerate(players):
        mine = [d for r in rounds for d in r.decisions if d.seat == seat]
        marks = {m: sum(1 for d in mine if d.mark == m) for m, _ in MARKS}
        firsts = {d.round: d for d in reversed(mine)}  # each round's first decision
        known = [d.hindsight_loss for d in firsts.values()]
        acc = accuracy(mine)
        staked = [d for d in mine if d.spread > TIE]
        like: str | None = None
        rating: tuple[float, float, float] | None = None
        if acc is not None and len(staked) >= MIN_LIKE:
            low, high = _accuracy_interval(staked, f"{name}:{seat}")
            like = level_like(acc)
            rating = (rating_of(low), rating_of(acc), rating_of(high))
        out.append(
            PlayerSummary(
                seat,
                name,
                len(mine),
                acc,
                sum(d.loss for d in mine),
                marks,
                None if not mine or None in known else sum(k or 0.0 for k in known),
                like,
                rating,
            )
        )
    return out


def _accuracy_interval(decisions: Sequence[Decision], key: str) -> tuple[float, float]:
    """The 95 % interval of the accuracy of ``decisions`` (a seeded bootstrap)."""
    rng = random.Random(key)
    n = len(decisions)
    found = []
    for _ in range(LIKE_RESAMPLES):
        acc = accuracy([decisions[rng.randrange(n)] for _ in range(n)])
        found.append(100.0 if acc is None else acc)
    found.sort()
    return found[int(0.025 * LIKE_RESAMPLES)], found[int(0.975 * LIKE_RESAMPLES) - 1]
