"""cardroom: Nain Jaune, Spit and Speed — engines, bots, simulation, play and research APIs."""

__version__ = "0.1.0"
