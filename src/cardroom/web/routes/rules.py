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

from cardroom.games.nain_jaune.rules import (
    END_SOURCES,
    PRESET_NAMES,
    PRESET_SOURCES,
    PRESETS,
    STAKES,
    STANDARD_BOARD,
    EndCondition,
)
from cardroom.games.nain_jaune.words import end_words, preset_changes
from cardroom.games.registry import GAMES
from cardroom.i18n import LANG_NAMES, LANGS, Translator, translator
from cardroom.i18n.options import OPTIONS, SOURCES, OptionWords, source_names
from cardroom.i18n.rules_text import rules_fragment
from cardroom.i18n.words import N_, card_name
from cardroom.web.routes.common import connection_lang, message_page

router = APIRouter()

FACE_CARD = re.compile(r"/static/cards/([JQK][CDHS])\.svg")


@router.get("/rules")
async def rules_index(request: Request) -> Response:
    """The first game's rules (the page links the others)."""
    lang = connection_lang(request)
    return RedirectResponse(f"/rules/nain-jaune?lang={lang}", status_code=307)


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(request: Request, game: str) -> Response:
    """How to play ``game`` (``nain-jaune``, ``spit``, ``speed``) in the request's language."""
    if game not in GAMES or GAMES[game].rules_page is None:
        return message_page(
            request,
            404,
            N_("There is no such rules page"),
            N_("there are rules pages for Nain Jaune, Spit and Speed"),
        )
    lang = connection_lang(request)
    html = render_rules(game, lang)
    return HTMLResponse(html, headers={"Cache-Control": "no-cache", "Content-Language": lang})


def render_rules(game: str, lang: str) -> str:
    """The whole rules page of ``game`` in ``lang``."""
    tr = translator(lang)
    title = tr._(GAMES[game].title)
    body = (
        rules_fragment(game, lang)
        .replace("{{board}}", board_html(tr))
        .replace("{{spit_layout}}", spit_layout_html())
        .replace("{{speed_layout}}", speed_layout_html())
    )
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


def board_html(tr: Translator) -> str:
    """The board of five boxes: each box's card and the chips each player puts on it."""
    boxes = []
    for card, stake in zip(STANDARD_BOARD, STAKES, strict=True):
        name = escape(card_name(card, tr))
        chips = escape(tr.ngettext("{n} chip", "{n} chips", stake))
        dots = "".join('<span class="chip-dot"></span>' for _ in range(stake))
        boxes.append(
            f'<li class="rules-box"><img src="/static/cards/{card.code}.svg" alt="{name}" '
            f'width="60" height="84"><span class="rules-stake">{chips}</span>'
            f'<span class="chip-dots" aria-hidden="true">{dots}</span></li>'
        )
    label = escape(tr._("The board: five boxes, and what each player stakes on each"))
    return f'<figure class="rules-board"><ol aria-label="{label}">{"".join(boxes)}</ol></figure>'


def _pile(cards: list[str], top: str | None, tr: Translator | None = None) -> str:
    """A pile seen from the side: face-down cards, then ``top`` face up (or none)."""
    imgs = [f'<img src="/static/cards/{c}.svg" alt="" width="60" height="84">' for c in cards]
    if top is not None:
        imgs.append(f'<img src="/static/cards/{top}.svg" alt="" width="60" height="84">')
    return f'<span class="rules-pile">{"".join(imgs)}</span>'


def spit_layout_html() -> str:
    """One player's five stock piles of 1 to 5 cards, each top card face up (the caption, in
    the page's words, is the fragment's)."""
    tops = ("4H", "9C", "KD", "2S", "7H")
    piles = [_pile(["back"] * k, top) for k, top in enumerate(tops)]
    return f'<div class="rules-layout" aria-hidden="true">{"".join(piles)}</div>'


def speed_layout_html() -> str:
    """The Speed table: a side pile at each end, the two middle piles between them; below, a
    hand of five and its draw pile."""
    row1 = [_pile(["back"] * 3, None), _pile([], "6C"), _pile([], "JH"), _pile(["back"] * 3, None)]
    row2 = [_pile([], c) for c in ("2D", "5S", "7C", "10H", "QS")] + [_pile(["back"] * 4, None)]
    return (
        '<div class="rules-layout rules-speed" aria-hidden="true">'
        f"<div>{''.join(row1)}</div><div>{''.join(row2)}</div></div>"
    )


def _option_html(option: OptionWords, default: str, tr: Translator) -> str:
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
    """Every option of ``game``: its values in words and where each comes from."""
    heading = escape(tr._("Every option"))
    parts = [f'<h2 id="options">{heading}</h2>']
    if game == "nain-jaune":
        intro = tr._(
            "A table chooses one of these sets of rules; then each option below can be changed on its own."  # noqa: E501
        )
        parts.append(f"<p>{escape(intro)}</p><ul>")
        for name in PRESETS:
            about = tr._(
                "{name}: from {source}.",
                name=tr._(PRESET_NAMES[name]),
                source=tr._(SOURCES[PRESET_SOURCES[name]]),
            )
            changes = "".join(f"<li>{escape(t)}</li>" for t in preset_changes(name, tr))
            parts.append(f"<li>{escape(about)}{f'<ul>{changes}</ul>' if changes else ''}</li>")
        parts.append("</ul>")
        classic = PRESETS["classic"].to_json()
        defaults = {
            k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in classic.items()
        }
        defaults["board_cards"] = "standard"
    else:
        defaults = {o.key: o.choices[0].value for o in OPTIONS[game]}
    for option in OPTIONS[game]:
        parts.append(_option_html(option, defaults.get(option.key, ""), tr))
    if game == "nain-jaune":
        items = []
        for kind in ("broke", "rounds", "target", "last-standing"):
            end = EndCondition(kind, 10 if kind == "rounds" else 120 if kind == "target" else 0)
            sources = escape(tr._("From {source}.", source=source_names(END_SOURCES[kind], tr)))
            words = escape(end_words(end, tr))
            items.append(
                f'<li><strong>{words}</strong><br><span class="muted">{sources}</span></li>'
            )
        label = escape(tr._("The game ends"))
        parts.append(f"<section><h3>{label}</h3><ul>{''.join(items)}</ul></section>")
    return "\n".join(parts)
