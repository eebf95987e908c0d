"""The real-time games' commands: ``play``, ``simulate`` and the replay of their records (each
game's own words and keys come from its pieces in the registry)."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardroom.arbiter import RecordError, Replay, cards_left, replay_any
from cardroom.bots.base import BotError
from cardroom.bots.reaction import LEVELS, check_spec
from cardroom.cli.groups import (
    CONTEXT,
    REPLAYERS,
    current_lang,
    current_translator,
    echo_error,
    echo_json,
    echo_line,
    lang_option,
    play,
    simulate,
    speaker,
)
from cardroom.cli.helptext import RULES_EPILOG, FieldsOption
from cardroom.cli.options import MAX_GAMES, BoundedInt, local_workers, seed_option, workers_option
from cardroom.games.errors import RulesError
from cardroom.games.options import parse_option_pairs
from cardroom.games.registry import REALTIME, games, names, new_engine
from cardroom.games.registry import game as registry_game
from cardroom.games.registry import title as game_title
from cardroom.i18n import ENGLISH, Translator
from cardroom.i18n.names import shown_names
from cardroom.i18n.numbers import decimal, integer, percent
from cardroom.i18n.options import sentence
from cardroom.i18n.realtime_words import entry_words
from cardroom.i18n.reasons import record_error_text, rules_error_text
from cardroom.i18n.words import rules_note, seconds_text
from cardroom.sim.realtime import GameResult, Summary, bot_labels, play_chunk


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``key=value`` strings -> a dict; a malformed one is a usage error."""
    try:
        return parse_option_pairs(list(pairs))
    except RulesError as exc:
        said = rules_error_text(exc, current_translator())
        raise click.BadParameter(said, param_hint="--option") from None


def check_options(game: str, options: dict[str, str]) -> None:
    """Refuse options the game's rules do not accept, with the rules' own message."""
    try:
        new_engine(game, options, 0)
    except RulesError as exc:
        said = rules_error_text(exc, current_translator())
        raise click.BadParameter(said, param_hint="--option") from None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--option") from None


# -- simulate ---------------------------------------------------------------------------------


