"""Scenario tests on hand-made deals; every expected number is worked out in the comments."""

from __future__ import annotations

import pytest

from cardroom.cards import Card, parse_card, parse_cards
from cardroom.games.errors import RulesError
from cardroom.games.nain_jaune import PASS, Game, IllegalAction, Play, Rules
from cardroom.games.nain_jaune.engine import (
    CLAIM,
    Action,
    Claim,
    Doubled,
    Event,
    FreeSequence,
    GrandOperaSwept,
    NextRank,
    Paid,
    Pass,
    Round,
    Takes,
    Without,
)
from cardroom.games.nain_jaune.rules import EndCondition, GrandOpera, card_value
from tests.nain_jaune.deals import make_deal, new_round, play

# --------------------------------------------------------------------------- the 2-player deal
# Seat 1 (first to play, dealer 0) holds every club and diamond but the 4s and 5s, which are all in
# the talon; seat 0 holds hearts and spades without 4s and 5s. Seat 1 can play all 22 cards alone:
# AC 2C 3C, nobody has a 4 or a 5 (two skips), 6C..KC, free; AD 2D 3D, skips, 6D..KD: out.
TWO_SEAT1 = "AC 2C 3C 6C 7C 8C 9C 10C JC QC KC AD 2D 3D 6D 7D 8D 9D 10D JD QD KD"
TWO_TALON = "4C 4D 4H 4S 5C 5D 5H 5S"
CLUBS_RUN = ["6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"]
DIAMONDS_RUN = ["6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD"]


def two_player(rules: Rules) -> Round:
    return new_round(rules, 2, {1: TWO_SEAT1}, TWO_TALON)


def play_two_player_alone_as(rnd: Round, seat: int) -> list[Event]:
    assert rnd.to_act == seat
    return play_two_player_alone(rnd)


def play_two_player_alone(rnd: Round, forget: str | None = None) -> list[Event]:
    """Seat 1 plays everything; returns the events. ``forget`` marks one card unannounced."""
    events: list[Event] = []

    def card(code: str) -> str:
        return "-" + code if code == forget else code

    events += play(rnd, "AC", "2C", "3C")
    events += play(rnd, "pass", "pass")  # without 4: both pass -> seat 1 goes on with 5
    events += play(rnd, "pass", "pass")  # without 5: both pass -> 6
    events += play(rnd, *[card(c) for c in CLUBS_RUN])
    events += play(rnd, "AD", "2D", "3D", "pass", "pass", "pass", "pass")
    events += play(rnd, *[card(c) for c in DIAMONDS_RUN])
    return events


def test_two_players_skip_chain_and_grand_opera_classic() -> None:
    rnd = two_player(Rules())
    events = play(rnd, "AC", "2C", "3C")
    assert rnd.need == 4 and rnd.legal_actions() == [PASS]
    events = play(rnd, "pass", "pass")
    assert events == [Without(1, 4), Without(0, 4), NextRank(1, 4)]
    assert rnd.to_act == 1 and rnd.need == 5
    events = play(rnd, "pass", "pass")
    assert events[-1] == NextRank(1, 5)
    # seat 1 is asked first for the 6 and holds two: he must play one of them
    assert rnd.legal_actions() == [Play(parse_card("6C")), Play(parse_card("6D"))]
    play(rnd, *CLUBS_RUN)
    assert rnd.need is None and rnd.to_act == 1
    play(rnd, "AD", "2D", "3D", "pass", "pass", "pass", "pass", *DIAMONDS_RUN)
    res = rnd.result
    assert res is not None
    # stakes: 45 each, board 2 4 6 8 10. Seat 1 takes JC (4), 7D (10), 10D (2): 61.
    # seat 0 owes A+2+3+6+7+8+9+10+10+10+10 = 76 per suit, 152: pays all his 45 (short): 106.
    # seat 0 holds QS and KH: doubles them with nothing left. Grand opéra sweeps 6 + 8: 120.
    assert res.winner == 1 and res.grand_opera
    assert res.chips == (0, 120) and res.board == (0, 0, 0, 0, 0)
    assert res.short == (0,) and res.next_dealer == 1


