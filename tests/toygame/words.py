"""The toy game's words (its registry entry's ``words`` piece): how its table's events are said.
A test game has no catalog, so its few sentences carry their French here, to show that a
turn-based game's events are told by its own words in the reader's language."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cardroom.i18n import Translator

_FRENCH = {
    "toy-seated": "{name} s’assied",
    "toy-start": "la partie commence",
    "toy-deal": "les cartes sont distribuées",
    "toy-play": "{name} joue {card}",
    "toy-trick": "{name} remporte le pli",
    "toy-over": "la partie est finie",
}


def event_text(event: Mapping[str, Any], name: Callable[[int], str], lang: Translator) -> str:
    """One of the toy table's events in words (French, or as the table wrote it)."""
    text = _FRENCH.get(str(event.get("kind"))) if lang.lang == "fr" else None
    if text is None:
        return str(event.get("text", ""))
    seat = event.get("seat")
    who = name(seat) if isinstance(seat, int) else ""
    return text.format(name=who, card=event.get("card", ""))
