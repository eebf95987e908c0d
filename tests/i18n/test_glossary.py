"""One word per game term: the glossaries in docs/ against the catalogs and the rules pages.

For every row of ``docs/glossary.<lang>.md`` (English term, word, other forms), every message
of that language whose English msgid uses the term must use the word or one of its forms; and
no word of its "Rejected" table may appear in any message of that language's catalog or in its
rules pages (a message another engineer adds tomorrow included).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from cardroom.i18n import catalog_path

DOCS = Path(__file__).resolve().parents[2] / "docs"
GAMES_DIR = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "games"
_CELL = re.compile(r"(?<!\\)\|")


def _rows(lang: str, width: int) -> list[list[str]]:
    """The cells of the glossary's table rows of ``width`` columns (``\\|`` is a ``|``)."""
    rows = []
    for line in (DOCS / f"glossary.{lang}.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in _CELL.split(line.strip().strip("|"))]
        if len(cells) != width or set(cells[0]) <= {"-"}:
            continue
        if cells[0] in ("English", "rejected", ""):
            continue
        rows.append(cells)
    return rows


def glossary(lang: str) -> list[tuple[str, list[str]]]:
    """(English term, accepted words) of each row of the language's glossary."""
    rows = []
    for cells in _rows(lang, 4):
        forms = [cells[1], *(f.strip() for f in cells[2].split(",") if f.strip())]
        rows.append((cells[0], forms))
    return rows


_ENTRY = re.compile(r"\s*(/(?:[^/]|(?<=\\)/)+/|[^,]+)\s*(?:,|$)")


def rejected(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    """Each rejected word of the glossary and its pattern: ``/regex/`` as written, a word or
    phrase as whole words in any case."""
    out = []
    for cells in _rows(lang, 3):
        for found in _ENTRY.finditer(cells[0]):
            entry = found.group(1).strip()
            if not entry:
                continue
            if entry.startswith("/") and entry.endswith("/") and len(entry) > 2:
                out.append((entry, re.compile(entry[1:-1], re.MULTILINE)))
            else:
                out.append((entry, re.compile(rf"(?<!\w){re.escape(entry)}(?!\w)", re.I)))
    return out


def rules_pages(lang: str) -> list[tuple[str, str]]:
    """(name, text) of the language's rules pages, tags and entities read as text."""
    out = []
    for path in sorted(GAMES_DIR.glob(f"*/rules.{lang}.html")):
        text = re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))
        out.append((path.relative_to(GAMES_DIR).as_posix(), html.unescape(text)))
    assert len(out) >= 3, f"no rules pages found under {GAMES_DIR}"
    return out


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


def _rejected_found(lang: str, texts: list[tuple[str, str]]) -> list[str]:
    found = []
    for entry, pattern in rejected(lang):
        for where, text in texts:
            for line in text.split("\n"):
                hit = pattern.search(line)
                if hit:
                    found.append(
                        f"{entry} in {where!r}: …{line[max(0, hit.start() - 40) : hit.end() + 40]}…"
                    )
    return found


@pytest.mark.parametrize("lang", ["fr", "cy"])
def test_no_rejected_word_in_the_catalog_or_the_rules_pages(lang: str) -> None:
    assert len(rejected(lang)) >= 10
    texts = [(msgid, text) for msgid, text in _texts(lang)]
    found = _rejected_found(lang, texts + rules_pages(lang))
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(
    ("lang", "wrong"),
    [
        ("fr", "un bot peut prendre la place"),
        ("fr", "Tapes gagnées"),
        ("fr", "Relecture de la table {id}"),
        ("fr", "Jouer à Speed maintenant"),
        ("fr", "Nain Jaune se joue de 2 à 8 joueurs"),
        ("fr", "réclamer ou non"),
        ("fr", "continue avec la valeur suivante"),
        ("fr", "{name}: {text}"),
        ("fr", "attente 0.5 s"),
        ("cy", "mae’r wasg gyntaf yn dewis un"),
        ("cy", "enwch un bot neu codwch --players"),
        ("cy", "gan fersiwn mwy diweddar"),
        ("cy", "1 penderfyniad wedi’u dadansoddi"),
        ("cy", "Galwch y troi"),
        ("cy", "caiff y chwaraewr nesaf ei chwarae"),
        ("cy", "{first} cerdyn ar ôl i {second}"),
        ("cy", "←/→ neu radd"),
        ("cy", "Enter, Bwlch neu glic"),
        ("cy", "crëwch fwrdd yn y lolfa"),
        ("cy", "wyneb i lawr"),
        ("cy", "parhau gyda’r gwerth nesaf"),
        ("cy", "dechrau rhediad newydd"),
        ("cy", "{worlds} rhaniad"),
        ("cy", "Hawliwch cyn eich cerdyn nesaf."),
        ("cy", "Pob dewis"),
        ("cy", "Llwytho fy holl gofnodion i lawr (zip)"),
        ("cy", "Cyfrif i lawr: {seconds} e"),
        ("cy", "anfonwch ddolen wahoddiad"),
        ("cy", "teipiwch help am y gorchmynion"),
    ],
)
def test_the_rejected_words_catch_the_old_errors(lang: str, wrong: str) -> None:
    """Each error of issue 34, put back in a message, is found."""
    assert _rejected_found(lang, [("a message", wrong)]), wrong


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