def test_two_players_count_preset() -> None:
    rnd = two_player(Rules.from_options("count"))
    events = play_two_player_alone(rnd)
    res = rnd.result
    assert res is not None
    # card-count: seat 0 owes 22 cards -> 23 left; seat 1 61 + 22 = 83.
    # seat 0 doubles QS (6 -> 12, 17 left) then KH (8 -> 16, 9 left).
    # no-one-else-played holds (seat 1 played all 22): sweeps 12 + 16 = 28 -> 111.
    assert Paid(0, 1, 22, 22) in events
    assert Doubled(0, parse_card("QS"), 6, 6, "held") in events
    assert Doubled(0, parse_card("KH"), 8, 8, "held") in events
    assert GrandOperaSwept(1, 28) in events
    assert res.chips == (9, 111) and res.grand_opera and res.short == ()


@pytest.mark.parametrize(
    ("payment", "owed"),
    [("points-ace-low", 152), ("card-count", 22), ("points-ace-high", 170)],
)
def test_payment_options(payment: str, owed: int) -> None:
    # ace-high: A=10 2 3 6 7 8 9 10 J Q K=10 -> 85 per suit, 170
    rnd = two_player(Rules.from_options("classic", {"payment": payment, "grand_opera": "off"}))
    events = play_two_player_alone(rnd)
    paid = min(owed, 45)
    assert Paid(0, 1, owed, paid) in events
    res = rnd.result
    assert res is not None and not res.grand_opera
    left = 45 - paid
    qs = min(6, left)
    kh = min(8, left - qs)
    assert res.chips == (left - qs - kh, 61 + paid)
    assert res.board == (0, 0, 6 + qs, 8 + kh, 0)


def test_card_values() -> None:
    a, seven, ten, king = parse_cards("AS 7H 10C KD")
    assert [card_value(c, "points-ace-low") for c in (a, seven, ten, king)] == [1, 7, 10, 10]
    assert [card_value(c, "points-ace-high") for c in (a, seven, ten, king)] == [10, 7, 10, 10]
    assert [card_value(c, "card-count") for c in (a, seven, ten, king)] == [1, 1, 1, 1]


def test_forgotten_announcement_chips_stay() -> None:
    rnd = two_player(Rules(grand_opera="off"))
    play_two_player_alone(rnd, forget="JC")
    res = rnd.result
    assert res is not None
    # no take for JC: 45 + 10 + 2 = 57, + 45 = 102; JC box keeps its 4
    assert res.chips == (0, 102) and res.board == (0, 4, 6, 8, 0)


def test_forgotten_announcement_double_box() -> None:
    rnd = two_player(Rules(grand_opera="off", forgotten_announcement="double-box"))
    events = play_two_player_alone(rnd, forget="JC")
    res = rnd.result
    assert res is not None
    # as above, then the forgetter doubles JC's 4: 98, box 8
    assert Doubled(1, parse_card("JC"), 4, 4, "forgot") in events
    assert res.chips == (0, 98) and res.board == (0, 8, 6, 8, 0)


def test_free_restart_after_everyone_passes() -> None:
    rnd = two_player(Rules.from_options("ace-high"))
    play(rnd, "AC", "2C", "3C")
    events = play(rnd, "pass", "pass")
    assert isinstance(events[-1], FreeSequence) and events[-1].seat == 1
    assert rnd.need is None and rnd.to_act == 1
    assert len(rnd.legal_actions()) == 19  # any card of his 19


def test_may_stop_allows_a_pass_while_holding_the_rank() -> None:
    strict = two_player(Rules())
    play(strict, "AC")
    assert PASS not in strict.legal_actions()
    with pytest.raises(IllegalAction, match="must play it"):
        strict.apply(PASS)
    free = two_player(Rules(may_stop=True))
    play(free, "AC")
    assert free.legal_actions() == [Play(parse_card("2C")), Play(parse_card("2D")), PASS]
    assert play(free, "pass") == [Without(1, 2)]
    assert free.to_act == 0


