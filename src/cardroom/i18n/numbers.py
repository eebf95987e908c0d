"""Numbers as each language writes them (Babel's CLDR data): ``61.7%`` / ``61,7 %``,
``+8.05`` / ``+8,05``, ``1,234,567`` / ``1 234 567`` (narrow no-break spaces in French)."""

from __future__ import annotations

from functools import cache

from babel import Locale
from babel.numbers import format_decimal, format_percent

from cardroom.i18n import ENGLISH, Translator


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def integer(n: int, lang: Translator = ENGLISH) -> str:
    """A whole number with the language's grouping: ``1,234,567`` / ``1 234 567``."""
    return format_decimal(n, locale=_locale(lang.lang))


def number(x: float, lang: Translator = ENGLISH) -> str:
    """``x`` with as many decimals as it has (three at most): ``0.25`` / ``0,25``, ``2`` / ``2``."""
    return format_decimal(x, format="#,##0.###", locale=_locale(lang.lang))


def decimal(
    x: float, places: int = 2, lang: Translator = ENGLISH, *, sign: bool = False
) -> str:
    """``x`` with exactly ``places`` decimals (and its sign with ``sign``): ``+8,05``."""
    body = "#,##0" + ("." + "0" * places if places else "")
    pattern = f"+{body};-{body}" if sign else body
    return format_decimal(x, format=pattern, locale=_locale(lang.lang))


def percent(rate: float, places: int = 1, lang: Translator = ENGLISH) -> str:
    """A rate (0.617) as a percentage with ``places`` decimals: ``61.7%`` / ``61,7 %``."""
    loc = _locale(lang.lang)
    pattern = loc.percent_formats[None].pattern
    if places:
        pattern = pattern.replace("0", "0." + "0" * places, 1) if "." not in pattern else pattern
    return format_percent(rate, format=pattern, locale=loc)
