"""Keep the catalogs in step with the code: ``python -m cardroom.i18n.build``.

It extracts every message (``_()``, ``N_()``, ``ngettext()`` in Python and the pages' JS,
``data-i18n`` texts in the HTML templates, the commands' ``--help`` texts) into
``locale/cardroom.pot``, adds new messages to each ``.po`` (untranslated, for a translator to
fill in) and writes the pages' catalogs
``web/static/i18n/<lang>.json``. ``--check`` changes nothing and exits 1 if a file is stale.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po, write_po

from cardroom.i18n import DOMAIN, LANGS, LOCALE_DIR, catalog_path

PACKAGE = Path(__file__).resolve().parent.parent
STATIC_I18N = PACKAGE / "web" / "static" / "i18n"
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "_": None, "Np_": (1, 2)}
_HTML_ATTR = re.compile(r'data-i18n(?:-[a-z-]+)?="([^"]+)"')
_HTML_TEXT = re.compile(r"<[^>]*\sdata-i18n(?:\s[^>]*)?>([^<]+)<")
PLURAL_FORMS = {
    "fr": "nplurals=2; plural=(n > 1);",
    "cy": "nplurals=6; plural=(n==0) ? 0 : (n==1) ? 1 : (n==2) ? 2 : (n==3) ? 3 : (n==6) ? 4 : 5;",
}


def _python_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _page_files(pattern: str, shared: Path) -> list[Path]:
    """The pages' files matching ``pattern``: the shared ones (``shared`` and its folders) and
    each game's own, in its web face's folder (``games/<game>/web/``)."""
    return sorted([*shared.rglob(pattern), *PACKAGE.glob(f"games/*/web/**/{pattern}")])


def extract() -> tuple[Catalog, set[str]]:
    """The template catalog, and the msgids the web pages use."""
    pot = Catalog(domain=DOMAIN, project="cardroom", fuzzy=False)
    web: set[str] = set()
    for path in _python_files():
        for lineno, msg, comments, _ctx in extract_from_file(
            "python", path, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
        ):
            pot.add(
                msg, locations=[(str(path.relative_to(PACKAGE)), lineno)], auto_comments=comments
            )
    # The commands' --help texts (docstrings and help=), found by walking the command tree.
    from cardroom.cli.groups import cli, load_game_commands
    from cardroom.cli.helptext import help_messages
    from cardroom.cli.main import main as _main  # noqa: F401  (every command registered)

    load_game_commands()  # (only the games registered now)
    for msg in dict.fromkeys(help_messages(cli)):
        pot.add(msg, locations=[("cli/--help", 0)])
    for path in _page_files("*.js", PACKAGE / "web" / "static" / "js"):
        for lineno, msg, comments, _ctx in extract_from_file(
            "javascript", path, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
        ):
            pot.add(
                msg, locations=[(str(path.relative_to(PACKAGE)), lineno)], auto_comments=comments
            )
            web.add(msg if isinstance(msg, str) else msg[0])
    for path in _page_files("*.html", PACKAGE / "web" / "templates"):  # parts/ too
        text = path.read_text(encoding="utf-8")
        found = [*_HTML_ATTR.finditer(text), *_HTML_TEXT.finditer(text)]
        for m in found:
            msg = " ".join((m.group(1) or "").split())
            if msg and not msg.startswith("{"):
                lineno = text.count("\n", 0, m.start()) + 1
                pot.add(msg, locations=[(str(path.relative_to(PACKAGE)), lineno)])
                web.add(msg)
    # Card words are used by the pages as well (labels of the card buttons).
    from cardroom.i18n import words

    for msg in (*words._FACE.values(), *words._SUIT.values(), "{rank} of {suit}"):
        web.add(msg)
    # The lobby's option words come from the server's model (i18n/options.py).
    from cardroom.i18n.options import web_words

    web.update(web_words())
    # The bots' levels in words: the pages take them from /api/games too.
    from cardroom.i18n.levels import web_words as level_words

    web.update(level_words())
    # The games' titles: the pages take them from the registry (/api/games).
    from cardroom.games.registry import games

    web.update(g.title for g in games())
    return pot, web


def _po_bytes(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, no_location=True, sort_output=True, include_previous=False)
    return buf.getvalue()


def updated_po(lang: str, pot: Catalog) -> tuple[Catalog, bytes]:
    """``lang``'s catalog with the template's messages (old translations kept)."""
    path = catalog_path(lang)
    if path.exists():
        with path.open("rb") as f:
            cat = read_po(f, locale=lang, domain=DOMAIN)
    else:
        cat = Catalog(locale=lang, domain=DOMAIN, project="cardroom")
    cat.update(pot, no_fuzzy_matching=True)
    cat.fuzzy = False
    cat.obsolete.clear()
    cat._set_mime_headers([("Plural-Forms", PLURAL_FORMS[lang])])
    for message in cat:
        if message.id:
            message.flags.discard("fuzzy")
            message.locations = []
    return cat, _po_bytes(cat)


def js_catalog(lang: str, web: set[str]) -> bytes:
    """The page catalog of ``lang``: msgid -> translation (a list of forms for plurals)."""
    out: dict[str, Any] = {}
    if lang != "en":
        with catalog_path(lang).open("rb") as f:
            cat = read_po(f, locale=lang, domain=DOMAIN)
        for message in cat:
            key = message.id if isinstance(message.id, str) else message.id[0]
            if key and key in web:
                value = message.string
                out[key] = list(value) if isinstance(value, tuple | list) else value
    if lang != "en":
        out["@phrases"] = phrases(lang)
        from cardroom.cards import Rank
        from cardroom.i18n.words import RANK_LETTERS

        letters = RANK_LETTERS.get(lang, {})
        if letters:
            out["@letters"] = {Rank(r).symbol: letter for r, letter in letters.items()}
    return (json.dumps(out, ensure_ascii=False, sort_keys=True, indent=0) + "\n").encode()


def phrases(lang: str) -> dict[str, dict[str, str]]:
    """Every card (``"QS"``) and rank (``"rank:Q"``) as a noun phrase of ``lang``, every form:
    the pages fill ``{card.the}`` from these (the words are chosen here, once)."""
    from cardroom.cards import DECK, Rank
    from cardroom.i18n.grammar import FORMS, card_phrase, rank_phrase

    def forms(phrase: Any) -> dict[str, str]:
        return {"bare": phrase.bare, **{f: getattr(phrase, f) for f in FORMS}}

    out = {card.code: forms(card_phrase(card, lang)) for card in DECK}
    symbols = {1: "A", 11: "J", 12: "Q", 13: "K"}
    for rank in Rank:
        out[f"rank:{symbols.get(rank.value, rank.value)}"] = forms(rank_phrase(rank.value, lang))
    return out


def build(check: bool = False) -> list[Path]:
    """Write (or with ``check`` only compare) every generated file; the stale ones."""
    pot, web = extract()
    stale: list[Path] = []
    targets: list[tuple[Path, bytes]] = [(LOCALE_DIR / f"{DOMAIN}.pot", _po_bytes(pot))]
    for lang in LANGS[1:]:
        targets.append((catalog_path(lang), updated_po(lang, pot)[1]))
    for path, data in targets:
        if not path.exists() or _strip_dates(path.read_bytes()) != _strip_dates(data):
            stale.append(path)
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
    for lang in LANGS:
        path = STATIC_I18N / f"{lang}.json"
        data = js_catalog(lang, web)
        if not path.exists() or path.read_bytes() != data:
            stale.append(path)
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
    return stale


def _strip_dates(data: bytes) -> bytes:
    return re.sub(rb'"(POT-Creation-Date|PO-Revision-Date|Generated-By): [^"]*"\n', b"", data)


def main() -> None:
    """``python -m cardroom.i18n.build [--check]``."""
    check = "--check" in sys.argv[1:]
    stale = build(check=check)
    for path in stale:
        print(("stale: " if check else "wrote: ") + str(path))
    sys.exit(1 if check and stale else 0)


if __name__ == "__main__":
    main()
