"""The rules pages' explanations, one hand-written HTML file per game and language.

Why files and not catalog messages: an explanation is a whole text (headings, lists, pictures
between paragraphs) that a translator writes and reads as one document, not a list of sentences;
its sentences are used nowhere else. Every sentence that *is* shared (an option, a preset, where
a rule comes from) stays in the catalogs (``i18n/options.py``) and is put into the page by the
server. ``tests/i18n/test_rules_pages.py`` checks that the three languages of a game have the
same structure (the same headings, lists, paragraphs and pictures in the same order), so no
part exists in one language only.
"""

from __future__ import annotations

from pathlib import Path

from cardroom.games.registry import GAMES
from cardroom.i18n import LANGS

RULES_DIR = Path(__file__).parent / "rules"


def fragment_path(game: str, lang: str) -> Path:
    """The file of ``game``'s explanation in ``lang``."""
    page = GAMES[game].rules_page if game in GAMES else None
    if page is None or lang not in LANGS:
        raise KeyError(f"no rules text for {game!r} in {lang!r}")
    return RULES_DIR / f"{page}.{lang}.html"


def rules_fragment(game: str, lang: str) -> str:
    """The explanation of ``game`` in ``lang`` (HTML, trusted: it ships with cardroom)."""
    return fragment_path(game, lang).read_text(encoding="utf-8")
