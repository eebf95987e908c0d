"""The command groups each game's CLI module adds its commands to, and the replay registry."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import click

from cardroom.cli.helptext import Fields, TrGroup
from cardroom.games.registry import Game, TableKind, games
from cardroom.i18n import LANGS, N_, Translator, from_environment, translator
from cardroom.i18n.grammar import word_phrase
from cardroom.i18n.speech import Speaker

F = TypeVar("F", bound=Callable[..., Any])
_META_KEY = "cardroom.lang"

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

Replayer = Callable[[Any, bool], int]
"""Replays a parsed record; the flag asks for JSON; returns the exit code."""

REPLAYERS: dict[str, Replayer] = {}
"""Record kind (the record's ``game`` field) -> the function that replays it."""

MAX_MESSAGE = 300
"""Characters of an error message shown (input is never echoed at any size)."""

# control characters, and the invisible ones that reorder or hide text on a terminal
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with control and invisible characters escaped (``\\x1b``): safe on a terminal."""
    return _UNSAFE.sub(_escape, text)


def echo_line(text: str) -> None:
    """Print one line of a replay's account (names in records may hold anything)."""
    click.echo(printable(text))


def echo_json(data: Any) -> None:
    """Print ``data`` as one line of JSON with no raw control character in it."""
    text = json.dumps(data, ensure_ascii=False)
    click.echo(_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


def echo_error(message: object) -> None:
    """Print ``Error: message`` on stderr, on one line and at most :data:`MAX_MESSAGE` long."""
    text = printable(str(message))
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 1] + "…"
    click.echo(translator(current_lang())._("Error: {message}", message=text), err=True)


def current_lang() -> str:
    """The language of the command's words: ``--lang``, else the locale (``LANG``…), else en."""
    ctx = click.get_current_context(silent=True)
    lang = ctx.meta.get(_META_KEY) if ctx is not None else None
    return str(lang) if lang else from_environment()


def current_translator() -> Translator:
    """The translator of :func:`current_lang`: what a command hands to the words' functions."""
    return translator(current_lang())


def _set_lang(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value:
        ctx.meta[_META_KEY] = value.lower()


def lang_option(f: F) -> F:
    """``--lang en|fr|cy`` (default: the environment's locale, ``CARDROOM_LANG`` first)."""
    return click.option(
        "--lang",
        type=click.Choice(LANGS, case_sensitive=False),
        callback=_set_lang,
        expose_value=False,
        is_eager=True,
        help="Language of the words: en, fr or cy (default: the locale, e.g. LANG=fr_FR.UTF-8).",
    )(f)


_LOADED: dict[str, tuple[str, list[tuple[click.Group, str]], list[str]]] = {}
"""Per game whose commands are loaded: its cli module, the commands and the replayers it added."""


def _groups() -> list[click.Group]:
    found: list[click.Group] = []
    stack: list[click.Group] = [cli]
    while stack:
        group = stack.pop()
        found.append(group)
        stack.extend(c for c in group.commands.values() if isinstance(c, click.Group))
    return found


def load_game_commands() -> None:
    """Import each registered game's ``cli`` piece once (it adds its commands to the groups
    here and its replayer to :data:`REPLAYERS`), including a game registered after start-up;
    a game no longer registered loses its commands and replayer."""
    registered = {entry.name for entry in games()}
    for name in [n for n in _LOADED if n not in registered]:
        module, added, replayers = _LOADED.pop(name)
        for group, command in added:
            group.commands.pop(command, None)
        for key in replayers:
            REPLAYERS.pop(key, None)
        sys.modules.pop(module, None)  # (registered again, its commands are added again)
    for entry in games():
        if entry.cli is not None and entry.name not in _LOADED:
            before = {(id(g), c) for g in _groups() for c in g.commands}
            replayers_before = set(REPLAYERS)
            entry.load("cli")
            added = [(g, c) for g in _groups() for c in g.commands if (id(g), c) not in before]
            new = [k for k in REPLAYERS if k not in replayers_before]
            _LOADED[entry.name] = (entry.cli.partition(":")[0], added, new)


class GamesGroup(TrGroup):
    """A group that loads every registered game's commands before it lists or finds one."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        load_game_commands()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        load_game_commands()
        return super().get_command(ctx, cmd_name)


Example = tuple[str, str]
"""One help example: the command line, and what it does in words (an English msgid, or "")."""

SECTIONS = ("play", "replay", "simulate", "tournament", "analyse", "serve")
"""The order of the examples in ``cardroom --help``: by the command they run."""
EXAMPLE_COLUMN = 50
"""The furthest an example's words start (they start two spaces after the longest command line
that has words, but not before column 46; a longer one has its words two spaces after it)."""


def game_examples(entry: Game, group: str) -> tuple[Example, ...]:
    """Game ``entry``'s examples for ``cardroom GROUP --help`` (``HELP_EXAMPLES`` of its
    ``words`` piece; none when it has no words or no examples there)."""
    if entry.words is None:
        return ()
    found: Mapping[str, tuple[Example, ...]] = getattr(entry.load("words"), "HELP_EXAMPLES", {})
    return tuple(found.get(group, ()))


def example_lines(examples: Sequence[Example], tr: Translator) -> str:
    """The examples as help lines, their words in ``tr``'s language and in one column."""
    lines = []
    with_words = [len(command) + 4 for command, words in examples if words]
    column = min(max([*with_words, EXAMPLE_COLUMN - 4]), EXAMPLE_COLUMN)
    for command, words in examples:
        line = f"  {command}"
        if words:
            line = f"{line:<{column}}" if len(line) + 2 <= column else f"{line}  "
            line += tr._(words)
        lines.append(line)
    return "\n".join(lines)


