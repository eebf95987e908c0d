"""The words of Spit and Speed (« Tafod », « Cyflymder »): their log entries in each language.

The frequent events are rendered here from their fields; a rarer one keeps its English
``describe()`` (listed in docs/architecture.md as the known gap).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.i18n import Translator
from cardroom.i18n.words import N_, tr_of

GAME_WORDS = {"spit": N_("Spit"), "speed": N_("Speed")}
"""The games' names: « Tafod » and « Cyflymder » in Welsh."""


def pile_name(pile: object, tr: Translator) -> str:
    """``pile 1`` / ``pile 2`` (a centre pile, numbered from 1)."""
    if isinstance(pile, int) and not isinstance(pile, bool) and pile in (0, 1):
        return tr._("pile {number}", number=pile + 1)
    return str(pile)


def event_words(event: Any, game: str, names: Sequence[str], lang: str | Translator | None) -> str:
    """One Spit or Speed engine event in words."""
    tr = tr_of(lang)
    kind = type(event).__name__
    seat = getattr(event, "seat", None)
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    card: Any = getattr(event, "card", None)
    pile = getattr(event, "pile", None)
    number = pile + 1 if isinstance(pile, int) else pile
    if kind == "Called":
        if game == "spit":
            return tr._('{name} calls "Spit!"', name=who)
        return tr._("{name} calls for the flip", name=who)
    if kind == "Spat":
        return tr._(
            "{name} spits {card} onto pile {number}", name=who, card=card.pretty, number=number
        )
    if kind in ("Played", "CardPlayed"):
        return tr._(
            "{name} plays {card} onto pile {number}", name=who, card=card.pretty, number=number
        )
    if kind == "TurnedUp":
        return tr._(
            "{name} turns up {card} on stock pile {number}",
            name=who,
            card=card.pretty,
            number=event.stock + 1,
        )
    if kind == "Stalemate":
        return tr._('stalemate: nobody can play, "Spit!" is due')
    if kind == "Won":
        return tr._("{name} has no cards left and wins!", name=who)
    if kind == "Drew":
        return tr.ngettext("{name} draws {n} card", "{name} draws {n} cards", event.count, name=who)
    if kind == "GameWon":
        return tr.ngettext(
            "{name} has played every card and wins ({n} point)",
            "{name} has played every card and wins ({n} points)",
            event.points,
            name=who,
        )
    return str(event.describe(names))


def entry_words(
    entry: Any,
    game: str,
    names: Sequence[str],
    viewer: int | None = None,
    lang: str | Translator | None = None,
) -> str:
    """What one arbiter log entry means, in ``lang`` (``cardroom.realtime.entry_text``'s shape)."""
    tr = tr_of(lang)
    said = "; ".join(event_words(e, game, names, tr) for e in entry.events)
    if entry.timeout:
        return tr._("countdown over: {events}", events=said)
    who = names[entry.seat] if entry.seat is not None else "?"
    if not entry.accepted:
        from cardroom.realtime import entry_text

        if viewer is not None and entry.seat != viewer:
            stale = (entry.reason or "").startswith("stale: ")
            return (
                tr._("{name}: refused (stale: the pile had changed)", name=who)
                if stale
                else tr._("{name}: refused", name=who)
            )
        return entry_text(entry, names, viewer)
    return said or f"{who}: {entry.action}"
