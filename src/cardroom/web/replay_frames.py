"""The replay viewer's frames: a record checked once by its game's face, then cut into pages.

Which game a record is comes from the record (:func:`cardroom.web.faces.record_game`); the
game's web face computes its frames (``checked`` and ``page``, see :mod:`cardroom.web.faces`;
the real-time games' are the real-time tier's, :mod:`cardroom.web.replay_realtime`). The
page never re-implements the rules: it shows the steps computed by the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cardroom.web.faces as faces
from cardroom.games.errors import RecordError
from cardroom.games.registry import Game
from cardroom.i18n import translator
from cardroom.i18n.messages import message_words

__all__ = ["RecordError", "ReplayTooLarge", "Replayer", "replay_frames", "replayer"]


class ReplayTooLarge(Exception):
    """A record past the viewer's bounds: message ``id`` (:mod:`cardroom.i18n.bound_words`)
    with ``fields``; its English words are the exception's text."""

    def __init__(self, id: str, **fields: int) -> None:
        super().__init__(message_words(id, fields, translator("en")))
        self.id = id
        self.fields = fields


Replayer = tuple[Callable[..., Any], Callable[..., dict[str, Any]]]
"""A game's ``checked(data, max_rounds)`` and ``page(checked, first, count, lang, max_steps)``."""


def replayer(entry: Game) -> Replayer:
    """The replay functions of ``entry``'s face (a game whose face gives none: no frames, its
    record shown as having no rounds)."""
    check, page = faces.part(entry, "checked"), faces.part(entry, "page")
    if check is None or page is None:

        def check(data: Any, max_rounds: int | None = None) -> list[Any]:
            return []

        def page(checked: list[Any], *_: Any) -> dict[str, Any]:
            return {"game": entry.name, "players": [], "rounds": []}

    return check, page


def replay_frames(
    data: Any, lang: str = "en", max_rounds: int | None = None, max_steps: int | None = None
) -> dict[str, Any]:
    """Check and replay a parsed JSON record of any game and return all its frames.

    Raises :class:`RecordError` (the engine's message) for a malformed record or illegal move,
    :class:`ReplayTooLarge` past ``max_rounds`` rounds (before anything is replayed) or
    ``max_steps`` steps.
    """
    check, page = replayer(faces.record_game(data))
    checked = check(data, max_rounds)
    return page(checked, 0, len(checked), lang, max_steps)
