"""Translations: English, French and Welsh words for everything a person reads.

The catalogs are gettext ``.po`` files under ``locale/<lang>/LC_MESSAGES/cardroom.po``, read at
run time with Babel (no compiled ``.mo`` to keep in sync). English is the source language: its
messages are the msgids. :func:`translator` gives a :class:`Translator` for a language; the card
and event words are in :mod:`cardroom.i18n.words`.
"""

from __future__ import annotations

import gettext
import io
import os
import re
import string
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGS = ("en", "fr", "cy")
"""The languages of cardroom, English first (the source language)."""
LANG_COOKIE = "cr_lang"
"""The cookie the pages' language switch sets."""
LANG_NAMES = {"en": "English", "fr": "Français", "cy": "Cymraeg"}
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "cardroom"
_FIELD = re.compile(r"\{([a-z_]*)(?:\.[a-z_]+)?\}")


def catalog_path(lang: str) -> Path:
    """The ``.po`` file of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a message."""
    return set(_FIELD.findall(text))


class _Forms(string.Formatter):
    """``{card.the}`` with a noun phrase; with a plain value (a printed card ``7♦``, a number)
    the form is the value itself."""

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        try:
            return super().get_field(field_name, args, kwargs)
        except AttributeError:
            return super().get_field(field_name.split(".", 1)[0], args, kwargs)


_FORMS = _Forms()
_HAS_FORM = re.compile(r"\{[a-z_]+\.")


def fill(text: str, fields: Mapping[str, object]) -> str:
    """``text`` with its ``{fields}`` (and ``{field.form}``) filled in."""
    if _HAS_FORM.search(text):
        return _FORMS.vformat(text, (), fields)
    return text.format(**fields)


class Translator:
    """The words of one language: ``tr._("text {x}", x=1)`` and ``tr.ngettext(s, p, n)``."""

    def __init__(self, lang: str, translations: gettext.NullTranslations) -> None:
        self.lang = lang
        self._t = translations

    def _(self, message: str, /, **fields: object) -> str:
        """``message`` in this language, with ``fields`` filled in."""
        text = self._t.gettext(message)
        return fill(text, fields) if fields else text

    def ngettext(self, singular: str, plural: str, n: int, /, **fields: object) -> str:
        """The form for ``n`` (``{n}`` is filled in with ``n``)."""
        return fill(self._t.ngettext(singular, plural, n), {"n": n, **fields})

    def raw_ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """The form for ``n``, its fields left to fill (for click, which fills them)."""
        return self._t.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str, /, **fields: object) -> str:
        """``message`` in ``context`` (for short words that differ by use)."""
        text = self._t.pgettext(context, message)
        return fill(text, fields) if fields else text

    def join(self, items: Iterable[str]) -> str:
        """``A, B and C`` in this language."""
        items = list(items)
        if len(items) <= 1:
            return "".join(items)
        return self._("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined (it is translated where used)."""
    return message


def Np_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural message (both forms) for translation where it is defined."""
    return singular, plural


def tr_of(lang: str | Translator | None) -> Translator:
    """A translator from a language code (or the translator itself): for a front end's edge,
    which makes one and passes it on (the words' functions take a :class:`Translator`)."""
    return lang if isinstance(lang, Translator) else translator(lang)


@cache
def translator(lang: str | None = None) -> Translator:
    """The translator of ``lang`` (``en`` for None or an unknown language)."""
    lang = normalize(lang) or "en"
    if lang == "en":
        return Translator("en", gettext.NullTranslations())
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translator(lang, gettext.GNUTranslations(buf))


def normalize(tag: str | None) -> str | None:
    """``fr_FR.UTF-8`` / ``fr-CA`` / ``CY`` -> ``fr`` / ``cy``; None if not one of :data:`LANGS`."""
    if not tag:
        return None
    base = re.split(r"[-_.@]", tag.strip().lower(), maxsplit=1)[0]
    return base if base in LANGS else None


def from_accept_language(header: str | None) -> str:
    """The best of :data:`LANGS` for an HTTP ``Accept-Language`` header (``en`` if none)."""
    best, best_q = "en", -1.0
    for part in (header or "").split(","):
        tag, _sep, params = part.strip().partition(";")
        lang = normalize(tag)
        if lang is None:
            continue
        q = 1.0
        m = re.search(r"q=([0-9.]+)", params)
        if m:
            try:
                q = float(m.group(1))
            except ValueError:
                continue
        if q > best_q:
            best, best_q = lang, q
    return best


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of the terminal: ``CARDROOM_LANG``, then ``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` (the first set one decides; ``en`` if it is none of ours)."""
    env = os.environ if environ is None else environ
    for key in ("CARDROOM_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            for tag in value.split(":"):
                lang = normalize(tag)
                if lang is not None:
                    return lang
            if key != "LANGUAGE":
                return "en"
    return "en"


ENGLISH = translator("en")
"""The English translator: the words' functions' default language."""
