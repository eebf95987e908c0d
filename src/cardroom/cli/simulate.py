"""``cardroom simulate nain-jaune``: millions of bot rounds on the fast path, summarised."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardroom.cli.groups import CONTEXT, simulate
from cardroom.games.nain_jaune.rules import PRESETS, RulesError, parse_option_pairs
from cardroom.sim.simulate import Simulation, SimulationError, plot, run, summarize


@simulate.command("nain-jaune", context_settings=CONTEXT)
@click.option("--rounds", "-n", type=int, default=100_000, show_default=True,
              help="Rounds to play in all (as games back to back).")
@click.option("--players", type=int, default=None,
              help="Seats at the table, 2-8 (default 4, or the number of --bots).")
@click.option("--preset", type=click.Choice(sorted(PRESETS)), default=None,
              help="A rules preset (default classic).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="Override one rules option; repeat for more (e.g. --option end=rounds:10).")
@click.option("--bots", default="random", show_default=True,
              help="Comma-separated bots, repeated in turn to fill the seats: "
              "random, greedy, heuristic (or easy, medium, hard).")
@click.option("--workers", type=int, default=1, show_default=True,
              help="Processes (or Ray CPUs) to use; the results do not depend on it.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of every deal and bot.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Write PNG charts into this directory.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="Where to run: local processes or Ray tasks.")
@click.option("--address", default=None,
              help="Address of a running Ray cluster (with --backend ray); "
              "default: start one here.")
def simulate_nain_jaune(
    rounds: int,
    players: int | None,
    preset: str | None,
    options: tuple[str, ...],
    bots: str,
    workers: int,
    seed: int,
    as_json: bool,
    plot_dir: Path | None,
    backend: str,
    address: str | None,
) -> None:
    """Play many rounds of Nain Jaune between bots and summarise them.

    Rounds are played as whole games under the `end` option, one after another; every deal and
    every bot decision comes from --seed, so the same seed gives the same summary for any
    --workers and on either backend (only the speed changes).

    \b
    Examples:
      cardroom simulate nain-jaune --rounds 1000000
      cardroom simulate nain-jaune --players 5 --bots heuristic,random --workers 2
      cardroom simulate nain-jaune --preset count --option may_stop=true --json
      cardroom simulate nain-jaune --rounds 200000 --plot charts/
      cardroom simulate nain-jaune --backend ray --address 127.0.0.1:6379
    """
    try:
        sim = Simulation.build(
            rounds,
            players=players,
            preset=preset,
            options=parse_option_pairs(list(options)),
            bots=bots.split(","),
            seed=seed,
        )
        if workers < 1:
            raise SimulationError(f"--workers must be at least 1, not {workers}")
        if address is not None and backend != "ray":
            raise SimulationError("--address is for --backend ray")
        if plot_dir is not None and plot_dir.exists() and not plot_dir.is_dir():
            raise SimulationError(f"--plot {plot_dir}: not a directory")
    except (SimulationError, RulesError) as exc:
        raise click.UsageError(str(exc)) from None
    err = Console(stderr=True)
    try:
        if as_json:
            stats, seconds = run(sim, workers, backend, address)
        else:
            with Progress(
                TextColumn("[bold]simulating"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("rounds"),
                TimeRemainingColumn(),
                console=err,
                transient=True,
            ) as bar:
                job = bar.add_task("rounds", total=sim.rounds)
                stats, seconds = run(
                    sim, workers, backend, address, lambda n: bar.advance(job, n)
                )
    except SimulationError as exc:
        raise click.ClickException(str(exc)) from None
    summary = summarize(sim, stats, seconds)
    if plot_dir is not None:
        summary["plots"] = [str(p) for p in plot(sim, stats, plot_dir)]
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        show(summary, Console())


def show(summary: dict[str, Any], console: Console) -> None:
    """Print a summary as rich tables."""
    head = Table(title="Nain Jaune simulation", show_header=False)
    head.add_row("players / bots", f"{summary['players']}: {', '.join(summary['bots'])}")
    head.add_row("rounds", f"{summary['rounds']:,}")
    head.add_row("rounds per second", f"{summary['rounds_per_second']:,.0f}")
    head.add_row("cards per round", f"{summary['cards_per_round']:.2f}")
    head.add_row("passes per round", f"{summary['passes_per_round']:.2f}")
    opera = summary["grand_opera"]
    head.add_row("grand opéra", f"{opera['rounds']:,} rounds ({100 * opera['frequency']:.3f} %)")
    games = summary["games"]
    head.add_row("finished games", f"{games['finished']:,}")
    head.add_row("rounds per game", f"{games['rounds_per_game']:.2f}")
    head.add_row("games cut at a chunk end", f"{games['cut_at_chunk_end']:,}")
    console.print(head)

    seats = Table(title="Seats")
    for col in ("seat", "bot", "rounds won", "chips won", "chips / round", "games won"):
        seats.add_column(col, justify="right")
    for s in summary["seats"]:
        seats.add_row(
            str(s["seat"]), s["bot"], f"{s['rounds_won']:,}", f"{s['chips_won']:,}",
            f"{s['chips_won_per_round']:+.3f}", f"{s['games_won']:,}",
        )
    console.print(seats)

    bots = Table(title="Bots")
    for col in ("bot", "seats", "chips / seat-round", "rounds won", "games won"):
        bots.add_column(col, justify="right")
    for name, b in summary["per_bot"].items():
        bots.add_row(
            name, str(b["seats"]), f"{b['chips_won_per_round']:+.3f}", f"{b['rounds_won']:,}",
            f"{b['games_won']:,}",
        )
    console.print(bots)

    boxes = Table(title="Boxes after a round")
    for col in ("box", "mean chips", "max chips"):
        boxes.add_column(col, justify="right")
    for b in summary["boxes"]:
        boxes.add_row(b["card"], f"{b['mean']:.2f}", f"{b['max']:,}")
    console.print(boxes)

    ends = Table(title="How finished games ended")
    ends.add_column("end reason")
    ends.add_column("games", justify="right")
    ends.add_column("share", justify="right")
    for reason, count in games["end_reasons"].items():
        share = count / games["finished"] if games["finished"] else 0.0
        ends.add_row(reason, f"{count:,}", f"{100 * share:.1f} %")
    console.print(ends)
    for path in summary.get("plots", []):
        console.print(f"wrote {path}")
