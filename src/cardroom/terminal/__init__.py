"""The terminal front ends: the Textual apps and the plain line modes of each game, and the
Nain Jaune controller they share (on the table state machine of :mod:`cardroom.tables`)."""
