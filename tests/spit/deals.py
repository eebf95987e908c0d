"""Hand-made Spit deals: name the cards that matter, the rest of the pack fills in."""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.cards import DECK, Card, parse_card, parse_cards
from cardroom.games.spit import SpitGame, SpitRules

C = parse_card


def packet(
    piles: Sequence[str], spit: str | Sequence[str], pool: list[Card], n_piles: int = 5
) -> list[Card]:
    """A seat's 26-card packet.

    ``piles[i]`` lists stock pile ``i`` bottom to top (its last card is the face-up top); a pile
    given shorter than its size (i + 1) is completed *underneath* with cards from ``pool``.
    ``spit`` lists the spit cards in the order they are turned; the rest of the spit pile comes
    from ``pool`` after them.
    """
    out: list[Card] = []
    for i in range(n_piles):
        given = parse_cards(piles[i]) if i < len(piles) else []
        need = i + 1 - len(given)
        assert need >= 0, f"pile {i} holds {i + 1} cards, {len(given)} given"
        out.extend(pool.pop(0) for _ in range(need))
        out.extend(given)
    spit_cards = parse_cards(spit) if isinstance(spit, str) else parse_cards(list(spit))
    out.extend(spit_cards)
    while len(out) < 26:
        out.append(pool.pop(0))
    return out


def make_deal(
    piles0: Sequence[str],
    spit0: str,
    piles1: Sequence[str],
    spit1: str,
    n_piles: int = 5,
    filler: str = "",
) -> list[Card]:
    """The 52-card deal from both seats' named cards; unnamed places are filled from ``filler``
    (cards in that order) and then the rest of the pack in index order."""
    named = set(parse_cards(" ".join(piles0) + " " + spit0 + " " + " ".join(piles1) + " " + spit1))
    first = [c for c in parse_cards(filler) if c not in named] if filler else []
    pool = first + [c for c in DECK if c not in named and c not in first]
    deal = packet(piles0, spit0, pool, n_piles) + packet(piles1, spit1, pool, n_piles)
    assert len(deal) == 52 and len(set(deal)) == 52, "a card is named twice"
    return deal


def game(
    piles0: Sequence[str],
    spit0: str,
    piles1: Sequence[str],
    spit1: str,
    seed: int = 0,
    filler: str = "",
    **options: object,
) -> SpitGame:
    """A game from a hand-made deal, with rule options."""
    rules = SpitRules.from_options(options)
    return SpitGame(rules, make_deal(piles0, spit0, piles1, spit1, rules.piles, filler), seed)


def position(
    stock0: Sequence[str],
    stock1: Sequence[str],
    spit0: str = "",
    spit1: str = "",
    centre0: str = "",
    centre1: str = "",
    *,
    rest: str = "centre0",
    kind: str = "play",
    one_pile: bool = False,
    down: Sequence[tuple[int, int]] = (),
    seed: int = 0,
    **options: object,
) -> SpitGame:
    """A game set to a position in the middle of play (for tests of rare situations).

    ``stock0[i]`` lists seat 0's stock pile ``i`` bottom to top (``""``: an empty space); every
    top card is face up except the (seat, pile) pairs in ``down``. Spit piles list the cards in
    the order they will be turned; centre piles bottom to top. The cards not named go to ``rest``:
    the bottom of a centre pile (``centre0`` / ``centre1``) or the end of a spit pile
    (``spit0`` / ``spit1``). With ``one_pile`` only the centre pile of the seat with spit cards
    (or the non-empty one) is open.
    """
    rules = SpitRules.from_options(options)
    g = SpitGame(rules, DECK, seed)
    stocks = [[parse_cards(p) for p in stock0], [parse_cards(p) for p in stock1]]
    for s in stocks:
        s.extend([] for _ in range(rules.piles - len(s)))
    spits = [parse_cards(spit0), parse_cards(spit1)]
    centres = [parse_cards(centre0), parse_cards(centre1)]
    named = [c for s in stocks for p in s for c in p] + [c for p in spits + centres for c in p]
    assert len(set(named)) == len(named), "a card is named twice"
    others = [c for c in DECK if c not in set(named)]
    assert rest in ("centre0", "centre1", "spit0", "spit1"), rest
    if rest.startswith("centre"):
        centres[int(rest[-1])][:0] = others
    else:
        spits[int(rest[-1])].extend(others)
    g._stock = stocks
    g._up = [
        [bool(p) and (seat, i) not in down for i, p in enumerate(stocks[seat])] for seat in (0, 1)
    ]
    g._spit = [list(reversed(s)) for s in spits]
    g._centre = centres
    g._kind = kind
    g._one_pile = one_pile
    if one_pile:
        spitter = [s for s in (0, 1) if spits[s]]
        pile = spitter[0] if spitter else (0 if centres[0] else 1)
        g._open = [pile == 0, pile == 1]
    g.events.clear()
    g._stuck_memo = None
    g._views.clear()
    return g
