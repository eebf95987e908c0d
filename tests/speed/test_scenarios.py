"""Hand-made Speed deals whose outcomes were worked out by hand."""

from __future__ import annotations

import pytest

from cardroom.games.realtime_engine import RealtimeIllegal
from cardroom.games.speed import (
    CALL,
    Action,
    Blocked,
    Called,
    CardPlayed,
    Drew,
    Flipped,
    GameWon,
    NoStalemate,
    Play,
    Rebuilt,
    SpeedGame,
    SpeedResult,
    SpeedRules,
)

from .deals import C, H, Piles, make_deal, new_game, start

# Tops 5H / 9C. Seat 0 holds 6D (fits 5H) and four kings; seat 1 holds four twos and JS:
# nothing of seat 1 fits 5 or 9 (it would need 4, 6, 8 or 10).
OPENING: Piles = {
    "middle": "5H 9C",
    "draw0": "6D KS KH KD KC 7S",
    "draw1": "2S 2H 2D 2C JS",
}


def test_deal_order_and_hands_before_the_start() -> None:
    deal = make_deal(**OPENING)
    game = SpeedGame(SpeedRules(), deal, 0)
    assert game.side_pile(0) == tuple(deal[0:10])
    assert game.side_pile(1) == tuple(deal[10:20])
    assert game.hand(0) == H("6D KS KH KD KC")
    assert game.hand(1) == H("2S 2H 2D 2C JS")
    assert deal[27] == C("7S") and game.draw_pile(0) == tuple(deal[27:37])
    assert game.draw_sizes() == (10, 10)
    assert game.phase == "start" and game.stalemate
    assert game.top(0) is None and game.top(1) is None
    locs = game.locations()
    assert locs[C("5H")] == "middle:0" and locs[C("9C")] == "middle:1"
    assert locs[C("7S")] == "draw:0" and locs[C("JS")] == "hand:1"


def test_start_needs_both_calls() -> None:
    game = new_game(**OPENING)
    with pytest.raises(RealtimeIllegal, match="not turned yet"):
        game.apply(0, Play(C("6D"), 0))
    assert game.legal_actions(0) == [CALL] and game.legal_actions(1) == [CALL]
    assert game.apply(0, CALL) == [Called(0)]
    assert game.phase == "start" and game.called == (True, False)
    assert game.legal_actions(0) == []
    before = game.snapshot()
    with pytest.raises(RealtimeIllegal, match="already called"):
        game.apply(0, CALL)
    assert game.snapshot() == before
    events = game.apply(1, CALL)
    assert events == [Called(1), Flipped((C("5H"), C("9C")), start=True, timeout=False)]
    assert game.phase == "play" and not game.stalemate
    assert (game.top(0), game.top(1)) == (C("5H"), C("9C"))
    assert game.called == (False, False)
    assert game.legal_actions(0) == [Play(C("6D"), 0, C("5H"))]
    # Seat 1 cannot play: he may call for the flip (seat 0 sees only that call, not why).
    assert game.legal_actions(1) == [CALL]


def test_start_by_countdown() -> None:
    game = new_game(**OPENING)
    events = game.resolve_stalemate()
    assert events == [Flipped((C("5H"), C("9C")), start=True, timeout=True)]
    assert game.phase == "play"
    with pytest.raises(NoStalemate):
        game.resolve_stalemate()  # nobody has called: no countdown runs
    with pytest.raises(RealtimeIllegal, match="no stalemate: you can still play 6D on pile 1"):
        game.apply(0, CALL)


def test_a_call_is_legal_only_for_a_player_who_cannot_play_and_a_play_clears_it() -> None:
    game = new_game(**OPENING)
    start(game)
    assert game.apply(1, CALL) == [Called(1)]  # seat 1 holds nothing for 5H or 9C
    assert game.phase == "stalemate" and game.stalemate and game.called == (False, True)
    assert not game.stuck  # seat 0 can still play: the truth, which no view shows
    assert game.legal_actions(0) == [Play(C("6D"), 0, C("5H"))]  # no call for him
    events = game.apply(0, Play(C("6D"), 0, C("5H")))
    assert events == [CardPlayed(0, C("6D"), 0), Drew(0, 1)]
    assert game.called == (False, False) and game.phase == "play" and not game.stalemate
    with pytest.raises(NoStalemate):
        game.resolve_stalemate()
    # 6D / 9C: still nothing for seat 1, who calls again; the countdown flips even though seat 0
    # could play 7S (he had the countdown's seconds to do it).
    game.apply(1, CALL)
    events = game.resolve_stalemate()
    # The unnamed cards fill the side piles in pack order: AC and AD come up first.
    assert events == [Flipped((C("AC"), C("AD")), start=False, timeout=True)]
    assert game.flips == 1 and game.called == (False, False)


