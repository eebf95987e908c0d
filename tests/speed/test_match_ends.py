"""A Speed match to a target always ends (issue 34, item 10): between even players the loser
has nearly always drawn his last card when the winner plays hers, so counting his draw pile
alone scored 0 game after game. From rules version 4 a win over an empty draw pile scores the
cards left in the loser's hand (docs/games/speed.md, decision 9)."""

from __future__ import annotations

from cardroom.games.speed import SpeedGame, SpeedMatch, SpeedRules
from cardroom.games.speed.engine import CallFlip, Play

STEPS = 5000


def play_evenly(game: SpeedGame) -> None:
    """Both seats take turns: each plays its first card that fits, else calls for the flip."""
    for step in range(STEPS):
        if game.over:
            return
        seat = step % 2
        actions = game.legal_actions(seat)
        plays = [a for a in actions if isinstance(a, Play)]
        calls = [a for a in actions if isinstance(a, CallFlip)]
        if plays:
            game.apply(seat, plays[0])
        elif calls:
            game.apply(seat, calls[0])
    raise AssertionError("the game never ended")


def play_match(match: SpeedMatch, games: int) -> list[int]:
    """Play up to ``games`` games of ``match``; the points of each game won."""
    points = []
    while len(match.games) <= games:
        play_evenly(match.game)
        res = match.game.result
        assert res is not None
        if res.winner is not None:
            points.append(res.points)
        if match.over:
            break
        match.next_game()
    return points


def test_a_win_over_an_empty_draw_pile_scores_the_losers_hand() -> None:
    for seed in range(12):
        game = SpeedGame.new(SpeedRules(), seed)
        play_evenly(game)
        res = game.result
        assert res is not None
        if res.winner is None:
            continue
        loser = 1 - res.winner
        draw, hand = game.draw_sizes()[loser], game.hand_sizes()[loser]
        assert res.points == (draw if draw else hand) and res.points >= 1
        assert res.points == res.cards_left[loser] or draw > 0


def test_a_match_to_5_points_between_even_players_ends() -> None:
    old = SpeedMatch(SpeedRules(target=5), seed=7, rules_version=3)
    assert sum(play_match(old, 12)) == 0 and not old.over  # the defect: 12 games, 0 to 0
    match = SpeedMatch(SpeedRules(target=5), seed=7)
    won = play_match(match, 12)
    assert match.over and match.winner is not None and max(match.scores) >= 5
    assert all(p >= 1 for p in won) and len(won) <= 2 * 5 - 1


def test_the_replay_viewer_says_what_the_points_counted() -> None:
    """Issue 34, item 14: the viewer said "cards the loser still had to draw" for cards in hand."""
    from cardroom.games.speed.web import points_from

    seen = set()
    for seed in range(12):
        game = SpeedGame.new(SpeedRules(), seed)
        play_evenly(game)
        res = game.result
        assert res is not None
        if res.winner is None:
            continue
        draw = game.draw_sizes()[1 - res.winner]
        seen.add(points_from(game))
        assert points_from(game) == ("draw" if draw else "hand")
        both = SpeedGame.new(SpeedRules(score_hand=True), seed)
        play_evenly(both)
        assert points_from(both) in ("both", None)
    assert "hand" in seen