# --------------------------------------------------------------------------- the 8-player deal
# Dealer 0; seat 1 opens 2C 3C 4C, says "without 5"; seat 2 plays 5C..10C, all six in one turn.
EIGHT = {
    0: "AC AD AH AS KC KD",  # 1+1+1+1+10+10 = 24
    1: "2C 3C 4C 9H 9S 9D",  # after the run: 9H 9S 9D = 27
    2: "5C 6C 7C 8C 9C 10C",
    3: "2D 3D 4D 5D 6D 7D",  # 27, holds the Yellow Dwarf
    4: "2H 3H 4H 5H 6H 7H",  # 27
    5: "2S 3S 4S 5S 6S 7S",  # 27
    6: "8D 8H 8S 10D 10H 10S",  # 54, holds 10D
    7: "JC JD JH JS QC QD",  # 60, holds JC
}
EIGHT_TALON = "QH QS KH KS"  # QS and KH stay in the talon


def eight_player(rules: Rules) -> tuple[Round, list[Event]]:
    rnd = new_round(rules, 8, EIGHT, EIGHT_TALON)
    events = play(rnd, "2C", "3C", "4C", "pass", "5C", "6C", "7C", "8C", "9C", "10C")
    return rnd, events


def test_eight_players_one_turn_grand_opera_and_partial_payments() -> None:
    rnd, events = eight_player(Rules())
    res = rnd.result
    assert res is not None and res.winner == 2
    # stakes: 45 each; board 8 16 24 32 40. Seat 2 receives 27*4 (seats 3,4,5,1) + 24 (seat 0)
    # + 45 + 45 (seats 6 and 7 owe 54 and 60 but hold 45): 222 -> 267.
    assert Paid(6, 2, 54, 45) in events and Paid(7, 2, 60, 45) in events
    # seat 3 holds 7D: doubles 40 with the 18 he has left -> 58; seats 6 and 7 have nothing left.
    assert Doubled(3, parse_card("7D"), 40, 18, "held") in events
    assert Doubled(6, parse_card("10D"), 8, 0, "held") in events
    # grand opéra (all six cards in one turn): 8 + 16 + 24 + 32 + 58 = 138 -> 405
    assert GrandOperaSwept(2, 138) in events
    assert res.chips == (21, 18, 405, 0, 18, 18, 0, 0)
    assert res.board == (0, 0, 0, 0, 0)
    assert res.short == (3, 6, 7) and res.next_dealer == 1


@pytest.mark.parametrize("mode", ["no-one-else-played", "off"])
def test_eight_players_no_grand_opera_when_someone_else_played(mode: GrandOpera) -> None:
    rnd, _ = eight_player(Rules(grand_opera=mode))
    res = rnd.result
    assert res is not None and not res.grand_opera
    # the same as above without the sweep: QS and KH (in the talon) keep their stakes
    assert res.chips == (21, 18, 267, 0, 18, 18, 0, 0)
    assert res.board == (8, 16, 24, 32, 58)


def test_eight_players_no_one_else_played_grand_opera() -> None:
    hands = dict(EIGHT)
    hands[1], hands[2] = EIGHT[2], EIGHT[1]
    rnd = new_round(Rules.from_options("count"), 8, hands, EIGHT_TALON)
    play(rnd, "5C", "6C", "7C", "8C", "9C", "10C")
    res = rnd.result
    assert res is not None and res.winner == 1 and res.grand_opera
    # card-count: the seven others pay 6 each -> 39; seat 1: 45 + 42 = 87. Seat 3 owes 40 to
    # double 7D but has 39: box 79. Seats 6 and 7 double 10D (8 -> 16) and JC (16 -> 32): 31 and
    # 23 left. Sweep: 16 + 32 + 24 + 32 + 79 = 183 -> 270.
    assert res.chips == (39, 270, 39, 0, 39, 39, 31, 23)
    assert sum(res.chips) == 480 and res.board == (0, 0, 0, 0, 0)


