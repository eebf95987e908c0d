"""The option helpers every game's rules share: ``key=value`` pairs, true/false values, a
record's ``rules`` object, options by name, the messages of a refused option, and the shape of
an option in words (:class:`Option`, :class:`Choice`) each game's rules declare once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cardroom.games.errors import RulesError
from cardroom.games.messages import Message
from cardroom.games.records import brief


def N_(message: str) -> str:
    """Mark an English msgid where a game's rules declare it (the catalog builder extracts it;
    it is translated where it is shown, by ``cardroom.i18n``, which the rules core does not
    import)."""
    return message


@dataclass(frozen=True, slots=True)
class Choice:
    """One value of an option as the rules accept it (``value``), its words (the end of a
    sentence, an msgid) and where it comes from (short names of the game's ``SOURCES``)."""

    value: str
    words: str
    sources: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Option:
    """An option a table picks from a list: its key, its label (the start of the sentence, an
    msgid) and its values in the rules' order, the usual one first."""

    key: str
    label: str
    choices: tuple[Choice, ...]

    @property
    def values(self) -> tuple[str, ...]:
        """The values as the rules accept them, in order."""
        return tuple(c.value for c in self.choices)

    def choice(self, value: str) -> Choice:
        """The words of ``value``; ``KeyError`` if there are none."""
        for c in self.choices:
            if c.value == value:
                return c
        raise KeyError(f"{self.key}={value}")


SOURCES: dict[str, str] = {
    "house": N_("a house rule"),
    "table": N_("a table setting of cardroom"),
}
"""Where a rule comes from when no game's text says it (a game adds its own texts)."""


def parse_option_pairs(pairs: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Read ``key=value`` strings from the command line."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise RulesError(
                Message(
                    "rules.key-value",
                    f"option {brief(pair)} must be written key=value (see --help)",
                    typed=brief(pair),
                )
            )
        out[key.strip()] = value.strip()
    return out


def parse_flag(name: str, value: Any, game: str) -> bool:
    """Read a true/false option: true/false, yes/no, 1/0 or on/off (and yes or no in French
    and Welsh, as the words of :data:`TRUE_OR_FALSE` ask: oui/non, ie/na)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1", "on", "oui", "ie"):
        return True
    if text in ("false", "no", "0", "off", "non", "na"):
        return False
    raise RulesError(not_valid(game, name, value, TRUE_OR_FALSE))


TRUE_OR_FALSE = Message("rules.how.flag", "use true or false")
NOT_AN_OBJECT = Message(
    "rules.not-object", "rules must be a JSON object of option names and values"
)
"""A record's or a request's ``rules`` that is not an object of options (every game's)."""


def options_object(data: Any) -> Mapping[str, Any]:
    """A record's ``rules`` object as options (None: none); anything but an object is refused
    (every game's ``from_json``)."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise RulesError(NOT_AN_OBJECT)
    return data


def named_options(
    game: str,
    options: Mapping[str, Any],
    known: set[str],
    sentence: str,
    convert: Callable[[str, Any], Any],
) -> dict[str, Any]:
    """``options`` by field name (``may-stop`` is ``may_stop``), each value read by ``convert``;
    an option not in ``known`` is refused with ``sentence`` (see :func:`unknown_option`)."""
    changes: dict[str, Any] = {}
    for key, value in options.items():
        name = str(key).strip().replace("-", "_")
        if name not in known:
            raise RulesError(unknown_option(game, key, known, sentence))
        changes[name] = convert(name, value)
    return changes


def players_error(game: str, n: int, least: int, most: int) -> Message:
    """``Nain Jaune is played by 2 to 8 players, not 9`` (Spit and Speed: by two players)."""
    from cardroom.games.registry import title

    name = title(game)
    if least == most:
        english = f"{name} is played by two players, not {n}"
    else:
        english = f"{name} is played by {least} to {most} players, not {n}"
    return Message("rules.players", english, game=game, n=n, least=least, most=most)


def not_valid(game: str, option: str, value: Any, how: Message) -> Message:
    """``piles=3 is not valid: use 5 or 4 (stock piles)`` with its id and fields: the game, the
    option's key, the value as typed (``brief``) and ``how`` (what to give instead)."""
    return Message(
        "rules.not-valid",
        f"{option}={brief(value)} is not valid: {how}",
        game=game,
        option=option,
        value=brief(value),
        how=how,
    )


def unknown_option(game: str, key: Any, known: set[str], sentence: str) -> Message:
    """An option nobody knows: ``sentence`` (with ``{typed}`` and ``{options}``) as its English,
    the key as typed and the known options as fields."""
    typed, options = brief(key), tuple(sorted(known))
    return Message(
        "rules.unknown-option",
        sentence.format(typed=typed, options=", ".join(options)),
        game=game,
        typed=typed,
        options=options,
    )


def choose_one(game: str, option: str, allowed: tuple[str, ...]) -> Message:
    """``choose one of a, b`` with the option's allowed values as a field."""
    return Message(
        "rules.how.choose",
        f"choose one of {', '.join(allowed)}",
        game=game,
        option=option,
        choices=allowed,
    )