def test_play_and_refill() -> None:
    game = new_game(**OPENING)
    start(game)
    events = game.apply(0, Play(C("6D"), 0, C("5H")))
    assert events == [CardPlayed(0, C("6D"), 0), Drew(0, 1)]
    assert game.top(0) == C("6D") and game.centre_sizes() == (2, 1)
    assert game.hand(0) == H("KS KH KD KC 7S")
    assert game.draw_sizes() == (9, 10)
    # 7S, just drawn, fits the 6D it was drawn after.
    assert game.legal_actions(0) == [Play(C("7S"), 0, C("6D"))]
    assert game.plays == 1


def test_stale_and_illegal_plays_change_nothing() -> None:
    game = new_game(**OPENING)
    start(game)
    game.apply(0, Play(C("6D"), 0, C("5H")))
    before = game.snapshot()
    cases: list[tuple[int, Action, str]] = [
        (0, Play(C("7S"), 0, C("5H")), "stale: pile 1 now shows 6D, not 5H"),
        (1, Play(C("7S"), 0), "7S is not in your hand"),
        (0, Play(C("KS"), 0, C("6D")), "KS cannot go on 6D"),
        (0, Play(C("KS"), 1, C("9C")), "KS cannot go on 9C"),
        (0, CALL, "no stalemate: you can still play 7S on pile 1"),
        (2, CALL, "not at this table"),
    ]
    for seat, action, reason in cases:
        assert game.why_illegal(seat, action) is not None
        with pytest.raises(RealtimeIllegal) as info:
            game.apply(seat, action)
        assert reason in info.value.reason
        assert info.value.stale == reason.startswith("stale")
        assert game.snapshot() == before
    # Without `seen` the same card is played onto whatever the top is now.
    game.apply(0, Play(C("7S"), 0))
    assert game.top(0) == C("7S")


def test_wrap_king_ace_two() -> None:
    # Tops KH / 3S. Seat 0: AC (fits KH by the wrap) and fives; seat 1: KC, 2D and eights.
    game = new_game(middle="KH 3S", draw0="AC 5D 5C 5H 5S", draw1="KC 2D 8C 8D 8H")
    start(game)
    assert game.legal_actions(0) == [Play(C("AC"), 0, C("KH"))]
    assert set(game.legal_actions(1)) == {Play(C("2D"), 1, C("3S"))}
    game.apply(0, Play(C("AC"), 0, C("KH")))  # K-A
    # On the ace both a king and a two fit.
    assert set(game.legal_actions(1)) >= {Play(C("KC"), 0, C("AC")), Play(C("2D"), 0, C("AC"))}
    game.apply(1, Play(C("KC"), 0, C("AC")))  # A-K
    assert game.why_illegal(1, Play(C("2D"), 0, C("KC"))) is not None  # 2 is not next to K
    assert game.top(0) == C("KC")


# Tops 5H / 9C; seat 0 holds kings and QS, seat 1 twos and QH: nobody can play (wanted ranks:
# Q, A, J, K, A, 3). Side pile 0 shows 7C then 7D; side pile 1 7H then 3D.
STUCK: Piles = {
    "side0": "7C 7D",
    "side1": "7H 3D",
    "middle": "5H 9C",
    "draw0": "KS KH KD KC QS",
    "draw1": "2S 2H 2D 2C QH",
}


