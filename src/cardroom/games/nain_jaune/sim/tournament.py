"""Nain Jaune bot tournaments: every deal is played once per rotation of the bots over the seats.

A *deal* is one round dealt from the tournament seed: it starts with every player at
``starting_chips`` and an empty board, and is settled as a single round (no carried board, no
next round). The bots named are cycled to fill the seats (``A,B`` at four seats: ``A B A B``)
and the same deal is played again for every rotation of that lineup, so each bot holds every
hand from every seat and the luck of the deal cancels out.

Per bot, the unit of measure is its mean chips won per round over one deal (all rotations and
all its seats); the mean of those over the deals, with a normal 95% confidence interval, is
``mean_chips_per_round``. Chips won in a round = chips after settlement − chips before the
stakes (so the 15 chips staked count as spent, and boxes taken as won). Each deal is also one
openskill (Plackett-Luce) match between the distinct bots, ranked by that per-deal mean;
``rating`` is the ordinal μ − 3σ after every deal, taken in deal order.

The same bot named twice (``random,random``) gives two entries, told apart by a suffix: the
second is ``random#2``, the third ``random#3``. Results depend only on the bots, the rules,
the number of seats, the seed and the number of deals: not on the number of workers (every
deal has its own seeds and results are merged in deal order). A bot with a time budget
(``search:ms=N``) depends on the machine's speed too; use ``search:iterations=N`` to reproduce.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from statistics import fmean, stdev
from typing import Any

import cardroom.games.nain_jaune.sim.oracle
from cardroom.bots import make_bot
from cardroom.bots.base import REGISTRY, Bot, BotError
from cardroom.games.messages import Message
from cardroom.games.nain_jaune.engine import Round
from cardroom.games.nain_jaune.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from cardroom.games.nain_jaune.sim.play import play_round
from cardroom.sim import workers_error

try:  # OpenSpiel's ISMCTS as the optional peer ``ismcts`` (the research extra)
    import cardroom.games.nain_jaune.research.openspiel_bot  # noqa: F401  (registers ismcts)
except ImportError:

    def _no_ismcts(options: dict[str, str]) -> Bot:
        raise BotError(
            Message(
                "bot.needs-openspiel",
                "bot 'ismcts' needs OpenSpiel: pip install 'cardroom[research]'",
            )
        )

    REGISTRY.setdefault("ismcts", _no_ismcts)


class TournamentError(ValueError):
    """A tournament cannot be run as asked."""


@dataclass(frozen=True)
class Setup:
    """What a tournament plays: bot specs, seats, rules, deals and seed."""

    bots: tuple[str, ...]
    games: int
    players: int
    rules: Rules
    seed: int = 0

    @property
    def entries(self) -> list[str]:
        """The bots as named, a repeated name suffixed ``#2``, ``#3`` …"""
        return entry_names(self.bots)

    @property
    def lineup(self) -> list[int]:
        """Entry index at each seat before rotation: the bots cycled to fill the seats."""
        return [i % len(self.bots) for i in range(self.players)]


def entry_names(specs: Sequence[str]) -> list[str]:
    """``random,random,greedy`` -> ``random, random#2, greedy``."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return out


def check_setup(setup: Setup) -> None:
    """Raise :class:`TournamentError` (or ``BotError``) if the setup cannot be played."""
    if not setup.bots:
        raise TournamentError(
            Message(
                "tournament.no-bots", "name at least one bot, e.g. --bots heuristic,greedy,random"
            )
        )
    for spec in setup.bots:
        make_bot(spec)
    if not MIN_PLAYERS <= setup.players <= MAX_PLAYERS:
        hint = " (--players K sets the seats; the bots are cycled to fill them)"
        raise TournamentError(
            Message(
                "tournament.players",
                f"Nain Jaune is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                f"not {setup.players}{hint}",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                n=setup.players,
            )
        )
    if len(setup.bots) > setup.players:
        raise TournamentError(
            Message(
                "tournament.bots-seats",
                f"{len(setup.bots)} bots cannot share {setup.players} seats: "
                "name at most one bot per seat or raise --players",
                n=len(setup.bots),
                seats=setup.players,
            )
        )
    if setup.games < 1:
        raise TournamentError(
            Message(
                "tournament.games",
                f"--games must be at least 1, not {setup.games}",
                n=setup.games,
            )
        )


@dataclass
class DealResult:
    """One deal, every rotation played: per entry, its chips and wins over its appearances."""

    index: int
    chips: list[int]
    """Total chips won per entry over all its appearances in this deal."""
    appearances: list[int]
    wins: list[int]
    grand_operas: list[int]

    @property
    def means(self) -> list[float]:
        """Per entry, its mean chips won per round in this deal."""
        return [c / a for c, a in zip(self.chips, self.appearances, strict=True)]


def play_deal(setup: Setup, index: int, bots: Sequence[Bot] | None = None) -> DealResult:
    """Play deal ``index`` once per rotation of the lineup."""
    entries = len(setup.bots)
    if bots is None:
        bots = [make_bot(spec) for spec in setup.bots]
    k = setup.players
    start = setup.rules.starting_chips
    out = DealResult(index, [0] * entries, [0] * entries, [0] * entries, [0] * entries)
    lineup = setup.lineup
    for rotation in range(k):
        seats = [lineup[(i + rotation) % k] for i in range(k)]
        rnd = Round.deal(
            setup.rules, [start] * k, [0] * 5, 0, random.Random(f"{setup.seed}/deal/{index}")
        )
        rngs = [random.Random(f"{setup.seed}/deal/{index}/{rotation}/{i}") for i in range(k)]
        play_round(rnd, [bots[e] for e in seats], rngs)
        res = rnd.result
        assert res is not None
        for seat, e in enumerate(seats):
            out.chips[e] += res.chips[seat] - start
            out.appearances[e] += 1
        out.wins[seats[res.winner]] += 1
        if res.grand_opera:
            out.grand_operas[seats[res.winner]] += 1
    return out


def _play_chunk(setup: Setup, indices: list[int]) -> list[DealResult]:
    bots = [make_bot(spec) for spec in setup.bots]
    return [play_deal(setup, i, bots) for i in indices]


@dataclass
class EntryStats:
    """One entry's results."""

    name: str
    mean_chips_per_round: float
    ci95: tuple[float, float]
    round_win_rate: float
    rating: float
    mu: float
    sigma: float
    grand_operas: int
    rounds: int
    wins: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready numbers."""
        return {
            "mean_chips_per_round": self.mean_chips_per_round,
            "ci95": list(self.ci95),
            "round_win_rate": self.round_win_rate,
            "rating": self.rating,
            "mu": self.mu,
            "sigma": self.sigma,
            "grand_operas": self.grand_operas,
            "rounds": self.rounds,
            "round_wins": self.wins,
        }


@dataclass
class TournamentResult:
    """Every deal's result (in deal order), each entry's stats and the rating history."""

    setup: Setup
    deals: list[DealResult]
    stats: list[EntryStats] = field(default_factory=list)
    rating_history: list[list[float]] = field(default_factory=list)
    """Per entry, its rating after each deal."""

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document."""
        s = self.setup
        return {
            "bots": {st.name: st.to_json() for st in self.stats},
            "games": s.games,
            "players": s.players,
            "rounds": s.games * s.players,
            "seed": s.seed,
            "lineup": [s.entries[e] for e in s.lineup],
            "rules": s.rules.to_json(),
        }


