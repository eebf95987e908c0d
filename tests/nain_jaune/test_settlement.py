"""The settlement breakdown on hand-made 8-player rounds (6 cards each, 4 in the talon).

Every expected column was worked out by hand from the rules (docs: /work/shared/rules):
stakes 1+2+3+4+5 = 15 each, so the board starts at 8, 16, 24, 32, 40 with eight players.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import DECK, Card, parse_cards
from cardroom.games.nain_jaune import Game, Round, Rules
from cardroom.games.nain_jaune.settlement import SettlementRow, breakdown
from tests.nain_jaune.deals import play


def eight(rules: Rules, hands: dict[int, str], talon: str, chips: list[int] | None = None) -> Round:
    """An 8-player round, dealer 7 (seat 0 opens); seats not given get the rest, six by six."""
    given_hands = {g: parse_cards(h) for g, h in hands.items()}
    used = set(parse_cards(talon)) | {c for h in given_hands.values() for c in h}
    rest: list[Card] = [c for c in DECK if c not in used]
    out: list[list[Card]] = []
    for g in range(8):
        if g in given_hands:
            out.append(given_hands[g])
        else:
            out.append(rest[:6])
            rest = rest[6:]
    assert not rest
    return Round(rules, chips or [60] * 8, [0] * 5, 7, out, parse_cards(talon))


def cols(row: SettlementRow) -> tuple[int, int, int, int, int, int]:
    return (row.stake, row.taken, row.cards, row.doubled, row.grand_opera, row.total)


def test_grand_opera_with_short_payers() -> None:
    # classic: points ace-low, one-turn Grand Opéra. Seat 0 plays A..6 of clubs at once.
    rnd = eight(
        Rules(),
        {
            0: "AC 2C 3C 4C 5C 6C",
            1: "7D 2D 3D 4D 5D 6D",  # 27 points, and the Yellow Dwarf
            2: "7C 8C 9C 10C QC KC",  # 54
            3: "AD 8D 9D JD QD KD",  # 48
            4: "AH 2H 3H 4H 5H 6H",  # 21
            5: "7H 8H 9H 10H JH QH",  # 54
            6: "AS 2S 3S 4S 5S 6S",  # 21
            7: "7S 8S 9S 10S JS KS",  # 54
        },
        "10D JC QS KH",
    )
    play(rnd, "AC", "2C", "3C", "4C", "5C", "6C")
    assert rnd.over
    rows = breakdown(rnd.events, 8)
    # 45 chips left after the stakes: 54 and 48 are paid short (45)
    received = 27 + 45 + 45 + 21 + 45 + 21 + 45
    # seat 1 pays 27, keeps 18, owes 40 for the Dwarf and pays those 18: the box holds 58
    swept = 8 + 16 + 24 + 32 + 58
    assert cols(rows[0]) == (-15, 0, received, 0, swept, -15 + received + swept)
    assert cols(rows[1]) == (-15, 0, -27, -18, 0, -60)
    assert rows[1].doubled_boxes == 1 and rows[1].short
    assert cols(rows[2]) == (-15, 0, -45, 0, 0, -60) and rows[2].short
    assert cols(rows[4]) == (-15, 0, -21, 0, 0, -36) and not rows[4].short
    assert [r.total for r in rows] == [
        after - before for after, before in zip(rnd.chips, rnd.chips_before, strict=True)
    ]


def test_forgotten_box_under_manual_announce() -> None:
    # count preset (1 chip a card, forgotten box doubled), announced by hand, no Grand Opéra
    rules = Rules.from_options("count", {"announce": "manual", "grand_opera": "off"})
    rnd = eight(rules, {0: "8S 9S 10D JC QH KS"}, "QS KH 7D AC")
    # 10♦ played and not announced; J♣ claimed (its box holds 16); out after the king
    play(rnd, "8S", "9S", "-10D", "JC", "claim", "QH", "KS")
    assert rnd.over
    rows = breakdown(rnd.events, 8)
    # the seven others pay 6 chips each (6 cards); seat 0 doubles the 10♦ box (8 chips)
    assert cols(rows[0]) == (-15, 16, 42, -8, 0, 35)
    assert rows[0].doubled_boxes == 1 and not rows[0].short
    for g in range(1, 8):
        assert cols(rows[g]) == (-15, 0, -6, 0, 0, -21)
    assert rnd.chips[0] == 60 + 35


def test_short_player_doubles_two_boxes_in_board_order() -> None:
    # seat 3 holds the Yellow Dwarf and J♣ with 41 chips: 15 staked, 6 paid, 20 left;
    # board order doubles J♣ first (16, in full), then the Dwarf (40 owed, 4 paid)
    rules = Rules.from_options("count", {"grand_opera": "off"})
    rnd = eight(
        rules,
        {0: "AC 2C 3C 4C 5C 6C", 3: "7D AD 2D 3D 4D JC"},
        "10D QS KH AH",
        chips=[60, 60, 60, 41, 60, 60, 60, 60],
    )
    play(rnd, "AC", "2C", "3C", "4C", "5C", "6C")
    rows = breakdown(rnd.events, 8)
    assert cols(rows[3]) == (-15, 0, -6, -20, 0, -41)
    assert rows[3].doubled_boxes == 2 and rows[3].short
    assert cols(rows[0]) == (-15, 0, 42, 0, 0, 27)
    assert rnd.chips[3] == 0
    assert rnd.board[1] == 32 and rnd.board[4] == 44


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["classic", "count", "ace-high"]), st.integers(2, 8))
def test_total_is_the_change_of_chips(seed: int, preset: str, n: int) -> None:
    rng = random.Random(seed)
    game = Game(Rules.from_options(preset), [f"P{g}" for g in range(n)], dealer=0)
    for _ in range(3):
        if game.over:
            break
        rnd = game.start_round(rng=rng)
        while not rnd.over:
            rnd.apply(rng.choice(rnd.legal_actions()))
        game.finish_round()
        rows = breakdown(rnd.events, rnd.n)
        assert [r.total for r in rows] == [
            a - b for a, b in zip(rnd.chips, rnd.chips_before, strict=True)
        ]
        assert sum(r.cards for r in rows) == 0
