"""cardroom: card games (each one folder of ``games/``, listed by ``games/registry.py``) —
engines, bots, simulation, play and research APIs."""

__version__ = "0.1.0"