def run_simulation(
    game: str,
    bots: list[str],
    options: dict[str, str],
    seed: int,
    games: int,
    workers: int,
    progress: bool,
    lang: Translator = ENGLISH,
) -> Summary:
    """Play ``games`` games (split among ``workers`` processes); the result is the same for any
    number of workers."""
    numbers = list(range(games))
    chunk = max(1, min(50, games // max(1, workers * 8) or 1))
    chunks = [numbers[i : i + chunk] for i in range(0, games, chunk)]
    results: dict[int, list[GameResult]] = {}
    console = Console(stderr=True)
    tr = lang
    label = tr._("{game}: {bots}", game=tr._(game_title(game)),
                 bots=tr._(" v ").join(bots))
    columns = (
        TextColumn(escape(label)),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, disable=not progress, transient=True) as bar:
        task = bar.add_task("games", total=games)
        if workers <= 1:
            for i, part in enumerate(chunks):
                results[i] = play_chunk(game, bots, options, seed, part)
                bar.advance(task, len(part))
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = {
                    pool.submit(play_chunk, game, bots, options, seed, part): i
                    for i, part in enumerate(chunks)
                }
                for future, i in futures.items():
                    results[i] = future.result()
                    bar.advance(task, len(chunks[i]))
    ordered = [r for i in range(len(chunks)) for r in results[i]]
    target = options.get("target", "0") if registry_game(game).target_match else "0"
    return Summary(bot_labels(bots), ordered, int(target) if target.isdigit() else 0)


def summary_table(
    game: str, summary: Summary, seed: int, lang: Translator = ENGLISH
) -> Table:
    """Win rates and per-game figures as a rich table."""
    tr = lang
    data = summary.to_json()
    target = int(summary.target or 0)
    name = tr._(game_title(game))
    if target:
        title = tr.ngettext("{game}: {n} match to {target}, seed {seed}",
                            "{game}: {n} matches to {target}, seed {seed}", summary.games,
                            game=name, target=target, seed=seed)
    else:
        title = tr.ngettext("{game}: {n} game, seed {seed}", "{game}: {n} games, seed {seed}",
                            summary.games, game=name, seed=seed)
    table = Table(title=title)
    table.add_column(tr._("bot"))
    table.add_column(tr._("wins"), justify="right")
    table.add_column(tr._("win rate"), justify="right")
    for label, wins in data["wins"].items():
        rate = wins / summary.games if summary.games else 0.0
        table.add_row(label, integer(wins, tr), _percent(rate, tr))
    if data["draws"]:
        table.add_row(tr._("draws"), integer(data["draws"], tr),
                      _percent(data["draws"] / summary.games, tr))
    if data["unfinished"]:
        table.add_row(tr._("unfinished"), integer(data["unfinished"], tr), "")
    return table


def _percent(rate: float, tr: Translator) -> str:
    return percent(rate, 1, tr)


def summary_lines(summary: Summary, lang: Translator = ENGLISH) -> list[str]:
    """The per-game figures under the table."""
    tr = lang
    data = summary.to_json()
    return [
        tr._("Game length: {seconds} s of game time on average",
             seconds=decimal(data["mean_game_seconds"], 1, tr)),
        tr._("Stalemates: {stalemates} per game ({timeouts} resolved by the countdown)",
             stalemates=decimal(data["stalemates_per_game"], 2, tr),
             timeouts=decimal(data["timeouts_per_game"], 2, tr)),
        tr._("Re-deals: {redeals} per game", redeals=decimal(data["redeals_per_game"], 2, tr)),
        tr._("Stale plays refused: {stale} per game", stale=decimal(data["stale_per_game"], 2, tr)),
    ]


def _simulate_command(game: str) -> None:
    levels = "|".join(LEVELS)
    doc = """Play GAMES games of {game} between two reaction bots.

    The games run on a virtual clock: bots wait their reaction times without anyone sleeping, so
    a thousand games take seconds. Bots alternate seats. Prints each bot's wins and win rate, the
    mean game length in seconds of game time, stalemates and re-deals per game.

    \b
    Examples:
      cardroom simulate {command} --games 1000 --bots easy,expert
      cardroom simulate {command} --games 200 --bots hard,hard --seed 7 --json
      cardroom simulate {command} --bots reaction:min=0.4,max=0.8,medium --workers 2
    """

    def fields(tr: Translator) -> dict[str, str]:
        return {"game": tr._(game_title(game)), "command": game}

    @simulate.command(game, context_settings=CONTEXT, help=doc, help_fields=fields)
    @click.option("--games", type=BoundedInt(1, MAX_GAMES), default=100, show_default=True,
                  help="How many games to play.")
    @click.option("--bots", "bots_arg", default="medium,medium", show_default=True,
                  help=f"Two bots, comma separated: {levels}, reaction:min=…,max=… or random.")
    @seed_option(None, "Seed of the whole run (default: random).")
    @click.option("--option", "-o", "option_pairs", multiple=True, metavar="KEY=VALUE",
                  cls=FieldsOption, help="A {game} rule option (repeatable).",
                  help_fields=fields)
    @workers_option("Processes to spread the games over (same results for any number).")
    @click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
    @lang_option
    def command(
        games: int,
        bots_arg: str,
        seed: int | None,
        option_pairs: tuple[str, ...],
        workers: int,
        as_json: bool,
    ) -> None:
        bots = [b.strip() for b in _split_bots(bots_arg)]
        if len(bots) != 2:
            raise click.BadParameter(
                current_translator()._("name exactly two bots, like easy,expert"),
                param_hint="--bots",
            )
        for spec in bots:
            try:
                check_spec(spec, game)
            except BotError as exc:
                said = rules_error_text(exc, current_translator())
                raise click.BadParameter(said, param_hint="--bots") from None
        options = parse_options(option_pairs)
        check_options(game, options)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        workers = local_workers(workers, games)
        lang = current_translator()
        summary = run_simulation(game, bots, options, seed, games, workers, not as_json, lang)
        if as_json:
            click.echo(json.dumps({**summary.to_json(), "seed": seed}))
        else:
            console = Console()
            console.print(summary_table(game, summary, seed, lang))
            for line in summary_lines(summary, lang):
                console.print(line, highlight=False)


def _split_bots(text: str) -> list[str]:
    """Split ``--bots`` at commas that start a new bot (``reaction:min=1,max=2,easy``)."""
    parts: list[str] = []
    for piece in text.split(","):
        if parts and "=" in piece and ":" not in piece and ":" in parts[-1]:
            parts[-1] += "," + piece
        else:
            parts.append(piece)
    return parts


for _game in names(REALTIME):
    _simulate_command(_game)


# -- replay -----------------------------------------------------------------------------------


def entry_lines(rep: Replay, *, lang: Translator = ENGLISH) -> Iterator[str]:
    """One line per log entry: the seconds since the start, then the events, or the refusal and
    its reason (a web record starts at the server's clock, a terminal one at 0)."""
    names = shown_names(rep.names, lang)
    for entry in rep.arbiter.log:
        said = entry_words(entry, rep.engine.game, names, None, lang)
        stamp = seconds_text(entry.t - rep.arbiter.start, lang, places=2)
        yield f"{stamp:>9}  " + said  # from the start


def result_json(rep: Replay) -> dict[str, Any]:
    """``winner``, ``winner_name``, ``cards_left``, ``finished`` and the log's figures."""
    engine, arb = rep.engine, rep.arbiter
    winner = rep.winner
    log = arb.log
    ended = rep.ended
    return {
        "game": engine.game,
        "players": list(rep.names),
        "finished": rep.finished,
        "ended": None if ended is None else ended["reason"],
        "winner": winner,
        "winner_name": rep.names[winner] if winner is not None else None,
        "cards_left": cards_left(engine),
        "seconds": round(arb.time - arb.start, 3),
        "actions": sum(1 for e in log if not e.timeout),
        "rejected": sum(1 for e in log if not e.accepted),
        "stale": sum(1 for e in log if not e.accepted and (e.reason or "").startswith("stale: ")),
        "timeouts": arb.timeouts,
        "stalemates": arb.stalemates,
        "rules_version": engine.rules_version,
    }


def replay_realtime(data: Any, as_json: bool) -> int:
    """Replay a real-time game's record (a match to a target: a list of games); return the exit
    code."""
    try:
        reps = replay_any(data)
        match = _check_match(data, reps) if isinstance(data, list) else None
    except (RecordError, ValueError) as exc:
        echo_error(record_error_text(exc, current_translator()))
        return 1
    if as_json:
        games = [result_json(rep) for rep in reps]
        out = dict(games[-1])
        if match is not None:
            out.update(match)
            out["games"] = games
        echo_json(out)
        return 0
    tr = current_translator()
    for number, rep in enumerate(reps, start=1):
        if number > 1:
            echo_line("")
        for line in account_lines(rep, number if len(reps) > 1 else None, lang=tr):
            echo_line(line)
    if match is not None:
        names = shown_names(reps[-1].names, tr)
        scores = " · ".join(f"{n} {s}" for n, s in zip(names, match["scores"], strict=True))
        who = match["winner"]
        end = (
            tr._("{name} wins the match", name=names[who])
            if who is not None
            else tr._("the match is not over")
        )
        echo_line("")
        echo_line(tr._("Match: {scores}: {end}.", scores=scores, end=end))
    return 0


def _check_match(data: list[Any], reps: list[Replay]) -> dict[str, Any]:
    kinds = {rep.engine.game for rep in reps}
    matched = [g for g in games(REALTIME) if g.target_match is not None]
    kind = next(iter(kinds)) if len(kinds) == 1 else None
    if kind is None or kind not in {g.name for g in matched}:
        raise RecordError(matched[0].load("record").LIST_NOT_A_MATCH)
    check_match = registry_game(kind).load("record").check_match
    summary = check_match(data, [rep.engine for rep in reps])
    winner = summary.winner
    if reps[-1].ended is not None:  # the table closed: a forfeit's winner wins the match
        winner = reps[-1].winner
    return {"scores": list(summary.scores), "winner": winner, "match_games": summary.games}


def _rules_words(game: str, rules: dict[str, Any], tr: Translator) -> str:
    """A game's options as sentences, never as ``key=value``."""
    parts = []
    for key, value in rules.items():
        if key == "countdown":
            seconds = float(value)
            shown_s = integer(int(seconds), tr) if seconds.is_integer() else decimal(seconds, 1, tr)
            parts.append(tr._("Countdown: {seconds} s", seconds=shown_s))
            continue
        shown = ("true" if value else "false") if isinstance(value, bool) else str(value)
        try:
            parts.append(sentence(game, key, shown, tr))
        except KeyError:  # a match's target: the match's own lines tell it
            continue
    return " · ".join(parts)


def account_lines(
    rep: Replay, number: int | None = None, *, lang: Translator = ENGLISH
) -> Iterator[str]:
    """A readable account of one replayed game (in ``lang``)."""
    tr = lang
    names = shown_names(rep.names, tr)
    engine = rep.engine
    rules = _rules_words(engine.game, engine.rules.to_json(), tr)
    game = tr._(game_title(engine.game))
    fields_ = {"game": game, "first": names[0], "second": names[1], "rules": rules,
               "seed": engine.seed, "number": number}
    if number:
        yield tr._("{game}, game {number}: {first} (seat 0) v {second} (seat 1); {rules}; "
                   "seed {seed}", **fields_)
    else:
        yield tr._("{game}: {first} (seat 0) v {second} (seat 1); {rules}; seed {seed}",
                   **fields_)
    note = rules_note(engine.game, engine.rules_version, tr)
    if note is not None:
        yield note
    yield from entry_lines(rep, lang=lang)
    res = result_json(rep)
    left = " · ".join(
        f"{n} {c}" for n, c in zip(names, res["cards_left"], strict=True) if c is not None
    )
    ended = rep.ended
    if ended is not None and ended["reason"] == "forfeit":
        yield tr._("{name} wins by forfeit: {other} was away too long. Cards left: {left}.",
                   name=names[1 - ended["seat"]], other=names[ended["seat"]], left=left)
    elif ended is not None:
        yield tr._("Nobody wins: both players were away too long. Cards left: {left}.",
                   left=left)
    elif engine.over:
        who = names[res["winner"]] if res["winner"] is not None else None
        seconds = decimal(res["seconds"], 1, tr)
        if who:
            yield tr._("{name} wins after {seconds} s. Cards left: {left}.", name=who,
                       seconds=seconds, left=left)
        else:
            yield tr._("A draw after {seconds} s. Cards left: {left}.", seconds=seconds,
                       left=left)
    else:
        yield tr._("The record stops here: the game was not finished. Cards left: {left}.",
                   left=left)


for _game in names(REALTIME):
    REPLAYERS[_game] = replay_realtime


# -- play -------------------------------------------------------------------------------------


def _play_command(game: str) -> None:
    doc = """Play {game} in real time against a bot, in the terminal.

    Pick a card with 1-5 and play it with a / ← (centre pile 1, on the left) or d / → (pile 2);
    space calls {call_when};
    {keys}q or Ctrl-C saves and quits. The bottom lines show the keys. The game is saved as
    a record (replay it with `cardroom replay`) after every move, so nothing is lost if the terminal
    closes.

    \b
    With --plain (chosen by itself when stdin or stdout is not a terminal) you type one action
    per line (3 1: your card or pile 3 onto centre pile 1; s: the call; look; help; q) and every
    event is printed as a line the moment it happens.

    \b
    Examples:
      cardroom play {command}                      against a medium bot
      cardroom play {command} --plain --lang cy    line by line, in Welsh
      cardroom play {command} --bot expert --seed 7
      cardroom play {command} --option countdown=5 --name Ann
    """

    def fields(tr: Translator) -> dict[str, str]:
        said = registry_game(game).load("words")
        return {
            "game": tr._(game_title(game)),
            "command": game,
            "rules_page": game,
            "call_when": tr._(said.PLAY_CALL_WHEN),
            "keys": tr._(said.PLAY_KEYS),
        }

    @play.command(
        game, context_settings=CONTEXT, help=doc, help_fields=fields, epilog=RULES_EPILOG
    )
    @click.option("--bot", "bot", default="medium", show_default=True,
                  help=f"Your opponent: {'|'.join(LEVELS)} or reaction:min=…,max=….")
    @click.option("--option", "-o", "option_pairs", multiple=True, metavar="KEY=VALUE",
                  cls=FieldsOption, help="A {game} rule option (repeatable).",
                  help_fields=fields)
    @seed_option(None, "Seed of the deal and the bot.")
    @click.option("--name", default=None, help="Your name in the record.")
    @click.option("--records", "records", type=click.Path(file_okay=False, path_type=Path),
                  default=Path("cardroom-records"), show_default=True,
                  help="Where the record of the game is saved.")
    @click.option("--plain", is_flag=True,
                  help="Line by line (one action per line), for screen readers and pipes.")
    @click.option("--speak", is_flag=True,
                  help="Say the calls aloud with espeak-ng (with --plain; when it is installed).")
    @lang_option
    def command(
        bot: str,
        option_pairs: tuple[str, ...],
        seed: int | None,
        name: str | None,
        records: Path,
        plain: bool,
        speak: bool,
    ) -> None:
        try:
            check_spec(bot, game)
        except BotError as exc:
            said = rules_error_text(exc, current_translator())
            raise click.BadParameter(said, param_hint="--bot") from None
        if name is None:  # "Player" in the command line's language
            name = current_translator()._("Player")
        options = parse_options(option_pairs)
        check_options(game, options)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        try:
            records.mkdir(parents=True, exist_ok=True)
            probe = records / ".cardroom-write-test"
            probe.write_text("", encoding="utf-8")
            probe.unlink()
        except OSError as exc:
            raise click.ClickException(
                current_translator()._(
                    "cannot save records in {folder}: {reason}; choose another folder with "
                    "--records", folder=records, reason=exc.strerror or exc,
                )
            ) from None
        if not plain and not (sys.stdin.isatty() and sys.stdout.isatty()):
            click.echo(current_translator()._("Not a terminal: playing line by line (--plain)."),
                       err=True)
            plain = True
        if plain:
            from cardroom.terminal.realtime_plain import PlainRealtime

            lines = PlainRealtime(game, options, seed, bot, name, records, lang=current_lang())
            lines.speaker = speaker(speak)
            lines.run_lines(sys.stdin)
            return
        from cardroom.terminal.realtime_tui import RealtimeApp

        app = RealtimeApp(game, options, seed, bot, name, records, lang=current_lang())
        app.run()
        for line in app.farewell:
            click.echo(line)


for _game in names(REALTIME):
    _play_command(_game)
