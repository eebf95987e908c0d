"""Bots. Name one on the command line as ``NAME[:key=value,…]`` or by level.

The bots themselves live with their game (each registered game's ``bots`` piece, see
:mod:`cardroom.games.registry`); importing this package loads them all, so
:func:`make_bot` knows every registered bot and level.
"""

from cardroom.bots.base import LEVELS, REGISTRY, Bot, BotError, make_bot, parse_spec
from cardroom.games.registry import games as _games

for _entry in _games():
    if _entry.bots is not None:
        _entry.load("bots")

__all__ = ["LEVELS", "REGISTRY", "Bot", "BotError", "make_bot", "parse_spec"]
