"""Analysis of finished games: what each decision was worth (Nain Jaune, by the expert's search)
and how fast each player reacted (Spit, Speed).

Below the front ends (``cli``, ``web``), above ``games``, ``bots`` and ``kernels``: it turns a
record into plain data; the words are chosen by whoever shows it.
"""
