"""Every option of every game in words: what it is, what each value does, where it comes from.

A person never reads an option's key or value (``when_blocked``, ``next-rank``): the lobby, the
rules pages and the table's rules line show these sentences instead. The values and presets
are the rules' (``games/nain_jaune/rules.py``); this module only gives them words. The lobby reads
both from :func:`lobby_model`; ``tests/i18n/test_option_words.py`` walks every key, value and
preset of the rules and fails if one has no words here, or no French or Welsh.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from cardroom.games.nain_jaune.rules import (
    BOARD_SETS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTION_VALUES,
    PRESETS,
    EndCondition,
    Rules,
)
from cardroom.i18n import ENGLISH, N_, Translator
from cardroom.i18n.grammar import printed

SOURCES: dict[str, str] = {
    "french": N_("the French rulebook"),
    "how-to-deal": N_("the English text “How to deal the Yellow Dwarf”"),
    "yellow-dwarf-rules": N_("the English text “Yellow Dwarf Rules”"),
    "house": N_("a house rule"),
    "regional": N_("some regional French rulebooks"),
    "table": N_("a table setting of cardroom"),
    "welsh": N_("the Welsh text on Spit and Speed"),
}
"""Where a rule comes from, by a short name used below."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One value of an option: its words (the end of a sentence) and where it comes from."""

    value: str
    words: str
    sources: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OptionWords:
    """An option: its label (the start of the sentence) and its values in words."""

    key: str
    label: str
    choices: tuple[Choice, ...]

    def choice(self, value: str) -> Choice:
        """The words of ``value``; ``KeyError`` if there are none."""
        for c in self.choices:
            if c.value == value:
                return c
        raise KeyError(f"{self.key}={value}")


def _nain_jaune(
    key: str, label: str, words: tuple[tuple[str, str, tuple[str, ...]], ...]
) -> OptionWords:
    """The words of a Nain Jaune option, its values taken from the rules in their order (this
    module only says what each one means); words for a value the rules lack, or a value
    without words, fail at import."""
    said = {value: (text, sources) for value, text, sources in words}
    values = OPTION_VALUES[key]
    if set(said) != set(values):
        raise AssertionError(f"{key}: words for {sorted(said)}, the rules have {list(values)}")
    return OptionWords(key, label, tuple(Choice(v, *said[v]) for v in values))


NAIN_JAUNE: tuple[OptionWords, ...] = (
    _nain_jaune(
        "when_blocked",
        N_("When nobody has the next card"),
        (
            (
                "next-rank",
                N_("the one who played last goes on with the next rank"),
                ("french", "how-to-deal"),
            ),
            (
                "free-restart",
                N_("the one who played last starts again with any card"),
                ("yellow-dwarf-rules",),
            ),
        ),
    ),
    _nain_jaune(
        "payment",
        N_("What the others pay the winner of a round"),
        (
            (
                "points-ace-low",
                N_(
                    "the value of their cards (ace 1, two to ten as marked, jack, queen and king 10)"  # noqa: E501
                ),
                ("french",),
            ),
            ("card-count", N_("one chip for each card left in their hand"), ("how-to-deal",)),
            (
                "points-ace-high",
                N_("the value of their cards (two to ten as marked, ace, jack, queen and king 10)"),
                ("yellow-dwarf-rules",),
            ),
        ),
    ),
    _nain_jaune(
        "forgotten_announcement",
        N_("A box its player forgot to take"),
        (
            ("chips-stay", N_("keeps its chips for a later round"), ("french",)),
            (
                "double-box",
                N_("keeps its chips, and the forgetter doubles it at the end of the round"),
                ("how-to-deal", "yellow-dwarf-rules"),
            ),
        ),
    ),
    _nain_jaune(
        "announce",
        N_("Taking a box"),
        (
            ("auto", N_("cardroom says “who takes” for you"), ("table",)),
            ("manual", N_("you say “who takes” yourself before your next move"), ("table",)),
        ),
    ),
    _nain_jaune(
        "grand_opera",
        N_("The Grand Opéra (the whole board)"),
        (
            (
                "one-turn",
                N_("goes to a player who plays every card of their hand in one turn"),
                ("french",),
            ),
            (
                "no-one-else-played",
                N_(
                    "goes to a player who plays every card in one turn before anyone else has played"  # noqa: E501
                ),
                ("how-to-deal", "yellow-dwarf-rules"),
            ),
            ("off", N_("is not played"), ("house",)),
        ),
    ),
    _nain_jaune(
        "may_stop",
        N_("Holding the next card"),
        (
            ("false", N_("you must play it"), ("french", "how-to-deal")),
            ("true", N_("you may keep it and say “without”"), ("house",)),
        ),
    ),
    _nain_jaune(
        "direction",
        N_("Seats on the screen"),
        (
            ("clockwise", N_("follow each other clockwise"), ("table",)),
            ("anticlockwise", N_("follow each other anticlockwise"), ("table",)),
        ),
    ),
    _nain_jaune(
        "board_cards",
        N_("The cards of the five boxes"),
        (
            (
                "standard",
                N_(
                    "ten of diamonds, jack of clubs, queen of spades, king of hearts, seven of diamonds"  # noqa: E501
                ),
                ("french", "how-to-deal", "yellow-dwarf-rules"),
            ),
            (
                "regional",
                N_(
                    "ten of diamonds, jack of clubs, queen of hearts, king of spades, seven of diamonds"  # noqa: E501
                ),
                ("regional",),
            ),
        ),
    ),
)
"""The options of Nain Jaune a table chooses from (``starting_chips`` and ``end`` are numbers
and have their own words: :func:`end_words`)."""

