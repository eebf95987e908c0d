"""The fast path plays exactly the readable engine's games: same deal, same bots, same trace."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cardroom.bots import make_bot
from cardroom.cards import parse_cards
from cardroom.games.nain_jaune import Round, Rules
from cardroom.games.nain_jaune import kernel as fast
from cardroom.games.nain_jaune.engine import deal_hands
from cardroom.games.nain_jaune.rules import BOARD_SETS, EndCondition
from cardroom.games.nain_jaune.sim.play import play_round
from cardroom.games.nain_jaune.sim.readable import readable_game
from cardroom.games.nain_jaune.view import view_of
from cardroom.kernels.streams import SplitMixRandom, derive, game_key

rules_strategy = st.builds(
    Rules,
    starting_chips=st.sampled_from([15, 20, 60]),
    when_blocked=st.sampled_from(["next-rank", "free-restart"]),
    payment=st.sampled_from(["points-ace-low", "card-count", "points-ace-high"]),
    forgotten_announcement=st.sampled_from(["chips-stay", "double-box"]),
    announce=st.sampled_from(["auto", "manual"]),
    grand_opera=st.sampled_from(["one-turn", "no-one-else-played", "off"]),
    may_stop=st.booleans(),
    end=st.sampled_from(
        [
            EndCondition("broke"),
            EndCondition("last-standing"),
            EndCondition("rounds", 4),
            EndCondition("target", 70),
        ]
    ),
    board_cards=st.sampled_from(
        [*BOARD_SETS.values(), tuple(parse_cards("KC KD AS 2H 7D"))]
    ),
)
bots_strategy = st.lists(st.sampled_from(["random", "greedy", "heuristic"]), min_size=2, max_size=8)


def first_difference(a: list[int], b: list[int]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"at {i}: fast {a[max(0, i - 4) : i + 4]} readable {b[max(0, i - 4) : i + 4]}"
    return f"lengths {len(a)} and {len(b)}"


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, bots=bots_strategy, seed=st.integers(0, 2**64 - 1))
def test_fast_games_equal_readable_games(rules: Rules, bots: list[str], seed: int) -> None:
    """Every card, pass and claim, every settlement, the board, chips, next dealer, the end."""
    assume(rules.end.kind != "target" or rules.end.number <= len(bots) * rules.starting_chips)
    key = game_key(seed, 0, 0)
    fast_trace = fast.trace_game(rules, bots, key, max_rounds=12)
    _, readable_trace = readable_game(rules, [make_bot(b) for b in bots], key, max_rounds=12)
    assert fast_trace == readable_trace, first_difference(fast_trace, readable_trace)
    assert fast_trace[-4] == -2  # the trace reached its end marker


def test_the_trace_sees_every_kind_of_event() -> None:
    """Over a few games the compared traces contain claims, passes, grand opéras and ends."""
    rules = Rules(announce="manual", end=EndCondition("last-standing"), starting_chips=20)
    seen_claims = seen_passes = 0
    for g in range(6):
        trace = fast.trace_game(rules, ["random", "greedy", "heuristic"], game_key(7, 0, g))
        _, readable = readable_game(
            rules, [make_bot(b) for b in ("random", "greedy", "heuristic")], game_key(7, 0, g)
        )
        assert trace == readable
        codes = [x % 64 for x in trace if x >= 64]
        seen_claims += codes.count(52)
        seen_passes += codes.count(53)
        assert trace[-3] in (3, 4)  # last-standing ends with one or no player able to stake
    assert seen_claims > 0 and seen_passes > 0


def test_splitmix_random_is_the_stream_numba_draws() -> None:
    """Known SplitMix64 outputs (seed 0: 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)."""
    rng = SplitMixRandom(0)
    assert rng.getrandbits(64) == 0xE220A8397B1DCDAF
    assert rng.getrandbits(64) == 0x6E789E6AA1B965F4
    rng = SplitMixRandom(0)
    assert rng.getrandbits(4) == 0xE  # the top bits
    assert SplitMixRandom(5).randrange(1) == 0


def test_rollout_finishes_a_readable_round_like_the_readable_bots() -> None:
    """From the middle of a round, the fast rollout ends as the readable engine does."""
    rules = Rules(announce="manual", may_stop=True)
    hands, talon = deal_hands(4, 0, random.Random(3))
    rnd = Round(rules, [60] * 4, [0] * 5, 0, hands, talon)
    bots = [make_bot("greedy") for _ in range(4)]
    for _ in range(9):  # a few moves in, through the readable engine
        rnd.apply(bots[rnd.to_act].act(view_of(rnd, rnd.to_act), random.Random(0)))
    state = fast.encode_round(rnd)
    before = state.copy()
    key = 99
    policies = np.array([0, 1, 2, 0], np.int64)
    final = fast.rollout(state, fast.encode_rules(rules), policies, key)
    assert np.array_equal(state, before)  # the input is left alone
    names = ["random", "greedy", "heuristic", "random"]
    rngs = [SplitMixRandom(derive(key, i)) for i in range(4)]
    play_round(rnd, [make_bot(b) for b in names], rngs)
    assert rnd.result is not None
    assert final[fast.S_WINNER] == rnd.result.winner
    assert list(final[fast.S_CHIPS : fast.S_CHIPS + 4]) == list(rnd.result.chips)
    assert list(final[fast.S_BOARD : fast.S_BOARD + 5]) == list(rnd.result.board)
    assert bool(final[fast.S_OPERA]) == rnd.result.grand_opera


specializable_rules = st.builds(
    Rules,
    starting_chips=st.sampled_from([15, 20, 60]),
    when_blocked=st.sampled_from(["next-rank", "free-restart"]),
    payment=st.sampled_from(["points-ace-low", "card-count", "points-ace-high"]),
    grand_opera=st.sampled_from(["one-turn", "no-one-else-played", "off"]),
    end=st.sampled_from([EndCondition("broke"), EndCondition("last-standing")]),
    board_cards=st.sampled_from([*BOARD_SETS.values(), tuple(parse_cards("KC KD AS 2H 7D"))]),
)


@settings(max_examples=80, deadline=None)
@given(
    rules=specializable_rules,
    n=st.integers(2, 8),
    dealer=st.integers(0, 7),
    key=st.integers(0, 2**64 - 1),
)
def test_specialized_random_round_is_the_general_round(
    rules: Rules, n: int, dealer: int, key: int
) -> None:
    """Random players, boxes taken at once, no stopping: the loop that counts forced passes
    ends every round in the state the general loop (tested against the readable engine
    above) ends it in: hands, chips, board, winner, cards, passes, sequence, settlement."""
    dealer %= n
    general, actions = fast.random_round(rules, n, key, dealer, specialize=False)
    special, special_actions = fast.random_round(rules, n, key, dealer, specialize=True)
    lacks = slice(fast.S_LACKS, fast.S_LACKS + 8)
    assert special_actions == actions
    assert list(special[: fast.S_LACKS]) == list(general[: fast.S_LACKS])
    # the one difference: the specialized loop does not record "without X" (nobody reads it)
    assert not special[lacks].any()
    assert general[lacks].any() == (general[fast.S_NPASSES] > 0)


def test_specialized_chunks_report_the_general_statistics() -> None:
    """Whole chunks (games back to back, players dropping out under last-standing, short
    stakes with 15 chips), every statistic equal with and without the specialized loop."""
    cases = [
        (Rules(), 4),
        (Rules(starting_chips=15, end=EndCondition("last-standing")), 6),
        (Rules(when_blocked="free-restart", payment="card-count"), 3),
        (Rules(grand_opera="no-one-else-played", starting_chips=20), 2),
        (Rules(end=EndCondition("rounds", 3)), 8),
        (Rules(end=EndCondition("target", 90)), 5),
    ]
    for rules, n in cases:
        r = fast.encode_rules(rules)
        policies = fast.encode_policies(["random"] * n)
        general = fast.run_chunk(r, policies, 12345, 2, 400, specialize=False)
        special = fast.run_chunk(r, policies, 12345, 2, 400, specialize=True)
        assert int(general[fast.ST_ROUNDS]) == 400
        assert int(general[fast.ST_PASSES]) > 0
        assert np.array_equal(special, general), (rules, n, np.nonzero(special != general))
