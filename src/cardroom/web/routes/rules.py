"""The rules pages: ``/rules/<game>?lang=fr`` explains a game to someone who never played it.

The page is built here, on the server, with no script: the explanation is the game's text in the
page's language (``i18n/rules/<game>.<lang>.html``, one file per language, written by hand), the
board is drawn from the rules' board cards and stakes, and the options come from
``i18n/options.py`` (the same sentences as the lobby's), each with where it comes from.
"""

from __future__ import annotations

import re
from html import escape

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

import cardroom.web.faces as faces
from cardroom.games.registry import GAMES
from cardroom.i18n import LANG_NAMES, LANGS, Translator, translator
from cardroom.i18n.options import OPTIONS, OptionWords, source_names
from cardroom.i18n.rules_text import rules_fragment
from cardroom.i18n.words import N_
from cardroom.web.routes.common import connection_lang, message_page

router = APIRouter()

FACE_CARD = re.compile(r"/static/cards/([JQK][CDHS])\.svg")


@router.get("/rules")
async def rules_index(request: Request) -> Response:
    """The first game's rules (the page links the others)."""
    lang = connection_lang(request)
    first = next(g.name for g in GAMES.values() if g.rules_page is not None)
    return RedirectResponse(f"/rules/{first}?lang={lang}", status_code=307)


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(request: Request, game: str) -> Response:
    """How to play ``game`` (any registered game with a rules page) in the request's
    language."""
    if game not in GAMES or GAMES[game].rules_page is None:
        tr = translator(connection_lang(request))
        titles = ", ".join(tr._(g.title) for g in GAMES.values() if g.rules_page is not None)
        there = N_("the rules pages: {games}")
        return message_page(request, 404, N_("There is no such rules page"), there, games=titles)
    lang = connection_lang(request)
    html = render_rules(game, lang)
    return HTMLResponse(html, headers={"Cache-Control": "no-cache", "Content-Language": lang})


def render_rules(game: str, lang: str) -> str:
    """The whole rules page of ``game`` in ``lang``."""
    tr = translator(lang)
    title = tr._(GAMES[game].title)
    body = rules_fragment(game, lang)
    drawn = faces.part(game, "rules_parts")
    for key, html in (drawn(tr) if drawn is not None else {}).items():
        body = body.replace("{{" + key + "}}", html)
    if lang == "fr":  # French court cards, as at the French table: V, D, R
        body = FACE_CARD.sub(r"/static/cards/fr/\1.svg", body)
    current = ' aria-current="page"'
    other_langs = " ".join(
        f'<a href="/rules/{game}?lang={code}" lang="{code}" hreflang="{code}"'
        f"{current if code == lang else ''}>{escape(LANG_NAMES[code])}</a>"
        for code in LANGS
    )
    games = " · ".join(
        f'<a href="/rules/{g}?lang={lang}"{current if g == game else ""}>'
        f"{escape(tr._(GAMES[g].title))}</a>"
        for g, entry in GAMES.items()
        if entry.rules_page is not None
    )
    heading = escape(tr._("How to play {game}", game=title))
    nav_label = escape(tr._("Rules of the games"))
    lang_label = escape(tr._("Language"))
    back = escape(tr._("Back to the lobby"))
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{heading} · cardroom</title>
<link rel="stylesheet" href="/static/app.css">
<link rel="icon" href="/static/cards/7D.svg">
</head>
<body class="page-rules">
<header class="topbar">
  <a class="brand" href="/">cardroom</a>
  <nav aria-label="{nav_label}">{games}</nav>
  <span class="rules-langs" aria-label="{lang_label}">{other_langs}</span>
</header>
<main class="rules">
<h1>{heading}</h1>
{body}
{options_html(game, tr)}
<p class="rules-back"><a href="/">{back}</a></p>
</main>
</body>
</html>
"""


def pile_html(cards: list[str], top: str | None) -> str:
    """A pile seen from the side: face-down cards, then ``top`` face up (or none)."""
    imgs = [f'<img src="/static/cards/{c}.svg" alt="" width="60" height="84">' for c in cards]
    if top is not None:
        imgs.append(f'<img src="/static/cards/{top}.svg" alt="" width="60" height="84">')
    return f'<span class="rules-pile">{"".join(imgs)}</span>'


def option_html(option: OptionWords, default: str, tr: Translator) -> str:
    """One option: its values in words, ``default`` marked as the usual rule, and where each
    value comes from."""
    items = []
    usual = escape(tr._("the usual rule"))
    for choice in option.choices:
        sources = escape(tr._("From {source}.", source=source_names(choice.sources, tr)))
        mark = f' <span class="rules-default">({usual})</span>' if choice.value == default else ""
        words = escape(tr._(choice.words))
        items.append(
            f'<li><strong>{words}</strong>{mark}<br><span class="muted">{sources}</span></li>'
        )
    label = escape(tr._(option.label))
    return f"<section><h3>{label}</h3><ul>{''.join(items)}</ul></section>"


def options_html(game: str, tr: Translator) -> str:
    """Every option of ``game``: its values in words and where each comes from (the game's
    face may say it all, ``options_html``; else each option with its first value the usual)."""
    own = faces.part(game, "options_html")
    if own is not None:
        text: str = own(tr)
        return text
    heading = escape(tr._("Every option"))
    parts = [f'<h2 id="options">{heading}</h2>']
    for option in OPTIONS[game]:
        parts.append(option_html(option, option.choices[0].value, tr))
    return "\n".join(parts)
