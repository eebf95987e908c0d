"""Nain Jaune commands: ``cardroom play nain-jaune`` and the replay of Nain Jaune records."""

from __future__ import annotations

import contextlib
import random
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import click

from cardroom.bots import LEVELS, BotError, make_bot
from cardroom.cli.groups import (
    CONTEXT,
    REPLAYERS,
    current_lang,
    echo_error,
    echo_json,
    echo_line,
    lang_option,
    play,
    speaker,
)
from cardroom.cli.helptext import RULES_EPILOG, FieldsOption
from cardroom.cli.options import MAX_DELAY, BoundedInt, FiniteFloat, seed_option
from cardroom.games.errors import RulesError
from cardroom.games.nain_jaune.record import (
    GameReplay,
    RecordError,
    Replay,
    game_json,
    parse_game,
    replay_round,
    replay_whole_game,
    result_json,
)
from cardroom.games.nain_jaune.rules import PRESETS, Rules
from cardroom.games.nain_jaune.terminal.game import RecordsError, ResumeError, resume
from cardroom.games.nain_jaune.terminal.input import Table
from cardroom.games.nain_jaune.terminal.plain import PlainGame
from cardroom.games.nain_jaune.terminal.text import game_over_lines, replay_lines
from cardroom.games.options import parse_option_pairs
from cardroom.i18n import Translator
from cardroom.i18n.names import shown_names
from cardroom.i18n.reasons import record_error_text, rules_error_text
from cardroom.i18n.words import tr_of


def replay_result(
    replays: list[Replay], whole_game: bool, game: GameReplay | None = None
) -> dict[str, Any]:
    """The ``--json`` result: one round's fields; for a whole game the last round's, ``rounds``
    and ``end`` (whether and how the game ended, and its winners)."""
    rounds = [{**result_json(rep), "players": list(rep.record.players)} for rep in replays]
    if not whole_game:
        return rounds[0]
    out = {**rounds[-1], "rounds": rounds}
    if game is not None:
        out["end"] = game_json(game)
    return out


def replay_nain_jaune(data: Any, as_json: bool) -> int:
    """Replay a Nain Jaune round (an object) or whole game (a list); return the exit code."""
    whole = isinstance(data, list)
    game: GameReplay | None = None
    try:
        records = parse_game(data)
        if whole:
            game = replay_whole_game(records)
            replays = game.replays
        else:
            replays = [replay_round(records[0])]
    except RecordError as exc:
        echo_error(record_error_text(exc, tr_of(current_lang())))
        return 1
    if as_json:
        echo_json(replay_result(replays, whole, game))
        return 0
    lang = current_lang()
    for line in replay_lines(replays, lang):
        echo_line(line)
    if game is not None:
        echo_line("")
        if game.result is not None:
            names = shown_names(game.game.names, tr_of(lang))
            for line in game_over_lines(game.result, names, lang):
                echo_line(line)
        else:
            echo_line(
                tr_of(lang)._("The game is not over (end={end}).", end=game.game.rules.end)
            )
    return 0


REPLAYERS["nain-jaune"] = replay_nain_jaune


# -- cardroom play nain-jaune ------------------------------------------------------------

BOT_NAMES = ("Bea", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")


def split_bot_specs(values: tuple[str, ...]) -> list[str]:
    """``--bots`` values split at commas; ``key=value`` pieces stay with the bot before them."""
    specs: list[str] = []
    for value in values:
        for piece in (p.strip() for p in value.split(",")):
            if not piece:
                continue
            if "=" in piece and ":" not in piece and specs:
                specs[-1] += "," + piece
            else:
                specs.append(piece)
    return specs


def _levels(_tr: Translator) -> dict[str, str]:
    return {"levels": ", ".join(f"{k} ({v})" for k, v in LEVELS.items())}


def seat_names(human: str, players: int) -> list[str]:
    """The person's name at seat 0, then bot names that differ from it."""
    names = [human]
    for candidate in BOT_NAMES:
        if len(names) == players:
            break
        if candidate.lower() != human.lower():
            names.append(candidate)
    return names


@play.command(
    "nain-jaune",
    context_settings=CONTEXT,
    epilog=RULES_EPILOG,
    help_fields=lambda tr: {"rules_page": "nain-jaune"},
)
@click.option(
    "--players",
    "-n",
    type=BoundedInt(2, 8),
    default=None,
    help="Players at the table, you included (2-8; default 4, or one more than --bots).",
)
@click.option(
    "--preset",
    type=click.Choice(list(PRESETS)),
    default="classic",
    show_default=True,
    help="Rules of one source text: classic (French), count, ace-high.",
)
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="Change one rule, e.g. payment=card-count, announce=manual, end=rounds:3 (repeatable).",
)
@seed_option(None, "Seed of the deals and bots (default random).")
@click.option("--name", default=None, help="Your name at the table.")
@click.option(
    "--level",
    metavar="LEVEL",
    default="medium",
    show_default=True,
    cls=FieldsOption,
    help="Strength of the bots: {levels}.",
    help_fields=_levels,
)
@click.option(
    "--bots",
    "bot_specs",
    multiple=True,
    metavar="SPEC,…",
    help="The bots by name or level, one for all or one per seat, e.g. random,greedy,medium.",
)
@click.option("--plain", is_flag=True, help="Line by line, for screen readers and pipes.")
@click.option(
    "--hints",
    is_flag=True,
    help="Let the expert suggest your move (key i, or hint in plain mode), from your view only.",
)
@click.option(
    "--records",
    "records_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("cardroom-records"),
    show_default=True,
    help="Directory the game record is saved in.",
)
@click.option(
    "--delay",
    type=FiniteFloat(0.0, MAX_DELAY),
    default=None,
    help="Seconds each bot waits before it plays (default 0.6; 0 with --plain).",
)
@click.option(
    "--resume",
    "resume_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="RECORD",
    help="Go on with an unfinished game saved in RECORD (bots from --level/--bots).",
)
@click.option("--speak", is_flag=True,
              help="Say the calls aloud with espeak-ng (when it is installed).")
