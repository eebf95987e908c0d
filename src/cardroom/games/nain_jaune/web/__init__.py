"""Nain Jaune's face on the web (the registry's ``web`` piece, see :mod:`cardroom.web.faces`):
its replay frames (``replay``), its figures in My games (``stats``), its rules page's board
and options (``rules_page``), its tables made by the lobby (``lobby``) and its bots' measured
strength for the lobby. Its table page is the turn-based one (``table.html``, ``table.js``)."""

from __future__ import annotations

from cardroom.games.nain_jaune.bots.strength import LEVEL_STRENGTH
from cardroom.games.nain_jaune.web.lobby import HINTS_ONLY, rounds_asked, table_config
from cardroom.games.nain_jaune.web.replay import checked, page
from cardroom.games.nain_jaune.web.rules_page import options_html, rules_parts
from cardroom.games.nain_jaune.web.stats import add_stats, stats_json
from cardroom.games.nain_jaune.words import lobby_model as options_model

ANALYSIS_NAMES = "seats"
"""The analysis lists its players as names by seat."""

__all__ = [
    "ANALYSIS_NAMES",
    "HINTS_ONLY",
    "LEVEL_STRENGTH",
    "add_stats",
    "checked",
    "options_html",
    "options_model",
    "page",
    "rounds_asked",
    "rules_parts",
    "stats_json",
    "table_config",
]