def test_stalemate_by_both_calls_and_repeated_flips() -> None:
    game = new_game(**STUCK)
    start(game)
    # Nobody can play, but until someone calls, that is nobody's business: no countdown runs.
    assert game.stuck and game.phase == "play" and not game.stalemate
    assert game.legal_actions(0) == [CALL] and game.legal_actions(1) == [CALL]
    game.apply(1, CALL)
    assert game.phase == "stalemate" and game.stalemate and game.called == (False, True)
    assert game.legal_actions(1) == []
    events = game.apply(0, CALL)
    assert events == [Called(0), Flipped((C("7C"), C("7H")), start=False, timeout=False)]
    # 7C / 7H fit nothing either: both may call again.
    assert game.stuck and not game.stalemate and game.flips == 1
    assert game.called == (False, False) and game.side_sizes() == (9, 9)
    game.apply(0, CALL)
    events = game.apply(1, CALL)
    assert events[-1] == Flipped((C("7D"), C("3D")), start=False, timeout=False)
    assert not game.stuck and game.phase == "play" and game.flips == 2
    assert game.legal_actions(0) == [CALL]
    assert set(game.legal_actions(1)) == {Play(c, 1, C("3D")) for c in H("2S 2H 2D 2C")}
    assert game.centre_sizes() == (3, 3)


def test_stalemate_by_countdown_after_one_call() -> None:
    game = new_game(**STUCK)
    game.resolve_stalemate()
    with pytest.raises(NoStalemate):
        game.resolve_stalemate()
    game.apply(0, CALL)
    events = game.resolve_stalemate()
    assert events == [Flipped((C("7C"), C("7H")), start=False, timeout=True)]
    assert game.called == (False, False)
    game.apply(1, CALL)
    game.resolve_stalemate()
    assert (game.top(0), game.top(1)) == (C("7D"), C("3D"))
    assert not game.stuck


def flip(game: SpeedGame) -> list[object]:
    """Seat 0 (who holds nothing playable in these deals) calls; the countdown flips."""
    game.apply(0, CALL)
    return list(game.resolve_stalemate())


# Rebuilding. Start tops 9C / 5D; seat 0 plays 10H on 9C and draws 8S. Then the hands hold
# K K K K 8 and Q Q Q Q 2, which want J Q K A 3 7 9; the side piles hold only 2 4 5 6 8 10, so
# nobody can play until 9C (now under 10H) comes back up through rebuilt side piles.
REBUILD: Piles = {
    "side0": "2C 2D 2H 4C 4D 4H 4S 5C 5H 5S",
    "side1": "6C 6D 6H 6S 8C 8D 8H 10C 10D 10S",
    "middle": "9C 5D",
    "draw0": "10H KS KH KD KC 8S",
    "draw1": "QS QH QD QC 2S",
}


def test_side_piles_are_rebuilt_from_the_centre() -> None:
    game = new_game(seed=11, **REBUILD)
    start(game)
    assert game.legal_actions(0) == [Play(C("10H"), 0, C("9C"))]
    assert game.legal_actions(1) == [CALL]
    game.apply(0, Play(C("10H"), 0, C("9C")))
    assert game.hand(0) == H("KS KH KD KC 8S")
    assert game.stuck
    for _ in range(10):
        flip(game)
        assert game.stuck and not game.over
    assert game.side_sizes() == (0, 0) and game.centre_sizes() == (12, 11)
    tops = (game.top(0), game.top(1))
    assert tops == (C("5S"), C("10S"))
    circulating = set(game.centre_pile(0)) | set(game.centre_pile(1))
    events = flip(game)
    # Under the tops: 9C, 10H and 9 slid cards (11) and 5D and 9 slid cards (10).
    assert events[0] == Rebuilt((11, 10))
    assert game.rebuilds == 1 and game.flips == 11
    flipped = events[1]
    assert isinstance(flipped, Flipped) and None not in flipped.cards
    assert game.side_sizes() == (10, 9)
    assert game.centre_pile(0)[0] == C("5S") and game.centre_pile(1)[0] == C("10S")
    now = set(game.centre_pile(0)) | set(game.centre_pile(1))
    now |= set(game.side_pile(0)) | set(game.side_pile(1))
    assert now == circulating
    # 9C surfaces within the 21 rebuilt cards; then seat 0 (and only he) can play 8S on it.
    for _ in range(21):
        if not game.stuck:
            break
        flip(game)
    assert not game.stuck and not game.over
    pile = 0 if game.top(0) == C("9C") else 1
    assert game.top(pile) == C("9C")
    assert game.legal_actions(0) == [Play(C("8S"), pile, C("9C"))]
    assert game.legal_actions(1) == [CALL]