def test_manual_announce_claim_and_final_claim() -> None:
    hands = dict(EIGHT)
    hands[2] = "5C 6C 7C 8C 9C 10D"  # his last card is a board card
    hands[6] = "8D 8H 8S 10C 10H 10S"
    rnd = new_round(Rules(announce="manual", grand_opera="off"), 8, hands, EIGHT_TALON)
    play(rnd, "2C", "3C", "4C", "pass", "5C", "6C", "7C", "8C", "9C", "10D")
    assert not rnd.over and rnd.legal_actions() == [CLAIM, PASS]
    with pytest.raises(IllegalAction):
        rnd.apply(Play(parse_card("JC")))
    events = rnd.apply(Claim())
    assert events[0] == Takes(2, parse_card("10D"), 8)
    assert rnd.result is not None and rnd.result.winner == 2


def test_manual_announce_lapses_when_the_player_moves_on() -> None:
    rnd = two_player(Rules(announce="manual", grand_opera="off"))
    play(rnd, "AC", "2C", "3C", "pass", "pass", "pass", "pass", "6C", "7C", "8C", "9C", "10C")
    play(rnd, "JC")
    assert rnd.pending_claim == parse_card("JC") and CLAIM in rnd.legal_actions()
    events = play(rnd, "QC")  # moved on without claiming: forgotten, the box stays
    assert events[0].__class__.__name__ == "Forgot"
    assert rnd.board[1] == 4 and rnd.chips[1] == 45
    play(rnd, "KC", "AD", "2D", "3D", "pass", "pass", "pass", "pass", "6D", "7D", "claim")
    assert rnd.chips[1] == 55 and rnd.board[4] == 0


def test_missing_king_gives_a_free_sequence() -> None:
    hands = {
        1: "9C 10C JH QH 2C 3C",
        2: "AC AD AH AS 2D 2H",
        3: "2S 3D 3H 3S 4C 4D",
        4: "4H 4S 5C 5D 5H 5S",
        5: "6C 6D 6H 6S 7C 7D",
        6: "7H 7S 8C 8D 8H 8S",
        7: "9D 9H 9S 10D 10H 10S",
    }  # seat 0 gets JC JD JS QC QD QS; the talon holds all four kings
    rnd = new_round(Rules(), 8, hands, "KC KD KH KS")
    play(rnd, "9C", "10C", "JH", "QH")
    events = play(rnd, *["pass"] * 8)
    assert [e.seat for e in events if isinstance(e, Without)] == [1, 2, 3, 4, 5, 6, 7, 0]
    assert events[-1] == FreeSequence(1, "nobody has a king")
    assert rnd.need is None and rnd.to_act == 1


def test_cascade_of_without_then_the_next_player_must_play() -> None:
    rnd = new_round(Rules(), 8, EIGHT, EIGHT_TALON)
    play(rnd, "2C", "3C", "4C")
    assert play(rnd, "pass") == [Without(1, 5)]
    assert rnd.to_act == 2 and rnd.legal_actions() == [Play(parse_card("5C"))]
    with pytest.raises(IllegalAction, match="must play it"):
        rnd.apply(Pass())


def test_illegal_actions_leave_the_state_unchanged() -> None:
    rnd = two_player(Rules())
    play(rnd, "AC")
    before = (list(map(list, rnd.hands)), list(rnd.played), rnd.need, rnd.to_act, list(rnd.chips))
    refused: list[tuple[Action, str]] = [
        (Play(parse_card("3C")), "must be a 2"),
        (Play(parse_card("AH")), "does not hold"),
        (PASS, "must play it"),
        (CLAIM, "no board card"),
        (Play(parse_card("2C"), forget=True), "not a board card"),
    ]
    for action, reason in refused:
        with pytest.raises(IllegalAction, match=reason) as info:
            rnd.apply(action)
        assert info.value.action == action
        after = (list(map(list, rnd.hands)), list(rnd.played), rnd.need, rnd.to_act, rnd.chips)
        assert after == before


