"""Play Nain Jaune rounds and games between bots through the readable engine."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardroom.bots.base import Bot
from cardroom.games.nain_jaune.engine import Game, Round
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.view import view_of


def play_round(rnd: Round, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> Round:
    """Let ``bots[seat]`` (with ``rngs[seat]``) act until the round is over; returns ``rnd``."""
    while rnd.result is None:
        seat = rnd.to_act
        bot = bots[seat]
        if getattr(bot, "sees_all", False):  # the oracle yardstick (sim/oracle.py) only
            rnd.apply(bot.act_seeing(rnd, rngs[seat]))  # type: ignore[attr-defined]
        else:
            rnd.apply(bot.act(view_of(rnd, seat), rngs[seat]))
    return rnd


def play_game(game: Game, bots: Sequence[Bot], seed: int, max_rounds: int = 1000) -> Game:
    """Play a whole game; seat ``i`` of the game is played by ``bots[i]``.

    The deal of round ``k`` uses ``random.Random(f"{seed}/deal/{k}")`` and each seat its own
    ``random.Random(f"{seed}/seat/{i}")``, so a game depends only on its seed and bots.
    """
    rngs = [random.Random(f"{seed}/seat/{i}") for i in range(len(game.names))]
    while game.result is None and game.rounds_played < max_rounds:
        rnd = game.start_round(random.Random(f"{seed}/deal/{game.rounds_played}"))
        seats = game.round_seats
        play_round(rnd, [bots[s] for s in seats], [rngs[s] for s in seats])
        game.finish_round()
    return game


def game_record(
    rules: Rules, names: Sequence[str], bots: Sequence[Bot], seed: int, max_rounds: int = 1000
) -> list[dict[str, object]]:
    """The record (a list of round records) of a whole game played by ``bots`` (see
    :func:`play_game`)."""
    game = play_game(Game(rules, list(names)), bots, seed, max_rounds)
    return game.records