def test_rebuilt_odd_pile_slides_alone() -> None:
    # With seed 39 the rebuild shuffle puts 9C at the bottom of side pile 0 (11 cards; side
    # pile 1 gets 10): after the rebuild flip and nine more, side pile 0 holds only 9C.
    game = new_game(seed=39, **REBUILD)
    start(game)
    game.apply(0, Play(C("10H"), 0, C("9C")))
    for _ in range(11):
        flip(game)
    assert game.side_pile(0)[-1] == C("9C")
    for _ in range(9):
        flip(game)
    assert game.side_sizes() == (1, 0) and game.stuck
    top1 = game.top(1)
    events = flip(game)
    assert events == [Flipped((C("9C"), None), start=False, timeout=True)]
    assert game.top(1) is top1 and game.top(0) == C("9C")
    assert game.legal_actions(0) == [Play(C("8S"), 0, C("9C"))]


# Seat 0's draw pile is the run 2C … KC AD 2D 3D onto the middle AC: he can play all 15.
RUN: Piles = {
    "middle": "AC 7H",
    "draw0": "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD 2D 3D",
}


def test_refill_stops_when_the_draw_pile_is_empty_and_winning_scores() -> None:
    game = new_game(**RUN)
    start(game)
    runs = H("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD 2D 3D")
    seen = C("AC")
    for n, card in enumerate(runs, start=1):
        events = game.apply(0, Play(card, 0, seen))
        seen = card
        if n <= 10:
            assert events[1] == Drew(0, 1) and len(game.hand(0)) == 5
            assert game.draw_sizes()[0] == 10 - n
        elif n < 15:
            assert len(events) == 1 and len(game.hand(0)) == 15 - n
            assert game.draw_sizes()[0] == 0
    assert game.hand(0) == ()
    # Seat 1 keeps his 15 cards: 5 in hand, 10 in his draw pile; the draw pile scores.
    assert events[-1] == GameWon(0, 10)
    assert game.over and game.phase == "over" and game.winner == 0
    assert game.result is not None and game.result.points == 10
    assert game.result.cards_left == (0, 15) and not game.result.blocked
    assert game.legal_actions(0) == [] and game.legal_actions(1) == []
    with pytest.raises(RealtimeIllegal, match="over"):
        game.apply(1, CALL)


def test_side_piles_of_five() -> None:
    rules = SpeedRules(side_piles=5)
    assert rules.draw_pile == 20
    deal = make_deal(side_piles=5, middle="AC 7H", draw0="2C 3C 4C 5C 6C")
    game = SpeedGame(rules, deal, 0)
    assert game.side_sizes() == (5, 5) and game.draw_sizes() == (15, 15)
    assert game.side_pile(1) == tuple(deal[5:10])
    assert game.hand(0) == H("2C 3C 4C 5C 6C") and game.hand(1) == tuple(deal[32:37])
    start(game)
    assert (game.top(0), game.top(1)) == (C("AC"), C("7H"))
    counts: dict[str, int] = {}
    for place in game.locations().values():
        counts[place] = counts.get(place, 0) + 1
    assert counts == {
        "side:0": 5, "side:1": 5, "centre:0": 1, "centre:1": 1,
        "hand:0": 5, "hand:1": 5, "draw:0": 15, "draw:1": 15,
    }  # fmt: skip


def test_blocked_game_with_equal_cards_is_a_draw() -> None:
    # Hands K K K K Q and Q Q Q J J want 10 J Q K A; every 10, A and the other jacks are in the
    # draw piles, the side piles and middle cards are all 2-7: no flip can ever help.
    game = new_game(
        side0="2C 2D 2H 2S 3C 3D 3H 3S 4C 4D",
        side1="4H 4S 5C 5D 5H 5S 6C 6D 6H 6S",
        middle="7C 7D",
        draw0="KS KH KD KC QS",
        draw1="QH QD QC JS JH",
    )
    start(game)
    assert game.stuck and not game.over  # the end comes at the next flip
    game.apply(0, CALL)
    events = game.apply(1, CALL)
    assert events == [Called(1), Blocked(None, (15, 15), 0)]
    assert game.over and game.phase == "over" and not game.stalemate
    assert game.result == SpeedResult(None, 0, (15, 15), blocked=True)
    assert game.winner is None


