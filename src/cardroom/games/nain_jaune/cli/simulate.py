"""``cardroom simulate nain-jaune``: millions of bot rounds on the fast path, summarised."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardroom.cli.groups import CONTEXT, current_lang, echo_error, lang_option, simulate
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
from cardroom.games.errors import RulesError
from cardroom.games.nain_jaune.rules import PRESETS
from cardroom.games.options import parse_option_pairs
from cardroom.i18n import Translator
from cardroom.i18n.numbers import decimal, integer
from cardroom.i18n.reasons import rules_error_text
from cardroom.i18n.words import N_, labelled, tr_of


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
@lang_option
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
    from cardroom.games.nain_jaune.sim.simulate import (
        ADDRESS_FOR_RAY,
        Simulation,
        SimulationError,
        plot,
        run,
        summarize,
    )

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
            raise SimulationError(ADDRESS_FOR_RAY)
    except (SimulationError, RulesError) as exc:
        raise click.UsageError(rules_error_text(exc, tr_of(current_lang()))) from None
    if backend == "local":
        workers = local_workers(workers, sum(1 for _ in sim.chunks()))
    err = Console(stderr=True)
    tr = tr_of(current_lang())
    try:
        if as_json:
            stats, seconds = run(sim, workers, backend, address)
        else:
            with Progress(
                TextColumn("[bold]" + escape(tr._("simulating"))),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(escape(tr._("rounds"))),
                TimeRemainingColumn(),
                console=err,
                transient=True,
            ) as bar:
                job = bar.add_task("rounds", total=sim.rounds)
                stats, seconds = run(
                    sim, workers, backend, address, lambda n: bar.advance(job, n)
                )
    except SimulationError as exc:
        raise click.ClickException(rules_error_text(exc, tr_of(current_lang()))) from None
    summary = summarize(sim, stats, seconds)
    failed: str | None = None
    if plot_path is not None:
        try:
            summary["plots"] = [str(plot(sim, stats, plot_path))]
        except OSError as exc:  # the results are printed all the same
            failed = tr._("could not save the charts to {path}: {reason}", path=plot_path,
                          reason=exc.strerror or exc)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        show(summary, Console(), tr)
    if failed is not None:
        echo_error(failed)
        raise SystemExit(1)


def show(summary: dict[str, Any], console: Console, lang: str | Translator | None = None) -> None:
    """Print a summary as rich tables."""
    tr = tr_of(lang)

    def count(n: int) -> str:
        return _number(n, tr)

    head = Table(title=tr._("Nain Jaune simulation"), show_header=False)
    lineup = labelled(summary["players"], ", ".join(summary["bots"]), tr)
    head.add_row(tr._("players / bots"), lineup)
    head.add_row(tr._("rounds"), count(summary["rounds"]))
    head.add_row(tr._("rounds per second"), count(round(summary["rounds_per_second"])))
    head.add_row(tr._("cards per round"), _decimal(summary["cards_per_round"], 2, tr))
    head.add_row(tr._("passes per round"), _decimal(summary["passes_per_round"], 2, tr))
    opera = summary["grand_opera"]
    head.add_row(
        tr._("grand opéra"),
        tr.ngettext("{count} round ({percent} %)", "{count} rounds ({percent} %)",
                    opera["rounds"], count=count(opera["rounds"]),
                    percent=_decimal(100 * opera["frequency"], 3, tr)),
    )
    games = summary["games"]
    head.add_row(tr._("finished games"), count(games["finished"]))
    head.add_row(tr._("rounds per game"), _decimal(games["rounds_per_game"], 2, tr))
    head.add_row(tr._("games cut short (see below)"), count(games["cut_at_chunk_end"]))
    head.caption = tr._(
        "Rounds are played in chunks of {chunk}, game after game; the game still going when a "
        "chunk runs out is cut: its rounds count in every figure, but it is not a finished game.",
        chunk=count(games["chunk_rounds"]),
    )
    console.print(head)

    seats = Table(
        title=tr._("Seats"),
        caption=tr._(
            "chips won = a seat's chips after its rounds minus before them, stakes included. "
            "The seats' total is below zero by the chips left on the board when games end "
            "(nobody wins them), so every seat can be below zero."
        ),
    )
    for col in (N_("seat"), N_("bot"), N_("rounds won"), N_("chips won"), N_("chips / round"),
                N_("games won")):
        seats.add_column(tr._(col), justify="right")
    for s in summary["seats"]:
        seats.add_row(
            str(s["seat"]), s["bot"], count(s["rounds_won"]), count(s["chips_won"]),
            _decimal(s["chips_won_per_round"], 3, tr, sign=True), count(s["games_won"]),
        )
    console.print(seats)

    bots = Table(title=tr._("Bots"))
    for col in (N_("bot"), N_("seats"), N_("chips / seat-round"), N_("rounds won"),
                N_("games won")):
        bots.add_column(tr._(col), justify="right")
    for name, b in summary["per_bot"].items():
        bots.add_row(
            name, str(b["seats"]), _decimal(b["chips_won_per_round"], 3, tr, sign=True),
            count(b["rounds_won"]), count(b["games_won"]),
        )
    console.print(bots)

    boxes = Table(title=tr._("Boxes after a round"))
    for col in (N_("box"), N_("mean chips"), N_("max chips")):
        boxes.add_column(tr._(col), justify="right")
    for b in summary["boxes"]:
        boxes.add_row(b["card"], _decimal(b["mean"], 2, tr), count(b["max"]))
    console.print(boxes)

    ends = Table(title=tr._("How finished games ended"))
    ends.add_column(tr._("end reason"))
    ends.add_column(tr._("games"), justify="right")
    ends.add_column(tr._("share"), justify="right")
    for reason, n in games["end_reasons"].items():
        share = n / games["finished"] if games["finished"] else 0.0
        ends.add_row(tr._(END_REASONS.get(reason, reason)), count(n),
                     f"{_decimal(100 * share, 1, tr)} %")
    console.print(ends)
    for path in summary.get("plots", []):
        console.print(tr._("wrote {path}", path=path))


END_REASONS = {
    "unfinished": N_("unfinished"),
    "a player could not pay in full": N_("a player could not pay in full"),
    "a player cannot stake for the next round": N_("a player cannot stake for the next round"),
    "only one player can still stake": N_("only one player can still stake"),
    "nobody can stake": N_("nobody can stake"),
    "rounds played": N_("rounds played"),
    "reached the target": N_("reached the target"),
    "round limit": N_("round limit"),
}
"""The end reasons of a game as the summary names them."""


def _number(n: int, tr: Translator) -> str:
    """``1,234,567`` (French: ``1 234 567``, with narrow no-break spaces)."""
    return integer(n, tr)


def _decimal(x: float, places: int, tr: Translator, sign: bool = False) -> str:
    """``x`` with ``places`` decimals (a decimal comma in French)."""
    return decimal(x, places, tr, sign=sign)
