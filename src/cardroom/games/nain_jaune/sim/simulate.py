"""Bulk simulation of Nain Jaune on the fast path: chunks, a process pool or Ray, a summary.

A simulation of ``N`` rounds is cut into chunks of :data:`CHUNK_ROUNDS` rounds (the last one
shorter). Chunk ``c`` plays games back to back, game ``g`` drawing from the streams keyed
``game_key(seed, c, g)`` (:mod:`cardroom.kernels.streams`); the game still going when the chunk's
rounds run out is *cut*: its rounds count in every per-round figure, but it is not a finished
game. A chunk depends only on the seed and its number, and the statistics of chunks add up (a
fixed-size array), so the result is the same for any number of workers, on either backend, and
memory stays flat however many rounds are played.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardroom.games.errors import RulesError
from cardroom.games.messages import Message
from cardroom.games.nain_jaune import kernel as fast
from cardroom.games.nain_jaune.engine import Game
from cardroom.games.nain_jaune.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from cardroom.games.options import players_error
from cardroom.kernels.streams import MAX_GAME_ROUNDS, derive_seed
from cardroom.sim import workers_error

CHUNK_ROUNDS = 10_000
"""Rounds per chunk: the unit of work and of reproducibility (never depends on workers)."""
BOT_ALIASES = {"easy": "random", "medium": "greedy", "hard": "heuristic"}


class SimulationError(ValueError):
    """A simulation was asked for with settings that cannot work; the message says why."""


ADDRESS_FOR_RAY = Message("sim.address", "--address is for --backend ray")


@dataclass(frozen=True)
class Simulation:
    """What to simulate: rules, one bot name per seat, how many rounds, the seed."""

    rules: Rules
    bots: tuple[str, ...]
    rounds: int
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.rounds, int) or self.rounds < 1:
            raise SimulationError(
                Message(
                    "sim.rounds",
                    f"--rounds must be a whole number of at least 1, not {self.rounds}",
                    n=self.rounds,
                )
            )
        if not MIN_PLAYERS <= len(self.bots) <= MAX_PLAYERS:
            n = len(self.bots)
            raise SimulationError(players_error("nain-jaune", n, MIN_PLAYERS, MAX_PLAYERS))
        unknown = [b for b in self.bots if b not in fast.POLICIES]
        if unknown:
            known = ", ".join(fast.POLICIES)
            raise SimulationError(
                Message(
                    "sim.bulk-bot",
                    f"bot {unknown[0]!r} cannot be simulated in bulk: choose among "
                    f"{known} (or easy, medium, hard)",
                    typed=unknown[0],
                    known=f"{known}, easy, medium, hard",
                )
            )
        try:  # the readable engine's own checks (an unreachable target, …)
            Game(self.rules, [f"seat {i}" for i in range(len(self.bots))])
        except RulesError as exc:
            raise SimulationError(exc.message) from None

    @classmethod
    def build(
        cls,
        rounds: int,
        players: int | None = None,
        preset: str | None = None,
        options: dict[str, str] | None = None,
        bots: Sequence[str] | None = None,
        seed: int = 0,
    ) -> Simulation:
        """From command-line values: bots are repeated in turn to fill ``players`` seats."""
        names = [BOT_ALIASES.get(b.strip(), b.strip()) for b in (bots or ["random"])]
        if any(not b for b in names):
            raise SimulationError(
                Message(
                    "sim.bots-list",
                    "--bots is a comma-separated list of bot names, e.g. random,greedy",
                )
            )
        if players is None:
            players = len(names) if bots and len(names) > 1 else 4
        if len(names) > players:
            raise SimulationError(
                Message(
                    "sim.bots-players",
                    f"{len(names)} bots for {players} players: give at most {players}",
                    n=len(names),
                    players=players,
                )
            )
        seats = tuple(names[i % len(names)] for i in range(players))
        try:
            rules = Rules.from_options(preset, options or {})
        except RulesError as exc:
            raise SimulationError(exc.message) from None
        return cls(rules, seats, rounds, seed)

    def chunks(self) -> Iterator[tuple[int, int]]:
        """``(chunk number, rounds)`` for every chunk, in order."""
        full, rest = divmod(self.rounds, CHUNK_ROUNDS)
        for c in range(full):
            yield c, CHUNK_ROUNDS
        if rest:
            yield full, rest


def merge(total: np.ndarray[Any, Any], part: np.ndarray[Any, Any]) -> None:
    """Add the statistics ``part`` into ``total`` (box maxima take the maximum)."""
    hi = slice(fast.ST_BOX_MAX, fast.ST_BOX_MAX + 5)
    top = np.maximum(total[hi], part[hi])
    total += part
    total[hi] = top


def play_chunks(
    rules_json: dict[str, Any], bots: Sequence[str], seed: int, chunks: Sequence[tuple[int, int]]
) -> np.ndarray[Any, Any]:
    """The summed statistics of some chunks (what a worker process or a Ray task runs)."""
    r = fast.encode_rules(Rules.from_json(rules_json))
    policies = fast.encode_policies(bots)
    total = np.zeros(fast.ST_SIZE, np.int64)
    root = derive_seed(seed)
    for chunk, n in chunks:
        merge(total, fast.run_chunk(r, policies, root, chunk, n))
    return total


def _pool_task(args: tuple[dict[str, Any], tuple[str, ...], int, int, int]) -> Any:
    rules_json, bots, seed, chunk, n = args
    return n, play_chunks(rules_json, bots, seed, [(chunk, n)])


Progress = Callable[[int], None]
"""Called with the number of rounds just finished."""


def run(
    sim: Simulation,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> tuple[np.ndarray[Any, Any], float]:
    """Play the simulation; returns the statistics array and the seconds it took."""
    if workers < 1:
        raise SimulationError(workers_error(workers))
    if backend not in ("local", "ray"):
        raise SimulationError(
            Message(
                "sim.backend",
                f"--backend must be local or ray, not {backend!r}",
                typed=backend,
            )
        )
    if address is not None and backend != "ray":
        raise SimulationError(ADDRESS_FOR_RAY)
    report = progress or (lambda n: None)
    total = np.zeros(fast.ST_SIZE, np.int64)
    rules_json = sim.rules.to_json()
    if backend == "ray":
        start = time.perf_counter()
        _run_ray(sim, workers, address, total, report)
        return total, time.perf_counter() - start
    # compile (or load the cached machine code) before the clock starts
    play_chunks(rules_json, sim.bots, sim.seed, [(0, 1)])
    start = time.perf_counter()
    if workers == 1:
        r = fast.encode_rules(sim.rules)
        policies = fast.encode_policies(sim.bots)
        root = derive_seed(sim.seed)
        for chunk, n in sim.chunks():
            merge(total, fast.run_chunk(r, policies, root, chunk, n))
            report(n)
        return total, time.perf_counter() - start
    tasks = ((rules_json, sim.bots, sim.seed, c, n) for c, n in sim.chunks())
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for n, part in pool.imap_unordered(_pool_task, tasks):
            merge(total, part)
            report(n)
    return total, time.perf_counter() - start


def _run_ray(
    sim: Simulation,
    workers: int,
    address: str | None,
    total: np.ndarray[Any, Any],
    report: Progress,
) -> None:
    try:
        import ray
    except ImportError:
        raise SimulationError(
            Message(
                "sim.needs-ray",
                "--backend ray needs Ray: pip install '.[distributed]' in the cardroom project "
                "folder",
            )
        ) from None
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage report over the network
    started_here = not ray.is_initialized()
    if started_here:
        if address is None:  # a private Ray on this machine, on the loopback address only
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                log_to_driver=False,
                _node_ip_address="127.0.0.1",
            )
        else:
            ray.init(address=address, log_to_driver=False)
    try:
        task = ray.remote(play_chunks)
        chunks = list(sim.chunks())
        per_task = max(1, -(-len(chunks) // (4 * workers)))
        groups = [chunks[i : i + per_task] for i in range(0, len(chunks), per_task)]
        rules_json = sim.rules.to_json()
        pending: dict[Any, int] = {}
        todo = iter(groups)
        for group in todo:  # keep at most 2 * workers tasks in flight: flat memory
            pending[task.remote(rules_json, sim.bots, sim.seed, group)] = sum(n for _, n in group)
            if len(pending) >= 2 * workers:
                break
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                merge(total, ray.get(ref))
                report(pending.pop(ref))
            for group in todo:
                pending[task.remote(rules_json, sim.bots, sim.seed, group)] = sum(
                    n for _, n in group
                )
                break
    finally:
        if started_here:
            ray.shutdown()


def summarize(sim: Simulation, stats: np.ndarray[Any, Any], seconds: float) -> dict[str, Any]:
    """The JSON-ready summary of a simulation's statistics."""
    st = [int(x) for x in stats]
    rounds = st[fast.ST_ROUNDS]
    nseats = len(sim.bots)
    seats = []
    for seat, bot in enumerate(sim.bots):
        played = st[fast.ST_SEAT_ROUNDS + seat]
        seats.append(
            {
                "seat": seat,
                "bot": bot,
                "rounds_played": played,
                "rounds_won": st[fast.ST_ROUND_WINS + seat],
                "chips_won": st[fast.ST_NET + seat],
                "chips_won_per_round": st[fast.ST_NET + seat] / played if played else 0.0,
                "games_won": st[fast.ST_GAME_WINS + seat],
            }
        )
    bots: dict[str, dict[str, Any]] = {}
    for s in seats:
        b = bots.setdefault(
            str(s["bot"]),
            {"seats": 0, "seat_rounds": 0, "rounds_won": 0, "chips_won": 0, "games_won": 0},
        )
        b["seats"] += 1
        b["seat_rounds"] += s["rounds_played"]
        b["rounds_won"] += s["rounds_won"]
        b["chips_won"] += s["chips_won"]
        b["games_won"] += s["games_won"]
    for b in bots.values():
        b["chips_won_per_round"] = b["chips_won"] / b["seat_rounds"] if b["seat_rounds"] else 0.0
    games = st[fast.ST_GAMES]
    reasons = {
        fast.REASONS[code]: st[fast.ST_REASON + code]
        for code in range(1, fast.N_REASONS)
        if st[fast.ST_REASON + code]
    }
    boxes = [
        {
            "card": card.code,
            "mean": st[fast.ST_BOX_SUM + box] / rounds if rounds else 0.0,
            "max": st[fast.ST_BOX_MAX + box],
        }
        for box, card in enumerate(sim.rules.board_cards)
    ]
    return {
        "rules": sim.rules.to_json(),
        "players": nseats,
        "bots": list(sim.bots),
        "seed": sim.seed,
        "rounds": rounds,
        "seconds": seconds,
        "rounds_per_second": rounds / seconds if seconds > 0 else 0.0,
        "cards_per_round": st[fast.ST_CARDS] / rounds if rounds else 0.0,
        "passes_per_round": st[fast.ST_PASSES] / rounds if rounds else 0.0,
        "grand_opera": {
            "rounds": st[fast.ST_OPERA],
            "frequency": st[fast.ST_OPERA] / rounds if rounds else 0.0,
            "chips_swept": st[fast.ST_OPERA_CHIPS],
        },
        "short_payment_rounds": st[fast.ST_SHORT_ROUNDS],
        "seats": seats,
        "per_bot": bots,
        "boxes": boxes,
        "games": {
            "finished": games,
            "rounds_per_game": st[fast.ST_GAME_ROUNDS] / games if games else 0.0,
            "end_reasons": reasons,
            "cut_at_chunk_end": st[fast.ST_CUT],
            "chunk_rounds": CHUNK_ROUNDS,
            "rounds_in_cut_games": st[fast.ST_CUT_ROUNDS],
            "round_limit": MAX_GAME_ROUNDS,
        },
    }