def titles(tr: Translator, kind: TableKind | None = None) -> str:
    """The registered games' titles (of ``kind`` if given) in ``tr``'s language: ``A, B and C``."""
    return join_titles(tr, [tr._(entry.title) for entry in games(kind)])


def join_titles(tr: Translator, shown: Sequence[str]) -> str:
    """Games' titles (translated already) as ``A, B and C`` in ``tr``'s language, the last one
    in the form the word before it asks for (Welsh: « Tafod a Chyflymder »)."""
    if len(shown) <= 1:
        return "".join(shown)
    # TRANSLATORS: a list of games' titles; {title} has the forms of a noun ({title.asp} …)
    return tr._(
        "{titles} and {title}", titles=", ".join(shown[:-1]), title=word_phrase(shown[-1], tr.lang)
    )


def help_examples(
    group: str, before: Sequence[Example] = (), after: Sequence[Example] = ()
) -> Fields:
    """The fields of a help text that lists examples: ``{examples}`` (``before``, every game's
    for ``group`` in the registry's order, ``after``) and ``{games}`` (the games' titles).
    For ``cardroom`` itself the examples are ordered by the command they run (:data:`SECTIONS`)."""

    def fields(tr: Translator) -> dict[str, object]:
        found = [*before, *(e for entry in games() for e in game_examples(entry, group)), *after]
        if group == "cardroom":
            found.sort(key=_section)
        return {"examples": example_lines(found, tr), "games": titles(tr)}

    return fields


def _section(example: Example) -> int:
    words = example[0].split()
    command = words[1] if len(words) > 1 else ""
    return SECTIONS.index(command) if command in SECTIONS else len(SECTIONS)


_CARDROOM_EXAMPLES: tuple[Example, ...] = (
    ("cardroom replay game.json", N_("a readable account of a record")),
    ("cardroom replay game.json --json", N_("the result as JSON")),
    ("cardroom serve --host 0.0.0.0", N_("the games in the browser, with friends")),
)


@click.group(
    cls=GamesGroup,
    context_settings=CONTEXT,
    help_fields=help_examples("cardroom", _CARDROOM_EXAMPLES),
)
@click.version_option(package_name="cardroom")
@lang_option
def cli() -> None:
    """cardroom: play, replay, simulate and study card games: {games}.

    \b
    Examples:
    {examples}

    Each command has its own --help.
    """


@cli.group(
    context_settings=CONTEXT,
    help_fields=help_examples(
        "play", after=[("cardroom play GAME --help", N_("every option of the game"))]
    ),
)
@lang_option
def play() -> None:
    """Play {games} in the terminal against bots.

    \b
    Examples:
    {examples}

    Every game is saved as a record (cardroom-records/ by default) that `cardroom replay` reads.
    """


@cli.group(context_settings=CONTEXT, help_fields=help_examples("simulate"))
@lang_option
def simulate() -> None:
    """Play many games between bots and summarise them.

    \b
    Examples:
    {examples}
    """


@cli.group(context_settings=CONTEXT, help_fields=help_examples("tournament"))
@lang_option
def tournament() -> None:
    """Compare bots against each other over many deals.

    \b
    Examples:
    {examples}
    """


def speaker(speak: bool) -> Speaker | None:
    """The ``--speak`` voice in the command's language (None without ``--speak``); says on
    stderr when espeak-ng is missing, and the game goes on silently."""
    if not speak:
        return None
    voice = Speaker(translator(current_lang()))
    if not voice.available:
        click.echo(
            voice.tr._(
                "espeak-ng is not installed: the calls are only written "
                "(install it with `sudo apt-get install espeak-ng`)."
            ),
            err=True,
        )
        return None
    return voice
