"""Running many games: what simulations share and simulated real-time tables.

A game's own simulation (bulk runs on its kernel, tournaments) lives in its folder
(``games/<game>/sim/``).
"""

from cardroom.games.messages import Message


def workers_error(workers: int) -> Message:
    """``--workers`` below 1 (a simulation's or a tournament's)."""
    return Message("sim.workers", f"--workers must be at least 1, not {workers}", n=workers)
