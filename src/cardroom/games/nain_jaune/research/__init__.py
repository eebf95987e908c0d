"""Research adapters for Nain Jaune (the optional ``research`` extra).

* :mod:`cardroom.games.nain_jaune.research.pettingzoo_env`: a PettingZoo AEC environment
  (``env()``).
* :mod:`cardroom.games.nain_jaune.research.gym_env`: a Gymnasium single-agent environment against
  bots.
* :mod:`cardroom.games.nain_jaune.research.openspiel_game`: the OpenSpiel game
  ``python_nain_jaune``.

Each module imports its library when imported itself, so ``import cardroom`` never needs them.
:mod:`cardroom.games.nain_jaune.research.encoding` (actions and observations) needs only numpy.
"""
