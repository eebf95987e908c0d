"""Running many games: bulk simulation, tournaments and simulated Spit/Speed tables.

The compiled Nain Jaune code they run lives below, in :mod:`cardroom.kernels`.
"""

from cardroom.games.messages import Message


def workers_error(workers: int) -> Message:
    """``--workers`` below 1 (a simulation's or a tournament's)."""
    return Message("sim.workers", f"--workers must be at least 1, not {workers}", n=workers)