@lang_option
def play_nain_jaune(
    players: int | None,
    preset: str,
    options: tuple[str, ...],
    seed: int | None,
    name: str | None,
    level: str,
    bot_specs: tuple[str, ...],
    plain: bool,
    hints: bool,
    records_dir: Path,
    delay: float | None,
    resume_path: Path | None,
    speak: bool,
) -> None:
    """Play Nain Jaune in the terminal against bots.

    You sit at seat 0 with the bots around you; rounds follow one another until the game's end
    condition (by default: a player can no longer stake or pay). The record of the game is saved
    under --records at the end, and also when you quit or press Ctrl-C; `cardroom replay` reads it.

    \b
    Keys (full screen): ←/→ or a rank (a 2-9 0/t j q k) choose a card;
    Enter, Space or a click plays it; p pass ("without X"); c claim
    ("… who takes", with announce=manual); n next round; ? help;
    Esc, Ctrl-C or Ctrl-Q quit (the game is saved).
    Plain mode reads commands: 7D, 10♦, q (the queen), pass, claim, next, state, help,
    quit (and hint, with --hints; i in full screen). Every move is saved as it is
    played; --resume RECORD goes on with a saved game.

    \b
    Examples:
      cardroom play nain-jaune                          you and three medium bots
      cardroom play nain-jaune -n 5 --preset count      five players, card-count payments
      cardroom play nain-jaune -o announce=manual -o end=rounds:3
      cardroom play nain-jaune --bots random,greedy     two bots of your choice
      cardroom play nain-jaune --level easy --seed 7    the same deals every time with seed 7
      cardroom play nain-jaune --plain < moves.txt      line by line, commands from a file
      cardroom play nain-jaune --resume cardroom-records/nain-jaune-….json
    """
    if name is None:  # "Player" in the command line's language
        name = tr_of(current_lang())._("Player")
    if resume_path is not None:
        table = resume_table(resume_path, players, seed, level, bot_specs)
    else:
        table = build_table(players, preset, options, seed, name, level, bot_specs, records_dir)
    if not plain and not (sys.stdin.isatty() and sys.stdout.isatty()):
        click.echo(tr_of(current_lang())._("Not a terminal: playing line by line (--plain)."),
                   err=True)
        plain = True
    with _signals_as_interrupt() as caught:
        if plain:
            game = PlainGame(table, sys.stdin, delay or 0.0, hints=hints, lang=current_lang())
            game.speaker = speaker(speak)
            game.run()
            _saved(table, plain=True)
            if game.interrupted:
                sys.exit(128 + (caught[0] if caught else signal.SIGINT))
            return
        from cardroom.games.nain_jaune.terminal.tui import NainJauneApp

        app = NainJauneApp(
            table, delay=0.6 if delay is None else delay, hints=hints, lang=current_lang()
        )
        app.speaker = speaker(speak)
        try:
            app.run()
        except KeyboardInterrupt:  # SIGTERM or SIGHUP: saved below like a quit
            pass
        finally:
            table.save()
            _saved(table, plain=False)
    if caught:
        sys.exit(128 + caught[0])
    if table.game.result is not None:
        for line in game_over_lines(table.game.result, table.names, current_lang()):
            click.echo(line)


