"""``cardroom analyse RECORD``: what every decision of a finished turn-based game was worth, or
how fast each player of a real-time game reacted."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardroom.analysis import REFUSALS, AnalysisError, turn_based_analysis
from cardroom.cli.groups import (
    CONTEXT,
    cli,
    current_translator,
    echo_json,
    help_examples,
    join_titles,
    lang_option,
    printable,
)
from cardroom.cli.helptext import FieldsOption
from cardroom.cli.options import BoundedInt
from cardroom.games.registry import GAMES, TURN_BASED, Game, games
from cardroom.i18n import Translator
from cardroom.i18n.numbers import decimal, number, percent
from cardroom.i18n.reasons import record_error_text
from cardroom.i18n.words import N_, labelled, pretty

MARK_WORDS = {
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}
LEVEL_WORDS = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}


REALTIME_ANALYSIS_HELP = N_(
    "each player's reaction times (from a card becoming playable to its being played), plays "
    "missed (a playable card covered before it was played), stalemate calls and slaps won and "
    "lost."
)
"""What the analysis of a real-time game tells (a game's words may say it otherwise)."""


def _analysis_help(entry: Game) -> str | None:
    if entry.analysis is None:
        return None
    words = entry.load("words") if entry.words is not None else None
    said: str | None = getattr(words, "ANALYSIS_HELP", None)
    return said or (REALTIME_ANALYSIS_HELP if entry.realtime else None)


def _analyse_fields(tr: Translator) -> dict[str, object]:
    """``{analyses}``: a paragraph per analysis, after the titles of the games it is for."""
    by_help: dict[str, list[str]] = {}
    for entry in games():
        said = _analysis_help(entry)
        if said is not None:
            by_help.setdefault(said, []).append(tr._(entry.title))
    paragraphs = [
        tr._("{games}: {analysis}", games=join_titles(tr, titles), analysis=tr._(said))
        for said, titles in by_help.items()
    ]
    examples = help_examples("analyse", _ANALYSE_EXAMPLES)(tr)
    return {**examples, "analyses": "\n\n".join(paragraphs)}


def _turn_based(tr: Translator) -> dict[str, object]:
    """``{games}``: the turn-based games whose decisions are valued."""
    return {"games": join_titles(tr, [tr._(g.title) for g in games(TURN_BASED) if g.analysis])}


_ANALYSE_EXAMPLES = (
    ("cardroom analyse game.json", N_("marks and accuracy per player")),
    ("cardroom analyse game.json --all --hindsight",
     N_("every decision, and with every card known")),
    ("cardroom analyse game.json --worlds 16000", N_("steadier figures, four times slower")),
    ("cardroom analyse game.json --json | jq .summary", ""),
)


@cli.command(context_settings=CONTEXT, help_fields=_analyse_fields)
@click.argument("record", type=click.Path(path_type=Path))
@click.option("--worlds", type=BoundedInt(16, 20000), default=4000, show_default=True,
              cls=FieldsOption, help_fields=_turn_based,
              help="Deals of the hidden cards tried per decision ({games}): more is "
              "steadier and slower.")
@click.option("--hindsight", is_flag=True, cls=FieldsOption, help_fields=_turn_based,
              help="Also value every choice with every card known ({games}).")
@click.option("--all", "show_all", is_flag=True, cls=FieldsOption, help_fields=_turn_based,
              help="List every decision, not only the marked ones ({games}).")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as one JSON object.")
@lang_option
def analyse(record: Path, worlds: int, hindsight: bool, show_all: bool, as_json: bool) -> None:
    """Analyse a finished game's RECORD (JSON): where chips were lost, or time.

    {analyses}

    \b
    Examples:
    {examples}
    """
    from cardroom.cli.records import load_record

    tr = current_translator()
    where = printable(str(record))
    data, kind = load_record(record)
    out = Console(file=sys.stdout)
    if not out.is_terminal:
        out = Console(file=sys.stdout, width=120)
    entry = GAMES.get(kind)
    if entry is not None and entry.realtime and entry.analysis is not None:
        try:
            result = entry.load("analysis").analyse(data)
        except AnalysisError as exc:
            raise click.ClickException(record_error_text(exc, tr, path=where)) from None
        if as_json:
            echo_json(result.to_json())
        else:
            show_realtime(result, out, tr)
        return
    analyse_game = turn_based_analysis().analyse
    try:
        if as_json:
            analysis = analyse_game(data, worlds=worlds, hindsight=hindsight)
        else:
            with Progress(
                TextColumn(escape(tr._("Decisions"))),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            ) as bar:
                task = bar.add_task("decisions", total=None)
                analysis = analyse_game(
                    data,
                    worlds=worlds,
                    hindsight=hindsight,
                    progress=lambda done, total: bar.update(task, completed=done, total=total),
                )
    except AnalysisError as exc:
        raise click.ClickException(analysis_error(exc, tr, where)) from None
    if as_json:
        echo_json(analysis.to_json())
    else:
        turn_based = entry if entry is not None else next(games(TURN_BASED))
        show(analysis.to_json(), out, tr, show_all, turn_based.load("words"))


def analysis_error(exc: AnalysisError, tr: Translator, where: str) -> str:
    """An analysis refusal in words after the file's name: a malformed record's error is told
    from its message's id (:func:`~cardroom.i18n.reasons.record_error_text`)."""
    if exc.code in ("unfinished", "too-long"):
        return labelled(where, tr._(REFUSALS[exc.code]), tr)
    if exc.code == "bad-record":
        return record_error_text(exc, tr, path=where)
    return f"{where}: {exc}"


def mark_words(mark: str | None, tr: Translator) -> str:
    """A mark in words (nothing for none)."""
    words = MARK_WORDS.get(mark or "")
    return tr._(words) if words else ""


def choice_words(label: str, tr: Translator) -> str:
    """An analysed choice in words: ``7♥``, ``claim``, ``pass``."""
    if label == "claim":
        return tr._("claim")
    if label == "pass":
        return tr._("pass")
    return pretty(label, tr)


def _num(x: float | None, tr: Translator, signed: bool = False) -> str:
    if x is None:
        return "–"
    return decimal(x, 1, tr, sign=signed)


def show(
    data: dict[str, Any], console: Console, tr: Translator, show_all: bool, said: Any
) -> None:
    """The analysis as rich tables: one line per player, then the marked (or all) decisions
    (``said``: the game's words piece, whose ``ANALYSIS_TITLE`` names the table)."""
    players = [printable(p) for p in data["players"]]
    hindsight = bool(data["hindsight"])
    total = sum(len(r["decisions"]) for r in data["rounds"])
    singular, plural = said.ANALYSIS_TITLE
    table = Table(
        title=tr.ngettext(singular, plural, total, count=total, worlds=data["worlds"])
    )
    columns = [
        tr._("Player"),
        tr._("Decisions"),
        tr._("Accuracy"),
        tr._("Chips lost"),
        mark_words("inaccuracy", tr).capitalize(),
        mark_words("mistake", tr).capitalize(),
        mark_words("blunder", tr).capitalize(),
    ]
    if hindsight:
        columns.append(tr._("Lost in hindsight"))
    columns.append(tr._("Plays like"))
    for i, column in enumerate(columns):
        table.add_column(column, justify="left" if i == 0 else "right")
    for p in data["summary"]:
        acc = p["accuracy"]
        row = [
            escape(players[p["seat"]]),
            str(p["decisions"]),
            "–" if acc is None else percent(acc / 100, 0, tr),
            _num(p["lost"], tr),
            str(p["marks"]["inaccuracy"]),
            str(p["marks"]["mistake"]),
            str(p["marks"]["blunder"]),
        ]
        if hindsight:
            row.append(_num(p["hindsight_lost"], tr))
        level = LEVEL_WORDS.get(p["like"] or "")
        row.append(tr._(level) if level else "–")
        table.add_row(*row)
    console.print(table)
    listed = Table(
        title=tr._("Every decision") if show_all else tr._("Marked decisions"),
    )
    heads = [
        tr._("Round"),
        tr._("Decision"),
        tr._("Player"),
        tr._("Played"),
        tr._("Best"),
        tr._("Expected chips"),
        tr._("Loss"),
        tr._("Mark"),
    ]
    if hindsight:
        heads.append(tr._("In hindsight"))
    for i, head in enumerate(heads):
        listed.add_column(head, justify="left" if i in (2, 3, 4, 7) else "right")
    rows = 0
    for r in data["rounds"]:
        for d in r["decisions"]:
            if not show_all and d["mark"] is None:
                continue
            rows += 1
            row = [
                str(r["number"]),
                str(d["step"]),
                escape(players[d["seat"]]),
                escape(choice_words(d["chosen"], tr)),
                escape(choice_words(d["best"], tr)),
                decimal(d["value"], 1, tr),
                f"{decimal(d['loss'], 1, tr)} ± {decimal(d['noise'], 1, tr)}",
                mark_words(d["mark"], tr),
            ]
            if hindsight:
                row.append(_num(d["hindsight_loss"], tr))
            listed.add_row(*row)
    if rows:
        console.print(listed)
    else:
        console.print(tr._("No decision earned a mark."))


BLOCKS = " ▁▂▃▄▅▆▇█"


def bars(counts: list[int]) -> str:
    """A histogram as one line of block characters, the tallest bar full."""
    top = max(counts) or 1
    return "".join(BLOCKS[0 if c == 0 else max(1, round(8 * c / top))] for c in counts)


def _seconds(x: float | None, tr: Translator) -> str:
    return "–" if x is None else tr._("{seconds} s", seconds=decimal(x, 2, tr))


def show_realtime(result: Any, console: Console, tr: Translator) -> None:
    """A real-time game's analysis as a rich table and a histogram of the reaction times (see
    :mod:`cardroom.analysis.realtime`); the title, and whether slaps are counted, are the
    game's words piece's (``ANALYSIS_TITLE``, ``ANALYSIS_SLAPS``)."""
    data = result.to_json()
    said = GAMES[data["game"]].load("words")
    slaps = bool(getattr(said, "ANALYSIS_SLAPS", False))
    table = Table(title=tr._(said.ANALYSIS_TITLE))
    heads = [
        tr._("Player"),
        tr._("Plays"),
        tr._("Median reaction"),
        tr._("Mean reaction"),
        tr._("Fastest"),
        tr._("Plays missed"),
        tr._("Plays refused"),
        tr._("Stalemate calls"),
    ]
    if slaps:
        heads += [tr._("Slaps won"), tr._("Slaps lost")]
    for i, head in enumerate(heads):
        table.add_column(head, justify="left" if i == 0 else "right")
    for p in data["players"]:
        row = [
            escape(printable(p["name"])),
            str(p["plays"]),
            _seconds(p["median"], tr),
            _seconds(p["mean"], tr),
            _seconds(p["fastest"], tr),
            str(p["missed"]),
            str(p["refused"]),
            str(p["calls"]),
        ]
        if slaps:
            row += [str(p["slaps_won"]), str(p["slaps_lost"])]
        table.add_row(*row)
    console.print(table)
    step = data["histogram_step"]
    shown = number(step, tr)
    console.print(tr._("Reaction times, {step} s a bar (the last bar: slower)", step=shown))
    chart = Table(show_edge=False)
    chart.add_column(tr._("Player"))
    span = number(step * len(data["players"][0]["histogram"]), tr)
    chart.add_column(f"{number(0, tr)} s … {span} s")
    for p in data["players"]:
        chart.add_row(escape(printable(p["name"])), bars(p["histogram"]))
    console.print(chart)
