"""The ``heuristic`` bot: plans its runs from what it holds and what it has seen.

The bot is a deterministic function of the seat's view (it never draws from its rng), built
from integer scoring over ranks and card indices, so that a compiled port can reproduce every
decision exactly. The procedure, in order:

1. **Claim** whenever ``Claim`` is legal (a board card of ours is waiting to be announced).
2. **One legal action**: take it.
3. **Knowledge.** ``held[r]`` = our cards of rank ``r`` (1..13); ``gone[r]`` = cards of rank
   ``r`` played this round; ``unseen[r] = 4 - held[r] - gone[r]``. Unless ``may_stop`` is on,
   every "without X" proves the passer holds no X for the rest of the round: ``lacks[seat]`` is
   the set of such ranks. Rank ``r`` is **dead** when nobody else can hold one:
   ``unseen[r] == 0`` or every other seat still holding cards lacks ``r`` (the unseen ones are
   then in the talon).
4. **Following** (a rank ``X`` is asked): if we hold an ``X``, play one (never stop, even when
   ``may_stop`` allows it): the board card of rank ``X`` if we hold it, else our ``X`` with the
   lowest card index. With no ``X``, pass.
5. **Leading** (a new sequence): for each rank ``r`` we hold, the candidate card is our board
   card of rank ``r`` if we hold one, else our card of rank ``r`` with the lowest index. Its
   *run* is simulated on a copy of ``held``, starting at ``k = r``. If we hold a ``k``, we play
   one (one card per rank); the run ends if our hand is now empty (**out**) or ``k`` is a king
   (we would lead again); else ``k += 1``. If we hold no ``k`` but ``k`` is dead, nobody plays
   it: the run ends if ``when_blocked=free-restart`` or ``k`` is a king, else we are asked
   first for ``k + 1`` (``k += 1``). Otherwise the run ends (the others are asked for ``k``).
   Over the run: ``n`` cards played, ``pts`` the sum of their ``card_value``, ``box`` the chips
   now in the boxes of the board cards among them. The score is

   - ``1_000_000`` if the run ends **out**; otherwise
   - for a lone king (``n == 1`` and ``r == 13``): ``10 * box`` (we keep kings to win the lead
     back after someone else's queen, unless a board king sits on a rich box); otherwise
   - ``100 * n + pts + 2 * box + (150 if r == 1 else 0)`` (an ace can only ever be led). A run
     that ends on a king earns no bonus: measured against ``greedy``, keeping the top of a
     chain to win the lead back later did better than a bonus for cashing it at once.

   The highest score wins; ties go to the candidate with the lowest card index.

Every action it returns is one of ``view.legal_actions``; it never plays a board card unannounced.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardroom.bots.base import REGISTRY, no_options
from cardroom.cards import Card, Suit
from cardroom.games.nain_jaune.engine import CLAIM, PASS, Action, Claim, Play
from cardroom.games.nain_jaune.rules import Rules, card_value
from cardroom.games.nain_jaune.view import RoundView

KING = 13
OUT_SCORE = 1_000_000
ACE_BONUS = 150
CARD_WEIGHT = 100


def knowledge(
    seat: int,
    hand: Sequence[Card],
    hand_sizes: Sequence[int],
    played: Sequence[tuple[int, Card]],
    passes: Sequence[tuple[int, int]],
    may_stop: bool,
) -> tuple[list[int], list[bool]]:
    """``held`` counts by rank (index 1..13) and ``dead`` by rank, as the docstring defines."""
    held = [0] * 14
    for card in hand:
        held[card.rank] += 1
    unseen = [4 - h for h in held]
    for _, card in played:
        unseen[card.rank] -= 1
    lacks = [0] * len(hand_sizes)
    if not may_stop:
        for who, rank in passes:
            lacks[who] |= 1 << rank
    others = [p for p in range(len(hand_sizes)) if p != seat and hand_sizes[p] > 0]
    dead = [False] * 14
    for r in range(1, 14):
        dead[r] = unseen[r] <= 0 or all(lacks[p] >> r & 1 for p in others)
    return held, dead


def decide(
    seat: int,
    need: int | None,
    hand: Sequence[Card],
    hand_sizes: Sequence[int],
    played: Sequence[tuple[int, Card]],
    passes: Sequence[tuple[int, int]],
    board: Sequence[int],
    rules: Rules,
    legal: Sequence[Action],
) -> Action:
    """The heuristic's action for ``seat`` given only what that seat knows."""
    if len(legal) == 1:
        return legal[0]
    if any(isinstance(a, Claim) for a in legal):
        return CLAIM
    board_box = {c: i for i, c in enumerate(rules.board_cards)}
    if need is not None:
        choices = [a.card for a in legal if isinstance(a, Play) and not a.forget]
        if not choices:
            return PASS
        return Play(_preferred(choices, board_box))
    held, dead = knowledge(seat, hand, hand_sizes, played, passes, rules.may_stop)
    by_rank: dict[int, list[Card]] = {}
    for card in hand:
        by_rank.setdefault(int(card.rank), []).append(card)
    best: Card | None = None
    best_score = 0
    for rank in sorted(by_rank):
        card = _preferred(by_rank[rank], board_box)
        score = lead_score(rank, held, dead, len(hand), hand, board, board_box, rules)
        if best is None or score > best_score or (score == best_score and card.index < best.index):
            best, best_score = card, score
    assert best is not None
    return Play(best)


def _preferred(cards: Sequence[Card], board_box: dict[Card, int]) -> Card:
    """Among cards of one rank: the board card if any, else the lowest card index."""
    return min(cards, key=lambda c: (c not in board_box, c.index))


def lead_score(
    rank: int,
    held: Sequence[int],
    dead: Sequence[bool],
    hand_size: int,
    hand: Sequence[Card],
    board: Sequence[int],
    board_box: dict[Card, int],
    rules: Rules,
) -> int:
    """The score of leading our card of ``rank`` (see the module docstring)."""
    h = list(held)
    boards_by_rank = {int(c.rank): board[board_box[c]] for c in hand if c in board_box}
    n = pts = box = 0
    out = False
    k = rank
    while True:
        if h[k] > 0:
            h[k] -= 1
            n += 1
            pts += _rank_value(k, rules)
            box += boards_by_rank.get(k, 0)
            if n == hand_size:
                out = True
                break
            if k == KING:
                break
            k += 1
        elif dead[k]:
            if rules.when_blocked == "free-restart" or k == KING:
                break
            k += 1
        else:
            break
    if out:
        return OUT_SCORE
    if n == 1 and rank == KING:
        return 10 * box
    return CARD_WEIGHT * n + pts + 2 * box + (ACE_BONUS if rank == 1 else 0)


_VALUE_CARDS = {r: Card(r, Suit.CLUBS) for r in range(1, 14)}


def _rank_value(rank: int, rules: Rules) -> int:
    return card_value(_VALUE_CARDS[rank], rules.payment)


@dataclass
class HeuristicBot:
    """Plans runs, keeps kings, dumps costly cards, infers absences from "without X"."""

    name: str = "heuristic"

    def act(self, view: RoundView, rng: random.Random) -> Action:
        """The documented deterministic choice (``rng`` is never used)."""
        return decide(
            view.seat,
            view.need,
            view.hand,
            view.hand_sizes,
            view.played,
            view.passes,
            view.board,
            view.rules,
            view.legal_actions,
        )


def _heuristic(options: dict[str, str]) -> HeuristicBot:
    no_options("heuristic", options)
    return HeuristicBot()


REGISTRY["heuristic"] = _heuristic
__all__ = ["HeuristicBot", "decide", "knowledge", "lead_score"]
