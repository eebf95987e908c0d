"""Nain Jaune commands: play, replay (filled in with the engine)."""
