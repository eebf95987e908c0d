"""A Spit match: games of Spit until a player has won so many (Speed's is ``SpeedMatch``)."""

from __future__ import annotations

from cardroom.games.realtime_engine import derive_seed
from cardroom.games.spit.engine import SpitGame
from cardroom.games.spit.rules import SpitRules

__all__ = ["SpitMatch"]

class SpitMatch:
    """Games of Spit until a player has won ``wins`` of them; game ``n`` (from 1) is dealt by
    ``SpitGame.new(rules, derive_seed(seed, n))``, as a Speed match's games are."""

    def __init__(
        self, rules: SpitRules, seed: int, wins: int, rules_version: int | None = None
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.wins = wins
        self.version = rules_version
        self.games: list[SpitGame] = [SpitGame.new(rules, derive_seed(seed, 1), rules_version)]

    @property
    def game(self) -> SpitGame:
        """The game being played (or the last one)."""
        return self.games[-1]

    @property
    def number(self) -> int:
        """The current game's number, from 1."""
        return len(self.games)

    @property
    def scores(self) -> tuple[int, int]:
        """Games each seat has won."""
        won = [g.winner for g in self.games if g.over]
        return (won.count(0), won.count(1))

    @property
    def over(self) -> bool:
        """True once a player has won ``wins`` games."""
        return max(self.scores) >= self.wins

    @property
    def winner(self) -> int | None:
        """The seat that won the match, once it is over."""
        return self.scores.index(max(self.scores)) if self.over else None

    def next_game(self) -> SpitGame:
        """Deal the next game (the current one over, the match not)."""
        assert self.game.over and not self.over, "a next game only when the match is open"
        self.games.append(
            SpitGame.new(self.rules, derive_seed(self.seed, self.number + 1), self.version)
        )
        return self.game
