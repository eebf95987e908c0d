"""Bots. Name one on the command line as ``NAME[:key=value,…]`` or by level."""

from cardroom.bots import expert as _expert  # noqa: F401  (registers expert)
from cardroom.bots import heuristic as _heuristic  # noqa: F401  (registers heuristic)
from cardroom.bots import search as _search  # noqa: F401  (registers search)
from cardroom.bots import simple as _simple  # noqa: F401  (registers random and greedy)
from cardroom.bots.base import LEVELS, REGISTRY, Bot, BotError, make_bot, parse_spec

LEVELS.setdefault("easy", "random")
LEVELS.setdefault("medium", "greedy")
LEVELS.setdefault("hard", "heuristic")
LEVELS.setdefault("expert", "expert")

__all__ = ["LEVELS", "REGISTRY", "Bot", "BotError", "make_bot", "parse_spec"]