# --------------------------------------------------------------------------- whole games


def two_player_deal() -> tuple[list[list[Card]], list[Card]]:
    return make_deal(2, {1: TWO_SEAT1}, TWO_TALON)


def finish_two_player_round(game: Game) -> None:
    rnd = game.start_round(deal=two_player_deal())
    play_two_player_alone(rnd)
    game.finish_round()


def test_end_broke_after_a_short_payment() -> None:
    game = Game(Rules(), ["Ann", "Bob"])
    finish_two_player_round(game)
    assert game.result is not None
    assert game.result.winners == (1,) and "could not pay" in game.result.reason


def test_end_broke_when_a_player_cannot_stake() -> None:
    game = Game(Rules.from_options("count"), ["Ann", "Bob"])
    finish_two_player_round(game)  # Ann ends with 9 < 15, though she paid in full
    assert game.result is not None and game.result.reason.startswith("a player cannot stake")


def test_end_last_standing() -> None:
    game = Game(Rules(end=EndCondition("last-standing")), ["Ann", "Bob"])
    finish_two_player_round(game)
    assert game.result is not None and game.result.winners == (1,)
    assert game.active == [1]


def test_end_target() -> None:
    game = Game(Rules(end=EndCondition("target", 100), grand_opera="off"), ["Ann", "Bob"])
    finish_two_player_round(game)  # Bob 106
    assert game.result is not None and game.result.winners == (1,)
    with pytest.raises(RulesError, match="never be reached"):
        Game(Rules(end=EndCondition("target", 121)), ["Ann", "Bob"])


def test_end_rounds_and_the_dealer_moves_to_the_first_player() -> None:
    rules = Rules.from_options("classic", {"end": "rounds:2", "starting_chips": "200"})
    game = Game(rules, ["Ann", "Bob"])
    # stakes 185 each; Bob takes 4 + 10 + 2 (201) and gets Ann's 152 (353); Ann doubles QS
    # and KH (6 + 8, 19 left); the grand opéra sweeps 12 + 16: 381.
    finish_two_player_round(game)
    assert game.result is None and game.chips == [19, 381]
    assert game.dealer == 1  # Bob placed the first card: he deals, Ann opens
    hands, talon = two_player_deal()
    rnd = game.start_round(deal=([hands[1], hands[0]], talon))
    assert rnd.to_act == 0
    play_two_player_alone_as(rnd, 0)
    game.finish_round()
    # Ann stakes 15 of 19 and plays alone as Bob did: 4 + 16 = 20, + Bob's 152 = 172, + the
    # sweep of 12 + 16 = 200; Bob: 366 - 152 - 6 - 8 = 200. A tie: both win.
    assert game.result is not None and game.result.reason == "2 rounds played"
    assert game.chips == [200, 200] and game.result.winners == (0, 1)


def test_partial_stakes_when_the_game_goes_on() -> None:
    rules = Rules.from_options("classic", {"end": "rounds:5"})
    hands, talon = two_player_deal()
    from cardroom.games.nain_jaune import Round

    rnd = Round(rules, [7, 60], [0] * 5, 0, hands, talon)
    # 7 chips: 1 + 2 + 3 on the first three boxes, 1 of the 4 on KH, nothing on 7D
    assert rnd.chips == [0, 45] and rnd.board == [2, 4, 6, 5, 5]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"payment": "points"}, "payment='points' is not valid"),
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"starting_chips": "10"}, "at least 15"),
        ({"end": "rounds:0"}, "end='rounds:0' is not valid"),
        ({"may_stop": "maybe"}, "use true or false"),
        ({"board_cards": "10D JC QS KH 8D"}, "Yellow Dwarf"),
    ],
)
def test_bad_options_get_clear_errors(options: dict[str, str], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_options("classic", options)


@pytest.mark.parametrize("n", [1, 9])
def test_player_count_is_checked(n: int) -> None:
    with pytest.raises(RulesError, match="2 to 8 players"):
        Game(Rules(), [f"P{i}" for i in range(n)])
