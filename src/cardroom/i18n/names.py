"""The names shown for seats: a person's own name, or the words for a deleted player.

A deleted player's seats keep their place in records and logs under :data:`FORMER_PLAYER`, an
English msgid stored as a key (language-neutral: every reader shows it in its own language).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.games.records import FORMER_PLAYER
from cardroom.i18n import Translator

__all__ = ["FORMER_PLAYER", "shown_name", "shown_names"]


def shown_name(name: str, lang: Translator) -> str:
    """``name`` as a reader in ``lang`` sees it (:data:`FORMER_PLAYER` in their words)."""
    if name != FORMER_PLAYER:
        return name
    return lang._(FORMER_PLAYER)


def shown_names(names: Sequence[str], lang: Translator) -> list[str]:
    """:func:`shown_name` of each name."""
    tr = lang
    return [shown_name(name, tr) for name in names]
