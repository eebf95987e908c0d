"""The rules pages' explanations, one hand-written HTML file per game and language.

Why files and not catalog messages: an explanation is a whole text (headings, lists, pictures
between paragraphs) that a translator writes and reads as one document, not a list of sentences;
its sentences are used nowhere else. Every sentence that *is* shared (an option, a preset, where
a rule comes from) stays in the catalogs (``i18n/options.py``) and is put into the page by the
server. The files live in the game's own folder (``games/<game>/rules.<lang>.html``), found
through the registry's ``rules_page`` piece. ``tests/web/test_rules_pages.py`` checks that the
three languages of a game have the same structure (the same headings, lists, paragraphs and
pictures in the same order), so no part exists in one language only.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

from cardroom.games.registry import GAMES
from cardroom.i18n import LANGS


def fragment_path(game: str, lang: str) -> Path:
    """The file of ``game``'s explanation in ``lang`` (``rules.<lang>.html`` in the folder of
    the game's ``rules_page`` package, found without importing the game)."""
    package = GAMES[game].rules_page if game in GAMES else None
    spec = find_spec(package) if package is not None and lang in LANGS else None
    if spec is None or not spec.submodule_search_locations:
        raise KeyError(f"no rules text for {game!r} in {lang!r}")
    return Path(next(iter(spec.submodule_search_locations))) / f"rules.{lang}.html"


def rules_fragment(game: str, lang: str) -> str:
    """The explanation of ``game`` in ``lang`` (HTML, trusted: it ships with cardroom)."""
    return fragment_path(game, lang).read_text(encoding="utf-8")
