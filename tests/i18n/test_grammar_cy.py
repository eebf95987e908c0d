"""The Welsh helpers of :mod:`cardroom.i18n.grammar` against forms written out by hand: every
noun the catalogs count, after every kind of number, and with the article; then the Welsh
catalog's own counted nouns against the helper."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from cardroom.i18n import catalog_path
from cardroom.i18n.grammar import COUNT_NOUNS_CY, count_cy, welsh

NUMBERS = (0, 1, 2, 3, 6, 7, 20)

# noun: the noun after 0, 1, 2, 3, 6, 7 and 20, typed out
COUNTED: dict[str, tuple[str, ...]] = {
    "bot": ("o fotiau", "bot", "fot", "bot", "bot", "bot", "o fotiau"),
    "bwrdd": ("o fyrddau", "bwrdd", "fwrdd", "bwrdd", "bwrdd", "bwrdd", "o fyrddau"),
    "cerdyn": ("o gardiau", "cerdyn", "gerdyn", "cherdyn", "cherdyn", "cerdyn", "o gardiau"),
    "chwaraewr": ("o chwaraewyr", "chwaraewr", "chwaraewr", "chwaraewr", "chwaraewr",
                  "chwaraewr", "o chwaraewyr"),
    "cofnod": ("o gofnodion", "cofnod", "gofnod", "chofnod", "chofnod", "cofnod", "o gofnodion"),
    "dadansoddiad": ("o ddadansoddiadau", "dadansoddiad", "ddadansoddiad", "dadansoddiad",
                     "dadansoddiad", "dadansoddiad", "o ddadansoddiadau"),
    "cylchdro": (
        "o gylchdroeon", "cylchdro", "gylchdro", "chylchdro", "chylchdro", "cylchdro",
        "o gylchdroeon",
    ),
    "deliad": ("o ddeliadau", "deliad", "ddeliad", "deliad", "deliad", "deliad", "o ddeliadau"),
    "eiliad": ("o eiliadau", "eiliad", "eiliad", "eiliad", "eiliad", "eiliad", "o eiliadau"),
    "eitem": ("o eitemau", "eitem", "eitem", "eitem", "eitem", "eitem", "o eitemau"),
    "gêm": ("o gemau", "gêm", "gêm", "gêm", "gêm", "gêm", "o gemau"),
    "gornest": ("o ornestau", "ornest", "ornest", "gornest", "gornest", "gornest", "o ornestau"),
    "jeton": ("o jetonau", "jeton", "jeton", "jeton", "jeton", "jeton", "o jetonau"),
    "munud": ("o funudau", "munud", "funud", "munud", "munud", "munud", "o funudau"),
    "nod": ("o nodau", "nod", "nod", "nod", "nod", "nod", "o nodau"),
    "penderfyniad": ("o benderfyniadau", "penderfyniad", "benderfyniad", "phenderfyniad",
                     "phenderfyniad", "penderfyniad", "o benderfyniadau"),
    "pwynt": ("o bwyntiau", "pwynt", "bwynt", "phwynt", "phwynt", "pwynt", "o bwyntiau"),
    "rownd": ("o rowndiau", "rownd", "rownd", "rownd", "rownd", "rownd", "o rowndiau"),
    "sedd": ("o seddi", "sedd", "sedd", "sedd", "sedd", "sedd", "o seddi"),
    "sglodyn": ("o sglodion", "sglodyn", "sglodyn", "sglodyn", "sglodyn", "sglodyn",
                "o sglodion"),
    "tudalen": ("o dudalennau", "dudalen", "dudalen", "tudalen", "thudalen", "tudalen",
                "o dudalennau"),
}  # fmt: skip

# noun: with the article, typed out
WITH_THE = {
    "gornest": "yr ornest",
    "gêm": "y gêm",
    "rownd": "y rownd",
    "tudalen": "y dudalen",
    "sedd": "y sedd",
    "eiliad": "yr eiliad",
    "eitem": "yr eitem",
    "fersiwn": "y fersiwn",
    "brenhines": "y frenhines",
    "llaw": "y llaw",
    "bwrdd": "y bwrdd",
    "cerdyn": "y cerdyn",
    "cofnod": "y cofnod",
    "pwynt": "y pwynt",
    "chwaraewr": "y chwaraewr",
    "as": "yr as",
    "gwas": "y gwas",
}


@pytest.mark.parametrize("noun", sorted(COUNTED))
def test_a_number_and_its_noun(noun: str) -> None:
    assert tuple(count_cy(n, noun) for n in NUMBERS) == tuple(
        f"{n} {form}" for n, form in zip(NUMBERS, COUNTED[noun], strict=True)
    )


def test_every_counted_noun_is_written_out_here() -> None:
    assert set(COUNT_NOUNS_CY) == set(COUNTED)


@pytest.mark.parametrize("noun", sorted(WITH_THE))
def test_the_article(noun: str) -> None:
    assert welsh(noun).the == WITH_THE[noun]


def test_the_issues_three_wrong_forms() -> None:
    assert count_cy(2, "gêm") == "2 gêm"
    assert welsh("gornest").the == "yr ornest"
    assert welsh("gêm").the == "y gêm"
    assert welsh("gêm").soft == "gêm"


# measures, also written bare after any number (« 20 munud », « 0 nod »)
UNITS = {"munud", "nod", "eitem"}
# plural form index of the Welsh catalog -> a number of that form
_FORM_N = (0, 1, 2, 3, 6, 20)
_COUNTED = re.compile(r"\{(?:n|count)\} ((?:o )?[\wâêîôûŵŷ]+)")


def _surface() -> dict[str, str]:
    """Every counted word as it may be written after a number -> its noun."""
    out = {}
    for noun in COUNT_NOUNS_CY:
        for n in range(0, 21):
            out[count_cy(n, noun).split(" ", 1)[1]] = noun
    return out


def test_the_welsh_catalog_counts_every_noun_as_the_helper_does() -> None:
    """Every ``{n} <noun>`` of a Welsh plural entry is the helper's form for that plural form."""
    with catalog_path("cy").open("rb") as f:
        catalog = read_po(f, locale="cy")
    surface = _surface()
    wrong, checked = [], 0
    for message in catalog:
        if not isinstance(message.id, tuple | list) or not message.string:
            continue
        for index, text in enumerate(message.string):
            for found in _COUNTED.findall(text or ""):
                noun = surface.get(found)
                if noun is None:
                    continue
                checked += 1
                expected = count_cy(_FORM_N[index], noun).split(" ", 1)[1]
                if found != expected and not (noun in UNITS and found == noun):
                    wrong.append(f"{message.id[0]!r} form {index}: {found!r}, not {expected!r}")
    assert checked > 200
    assert wrong == [], "\n".join(wrong)
