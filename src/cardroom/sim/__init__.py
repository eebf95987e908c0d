"""Running many games: bulk simulation and tournaments."""