@contextlib.contextmanager
def _signals_as_interrupt() -> Iterator[list[int]]:
    """SIGTERM and SIGHUP stop the game like Ctrl-C (the record is saved); yields the signal
    numbers caught."""
    caught: list[int] = []

    def stop(signum: int, _frame: FrameType | None) -> None:
        caught.append(signum)
        raise KeyboardInterrupt

    wanted = [s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]
    try:
        previous = {s: signal.signal(s, stop) for s in wanted}
    except ValueError:  # not the main thread (tests): leave the signals alone
        previous = {}
    try:
        yield caught
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise click.BadParameter(
            tr_of(current_lang())._("unknown level {level}: choose one of {levels}",
                                    level=repr(level), levels=", ".join(LEVELS)),
            param_hint="--level",
        )


def _bots_count(bots: int, players: int) -> str:
    return tr_of(current_lang())._(
        "{bots} bots for {players} players: give one bot for all or {others} (one per seat "
        "besides yours)", bots=bots, players=players, others=players - 1,
    )


def _bots(specs: list[str], players: int) -> dict[int, Any]:
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise click.BadParameter(_bots_count(len(specs), players), param_hint="--bots")
    try:
        return {seat: make_bot(spec) for seat, spec in enumerate(specs, start=1)}
    except BotError as exc:
        said = rules_error_text(exc, tr_of(current_lang()))
        raise click.BadParameter(said, param_hint="--bots") from None


def resume_table(
    path: Path, players: int | None, seed: int | None, level: str, bot_specs: tuple[str, ...]
) -> Table:
    """The table of an unfinished game saved in ``path``, with bots from the options."""
    tr = tr_of(current_lang())
    _check_level(level)
    specs = split_bot_specs(bot_specs) or [level]
    labels: dict[int, str] = {}

    def bots_for(n: int) -> dict[int, Any]:
        if players is not None and players != n:
            raise click.BadParameter(
                tr._("the saved game has {n} players, not {players}", n=n, players=players),
                param_hint="--players",
            )
        bots = _bots(specs, n)
        expanded = specs * (n - 1) if len(specs) == 1 else specs
        labels.update({seat: expanded[seat - 1] for seat in bots})
        return bots

    try:
        table = resume(path, bots_for, seed, lang=tr)
    except ResumeError as exc:
        raise click.ClickException(tr._("cannot resume: {reason}", reason=exc)) from None
    table.labels = labels
    rnd = table.round
    number = table.game.rounds_played + (1 if rnd is not None and not rnd.over else 0)
    click.echo(tr._("Resuming {path} at round {number}.", path=path, number=number), err=True)
    return table


def build_table(
    players: int | None,
    preset: str,
    options: tuple[str, ...],
    seed: int | None,
    name: str,
    level: str,
    bot_specs: tuple[str, ...],
    records_dir: Path | None,
) -> Table:
    """The table the ``play nain-jaune`` options describe; bad options raise click errors."""
    tr = tr_of(current_lang())
    _check_level(level)
    specs = split_bot_specs(bot_specs)
    if players is None:
        players = len(specs) + 1 if len(specs) > 1 else 4
    if not specs:
        specs = [level]
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise click.BadParameter(_bots_count(len(specs), players), param_hint="--bots")
    try:
        bots = {seat: make_bot(spec) for seat, spec in enumerate(specs, start=1)}
    except BotError as exc:
        said = rules_error_text(exc, tr_of(current_lang()))
        raise click.BadParameter(said, param_hint="--bots") from None
    try:
        rules = Rules.from_options(preset, parse_option_pairs(list(options)))
    except RulesError as exc:
        raise click.BadParameter(rules_error_text(exc, tr), param_hint="--option") from None
    if not name.strip():
        raise click.BadParameter(tr._("your name cannot be empty"), param_hint="--name")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    names = seat_names(name.strip(), players)
    try:
        table = Table(rules, names, 0, bots, seed, records_dir, lang=tr)
    except RulesError as exc:
        raise click.UsageError(rules_error_text(exc, tr)) from None
    except RecordsError as exc:
        raise click.BadParameter(str(exc), param_hint="--records") from None
    table.labels = {seat: spec for seat, spec in enumerate(specs, start=1)}
    return table


def _saved(table: Table, plain: bool) -> None:
    if table.path is None or not table.path.exists():
        return
    if table.path.stat().st_size == 0:  # reserved, but no round was ever dealt
        table.path.unlink()
        return
    tr = tr_of(current_lang())
    if not plain:
        click.echo(tr._("Game saved to {path}", path=table.path))
    click.echo(tr._("Replay it with: cardroom replay {path}", path=table.path))
