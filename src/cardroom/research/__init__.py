"""Research adapters for Nain Jaune (the optional ``research`` extra).

* :mod:`cardroom.research.pettingzoo_env`: a PettingZoo AEC environment (``env()``).
* :mod:`cardroom.research.gym_env`: a Gymnasium single-agent environment against bots.
* :mod:`cardroom.research.openspiel_game`: the OpenSpiel game ``python_nain_jaune``.

Each module imports its library when imported itself, so ``import cardroom`` never needs them.
:mod:`cardroom.research.encoding` (actions and observations) needs only numpy.
"""
