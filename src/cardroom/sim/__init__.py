"""Running many games: bulk simulation, tournaments and simulated Spit/Speed tables.

The compiled Nain Jaune code they run lives below, in :mod:`cardroom.kernels`.
"""
