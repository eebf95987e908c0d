"""One simulated game played through the readable engine and bots, on the fast path's streams.

The differential tests compare it with the fast path
(:func:`cardroom.games.nain_jaune.kernel.trace_game`),
and it turns any simulated game into records that ``cardroom replay`` reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.bots.base import Bot
from cardroom.games.nain_jaune.engine import Claim, Game, Pass, Play
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.view import view_of
from cardroom.kernels.streams import (
    CLAIM_CODE,
    DEAL_TAG,
    MAX_GAME_ROUNDS,
    PASS_CODE,
    SplitMixRandom,
    derive,
    fast_index,
    reason_code,
)


def readable_game(
    rules: Rules,
    bots: Sequence[Bot],
    key: int,
    max_rounds: int = MAX_GAME_ROUNDS,
) -> tuple[Game, list[int]]:
    """Play one simulated game (key ``key``) through the readable engine and bots.

    Returns the game (its ``records`` replay with ``cardroom replay``) and the same trace as
    :func:`cardroom.games.nain_jaune.kernel.trace_game` writes: for each action ``(seat * 16 +
    need) * 64
    + code`` (round position, the rank needed before it or 0, the fast action code); after each
    round ``-1``, the dealer (game seat), the players in the round, the winner and next dealer
    (round positions), grand opéra (0/1), the five boxes, every game seat's chips, the mask of short
    payers (round positions); at the end ``-2``, the end reason code (see
    :data:`cardroom.games.nain_jaune.kernel.REASONS`), the rounds played and the mask of winners.
    """
    nseats = len(bots)
    game = Game(rules, [f"seat {i}" for i in range(nseats)])
    rngs = [SplitMixRandom(derive(key, i)) for i in range(nseats)]
    trace: list[int] = []
    while game.result is None and game.rounds_played < max_rounds:
        dealer = game.dealer
        rnd = game.start_round(SplitMixRandom(derive(key, DEAL_TAG + game.rounds_played)))
        seats = game.round_seats
        while rnd.result is None:
            pos = rnd.to_act
            need = rnd.need or 0
            action = bots[seats[pos]].act(view_of(rnd, pos), rngs[seats[pos]])
            if isinstance(action, Play):
                code = fast_index(action.card.index)
            elif isinstance(action, Claim):
                code = CLAIM_CODE
            else:
                assert isinstance(action, Pass)
                code = PASS_CODE
            trace.append((pos * 16 + need) * 64 + code)
            rnd.apply(action)
        res = game.finish_round()
        trace += [-1, dealer, rnd.n, res.winner, res.next_dealer, int(res.grand_opera)]
        trace += list(res.board) + list(game.chips)
        trace.append(sum(1 << s for s in res.short))
    result = game.result
    if result is None:
        trace += [-2, 0, game.rounds_played, 0]
    else:
        winners = sum(1 << s for s in result.winners)
        trace += [-2, reason_code(result.reason), result.rounds, winners]
    return game, trace
