"""Nain Jaune's rules page parts: the board drawn from the rules' board cards and stakes, and
every option with the presets and the ways a game ends (the same sentences as the lobby's)."""

from __future__ import annotations

from html import escape

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
from cardroom.i18n import Translator
from cardroom.i18n.options import OPTIONS, SOURCES, source_names
from cardroom.i18n.words import card_name
from cardroom.web.routes.rules import option_html

NAME = "nain-jaune"


def rules_parts(tr: Translator) -> dict[str, str]:
    """The drawn parts of the rules text: ``{{board}}``."""
    return {"board": board_html(tr)}


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


def options_html(tr: Translator) -> str:
    """Every option: the presets and what each changes, each option's values in words and where
    each comes from (the classic preset's value marked as the usual rule), and how a game
    may end."""
    heading = escape(tr._("Every option"))
    parts = [f'<h2 id="options">{heading}</h2>']
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
    defaults = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in classic.items()}
    defaults["board_cards"] = "standard"
    for option in OPTIONS[NAME]:
        parts.append(option_html(option, defaults.get(option.key, ""), tr))
    items = []
    for kind in ("broke", "rounds", "target", "last-standing"):
        end = EndCondition(kind, 10 if kind == "rounds" else 120 if kind == "target" else 0)
        sources = escape(tr._("From {source}.", source=source_names(END_SOURCES[kind], tr)))
        words = escape(end_words(end, tr))
        items.append(f'<li><strong>{words}</strong><br><span class="muted">{sources}</span></li>')
    label = escape(tr._("The game ends"))
    parts.append(f"<section><h3>{label}</h3><ul>{''.join(items)}</ul></section>")
    return "\n".join(parts)
