"""Analysis of finished games: what each decision was worth (Nain Jaune, by the expert's search)
and how fast each player reacted (Spit, Speed).

Below the front ends (``cli``, ``web``), above ``games``, ``bots`` and ``kernels``: it turns a
record into plain data; the words are chosen by whoever shows it.
"""

from cardroom.i18n.words import N_

REFUSALS = {
    "unfinished": N_("Only a finished game can be analysed."),
    "too-long": N_("This game is too long to be analysed here."),
    "bad-record": N_("This game's record could not be read, so it cannot be analysed."),
}
"""Why an analysis was refused, by :class:`~cardroom.games.nain_jaune.analysis.AnalysisError` code
(English msgids: the front ends say them in the person's language)."""
