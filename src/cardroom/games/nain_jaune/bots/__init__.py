"""Nain Jaune's bots, registered with :mod:`cardroom.bots` when imported, and its levels."""

from cardroom.bots.base import LEVELS
from cardroom.games.nain_jaune.bots import expert as _expert  # noqa: F401  (registers expert)
from cardroom.games.nain_jaune.bots import heuristic as _heuristic  # noqa: F401  (registers it)
from cardroom.games.nain_jaune.bots import search as _search  # noqa: F401  (registers search)
from cardroom.games.nain_jaune.bots import simple as _simple  # noqa: F401  (random and greedy)

LEVELS.setdefault("easy", "random")
LEVELS.setdefault("medium", "greedy")
LEVELS.setdefault("hard", "heuristic")
LEVELS.setdefault("expert", "expert")
