"""One word per game term: the glossaries in docs/ against the catalogs.

For every row of ``docs/glossary.<lang>.md`` (English term, word, other forms), every message
of that language whose English msgid uses the term must use the word or one of its forms.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from cardroom.i18n import catalog_path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def glossary(lang: str) -> list[tuple[str, list[str]]]:
    """(English term, accepted words) of each row of the language's glossary."""
    rows = []
    for line in (DOCS / f"glossary.{lang}.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("English", "") or set(cells[0]) <= {"-"}:
            continue
        forms = [cells[1], *(f.strip() for f in cells[2].split(",") if f.strip())]
        rows.append((cells[0], forms))
    return rows


def _texts(lang: str) -> list[tuple[str, str]]:
    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    for message in catalog:
        if not message.id:
            continue
        ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        string = message.string
        strings = (string,) if isinstance(string, str) or string is None else tuple(string)
        out.append((" ".join(ids), " ".join(s or "" for s in strings)))
    return out


def _term(term: str) -> re.Pattern[str]:
    """A term as a word (plural too); a name (capitalised) is matched as written, and ``Spit``
    the game is not ``Spit!`` the call."""
    flags = 0 if term[:1].isupper() else re.IGNORECASE
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?:s|es)?(?![\w!-])", flags)


# msgids that use the English word in another sense (an option key, a command typed as is, an
# empty space for a card, the title of an English source text)
NOT_THE_TERM = re.compile(
    r"--|\b(?:[a-z_]+=|cardroom \w+|type \w+|key \w+)|empty space|to (?:a )?space"
    r"|the English text “"  # the title of a source text, quoted as it is
)
_FIELD = re.compile(r"\{[a-z_.]*\}|\"[a-z]+\"")  # fields, and words sent as they are ("claim")


@pytest.mark.parametrize("lang", ["fr", "cy"])
def test_the_catalog_uses_the_glossarys_word_for_each_term(lang: str) -> None:
    rows = glossary(lang)
    assert len(rows) >= 12
    texts = _texts(lang)
    wrong = []
    for term, forms in rows:
        pattern = _term(term)
        for msgid, text in texts:
            msgid = _FIELD.sub("", msgid)
            if not pattern.search(msgid) or NOT_THE_TERM.search(msgid):
                continue
            if not any(f.lower() in text.lower() for f in forms):
                wrong.append(f"{term} -> {forms[0]}: {msgid!r} => {text!r}")
    assert wrong == []


def test_the_glossary_check_finds_a_wrong_word(tmp_path: Path) -> None:
    """The check is not empty: a catalog text without the word is found."""
    pattern = _term("stalemate")
    assert pattern.search("no stalemate: you can still play")
    assert not any(f in "pas d’impasse" for f in ["blocage", "bloqué"])


def test_old_wrong_words_are_gone() -> None:
    """The corrections of issue 20 stay made."""
    fr = dict(_texts("fr"))
    cy = dict(_texts("cy"))
    assert fr["Claim"] == "Ramasser" and fr["Replay"] != "Rejouer"
    assert "Talu’r rownd" not in cy.values()
    assert not any(re.search(r"\bneu (cliciwch|teipiwch|pasiwch|gadael)\b", t) for t in cy.values())
    assert not any("Tafod a Cyflymder" in t for t in cy.values())
    assert not any(re.search(r"\b(le|du|un|Aucun) dame\b", t) for t in fr.values())
