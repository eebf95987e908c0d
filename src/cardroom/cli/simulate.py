"""``cardroom simulate nain-jaune``: millions of bot rounds on the fast path, summarised."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardroom.cli.groups import CONTEXT, echo_error, simulate
from cardroom.cli.options import (
    MAX_ROUNDS,
    BoundedInt,
    check_plot_path,
    local_workers,
    option_option,
    players_option,
    plot_option,
    seed_option,
    workers_option,
)
from cardroom.games.nain_jaune.rules import PRESETS, RulesError, parse_option_pairs


@simulate.command("nain-jaune", context_settings=CONTEXT)
@click.option("--rounds", type=BoundedInt(1, MAX_ROUNDS), default=100_000, show_default=True,
              help="Rounds to play in all (as games back to back).")
@players_option("Seats at the table, 2-8 (default 4, or the number of --bots).")
@click.option("--preset", type=click.Choice(sorted(PRESETS)), default=None,
              help="A rules preset (default classic).")
@option_option("Override one rules option; repeat for more (e.g. -o end=rounds:10).")
@click.option("--bots", default="random", show_default=True,
              help="Comma-separated bots, repeated in turn to fill the seats: "
              "random, greedy, heuristic (or easy, medium, hard).")
@workers_option("Processes (or Ray CPUs) to use; the results do not depend on it.")
@seed_option(0, "Seed of every deal and bot.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@plot_option("Save the charts (one PNG with five panels) to this file.")
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
    plot_path: Path | None,
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
      cardroom simulate nain-jaune -n 5 --bots heuristic,random --workers 2
      cardroom simulate nain-jaune --preset count -o may_stop=true --json
      cardroom simulate nain-jaune --rounds 200000 --plot charts.png
      cardroom simulate nain-jaune --backend ray --address 127.0.0.1:6379
    """
    # imported here: the fast path needs numba, which no other command loads
    from cardroom.sim.simulate import Simulation, SimulationError, plot, run, summarize

    check_plot_path(plot_path)
    try:
        sim = Simulation.build(
            rounds,
            players=players,
            preset=preset,
            options=parse_option_pairs(list(options)),
            bots=bots.split(","),
            seed=seed,
        )
        if address is not None and backend != "ray":
            raise SimulationError("--address is for --backend ray")
    except (SimulationError, RulesError) as exc:
        raise click.UsageError(str(exc)) from None
    if backend == "local":
        workers = local_workers(workers, sum(1 for _ in sim.chunks()))
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
    failed: str | None = None
    if plot_path is not None:
        try:
            summary["plots"] = [str(plot(sim, stats, plot_path))]
        except OSError as exc:  # the results are printed all the same
            failed = f"could not save the charts to {plot_path}: {exc.strerror or exc}"
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        show(summary, Console())
    if failed is not None:
        echo_error(failed)
        raise SystemExit(1)


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
    head.add_row("games cut short (see below)", f"{games['cut_at_chunk_end']:,}")
    head.caption = (
        f"Rounds are played in chunks of {games['chunk_rounds']:,}, game after game; the "
        "game still going when a chunk runs out is cut: its rounds count in every figure, "
        "but it is not a finished game."
    )
    console.print(head)

    seats = Table(
        title="Seats",
        caption="chips won = a seat's chips after its rounds minus before them, stakes "
        "included. The seats' total is below zero by the chips left on the board when games "
        "end (nobody wins them), so every seat can be below zero.",
    )
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
