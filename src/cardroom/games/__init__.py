"""The rules of each game: pure, deterministic, no I/O. They import only :mod:`cardroom.cards`."""
