"""``--help`` and click's own words in the chosen language.

The commands keep their English help (docstrings and ``help=``) as the catalog's msgids: the
command classes here translate them when help is printed, in the language of the command line
(``--lang X`` anywhere in it, else the locale; see :func:`cardroom.cli.groups.current_lang`).
``python -m cardroom.i18n.build`` finds every help text by walking the command tree
(:func:`help_messages`). A ``\\b`` line (click's "do not rewrap") is ``{b}`` in a msgid, so a
translation that drops one fails the placeholder test. Click's own words ("Usage:", "Options",
"Show this message and exit.", "Error: …") come from its ``gettext`` calls, pointed at our
catalog by :func:`use_click_words`.
"""

from __future__ import annotations

import contextlib
import gettext
import inspect
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

import click

from cardroom.i18n import Translator, normalize, translator
from cardroom.i18n.words import N_, Np_

Fields = Callable[[Translator], Mapping[str, object]]
"""Values for a help text's ``{fields}``, in the language being printed."""

CLICK_WORDS = (
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("Show this message and exit."),
    N_("Show the version and exit."),
    N_("default: {default}"),
    N_("required"),
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Invalid value for {param_hint}: {message}"),
    N_("{value} is not in the range {range}."),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("Missing option"),
    N_("Missing argument"),
    N_("Missing command."),
    N_("Aborted!"),
    *Np_("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    *Np_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    *Np_("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
)
"""The words of click that our commands show (its other messages stay in English)."""
HELP_OPTION = "Show this message and exit."
_CLICK_MODULES = (
    "click.core", "click.exceptions", "click.formatting", "click.decorators", "click.parser",
    "click.types",
)  # fmt: skip
_META_KEY = "cardroom.lang"


RULES_EPILOG = """How to play, with pictures and every option in words (English, French and Welsh):
run `cardroom serve` and open http://127.0.0.1:8000/rules/{rules_page}"""
"""The end of each ``cardroom play`` help: where the rules pages are."""


def source(text: str) -> str:
    """The msgid of a help text: as click shows it, with ``\\b`` lines written ``{b}``."""
    return inspect.cleandoc(text).partition("\f")[0].replace("\b", "{b}")


def in_language(text: str, tr: Translator, fields: Mapping[str, object] | None = None) -> str:
    """A help text (English, as written in the code) in ``tr``'s language, fields filled in."""
    return tr._(source(text), b="\b", **(fields or {}))


def use_click_words(lang: str) -> None:
    """Make click's own messages ("Usage:", "Options"…) come from ``lang``'s catalog."""
    tr = translator(lang)
    words = gettext.gettext if tr.lang == "en" else tr._
    plural = gettext.ngettext if tr.lang == "en" else tr.raw_ngettext
    for name in _CLICK_MODULES:
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "_"):
            module._ = words  # type: ignore[attr-defined]
        if module is not None and hasattr(module, "ngettext"):
            module.ngettext = plural  # type: ignore[attr-defined]


def lang_in(args: Sequence[str]) -> str | None:
    """The language a command line asks for with ``--lang X`` or ``--lang=X`` (the last one)."""
    found: str | None = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            found = normalize(args[i + 1]) or found
        elif arg.startswith("--lang="):
            found = normalize(arg.partition("=")[2]) or found
    return found


class FieldsOption(click.Option):
    """An option whose help has ``{fields}`` or more than one sentence to translate."""

    def __init__(
        self,
        *args: Any,
        help_fields: Fields | None = None,
        help_parts: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.help_fields = help_fields
        self.help_parts = tuple(help_parts)


def _option_help(param: click.Option, tr: Translator) -> str:
    parts = [param.help or "", *getattr(param, "help_parts", ())]
    make: Fields | None = getattr(param, "help_fields", None)
    fields = make(tr) if make is not None else {}
    return " ".join(in_language(p, tr, fields) for p in parts if p)


@contextlib.contextmanager
def _translated(command: click.Command, ctx: click.Context, tr: Translator) -> Iterator[None]:
    """``command``'s help, its options' and its subcommands' in ``tr``'s language meanwhile."""
    saved: list[tuple[Any, str, Any]] = []

    def swap(obj: Any, attr: str, value: Any) -> None:
        saved.append((obj, attr, getattr(obj, attr)))
        setattr(obj, attr, value)

    commands = [command]
    if isinstance(command, click.Group):
        commands += list(command.commands.values())
    for cmd in commands:
        make: Fields | None = getattr(cmd, "help_fields", None)
        fields = make(tr) if make is not None else {}
        for attr in ("help", "short_help", "epilog"):
            text = getattr(cmd, attr)
            if text:
                swap(cmd, attr, in_language(text, tr, fields))
    help_option = command.get_help_option(ctx)
    for param in command.get_params(ctx):
        if not isinstance(param, click.Option):
            continue
        if param is help_option:
            swap(param, "help", tr._(HELP_OPTION))
        elif param.help:
            swap(param, "help", _option_help(param, tr))
    try:
        yield
    finally:
        for obj, attr, value in reversed(saved):
            setattr(obj, attr, value)


def _help_lang(ctx: click.Context) -> str:
    from cardroom.cli.groups import current_lang

    with ctx.scope(cleanup=False):
        return current_lang()


class _Translating:
    """What both command classes add: the language of the command line, help in it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        lang = lang_in(args)
        if lang is not None:
            ctx.meta[_META_KEY] = lang
        if ctx.parent is None:  # the whole command line: click's words follow it too
            use_click_words(_help_lang(ctx))
        return super().parse_args(ctx, args)  # type: ignore[misc, no-any-return]

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        tr = translator(_help_lang(ctx))
        assert isinstance(self, click.Command)
        if tr.lang == "fr":  # French puts a (no-break) space before a colon: « Options : »
            formatter.write_heading = partial(_french_heading, formatter)  # type: ignore[method-assign]
        with _translated(self, ctx, tr):
            super().format_help(ctx, formatter)  # type: ignore[misc]


def _french_heading(formatter: click.HelpFormatter, heading: str) -> None:
    formatter.write(f"{'':>{formatter.current_indent}}{heading}\u00a0:\n")


class TrCommand(_Translating, click.Command):
    """A command whose ``--help`` is printed in the command line's language."""

    def __init__(self, *args: Any, help_fields: Fields | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help_fields = help_fields


class TrGroup(_Translating, click.Group):
    """A group whose ``--help`` (and its commands') is printed in the command line's language;
    its commands and subgroups are of these classes too."""

    command_class = TrCommand
    group_class = type

    def __init__(self, *args: Any, help_fields: Fields | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help_fields = help_fields


def help_messages(command: click.Command) -> Iterator[str]:
    """Every help text of ``command`` and its subcommands, as msgids (for the catalog build)."""
    for attr in ("help", "short_help", "epilog"):
        text = getattr(command, attr)
        if text:
            yield source(text)
    for param in command.params:
        if isinstance(param, click.Option):
            for text in (param.help, *getattr(param, "help_parts", ())):
                if text:
                    yield source(text)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            yield from help_messages(sub)
