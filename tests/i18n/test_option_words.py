"""Every option key, value and preset a person can meet has words, in every language; the lobby
reads them from the server's model (no copy); the table's rules line never shows a key or value."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file

from cardroom.games.nain_jaune.rules import (
    BOARD_SETS,
    CHOICES,
    END_SOURCES,
    OPTION_VALUES,
    PRESET_NAMES,
    PRESET_SOURCES,
    PRESETS,
    EndCondition,
    Rules,
)
from cardroom.games.nain_jaune.rules import OPTIONS as NAIN_JAUNE
from cardroom.games.nain_jaune.words import end_words, lobby_model, rules_text
from cardroom.games.speed.rules import SpeedRules
from cardroom.games.spit.rules import SpitRules
from cardroom.i18n import LANGS, translator
from cardroom.i18n.options import (
    OPTIONS,
    SOURCES,
    option_words,
    sentence,
    web_words,
)

OPTIONS_JS = Path(__file__).resolve().parents[2] / "src/cardroom/web/static/js/options.js"
# The keys and values of the rules as a person must never read them: the option keys and values
# that are not plain English words (``when_blocked``, ``next-rank``, ``ace-high``, ``false``).
# "end", "direction", "auto", "off" or "classic" are words a sentence may rightly use.
_ALL_VALUES = {v for values in CHOICES.values() for v in values}
CODE_WORDS = sorted(
    {f.name for f in fields(Rules) if "_" in f.name}
    | {v for v in _ALL_VALUES if "-" in v}
    | {"ace-high", "true", "false", "rounds:", "target:"}
)
CODE = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in CODE_WORDS) + r")(?![\w-])")


def _translated(lang: str, msgid: str) -> bool:
    """``msgid`` has its own words in ``lang`` (English is the msgid itself)."""
    if lang == "en":
        return True
    t = translator(lang)._t
    return bool(t._catalog.get(msgid))  # type: ignore[attr-defined]


def test_every_nain_jaune_option_and_value_has_words() -> None:
    """Every field of Rules is covered: choices and may_stop value by value, board cards by
    set, starting chips and end by their own words."""
    worded = {o.key for o in NAIN_JAUNE}
    assert worded | {"starting_chips", "end"} == {f.name for f in fields(Rules)}
    for key, values in CHOICES.items():
        assert [c.value for c in option_words("nain-jaune", key).choices] == list(values)
    assert [c.value for c in option_words("nain-jaune", "may_stop").choices] == ["false", "true"]
    assert [c.value for c in option_words("nain-jaune", "board_cards").choices] == list(BOARD_SETS)
    assert set(PRESET_NAMES) == set(PRESETS) == set(PRESET_SOURCES)
    assert set(END_SOURCES) == {"broke", "last-standing", "rounds", "target"}


def test_every_spit_and_speed_option_has_words() -> None:
    spit = {f.name for f in fields(SpitRules)} - {"countdown"}
    speed = {f.name for f in fields(SpeedRules)} - {"countdown", "target"}
    assert {o.key for o in OPTIONS["spit"]} == spit
    assert {o.key for o in OPTIONS["speed"]} == speed
    for game, options in OPTIONS.items():
        for option in options:
            for choice in option.choices:
                if game == "spit":
                    SpitRules.from_options({option.key: choice.value})  # a real value
                elif game == "speed":
                    SpeedRules.from_options({option.key: choice.value})


def _messages() -> list[str]:
    out = [*SOURCES.values(), *PRESET_NAMES.values()]
    for options in OPTIONS.values():
        for option in options:
            out.append(option.label)
            out.extend(c.words for c in option.choices)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_option_word_exists_in_each_language(lang: str) -> None:
    missing = [m for m in _messages() if not _translated(lang, m)]
    assert missing == []
    for options in OPTIONS.values():
        for option in options:
            for choice in option.choices:
                assert set(choice.sources) <= set(SOURCES)


@pytest.mark.parametrize("lang", LANGS)
def test_no_sentence_shows_a_key_or_value(lang: str) -> None:
    for option in NAIN_JAUNE:
        for choice in option.choices:
            text = sentence("nain-jaune", option.key, choice.value, translator(lang))
            assert CODE.search(text) is None, text
    for end in ("broke", "last-standing", "rounds:1", "rounds:12", "target:120"):
        text = end_words(EndCondition.parse(end), translator(lang))
        assert CODE.search(text) is None, text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("preset", "options", "expected_parts"),
    [
        ("classic", {}, 1),
        ("count", {}, 1),
        ("ace-high", {}, 1),
        ("classic", {"announce": "manual", "may_stop": "true"}, 3),
        ("count", {"end": "rounds:5", "starting_chips": "80", "board_cards": "regional"}, 4),
        ("classic", {"board_cards": "10D JC QS KS 7D", "direction": "anticlockwise"}, 3),
    ],
)
def test_the_rules_line_is_words(
    lang: str, preset: str, options: dict[str, str], expected_parts: int
) -> None:
    rules = Rules.from_options(preset, options)
    text = rules_text(rules, translator(lang))
    assert CODE.search(text) is None, text
    tr = translator(lang)
    assert text.startswith(tr._(PRESET_NAMES[preset]))
    # one part per changed option, each after the separator of the language
    separator = " ; " if lang == "fr" else "; "
    assert len(text.split(separator)) == expected_parts, text


def test_the_rules_line_names_a_changed_option_in_words() -> None:
    rules = Rules.from_options("classic", {"announce": "manual"})
    assert rules_text(rules, translator("en")) == (
        "French classic; Taking a box: you say “who takes” yourself before your next move"
    )
    assert rules_text(rules, translator("fr")) == (
        "Classique français ; Prendre une case : vous dites vous-même « qui prend » avant "
        "votre coup suivant"
    )


def test_the_lobby_keeps_no_copy_of_the_options() -> None:
    """options.js spells no option value, preset or option word: it reads them from the
    server's model, which is the rules' values with these words."""
    js = OPTIONS_JS.read_text(encoding="utf-8")
    marked = {
        msg if isinstance(msg, str) else msg[0]
        for _line, msg, _c, _ctx in extract_from_file(
            "javascript", OPTIONS_JS, keywords={"N_": None}
        )
    }
    words = set(web_words())
    assert marked & words == set()
    spelled = [v for v in _ALL_VALUES | set(PRESETS) if f'"{v}"' in js]
    assert spelled == []


def test_the_lobby_model_is_the_rules_model() -> None:
    """The model the page reads has every option, value, preset and word of the rules, in order."""
    model = lobby_model()
    assert list(model["choices"]) == [o.key for o in NAIN_JAUNE]
    for option in NAIN_JAUNE:
        spec = model["choices"][option.key]
        assert spec["label"] == option.label
        assert [v[0] for v in spec["values"]] == list(OPTION_VALUES[option.key])
        assert [v[1] for v in spec["values"]] == [c.words for c in option.choices]
    assert model["preset_words"] == PRESET_NAMES
    assert model["preset_sources"] == PRESET_SOURCES
    assert {name: Rules.from_json(p) for name, p in _presets_with_cards(model).items()} == PRESETS


def _presets_with_cards(model: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: {**p, "board_cards": " ".join(model["board_sets"][p["board_cards"]])}
        for name, p in model["presets"].items()
    }


def test_the_page_catalogs_carry_the_models_words() -> None:
    """The words the model sends as msgids are in each page catalog, translated."""
    for lang in ("fr", "cy"):
        catalog = json.loads(
            (OPTIONS_JS.parents[1] / "i18n" / f"{lang}.json").read_text(encoding="utf-8")
        )
        assert [w for w in web_words() if not catalog.get(w)] == []


def test_board_cards_of_no_named_set_carry_the_letters_of_french_packs() -> None:
    from cardroom.games.nain_jaune.rules import Rules

    rules = Rules.from_options(None, {"board_cards": "9D,JC,QH,KS,7D"})
    fr, en = translator("fr"), translator("en")
    assert rules_text(rules, fr).endswith("Les cartes des cinq cases : 9♦ V♣ D♥ R♠ 7♦")
    assert rules_text(rules, en).endswith("The cards of the five boxes: 9♦ J♣ Q♥ K♠ 7♦")
