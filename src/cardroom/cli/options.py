"""The one place numbers and paths from the command line are checked, shared by every command.

Each bound is checked by click while it parses the command line, before anything is allocated
or started, and a bad value is one ``Error: Invalid value for '--x'`` line. The same flag means
the same thing in every command: ``-n/--players``, ``-o/--option``, ``-w/--workers``,
``--seed``, ``--games``/``--rounds`` and ``--plot FILE.png``.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from cardroom.cli.helptext import FieldsOption
from cardroom.i18n import Translator, translator
from cardroom.i18n.numbers import integer

F = TypeVar("F", bound=Callable[..., Any])

MAX_WORKERS = 256
"""The most ``--workers`` accepted (Ray CPUs on a cluster); local processes are capped at the
machine's cores by :func:`local_workers`."""
MAX_SEED = 2**63 - 1
MAX_ROUNDS = 10**10
"""A turn-based game's ``simulate --rounds`` (about five hours at half a million rounds a
second)."""
MAX_DEALS = 10**6
"""``tournament --games``: each deal is played once per seat by the readable bots."""
MAX_GAMES = 10**7
"""A real-time game's ``simulate --games``."""
MAX_DELAY = 60.0
"""Seconds a bot may be told to wait before it plays."""


class FiniteFloat(click.ParamType[float, Any]):
    """A float from ``low`` to ``high``: ``nan``, ``inf`` and anything out of range are refused."""

    name = "seconds"

    def __init__(self, low: float, high: float) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, float) and math.isfinite(value) and self.low <= value <= self.high:
            return value
        try:
            number = float(str(value).strip())
        except ValueError:
            self.fail(_tr()._("{value} is not a number", value=_short(value)), param, ctx)
        if not (math.isfinite(number) and self.low <= number <= self.high):
            self.fail(
                _tr()._("{value} is not a number from {low} to {high}", value=_short(value),
                        low=f"{self.low:g}", high=f"{self.high:g}"),
                param, ctx,
            )
        return number


class BoundedInt(click.IntRange):
    """A whole number from ``low`` to ``high`` (``1e6`` and ``1_000`` are read too)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            text = value.strip().replace("_", "")
            if len(text) > 30:
                self.fail(_tr()._("{value} is not a whole number", value=_short(value)), param, ctx)
            if "e" in text.lower() and text.replace("e", "").replace("E", "").isdigit():
                mantissa, _, exponent = text.lower().partition("e")
                if mantissa and exponent and int(exponent) <= 30:
                    value = str(int(mantissa) * 10 ** int(exponent))
            else:
                value = text
            try:
                int(value)
            except ValueError:
                self.fail(_tr()._("{value} is not a whole number", value=_short(value)), param, ctx)
        return super().convert(value, param, ctx)

    def _describe_range(self) -> str:
        tr = _tr()
        low, high = integer(self.min or 0, tr), integer(self.max or 0, tr)
        return tr._("{low} to {high}", low=low, high=high)


def _tr() -> Translator:
    """The translator of the command line's language."""
    from cardroom.cli.groups import current_lang

    return translator(current_lang())


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:30] + "…"


def players_option(default_help: str) -> Callable[[F], F]:
    """``-n/--players``: seats at the table, 2 to 8."""
    return click.option(
        "--players", "-n", type=BoundedInt(2, 8), default=None, help=default_help
    )


def option_option(help_text: str) -> Callable[[F], F]:
    """``-o/--option KEY=VALUE``, repeatable."""
    return click.option(
        "--option", "-o", "options", multiple=True, metavar="KEY=VALUE", help=help_text
    )


def workers_option(help_text: str) -> Callable[[F], F]:
    """``-w/--workers``: processes, 1 to :data:`MAX_WORKERS` (locally, at most the cores)."""
    return click.option(
        "--workers", "-w", type=BoundedInt(1, MAX_WORKERS), default=1, show_default=True,
        cls=FieldsOption, help=help_text,
        help_parts=["At most the machine's cores are used (here {cores})."],
        help_fields=lambda _tr: {"cores": cpu_count()},
    )


def seed_option(default: int | None, help_text: str) -> Callable[[F], F]:
    """``--seed``: 0 to 2**63 - 1."""
    return click.option(
        "--seed", type=BoundedInt(0, MAX_SEED), default=default,
        show_default=default is not None, help=help_text,
    )


def plot_option(help_text: str) -> Callable[[F], F]:
    """``--plot FILE.png``."""
    return click.option(
        "--plot", "plot_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
        metavar="FILE.png", help=help_text,
    )


def cpu_count() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def local_workers(workers: int, jobs: int | None = None) -> int:
    """``--workers`` for local processes: more than the cores (or the jobs) only slows down."""
    return max(1, min(workers, cpu_count(), jobs if jobs is not None else workers))


def check_plot_path(path: Path | None) -> Path | None:
    """Check before any work that a chart can be saved at ``path``; raise click.BadParameter."""
    if path is None:
        return None
    hint = "--plot"
    tr = _tr()
    if path.suffix.lower() != ".png":
        raise click.BadParameter(
            tr._("{path}: give a file name ending in .png", path=path), param_hint=hint
        )
    if path.is_dir():
        raise click.BadParameter(
            tr._("{path} is a folder: give a file name", path=path), param_hint=hint
        )
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise click.BadParameter(
            tr._("the folder {folder} does not exist: create it first", folder=folder),
            param_hint=hint,
        )
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".cardroom-", suffix=".png"):
            pass
    except OSError as exc:
        raise click.BadParameter(
            tr._("cannot write in {folder}: {reason}", folder=folder, reason=exc.strerror),
            param_hint=hint,
        ) from None
    if path.exists() and not os.access(path, os.W_OK):
        raise click.BadParameter(tr._("cannot overwrite {path}", path=path), param_hint=hint)
    return path
