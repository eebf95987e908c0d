"""The web pages' files: every card drawn, nothing loaded from another origin, text only."""

from __future__ import annotations

import re
from pathlib import Path

from cardroom.cards import new_deck

WEB = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "web"
STATIC = WEB / "static"
PAGES = sorted((WEB / "templates").glob("*.html"))
SCRIPTS = sorted((STATIC / "js").glob("*.js"))
GAME_FILES = sorted(
    p for p in (WEB.parent / "games").glob("*/web/*") if p.suffix in (".html", ".js")
)
"""Each game's own page parts and scripts (its web face's folder)."""


def test_every_card_has_its_own_svg_and_the_licence_note() -> None:
    cards = STATIC / "cards"
    codes = {c.code for c in new_deck()}
    assert len(codes) == 52
    assert {p.stem for p in cards.glob("*.svg")} == codes | {"back"}
    assert "MIT" in (cards / "LICENSE").read_text(encoding="utf-8")
    ten = (cards / "10H.svg").read_text(encoding="utf-8")
    assert "<title>10 of hearts</title>" in ten and "#c8102e" in ten


def test_pages_load_only_files_of_their_own_origin() -> None:
    files = [*PAGES, *SCRIPTS, *GAME_FILES, STATIC / "app.css"]
    # Spit/Speed: realtime.html and 2 scripts; chat.js; the Spit/Speed replay's script; the
    # people's pages (me.html, play.html) and their scripts; the analysis page and its script;
    # a move link's confirmation (move.html, move.js); the games and the bots' levels
    # (games.js); the player's own bots on /me (me_bots.js); inviting a bot to a table's seat
    # (bot_invite.js); the bot API's page (bot_api.html, bot_api.js)
    assert len(PAGES) == 9 and len(SCRIPTS) == 18
    for path in files:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"(?:https?:)?//[\w.-]+\.\w+", text):
            start = text.rfind("\n", 0, match.start()) + 1
            line = text[start : text.find("\n", match.end())]
            assert "xmlns" in line or line.lstrip().startswith("//"), f"{path.name}: {line}"
        for ref in re.findall(r"""["'(](/static/[^"'()?#\s${}]+)""", text):
            assert (WEB / ref.lstrip("/")).is_file(), f"{path.name} refers to missing {ref}"


def test_scripts_insert_text_never_html() -> None:
    for path in [*SCRIPTS, *(p for p in GAME_FILES if p.suffix == ".js")]:
        text = path.read_text(encoding="utf-8")
        for bad in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert bad not in text, f"{path.name} uses {bad}"