END_SOURCES: dict[str, tuple[str, ...]] = {
    "broke": ("french", "how-to-deal"),
    "last-standing": ("how-to-deal",),
    "rounds": ("french",),
    "target": ("yellow-dwarf-rules",),
}

END_KINDS: dict[str, str] = {
    "broke": N_("Until someone cannot pay"),
    "rounds": N_("A number of rounds"),
    "target": N_("Until someone holds a number of chips"),
    "last-standing": N_("Until one has all the chips"),
}
"""How a game may end, as the lobby offers it (a number is asked for rounds and target)."""

PRESET_NAMES: dict[str, str] = {
    "classic": N_("French classic"),
    "count": N_("One chip a card"),
    "ace-high": N_("Ace high, to 120"),
}
"""Each preset's name, short enough for a phone's select."""

PRESET_SOURCES: dict[str, str] = {
    "classic": "french",
    "count": "how-to-deal",
    "ace-high": "yellow-dwarf-rules",
}

SPIT: tuple[OptionWords, ...] = (
    OptionWords(
        "piles",
        N_("Stock piles"),
        (
            Choice("5", N_("five piles of 1 to 5 cards"), ("welsh",)),
            Choice("4", N_("four piles of 1 to 4 cards"), ("welsh",)),
        ),
    ),
    OptionWords(
        "slap",
        N_("A new layout"),
        (
            Choice(
                "race",
                N_("both slap the middle pile they want: the quicker hand chooses"),
                ("welsh",),
            ),
            Choice(
                "chooser", N_("the one who cleared their stock chooses a middle pile"), ("welsh",)
            ),
        ),
    ),
    OptionWords(
        "alternate_colours",
        N_("Colours on the middle piles"),
        (
            Choice("false", N_("any colour on any colour"), ("welsh",)),
            Choice("true", N_("red and black must alternate"), ("welsh",)),
        ),
    ),
)

SPEED: tuple[OptionWords, ...] = (
    OptionWords(
        "side_piles",
        N_("Side piles"),
        (
            Choice("10", N_("ten cards each, fifteen to play for each player"), ("welsh",)),
            Choice("5", N_("five cards each, twenty to play for each player"), ("welsh",)),
        ),
    ),
    OptionWords(
        "score_hand",
        N_("The winner scores"),
        (
            Choice("false", N_("a point for each card left in the loser’s draw pile"), ("welsh",)),
            Choice(
                "true",
                N_("a point for each card the loser still holds, hand and draw pile"),
                ("house",),
            ),
        ),
    ),
)

OPTIONS: dict[str, tuple[OptionWords, ...]] = {
    "nain-jaune": NAIN_JAUNE,
    "spit": SPIT,
    "speed": SPEED,
}


def option_words(game: str, key: str) -> OptionWords:
    """The words of one option of ``game``; ``KeyError`` if it has none."""
    for option in OPTIONS[game]:
        if option.key == key:
            return option
    raise KeyError(key)


def source_names(sources: tuple[str, ...], lang: Translator = ENGLISH) -> str:
    """``the French rulebook, a house rule`` in ``lang``."""
    tr = lang
    return ", ".join(tr._(SOURCES[s]) for s in sources)


