"""The catalogs: every message translated in every language, placeholders kept, plural rules
right (Welsh has six forms: 0, 1, 2, 3, 6 and the rest), and the generated files in sync."""

from __future__ import annotations

import json

import pytest
from babel.messages.pofile import read_po

from cardroom.i18n import (
    LANGS,
    catalog_path,
    from_accept_language,
    from_environment,
    placeholders,
    translator,
)
from cardroom.i18n.build import STATIC_I18N, build, extract

TRANSLATED = [lang for lang in LANGS if lang != "en"]


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    with catalog_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain="cardroom")


def test_generated_files_are_in_sync_with_the_code() -> None:
    assert build(check=True) == [], "run: PYTHONPATH=src python -m cardroom.i18n.build"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str) -> None:
    pot, _web = extract()
    cat = _catalog(lang)
    missing = []
    for message in pot:
        if not message.id:
            continue
        got = cat.get(message.id)
        strings = (
            []
            if got is None
            else (list(got.string) if isinstance(got.string, tuple | list) else [got.string])
        )
        if not strings or not all(strings) or (got is not None and got.fuzzy):
            missing.append(message.id)
    assert len(pot) > 60
    assert missing == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_every_placeholder(lang: str) -> None:
    bad = []
    for message in _catalog(lang):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        wanted = set().union(*(placeholders(i) for i in ids))
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        # a form has the fields of the msgid's singular or plural (click's "Did you mean
        # {possibility}?" / "… one of: {possibilities}?"), or of both when they are the same
        allowed = [wanted] if len({frozenset(placeholders(i)) for i in ids}) == 1 else [
            placeholders(i) for i in ids
        ]
        for s in strings:
            # a singular form may leave out {n} ("one chip"), never a name or another field
            if not any(placeholders(s) | {"n"} == w | {"n"} and placeholders(s) <= w
                       for w in allowed):
                bad.append((ids[0], s))
    assert bad == []


def test_placeholder_check_catches_a_dropped_field() -> None:
    assert placeholders("{name} plays {card}") == {"name", "card"}
    assert placeholders("{name} joue") != placeholders("{name} plays {card}")


def test_welsh_has_six_plural_forms() -> None:
    tr = translator("cy")
    forms = {n: tr.ngettext("{n} round", "{n} rounds", n) for n in (0, 1, 2, 3, 6, 7)}
    assert forms == {
        0: "0 o rowndiau",
        1: "1 rownd",
        2: "2 rownd",
        3: "3 rownd",
        6: "6 rownd",
        7: "7 o rowndiau",
    }
    cat = _catalog("cy")
    assert cat.num_plurals == 6
    # the rule itself: 0, 1, 2, 3, 6 each have their own form, every other number the last
    plural = cat.plural_expr
    assert "n==6" in plural.replace(" ", "")
    for message in cat:
        if message.id and isinstance(message.id, tuple):
            assert len(message.string) == 6, message.id


def test_french_plural_counts_zero_and_one_as_singular() -> None:
    tr = translator("fr")
    assert tr.ngettext("{n} round", "{n} rounds", 0) == "0 manche"
    assert tr.ngettext("{n} round", "{n} rounds", 1) == "1 manche"
    assert tr.ngettext("{n} round", "{n} rounds", 2) == "2 manches"
    en = translator("en")
    assert en.ngettext("{n} round", "{n} rounds", 0) == "0 rounds"
    assert en.ngettext("{n} round", "{n} rounds", 1) == "1 round"


@pytest.mark.parametrize("lang", LANGS)
def test_page_catalog_matches_the_po(lang: str) -> None:
    data = json.loads((STATIC_I18N / f"{lang}.json").read_text(encoding="utf-8"))
    if lang == "en":
        assert data == {}
        return
    assert data["queen"] == {"fr": "dame", "cy": "brenhines"}[lang]
    assert all(v for v in data.values())


def test_language_choice() -> None:
    assert from_accept_language("cy-GB,cy;q=0.9,en;q=0.5") == "cy"
    assert from_accept_language("de-DE, fr;q=0.4, en;q=0.6") == "en"
    assert from_accept_language("de") == "en"
    assert from_accept_language(None) == "en"
    assert from_environment({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert from_environment({"LANGUAGE": "cy:en", "LANG": "fr_FR.UTF-8"}) == "cy"
    assert from_environment({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}) == "en"
    assert from_environment({"CARDROOM_LANG": "cy", "LANG": "fr_FR.UTF-8"}) == "cy"
    assert from_environment({}) == "en"
