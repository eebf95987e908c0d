"""``cardroom tournament nain-jaune``: rank bots over many deals, every rotation of the seats."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardroom.bots.base import BotError
from cardroom.cli.groups import CONTEXT, current_lang, echo_error, lang_option, tournament
from cardroom.cli.options import (
    MAX_DEALS,
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
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.tournament import (
    Setup,
    TournamentError,
    TournamentResult,
    check_setup,
    plot,
    run_tournament,
)
from cardroom.games.options import parse_option_pairs
from cardroom.i18n import Translator
from cardroom.i18n.numbers import decimal, integer, percent
from cardroom.i18n.reasons import rules_error_text
from cardroom.i18n.words import N_, tr_of


@tournament.command("nain-jaune", context_settings=CONTEXT)
@click.option("--bots", "bots_text", required=True, help="Comma-separated bots: NAME[:k=v,…].")
@click.option("--games", type=BoundedInt(1, MAX_DEALS), required=True,
              help="Number of deals (each played K times).")
@players_option("Seats K, 2-8 (default: number of bots).")
@click.option("--preset", default=None, help="Rules preset: classic, count or ace-high.")
@option_option("A rules option key=value (repeatable), e.g. -o may_stop=true.")
@seed_option(0, "Tournament seed.")
@workers_option("Processes to use; the results do not depend on it.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@plot_option("Save a chart to this PNG file.")
@lang_option
def nain_jaune(
    bots_text: str,
    games: int,
    players: int | None,
    preset: str | None,
    options: tuple[str, ...],
    seed: int,
    workers: int,
    as_json: bool,
    plot_path: Path | None,
) -> None:
    """Rank Nain Jaune bots: every deal is played once per rotation of the bots over the seats.

    The bots are cycled to fill the seats (A,B at 4 seats: A B A B). Each deal is one round from
    starting_chips with an empty board. A bot named twice becomes NAME and NAME#2. Bots:
    random, greedy, heuristic, expert[:ms=N|iterations=N], search[:ms=N|iterations=N] (the
    readable search expert replaced), ismcts[:ms=N|simulations=N] (OpenSpiel's ISMCTS, with the
    research extra), or a level easy/medium/hard/expert; after a comma, a key=value with no ':'
    of its own is one more option of the bot before it.

    \b
    Examples:
      cardroom tournament nain-jaune --bots heuristic,greedy,random --games 1000
      cardroom tournament nain-jaune --bots expert:ms=30,search:ms=30,heuristic --players 4
      cardroom tournament nain-jaune --bots expert:ms=150,ismcts:ms=150 --players 4 --games 100
      cardroom tournament nain-jaune --bots random,random --players 3 --games 50 --json
      cardroom tournament nain-jaune --bots greedy,random --games 200 --preset count \\
          -o may_stop=true --plot chips.png --workers 2
    """
    check_plot_path(plot_path)
    specs = split_bots(bots_text)
    try:
        rules = Rules.from_options(preset, parse_option_pairs(list(options)))
        setup = Setup(specs, games, players if players is not None else len(specs), rules, seed)
        check_setup(setup)
    except (RulesError, BotError, TournamentError) as exc:
        raise click.ClickException(rules_error_text(exc, tr_of(current_lang()))) from exc
    workers = local_workers(workers, games)
    err = Console(stderr=True)
    tr = tr_of(current_lang())
    if as_json:
        result = run_tournament(setup, workers)
    else:
        with Progress(
            TextColumn(escape(tr._("deals"))),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=True,
        ) as bar:
            task = bar.add_task("deals", total=games)
            result = run_tournament(setup, workers, lambda k: bar.advance(task, k))
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
    else:
        out = Console(file=sys.stdout)
        if not out.is_terminal:  # a file or a pipe: no reason to squeeze the table
            out = Console(file=sys.stdout, width=120)
        show(result, out, tr)
    if plot_path is not None:
        try:
            plot(result, str(plot_path))
        except OSError as exc:  # the results are printed above all the same
            echo_error(tr._("could not save the chart to {path}: {reason}", path=plot_path,
                            reason=exc.strerror or exc))
            raise SystemExit(1) from None
        if not as_json:
            err.print(tr._("chart saved to {path}", path=plot_path), markup=False)


def split_bots(text: str) -> tuple[str, ...]:
    """``search:ms=30,model=off,heuristic`` -> ``search:ms=30,model=off`` and ``heuristic``.

    A comma separates bots, except before a ``key=value`` with no ``:`` of its own, which is one
    more option of the bot before it.
    """
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if specs and "=" in part and ":" not in part and ":" in specs[-1]:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return tuple(specs)


COLUMNS = (N_("bot"), N_("chips/round"), N_("95% CI"), N_("wins"), N_("opéras"), N_("rating"))


def show(result: TournamentResult, console: Console, lang: str | Translator | None = None) -> None:
    """The results table, best mean chips first."""
    tr = tr_of(lang)
    s = result.setup
    lineup = " ".join(s.entries[e] for e in s.lineup)
    table = Table(
        title=tr.ngettext(
            "Nain Jaune: {n} deal × {rotations}, seats {lineup}, seed {seed}",
            "Nain Jaune: {n} deals × {rotations}, seats {lineup}, seed {seed}",
            s.games, lineup=lineup, seed=s.seed,
            rotations=tr.ngettext("{n} rotation", "{n} rotations", s.players))
    )
    for column in COLUMNS:
        table.add_column(tr._(column), justify="left" if column == "bot" else "right",
                         no_wrap=True)
    for st in sorted(result.stats, key=lambda st: -st.mean_chips_per_round):
        lo, hi = st.ci95
        table.add_row(
            st.name,
            decimal(st.mean_chips_per_round, 2, tr, sign=True),
            f"[{decimal(lo, 2, tr, sign=True)}, {decimal(hi, 2, tr, sign=True)}]",
            percent(st.round_win_rate, 1, tr),
            integer(st.grand_operas, tr),
            decimal(st.rating, 2, tr),
        )
    console.print(table)