def test_blocked_game_goes_to_the_player_with_fewer_cards() -> None:
    # Tops 9C / 5D; seat 0 plays 10H and draws AS: the hands K K K K A and Q Q Q Q A want
    # Q A J K 2, and the side piles hold only 3-8 (9C and 10H are the only other public cards).
    game = new_game(
        side0="3C 3D 3H 3S 4C 4D 4H 4S 5C 5H",
        side1="5S 6C 6D 6H 6S 7C 7D 7H 7S 8C",
        middle="9C 5D",
        draw0="10H KS KH KD KC AS",
        draw1="QS QH QD QC AH",
    )
    start(game)
    assert not game.stalemate
    events = game.apply(0, Play(C("10H"), 0, C("9C")))
    assert events == [CardPlayed(0, C("10H"), 0), Drew(0, 1)]
    assert game.stuck and not game.over
    game.apply(1, CALL)
    assert game.resolve_stalemate() == [Blocked(0, (14, 15), 10)]  # seat 1's draw pile: 10
    assert game.result == SpeedResult(0, 10, (14, 15), blocked=True)
    assert game.winner == 0 and game.phase == "over" and not game.stalemate


def test_a_stalemate_that_can_still_move_is_not_blocked() -> None:
    # STUCK: nobody can play now, but 3D in side pile 1 fits seat 1's twos.
    game = new_game(**STUCK)
    start(game)
    assert game.stuck and not game.over
    flip(game)
    assert not game.over


def test_side_piles_of_five_win_scores_twenty() -> None:
    # Seat 0's 20 cards run 2C … KC AD … 8D onto the middle AC; seat 1 keeps all his 20.
    run = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD 2D 3D 4D 5D 6D 7D 8D"
    game = new_game(side_piles=5, middle="AC 7H", draw0=run)
    start(game)
    seen = C("AC")
    for card in H(run):
        game.apply(0, Play(card, 0, seen))
        seen = card
    assert game.result == SpeedResult(0, 15, (0, 20), blocked=False)  # 20 - 5 in hand


def test_score_hand_counts_the_losers_hand_too() -> None:
    rules = SpeedRules(score_hand=True)
    game = SpeedGame(rules, make_deal(**RUN), 0)
    start(game)
    seen = C("AC")
    for card in H(RUN["draw0"]):
        game.apply(0, Play(card, 0, seen))
        seen = card
    assert game.result == SpeedResult(0, 15, (0, 15), blocked=False)


def test_a_seat_sees_the_same_whether_or_not_the_other_can_play() -> None:
    # The same table for seat 0 (tops 5H / 9C, his hand 6D and kings); seat 1 holds either
    # nothing playable (twos and JS) or a four that fits 5H. Seat 0's view, legal actions and
    # the answer to his call must not tell the two apart.
    stuck = new_game(**OPENING)
    able = new_game(middle="5H 9C", draw0="6D KS KH KD KC 7S", draw1="2S 2H 4D 2C JS")
    for g in (stuck, able):
        start(g)
    assert not stuck.can_play(1) and able.can_play(1)

    def seen_by_0(g: SpeedGame) -> tuple[object, ...]:
        return (g.view(0), g.legal_actions(0), g.why_illegal(0, CALL), g.phase, g.stalemate)

    assert seen_by_0(stuck) == seen_by_0(able)
    # Seat 0 plays 6D: now he holds nothing for 6D / 9C and may call, in both worlds alike.
    for g in (stuck, able):
        g.apply(0, Play(C("6D"), 0, C("5H")))
        g.apply(0, Play(C("7S"), 0, C("6D")))
    assert seen_by_0(stuck) == seen_by_0(able)
    assert stuck.legal_actions(0) == [CALL] and stuck.why_illegal(0, CALL) is None
