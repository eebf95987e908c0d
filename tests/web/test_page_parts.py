"""The pages share their head and the site's top bar (``templates/parts/``): every page is
served whole, and the top bar marks the page the reader is on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "cardroom" / "web" / "templates"


@pytest.mark.parametrize(
    ("path", "title"),
    [
        ("/", "cardroom: tables"),
        ("/me", "cardroom: my games"),
        ("/play", "cardroom: play now"),
        ("/replay", "cardroom: replay"),
    ],
)
def test_each_page_is_served_with_its_shared_parts(
    client: TestClient, path: str, title: str
) -> None:
    html = client.get(path).text
    assert "<!--#include" not in html
    head = html[html.index("<head>") : html.index("</head>")]
    assert head.count('<meta charset="utf-8">') == 1
    assert '<link rel="stylesheet" href="/static/app.css">' in head
    assert f">{title}</title>" in head
    assert html.count('<header class="topbar">') == 1


@pytest.mark.parametrize(("path", "current"), [("/", "Tables"), ("/me", "My games"),
                                               ("/play", "Play now")])  # fmt: skip
def test_the_site_bar_links_every_page_and_marks_this_one(
    client: TestClient, path: str, current: str
) -> None:
    html = client.get(path).text
    nav = html[html.index("<nav>") : html.index("</nav>")]
    for href, words in (("/", "Tables"), ("/play", "Play now"), ("/me", "My games"),
                        ("/replay", "Replay a record")):  # fmt: skip
        marked = ' aria-current="page"' if words == current else ""
        assert f'<a href="{href}"{marked} data-i18n>{words}</a>' in nav
    assert nav.count("aria-current") == 1


def test_every_part_is_used_and_every_include_names_a_part() -> None:
    parts = {p.relative_to(TEMPLATES).as_posix() for p in (TEMPLATES / "parts").glob("*.html")}
    used: set[str] = set()
    for page in TEMPLATES.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        used |= set(re.findall(r"<!--#include (\S+)-->", text))
    assert used == parts == {"parts/head.html", "parts/site_nav.html"}
