"""The rules pages: one per game and language, the same structure in every language, pictures
that exist, every option in words, no option key, and the links to them."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from cardroom.cli.main import cli
from cardroom.games.registry import GAMES
from cardroom.i18n import LANGS, translator
from cardroom.i18n.options import OPTIONS
from cardroom.i18n.rules_text import rules_fragment
from cardroom.web.routes.rules import render_rules
from tests.i18n.test_option_words import CODE

WEB = Path(__file__).resolve().parents[2] / "src/cardroom/web"


class _Skeleton(HTMLParser):
    """The tags of a page in order, with the attributes that must not differ by language."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, str, str, str]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a.get("id") or "", a.get("src") or "", a.get("href") or ""))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _skeleton(html: str) -> _Skeleton:
    parser = _Skeleton()
    parser.feed(html)
    return parser


@pytest.mark.parametrize("game", list(GAMES))
def test_every_language_has_the_same_parts(game: str) -> None:
    """The same headings, paragraphs, lists, pictures and links in the same order: no part of
    the explanation exists in one language only."""
    english = _skeleton(rules_fragment(game, "en"))
    assert len(english.tags) > 10
    english_text = {t.strip() for t in english.text if len(t.strip()) > 12} - {
        "{{spit_layout}}",
        "{{speed_layout}}",
    }
    for lang in LANGS[1:]:
        other = _skeleton(rules_fragment(game, lang))
        assert other.tags == english.tags, lang
        # and it is written in that language: no sentence left in English
        assert [t for t in other.text if t.strip() in english_text] == [], lang


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("lang", LANGS)
def test_a_rules_page_is_words_and_pictures(game: str, lang: str) -> None:
    html = render_rules(game, lang)
    page = _skeleton(html)
    text = " ".join(" ".join(page.text).split())
    assert CODE.search(text) is None, CODE.search(text)
    assert "{" not in text and "}" not in text
    pictures = [src for tag, _id, src, _href in page.tags if tag == "img"]
    assert len(pictures) >= 4
    for src in pictures:
        assert src.startswith("/static/cards/")
        assert (WEB / src.removeprefix("/")).exists(), src
        # the court cards are drawn as at the table in this language: V, D, R in French
        court = re.search(r"/([JQK][CDHS])\.svg$", src)
        if court:
            assert src == f"/static/cards/{'fr/' if lang == 'fr' else ''}{court[1]}.svg", src
    tr = translator(lang)
    for option in OPTIONS[game]:  # every option and every value, in the page's words
        assert tr._(option.label) in text
        for choice in option.choices:
            assert tr._(choice.words) in text, choice
    assert f'<html lang="{lang}">' in html
    # nothing from another origin
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_the_board_shows_five_boxes_and_their_stakes() -> None:
    html = render_rules("nain-jaune", "fr")
    board = html[html.index('<figure class="rules-board">') :]
    board = board[: board.index("</figure>")]
    assert re.findall(r'src="/static/cards/([\w/]+)\.svg"', board) == [
        "10D", "fr/JC", "fr/QS", "fr/KH", "7D"
    ]  # fmt: skip
    assert re.findall(r'class="rules-stake">([^<]*)<', board) == [
        "1 jeton",
        "2 jetons",
        "3 jetons",
        "4 jetons",
        "5 jetons",
    ]
    assert [board.count('class="chip-dot"')] == [15]


def test_the_pages_are_served_and_linked(client: TestClient) -> None:
    page = client.get("/rules/nain-jaune?lang=cy")
    assert page.status_code == 200
    assert page.headers["content-language"] == "cy"
    assert "Sut i chwarae Nain Jaune" in page.text
    # without ?lang: the language cookie, then Accept-Language
    assert (
        "Comment jouer au Spit"
        in client.get("/rules/spit", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).text
    )
    assert client.get("/rules/poker").status_code == 404
    index = client.get("/rules?lang=fr", follow_redirects=False)
    assert index.headers["location"] == "/rules/nain-jaune?lang=fr"
    lobby = client.get("/").text
    for game in GAMES:
        assert f'href="/rules/{game}"' in lobby
    table = client.post("/api/tables", json={"name": "Ann", "players": 2}).json()["url"]
    assert 'href="/rules/nain-jaune" target="_blank"' in client.get(table).text
    race = client.post("/api/tables", json={"name": "Ann", "game": "spit"}).json()["url"]
    assert 'href="/rules/spit" target="_blank"' in client.get(race).text


@pytest.mark.parametrize(("game", "lang"), [("nain-jaune", "en"), ("spit", "fr"), ("speed", "cy")])
def test_the_play_help_names_the_rules_page(game: str, lang: str) -> None:
    res = CliRunner().invoke(cli, ["play", game, "--help", "--lang", lang])
    assert res.exit_code == 0, res.output
    suffix = "" if lang == "en" else f"?lang={lang}"
    assert f"/rules/{game}{suffix}" in " ".join(res.output.split())
