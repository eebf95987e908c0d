"""Nain Jaune in the terminal: the table a person plays with bots, what they type, the game as
text, the Textual app and the line-by-line mode."""