def plot(sim: Simulation, stats: np.ndarray[Any, Any], path: Path) -> Path:
    """Save the charts of a simulation as one PNG (five panels) at ``path``; return it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = summarize(sim, stats, 0.0)
    fig, axes = plt.subplots(3, 2, figsize=(12, 12))
    (chips, cards), (length, ends), (board, blank) = axes
    blank.axis("off")

    labels = [f"{s['seat']}: {s['bot']}" for s in summary["seats"]]
    chips.bar(labels, [s["chips_won_per_round"] for s in summary["seats"]], color="#c9a227")
    chips.axhline(0, color="black", linewidth=0.8)
    chips.set_ylabel("chips won per round (stakes included)")
    chips.set_title("Chips won per round, by seat")

    hist = stats[fast.ST_CARDS_HIST : fast.ST_CARDS_HIST + 53]
    cards.bar(range(53), hist, color="#4c72b0")
    cards.set_xlabel("cards played in the round")
    cards.set_ylabel("rounds")
    cards.set_title("Cards per round")

    hist = stats[fast.ST_GAME_LEN_HIST : fast.ST_GAME_LEN_HIST + MAX_GAME_ROUNDS + 1]
    last = int(np.nonzero(hist)[0].max()) + 1 if hist.any() else 2
    length.bar(range(last), hist[:last], color="#55a868")
    length.set_xlabel("rounds in a finished game")
    length.set_ylabel("games")
    length.set_title("Game length")

    reasons = summary["games"]["end_reasons"]
    ends.barh(list(reasons), list(reasons.values()), color="#8172b2")
    ends.set_xlabel("games")
    ends.set_title("How games end")

    hist = stats[fast.ST_BOARD_HIST : fast.ST_BOARD_HIST + fast.BOARD_BINS]
    board.bar([10 * i for i in range(fast.BOARD_BINS)], hist, width=9, color="#dd8452")
    top = 10 * (fast.BOARD_BINS - 1)
    board.set_xlabel(f"chips on the board after a round (bins of 10, the last ≥ {top})")
    board.set_ylabel("rounds")
    board.set_title("Board size")

    preset = sim.rules.preset_name or "custom rules"
    fig.suptitle(
        f"Nain Jaune simulation: {summary['rounds']:,} rounds, {len(sim.bots)} seats "
        f"({', '.join(sim.bots)}), {preset}, end={sim.rules.end}, seed {sim.seed}"
    )
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100, format="png")
    finally:
        plt.close(fig)
    return path