def end_words(end: EndCondition, lang: Translator = ENGLISH) -> str:
    """When a game ends, in words: ``after 10 rounds``."""
    tr = lang
    if end.kind == "broke":
        return tr._("after the round in which a player could not pay")
    if end.kind == "last-standing":
        return tr._("when one player is left with chips (the others drop out)")
    if end.kind == "rounds":
        return tr.ngettext("after {n} round", "after {n} rounds", end.number)
    return tr.ngettext("when a player holds {n} chip", "when a player holds {n} chips", end.number)


def _value_of(rules: Rules, key: str) -> str:
    value = getattr(rules, key)
    if key == "board_cards":
        return next((name for name, cards in BOARD_SETS.items() if cards == value), "")
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def sentence(game: str, key: str, value: str, lang: Translator = ENGLISH) -> str:
    """One option as a sentence: ``When nobody has the next card: the one who played last…``."""
    tr = lang
    option = option_words(game, key)
    return tr._(
        "{label}: {words}", label=tr._(option.label), words=tr._(option.choice(value).words)
    )


def _changed(rules: Rules, base: Rules) -> list[str]:
    return [f.name for f in fields(Rules) if getattr(rules, f.name) != getattr(base, f.name)]


def _differences(rules: Rules, base: Rules, tr: Translator) -> list[str]:
    """Each option of ``rules`` that differs from ``base``, as a sentence."""
    parts = []
    for key in _changed(rules, base):
        if key == "starting_chips":
            parts.append(
                tr.ngettext(
                    "{n} chip each to start", "{n} chips each to start", rules.starting_chips
                )
            )
        elif key == "end":
            parts.append(tr._("the game ends {when}", when=end_words(rules.end, tr)))
        elif value := _value_of(rules, key):
            parts.append(sentence("nain-jaune", key, value, tr))
        else:
            cards = " ".join(printed(c, tr.lang) for c in rules.board_cards)
            parts.append(tr._("The cards of the five boxes: {cards}", cards=cards))
    return parts


def preset_changes(name: str, lang: Translator = ENGLISH) -> list[str]:
    """What a preset changes from the French classic, one sentence per option."""
    return _differences(PRESETS[name], PRESETS["classic"], lang)


def rules_text(rules: Rules, lang: Translator = ENGLISH) -> str:
    """The table's rules line: the nearest preset's name, then every option that differs from it
    as a sentence (``French classic; Taking a box: you say “who takes” yourself…``)."""
    tr = lang
    best = min(PRESETS, key=lambda name: len(_changed(rules, PRESETS[name])))
    parts = [tr._(PRESET_NAMES[best]), *_differences(rules, PRESETS[best], tr)]
    text = parts[0]
    for part in parts[1:]:
        text = tr._("{rules}; {option}", rules=text, option=part)
    return text


def lobby_model() -> dict[str, Any]:
    """Nain Jaune's options as the lobby's page reads them (``/api/options/nain-jaune``): the
    rules' values and presets with their words as msgids (the page translates them with its
    catalog). ``web/static/js/options.js`` keeps no copy of its own."""
    board_names = {cards: name for name, cards in BOARD_SETS.items()}
    presets = {}
    for name, rules in PRESETS.items():
        data = rules.to_json()
        data["board_cards"] = board_names[rules.board_cards]
        presets[name] = data
    return {
        "players_min": MIN_PLAYERS,
        "players_max": MAX_PLAYERS,
        "sources": dict(SOURCES),
        "choices": {
            o.key: {
                "label": o.label,
                "values": [[c.value, c.words, list(c.sources)] for c in o.choices],
            }
            for o in NAIN_JAUNE
        },
        "board_sets": {name: [str(c) for c in cards] for name, cards in BOARD_SETS.items()},
        "end_kinds": [[kind, words] for kind, words in END_KINDS.items()],
        "presets": presets,
        "preset_words": dict(PRESET_NAMES),
        "preset_sources": dict(PRESET_SOURCES),
    }


def web_words() -> list[str]:
    """The msgids :func:`lobby_model` sends, for the page catalogs."""
    words = [*SOURCES.values(), *PRESET_NAMES.values(), *END_KINDS.values()]
    for option in NAIN_JAUNE:
        words.append(option.label)
        words.extend(c.words for c in option.choices)
    return words
