"""A player's figures from records: Spit/Speed slaps and reaction times by hand, the seats of a
Nain Jaune round once players are out, and a Nain Jaune game's figures against its replay."""

from __future__ import annotations

import pytest

from cardroom.bots import make_bot
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.readable import readable_game
from cardroom.games.nain_jaune.web.stats import _round_seats
from cardroom.games.nain_jaune.web.stats import add_stats as add_nain_jaune
from cardroom.web.player_stats import GameStats, add_realtime


def test_spit_figures_by_hand() -> None:
    def act(t: float, seat: int | None, kind: str, ok: bool = True) -> dict[str, object]:
        return {"t": t, "seat": seat, "action": {"type": kind}, "accepted": ok}

    record = {
        "actions": [
            act(1.0, 0, "spit"),
            act(1.5, 1, "play"),  # 0.5 s after the spit (the other seat)
            act(2.25, 0, "play"),  # 0.75 s after a change: one of seat 0's reactions
            act(2.5, 0, "play", ok=False),  # refused: not counted, and no change
            act(3.25, 0, "play"),  # 1.0 s after seat 0's own accepted play
            act(4.0, 1, "slap"),
            act(4.0, 0, "slap", ok=False),  # lost the slap
            act(5.0, 0, "slap"),
        ]
    }
    stats = GameStats()
    add_realtime(stats, record, 0, winner=0)
    add_realtime(stats, {"actions": []}, 0, winner=1)
    assert (stats.games, stats.won, stats.slaps_won) == (2, 1, 1)
    assert stats.reactions == [0.75, 1.0]
    assert stats.to_json("spit")["mean_reaction"] == pytest.approx(0.88, abs=0.01)


def test_round_seats_follow_the_players_still_in() -> None:
    assert _round_seats(["Ann", "Bob", "Cat", "Dan"], ["Ann", "Cat", "Dan"]) == [0, 2, 3]
    assert _round_seats(["Al", "Al", "Bo"], ["Al", "Bo"]) == [0, 2]


def test_nain_jaune_figures_match_the_simulated_game() -> None:
    rules = Rules.from_options(None, {"end": "rounds:6", "starting_chips": 200})
    game, trace = readable_game(
        rules, [make_bot("greedy"), make_bot("random"), make_bot("greedy")], 3
    )
    # the trace after each round: -1, dealer, players, winner, next dealer, grand opera, ...
    ends = [i for i, x in enumerate(trace) if x == -1]
    winners = [trace[i + 3] for i in ends]
    operas = [trace[i + 5] for i in ends]
    assert all(trace[i + 2] == 3 for i in ends)  # nobody out: round places are game seats
    for seat in range(3):
        stats = GameStats()
        add_nain_jaune(stats, game.records, seat)
        assert stats.rounds == len(ends) == 6 and stats.games == 1
        assert stats.rounds_won == winners.count(seat)
        assert stats.grand_operas == sum(
            o for w, o in zip(winners, operas, strict=True) if w == seat
        )
        assert stats.chips_change == game.chips[seat] - 200
        assert stats.won == (seat in game.result.winners if game.result else False)