def run_tournament(
    setup: Setup, workers: int = 1, progress: Callable[[int], None] | None = None
) -> TournamentResult:
    """Play every deal (on ``workers`` processes) and compute the results."""
    check_setup(setup)
    if workers < 1:
        raise TournamentError(workers_error(workers))
    indices = list(range(setup.games))
    deals: list[DealResult] = []
    if workers == 1 or setup.games == 1:
        bots = [make_bot(spec) for spec in setup.bots]
        for i in indices:
            deals.append(play_deal(setup, i, bots))
            if progress:
                progress(1)
    else:
        size = max(1, min(20, setup.games // (workers * 4) or 1))
        chunks = [indices[i : i + size] for i in range(0, len(indices), size)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_play_chunk, setup, chunk) for chunk in chunks]
            for future in as_completed(futures):
                done = future.result()
                deals.extend(done)
                if progress:
                    progress(len(done))
        deals.sort(key=lambda d: d.index)
    return summarise(setup, deals)


def summarise(setup: Setup, deals: list[DealResult]) -> TournamentResult:
    """Means, confidence intervals, win rates and openskill ratings, in deal order."""
    from openskill.models import PlackettLuce

    names = setup.entries
    model = PlackettLuce()
    ratings = [model.rating(name=name) for name in names]
    history: list[list[float]] = [[] for _ in names]
    for deal in deals:
        if len(names) >= 2:
            teams = [[r] for r in ratings]
            rated = model.rate(teams, scores=deal.means)
            ratings = [team[0] for team in rated]
        for e, r in enumerate(ratings):
            history[e].append(float(r.ordinal()))
    result = TournamentResult(setup, deals, rating_history=history)
    for e, name in enumerate(names):
        samples = [d.means[e] for d in deals]
        mean = fmean(samples)
        half = 1.96 * stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else 0.0
        rounds = sum(d.appearances[e] for d in deals)
        wins = sum(d.wins[e] for d in deals)
        result.stats.append(
            EntryStats(
                name=name,
                mean_chips_per_round=mean,
                ci95=(mean - half, mean + half),
                round_win_rate=wins / rounds,
                rating=float(ratings[e].ordinal()),
                mu=float(ratings[e].mu),
                sigma=float(ratings[e].sigma),
                grand_operas=sum(d.grand_operas[e] for d in deals),
                rounds=rounds,
                wins=wins,
            )
        )
    return result


def plot(result: TournamentResult, path: str) -> None:
    """Save a chart: cumulative chips over the deals, and the ratings after each deal."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 8), sharex=True)
    xs = list(range(1, len(result.deals) + 1))
    for e, name in enumerate(result.setup.entries):
        total = 0.0
        ys = []
        for deal in result.deals:
            total += deal.means[e]
            ys.append(total)
        top.plot(xs, ys, label=name)
        bottom.plot(xs, result.rating_history[e], label=name)
    s = result.setup
    lineup = " ".join(s.entries[e] for e in s.lineup)
    classic = Rules().to_json()
    rules = s.rules.preset_name or "classic with " + ", ".join(
        f"{k}={v}" for k, v in s.rules.to_json().items() if v != classic[k]
    )
    top.set_ylabel("chips won so far (sum of each deal's mean per round)")
    top.set_title(
        f"Nain Jaune tournament: {s.games} deals × {s.players} rotations, seats {lineup}, "
        f"seed {s.seed}\nrules: {rules}",
        fontsize=9,
    )
    top.legend()
    bottom.set_ylabel("openskill rating (μ − 3σ)")
    bottom.set_xlabel("deal")
    bottom.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
