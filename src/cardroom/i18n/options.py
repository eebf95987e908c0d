"""Every option of every game in words: what it is, what each value does, where it comes from.

A person never reads an option's key or value (``when_blocked``, ``next-rank``): the lobby, the
rules pages and the table's rules line show these sentences instead. The options, their values
in order, their words and their sources are written once, by each game's rules (``OPTIONS`` and
``SOURCES`` of the module the registry's ``options_words`` piece names); this module finds them
through the registry and says them. A game's own sentences (a table's rules line, its presets,
the lobby's model) are in its ``words`` piece. ``tests/i18n/test_option_words.py`` walks every
key, value and preset of the rules and fails if one has no words, or no French or Welsh.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from cardroom.games.options import Choice, Option
from cardroom.games.registry import GAMES, games, names
from cardroom.i18n import ENGLISH, Translator

OptionWords = Option
"""An option in words (the rules' :class:`~cardroom.games.options.Option`)."""

__all__ = [
    "OPTIONS",
    "SOURCES",
    "Choice",
    "OptionWords",
    "option_words",
    "sentence",
    "source_names",
    "web_words",
]


def _options_of(game: str) -> tuple[Option, ...]:
    entry = GAMES.get(game)
    if entry is None or entry.options_words is None:
        return ()
    return tuple(getattr(entry.load("options_words"), "OPTIONS", ()))


class _Options(Mapping[str, tuple[Option, ...]]):
    """Every registered game's options in words, by game name (live: a game registered later
    is listed)."""

    def __getitem__(self, game: str) -> tuple[Option, ...]:
        if game not in GAMES:
            raise KeyError(game)
        return _options_of(game)

    def __iter__(self) -> Iterator[str]:
        return iter(names())

    def __len__(self) -> int:
        return len(names())


OPTIONS: Mapping[str, tuple[Option, ...]] = _Options()
"""Game name -> its options in words, in the lobby's order."""


class _Sources(Mapping[str, str]):
    """Where a rule comes from, by short name: every registered game's ``SOURCES`` together."""

    def _all(self) -> dict[str, str]:
        merged: dict[str, str] = {}
        for entry in games():
            if entry.options_words is not None:
                merged.update(getattr(entry.load("options_words"), "SOURCES", {}))
        return merged

    def __getitem__(self, name: str) -> str:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


SOURCES: Mapping[str, str] = _Sources()
"""Where a rule comes from (an msgid), by the short name the games' options use."""


def option_words(game: str, key: str) -> Option:
    """The words of one option of ``game``; ``KeyError`` if it has none."""
    for option in OPTIONS[game]:
        if option.key == key:
            return option
    raise KeyError(key)


def source_names(sources: tuple[str, ...], lang: Translator = ENGLISH) -> str:
    """``the French rulebook, a house rule`` in ``lang``."""
    tr = lang
    said = dict(SOURCES)
    return ", ".join(tr._(said[s]) for s in sources)


def sentence(game: str, key: str, value: str, lang: Translator = ENGLISH) -> str:
    """One option as a sentence: ``When nobody has the next card: the one who played last…``."""
    tr = lang
    option = option_words(game, key)
    return tr._(
        "{label}: {words}", label=tr._(option.label), words=tr._(option.choice(value).words)
    )


def web_words() -> list[str]:
    """The msgids the lobby's models send (every source, and each game's own: its ``words``
    piece's ``web_words()``), for the page catalogs."""
    words = list(SOURCES.values())
    for entry in games():
        if entry.words is not None:
            own = getattr(entry.load("words"), "web_words", None)
            if own is not None:
                words.extend(own())
    return words
