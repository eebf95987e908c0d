"""The compiled expert: its rollouts settle as the readable engine does, its worlds agree with
the view, its lead and follow model weighs the true hands 1, hints come from the view."""

from __future__ import annotations

import io
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.bots import BotError, make_bot
from cardroom.cards import parse_cards
from cardroom.games.nain_jaune import Round, Rules, view_of
from cardroom.games.nain_jaune import kernel as fast
from cardroom.games.nain_jaune.bots.expert import (
    FIT_POLICIES,
    ROLLOUT_POLICIES,
    ExpertBot,
    action_code,
    fitted_policies,
    prepare,
    run_worlds,
)
from cardroom.games.nain_jaune.bots.hint import HintError, suggest
from cardroom.games.nain_jaune.bots.search import (
    candidates,
    heuristic_policy,
    known_lacks,
    opponent_leads,
    rebuild,
    rollout,
    sample_hidden,
    unseen_cards,
)
from cardroom.games.nain_jaune.kernel import GIVE_UP_AFTER, K_FAILS, _sample
from cardroom.games.nain_jaune.sim.play import play_round
from cardroom.games.nain_jaune.view import RoundView
from cardroom.i18n import translator
from cardroom.kernels.streams import SplitMixRandom, derive
from tests.nain_jaune.test_properties import rules_strategy


def decision(rules: Rules, players: int, seed: int, steps: int) -> tuple[Round, RoundView] | None:
    """A round played by heuristic bots until, after ``steps`` actions, a seat has more than
    one distinct choice; None if the round ends first."""
    rnd = Round.deal(rules, [60] * players, [0] * 5, seed % players, random.Random(seed))
    bot = make_bot("heuristic")
    done = 0
    while True:
        if rnd.result is not None:
            return None
        view = view_of(rnd, rnd.to_act)
        if done >= steps and len(candidates(view)) > 1:
            return rnd, view
        rnd.apply(bot.act(view, random.Random(0)))
        done += 1


@settings(max_examples=40, deadline=None)
@given(
    rules=rules_strategy,
    players=st.integers(2, 8),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 60),
    policy_codes=st.lists(st.sampled_from([0, 1, 2]), min_size=8, max_size=8),
)
def test_a_compiled_rollout_from_a_position_settles_as_the_readable_engine(
    rules: Rules, players: int, seed: int, steps: int, policy_codes: list[int]
) -> None:
    """From a searcher's decision in a sampled world: each candidate played, then the round
    played out by random, greedy and heuristic players drawing from the same streams, ends
    with the same winner, chips, boxes and grand opéra on both paths."""
    found = decision(rules, players, seed, steps)
    if found is None:
        return
    _, view = found
    hidden = sample_hidden(view, random.Random(seed))
    names = {0: "random", 1: "greedy", 2: "heuristic"}
    r = fast.encode_rules(rules)
    for cand in candidates(view):
        rnd = rebuild(view, hidden)
        state = fast.encode_round(rnd)
        policies = np.array(policy_codes[:players], np.int64)
        seat = view.seat
        policies[seat] = ((policies[seat] + 1) << 6) | action_code(cand)
        final = fast.rollout(state, r, policies, seed)
        rnd.apply(cand)
        bots = [make_bot(names[c]) for c in policy_codes[:players]]
        play_round(rnd, bots, [SplitMixRandom(derive(seed, i)) for i in range(players)])
        assert rnd.result is not None
        assert final[fast.S_WINNER] == rnd.result.winner
        assert list(final[fast.S_CHIPS : fast.S_CHIPS + players]) == list(rnd.result.chips)
        assert list(final[fast.S_BOARD : fast.S_BOARD + 5]) == list(rnd.result.board)
        assert bool(final[fast.S_OPERA]) == rnd.result.grand_opera


@settings(max_examples=25, deadline=None)
@given(
    rules=rules_strategy,
    players=st.integers(2, 6),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 60),
)
def test_the_kernel_scores_a_given_world_as_readable_heuristic_rollouts(
    rules: Rules, players: int, seed: int, steps: int
) -> None:
    """One world, no sampling, no model: each candidate's total is the chips the readable
    search's own rollout (``Round.clone`` + heuristic policy) ends with."""
    found = decision(rules, players, seed, steps)
    if found is None:
        return
    _, view = found
    hidden = sample_hidden(view, random.Random(seed))
    prep = prepare(view, hidden, model=False)
    policies = np.full(players, ROLLOUT_POLICIES["heuristic"], np.int64)
    totals = np.zeros(len(prep.cands), np.float64)
    state = np.array([seed, 0], np.int64)
    weight = run_worlds(prep, policies, 0.2, 1, state, totals, sample=False)
    assert weight == 1.0
    for cand, total in zip(prep.cands, totals, strict=True):
        rnd = rebuild(view, hidden)
        rnd.apply(cand)
        assert total == rollout(rnd, heuristic_policy).chips[view.seat]


def many_withouts() -> RoundView:
    """A view of a 4-player heuristic round where the other seats have said at least six
    "without X" between them (the first such decision over seeds 0, 1, …)."""
    for seed in range(100):
        rnd = Round.deal(Rules(), [60] * 4, [0] * 5, 0, random.Random(seed))
        bot = make_bot("heuristic")
        while rnd.result is None:
            view = view_of(rnd, rnd.to_act)
            lacks = known_lacks(view)
            lacked = sum(bin(x).count("1") for p, x in enumerate(lacks) if p != view.seat)
            if lacked >= 6 and len(candidates(view)) > 1:
                return view
            rnd.apply(bot.act(view, random.Random(0)))
    raise AssertionError("no constrained position found")


def test_sampled_worlds_keep_every_size_and_every_without() -> None:
    """Rejection sampling and, once it keeps failing, the swap walk: every world deals the
    unseen cards with the right counts and no card of a rank its holder lacks."""
    view = many_withouts()
    lacks = known_lacks(view)
    assert sum(bin(x).count("1") for x in lacks) >= 6  # the position is constrained
    hidden = sample_hidden(view, random.Random(1))
    prep = prepare(view, hidden)
    sizes = [view.hand_sizes[int(p)] for p in prep.holders[:-1]] + [view.talon_size]
    state = np.array([5, 0], np.int64)
    slots = prep.assign.copy()
    seen: set[tuple[int, ...]] = set()
    for world in range(300):
        if world == 150:
            state[K_FAILS] = GIVE_UP_AFTER  # from now on, only the swap walk
        _sample(prep.cards, prep.forbid, prep.assign, slots, state)
        counts = np.bincount(prep.assign, minlength=len(sizes))
        assert list(counts) == sizes
        for card, h in zip(prep.cards, prep.assign, strict=True):
            rank = int(card) // 4 + 1
            assert not (int(prep.forbid[h]) >> rank) & 1
        seen.add(tuple(int(h) for h in prep.assign))
    assert len(seen) > 250  # the worlds vary, on both paths
    assert sorted(int(c) for c in prep.cards) == sorted(
        (c.index % 13) * 4 + c.index // 13 for c in unseen_cards(view)
    )


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6), steps=st.integers(0, 40))
def test_the_true_hands_explain_every_lead_and_follow_of_heuristic_players(
    players: int, seed: int, steps: int
) -> None:
    """When every seat plays the heuristic, the compiled lead and follow model gives the true
    deal weight 1 (a wrong port or wrong bookkeeping of the public history would not)."""
    rnd = Round.deal(Rules(), [60] * players, [0] * 5, 0, random.Random(seed))
    bot = make_bot("heuristic")
    for _ in range(steps * players):
        if rnd.result is not None:
            return
        rnd.apply(bot.act(view_of(rnd, rnd.to_act), random.Random(0)))
    if rnd.result is not None:
        return
    for seat in range(players):
        view = view_of(rnd, seat)
        truth = ([list(h) for h in rnd.hands], list(rnd.talon))
        prep = prepare(view, truth, model=True, follow=True)
        policies = np.full(players, 2, np.int64)
        totals = np.zeros(len(prep.cands), np.float64)
        state = np.array([seed, 0], np.int64)
        assert run_worlds(prep, policies, 0.2, 1, state, totals, sample=False) == 1.0


def test_a_follow_the_heuristic_would_not_make_weighs_less() -> None:
    """Seat 1 follows seat 0's 3♣ holding 4♣ and 4♦: the heuristic plays 4♣ (the lower
    index). Seen from seat 2 in the true world, following with 4♦ costs one ``mismatch``
    more than the leads alone; following with 4♣ costs nothing."""
    from cardroom.cards import DECK
    from cardroom.games.nain_jaune.engine import PASS, Play

    hands = [
        parse_cards("3C 9C 9D 9H 10C 10D 10H JC JD JH QC QD"),
        parse_cards("4D 4C 5S 6S 7S 8S 2C 2D 2H 2S 8C 8D"),
        parse_cards("AC AD AH AS 3D 3H 3S 5C 5D 5H 6C 6D"),
        parse_cards("KC KD KH KS QH QS JS 10S 9S 7C 7D 7H"),
    ]
    used = {c for h in hands for c in h}
    talon = [c for c in DECK if c not in used]
    weights = {}
    for follow in ("4D", "4C"):
        rnd = Round(Rules(), [60] * 4, [0] * 5, 3, [list(h) for h in hands], talon)
        rnd.apply(Play(parse_cards("3C")[0]))
        rnd.apply(PASS)  # seat 0 is asked first for a 4: "without 4"
        rnd.apply(Play(parse_cards(follow)[0]))
        view = view_of(rnd, 2)
        truth = ([list(h) for h in rnd.hands], list(rnd.talon))
        for with_follows in (False, True):
            prep = prepare(view, truth, model=True, follow=with_follows)
            policies = np.full(4, 2, np.int64)
            state = np.array([0, 0], np.int64)
            totals = np.zeros(len(prep.cands), np.float64)
            weights[follow, with_follows] = run_worlds(
                prep, policies, 0.25, 1, state, totals, sample=False
            )
    assert weights["4D", True] == weights["4D", False] * 0.25
    assert weights["4C", True] == weights["4C", False]


def test_the_same_seed_gives_the_same_decision_and_a_legal_one() -> None:
    found = decision(Rules(), 4, 11, 5)
    assert found is not None
    _, view = found
    bot = make_bot("expert:iterations=50")
    assert isinstance(bot, ExpertBot)
    first = bot.act(view, random.Random(3))
    assert first in view.legal_actions and bot.last_iterations == 50
    assert bot.act(view, random.Random(3)) == first
    timed = make_bot("expert:ms=5")
    assert isinstance(timed, ExpertBot)
    assert timed.act(view, random.Random(0)) in view.legal_actions
    assert timed.last_iterations >= 1


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("expert:ms=10,iterations=3", "not both"),
        ("expert:iterations=0", "iterations='0'"),
        ("expert:policy=smart", "policy='smart'"),
        ("expert:model=maybe", "model='maybe'"),
        ("expert:model=fitted", "model='fitted'"),
        ("expert:mismatch=2", "mismatch='2'"),
        ("expert:lookahead=yes", "lookahead='yes'"),
        ("expert:guesses=0", "guesses='0'"),
        ("expert:guesses=9", "guesses='9'"),
        ("expert:guesses=two", "guesses='two'"),
        ("expert:width=2", "has no option width"),
        ("expert:depth=9", "depth='9'"),
        ("expert:depth=-1", "depth='-1'"),
        ("expert:depth=one", "depth='one'"),
        ("expert:focus=5", "focus='5'"),
        ("expert:focus=two", "focus='two'"),
    ],
)
def test_bad_expert_specs(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        make_bot(spec)


@pytest.mark.parametrize(
    "lookahead",
    [
        "on",
        "all",
        "guess",
        "guess-self",
        "guess-opp",
        "guess,guesses=3",
        "guess,depth=1",
        "all,depth=2",
        "guess,focus=2",
        "guess,depth=1,focus=2",
    ],
)
@pytest.mark.parametrize(
    "rules", [Rules(), Rules(announce="manual", may_stop=True)], ids=["classic", "manual"]
)
def test_lookahead_plays_legal_moves_to_the_end(lookahead: str, rules: Rules) -> None:
    bot = make_bot(f"expert:iterations=20,lookahead={lookahead}")
    again = make_bot(f"expert:iterations=20,lookahead={lookahead}")
    assert isinstance(bot, ExpertBot) and isinstance(again, ExpertBot)
    rnd = Round.deal(rules, [60] * 3, [0] * 5, 0, random.Random(4))
    while rnd.result is None:
        view = view_of(rnd, rnd.to_act)
        action = bot.act(view, random.Random(0))
        assert action in view.legal_actions
        # the re-dealt worlds come from the search's own random stream: the same seed, the
        # same values
        assert again.act(view, random.Random(0)) == action
        assert again.last_scores == bot.last_scores
        rnd.apply(action)


def test_a_hint_is_a_legal_move_with_a_reason_and_only_on_ones_turn() -> None:
    found = decision(Rules(), 4, 2, 3)
    assert found is not None
    rnd, view = found
    action, reason = suggest(view, ms=20, seed=1)
    assert action in view.legal_actions
    assert reason.startswith(("play ", "pass", "claim")) and "next best" in reason
    other = view_of(rnd, (view.seat + 1) % 4)
    with pytest.raises(HintError, match="not your turn"):
        suggest(other)


def test_plain_mode_gives_hints_only_with_hints_on() -> None:
    from cardroom.games.nain_jaune.cli.play import build_table
    from cardroom.games.nain_jaune.terminal.plain import PlainGame

    class Recorder(PlainGame):
        lines: list[str]

        def say(self, *lines: str) -> None:
            self.lines.extend(lines)

    outputs = []
    for hints in (False, True):
        table = build_table(4, "classic", (), 5, "Ann", "hard", ("heuristic",), None)
        game = Recorder(table, io.StringIO("hint\nquit\n"), hints=hints)
        game.lines = []
        game.run()
        outputs.append(game.lines)
    assert any("hints are off" in line for line in outputs[0])
    assert not any(line.startswith("Hint:") for line in outputs[0])
    assert any(line.startswith("Hint: ") for line in outputs[1])


async def test_the_hint_key_works_only_at_a_table_with_hints(tmp_path: Path) -> None:
    from textual.widgets import RichLog, Static

    from cardroom.games.nain_jaune.cli.play import build_table
    from cardroom.games.nain_jaune.terminal.tui import NainJauneApp

    for hints in (False, True):
        table = build_table(4, "classic", (), 3, "Ann", "medium", ("greedy",), tmp_path)
        app = NainJauneApp(table, delay=0, hints=hints)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert table.phase == "human"
            before = len(table.round.events) if table.round else 0
            await pilot.press("i")
            await pilot.pause()
            log = "\n".join(strip.text for strip in app.query_one("#log", RichLog).lines)
            assert ("Hint: " in log) == hints
            assert table.round is not None and len(table.round.events) == before  # only advice
            if hints:
                hinted = log.split("Hint: ")[1].split(":")[0]
                assert hinted.startswith(("play ", "pass", "claim"))
            assert str(app.query_one("#message", Static).content) == ""


HISTORY_HANDS = (
    "3C 9C 9D 9H 10C 10D 10H JC JD JH QC QD",
    "4D 4C 5S 6S 7S 8S 2C 2D 2H 2S 8C 8D",
    "AC AD AH AS 3D 3H 3S 5C 5D 5H 6C 6D",
    "KC KD KH KS QH QS JS 10S 9S 7C 7D 7H",
)


def hand_made_history(steps: int = 10) -> Round:
    """Classic, 4 players, dealer 3 (seat 0 leads), the hands above. Seat 0 leads 3♣ and
    says "without 4"; seat 1 follows 4♣, then runs 5♠ 6♠ 7♠ and 8♣ (it holds 8♣ 8♦ 8♠: 8♣
    has the lowest index, the heuristic's follow) and says "without 9"; seat 2 says "without
    9"; seat 3 follows 9♠. The first ``steps`` of those ten actions are played."""
    from cardroom.cards import DECK
    from cardroom.games.nain_jaune.engine import PASS, Play

    hands = [parse_cards(h) for h in HISTORY_HANDS]
    used = {c for h in hands for c in h}
    rnd = Round(Rules(), [60] * 4, [0] * 5, 3, hands, [c for c in DECK if c not in used])
    for step in ("3C", "-", "4C", "5S", "6S", "7S", "8C", "-", "-", "9S")[:steps]:
        rnd.apply(PASS if step == "-" else Play(parse_cards(step)[0]))
    return rnd


def test_a_hand_made_history_gives_the_constraints_worked_out_by_hand() -> None:
    """Seen from seat 2: seat 0 holds no 4 and seat 1 no 9 (their "without"), seat 3 nothing
    known; seat 2's own "without 9" is no constraint on anyone else. Hand sizes 11, 7, 12, 11
    (seat 0 played one card, seat 1 five, seat 3 one), the talon 4 cards, 52 − 12 − 7 played
    = 33 unseen. Every sampled world keeps all of that."""
    view = view_of(hand_made_history(), 2)
    assert known_lacks(view) == [1 << 4, 1 << 9, 1 << 9, 0]
    assert list(view.hand_sizes) == [11, 7, 12, 11]
    prep = prepare(view, sample_hidden(view, random.Random(0)))
    assert [int(h) for h in prep.holders] == [0, 1, 3, -1]
    assert [int(f) for f in prep.forbid] == [1 << 4, 1 << 9, 0, 0]
    assert len(prep.cards) == 33
    state = np.array([3, 0], np.int64)
    slots = prep.assign.copy()
    for _ in range(200):
        _sample(prep.cards, prep.forbid, prep.assign, slots, state)
        assert list(np.bincount(prep.assign, minlength=4)) == [11, 7, 11, 4]
        for card, h in zip(prep.cards, prep.assign, strict=True):
            rank = int(card) // 4 + 1
            assert not (h == 0 and rank == 4) and not (h == 1 and rank == 9)


def test_a_lead_the_heuristic_would_not_make_costs_one_mismatch() -> None:
    """In the true deal of :func:`hand_made_history`, the heuristic holding seat 0's hand
    would lead 9♣ (the run 9 10 J Q: 400 + 39 points + 2 × (4 + 8) chips of the 10♦ and J♣
    boxes = 463) rather than 3♣ (a run of one, since 4s are not dead: 103). Seen from seat 2
    with the leads only, the true world weighs one mismatch; seat 1's and seat 3's follows
    are the heuristic's (8♣ the lowest of its 8s, 9♠ its only 9), so the follows add nothing."""
    rnd = hand_made_history()
    view = view_of(rnd, 2)
    truth = ([list(h) for h in rnd.hands], list(rnd.talon))
    weights = []
    for follow in (False, True):
        prep = prepare(view, truth, model=True, follow=follow)
        assert [int(x) for x in prep.leads[0, :2]] == [0, 8]  # seat 0, 3♣ (fast index 8)
        totals = np.zeros(len(prep.cands), np.float64)
        weights.append(run_worlds(prep, np.full(4, 2, np.int64), 0.2, 1,
                                  np.array([0, 0], np.int64), totals, sample=False))
    assert weights == [0.2, 0.2]
    from cardroom.games.nain_jaune.bots.heuristic import HeuristicBot
    from cardroom.games.nain_jaune.engine import Play

    before = hand_made_history(steps=0)
    assert HeuristicBot().act(view_of(before, 0), random.Random(0)) == Play(parse_cards("9C")[0])


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6), steps=st.integers(0, 40))
def test_lookahead_never_values_a_candidate_below_the_plain_rollout(
    players: int, seed: int, steps: int
) -> None:
    """In one fixed world with heuristic rollouts (deterministic), lookahead keeps at each of
    the searcher's later choices the best of the choices, the heuristic's among them, each
    valued by the rollout that then continues as the plain one would: so every candidate's
    value with lookahead is at least its plain rollout's, and often more."""
    found = decision(Rules(), players, seed, steps)
    if found is None:
        return
    _, view = found
    prep = prepare(view, sample_hidden(view, random.Random(seed)), model=False)
    values = []
    for lookahead in (False, True):
        policies = np.full(players, 2, np.int64)
        if lookahead:
            policies[view.seat] = fast.PAUSE
        totals = np.zeros(len(prep.cands), np.float64)
        run_worlds(prep, policies, 0.2, 1, np.array([seed, 0], np.int64), totals, sample=False)
        values.append(totals)
    assert all(a >= p for p, a in zip(values[0], values[1], strict=True))


def test_the_clock_option_chooses_what_ms_counts() -> None:
    import time

    bot = make_bot("expert:ms=5,clock=cpu")
    assert isinstance(bot, ExpertBot) and bot.clock is time.thread_time
    wall = make_bot("expert:ms=5")
    assert isinstance(wall, ExpertBot) and wall.clock is time.perf_counter
    with pytest.raises(BotError, match="clock='sun'"):
        make_bot("expert:clock=sun")
    found = decision(Rules(), 4, 11, 5)
    assert found is not None
    assert bot.act(found[1], random.Random(0)) in found[1].legal_actions
    assert bot.last_iterations >= 1


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6), steps=st.integers(0, 40))
def test_depth_one_looks_ahead_at_the_next_choice_only(
    players: int, seed: int, steps: int
) -> None:
    """One fixed world, heuristic rollouts, lookahead for the searcher with ``depth=1``: each
    candidate is worth, worked out with the readable engine, the best over the searcher's next
    real choice (more than one legal action) of a heuristic rollout from there; the plain
    rollout if the round ends first. The rest of the round is the heuristic's."""
    found = decision(Rules(), players, seed, steps)
    if found is None:
        return
    _, view = found
    hidden = sample_hidden(view, random.Random(seed))
    prep = prepare(view, hidden, model=False)
    policies = np.full(players, 2, np.int64)
    policies[view.seat] = fast.PAUSE
    totals = np.zeros(len(prep.cands), np.float64)
    run_worlds(
        prep, policies, 0.2, 1, np.array([seed, 0], np.int64), totals, sample=False, depth=1
    )
    for cand, total in zip(prep.cands, totals, strict=True):
        rnd = rebuild(view, hidden)
        rnd.apply(cand)
        while rnd.result is None:
            legal = rnd.legal_actions()
            if rnd.to_act == view.seat and len(legal) > 1:
                break
            rnd.apply(legal[0] if len(legal) == 1 else heuristic_policy(rnd, rnd.to_act, legal))
        if rnd.result is not None:
            expected = rnd.chips[view.seat]
        else:
            options = candidates(view_of(rnd, view.seat))
            outcomes = []
            for option in options:
                branch = rnd.clone()
                branch.apply(option)
                outcomes.append(rollout(branch, heuristic_policy).chips[view.seat])
            expected = max(outcomes)
        assert total == expected


def test_focus_one_plays_the_plain_searchs_choice_and_focus_keeps_the_best() -> None:
    """``focus=K`` first runs the plain search on the same random streams: with K = 1 its
    choice is the plain bot's; with K = 2 it plays one of the plain search's two best, and the
    other candidates keep their plain values."""
    for seed, steps in ((11, 5), (2, 3), (7, 0), (5, 9)):
        found = decision(Rules(), 4, seed, steps)
        assert found is not None
        _, view = found
        plain = make_bot("expert:iterations=40")
        one = make_bot("expert:iterations=40,lookahead=guess,focus=1")
        two = make_bot("expert:iterations=40,lookahead=guess,focus=2")
        assert isinstance(plain, ExpertBot) and isinstance(two, ExpertBot)
        chosen = plain.act(view, random.Random(seed))
        assert one.act(view, random.Random(seed)) == chosen
        pick = two.act(view, random.Random(seed))
        ranked = sorted(plain.last_scores, key=lambda cv: -cv[1])
        if len(ranked) > 2:
            assert pick in (ranked[0][0], ranked[1][0])
            kept = {ranked[0][0], ranked[1][0]}
            for (a, v), (b, w) in zip(plain.last_scores, two.last_scores, strict=True):
                assert a == b
                assert (v == w) or a in kept
        assert two.last_iterations == 80


def test_fitted_policies_by_hand() -> None:
    """``model=fit``: each seat's most likely policy is the largest product of its leads'
    likelihoods (worked out here by hand); no lead, or a tie, keeps the earlier policy."""
    rows = {
        # 0.925 * 0.925 = 0.856 against 0.3 * 0.5 = 0.15 and 0.3 * 0.3 = 0.09: heuristic
        1: [[0.925, 0.3, 0.3], [0.925, 0.5, 0.3]],
        # 0.1 * 0.4 = 0.04, 0.6 * 0.5 = 0.30, 0.5 * 0.7 = 0.35: the four-world search
        2: [[0.1, 0.6, 0.5], [0.4, 0.5, 0.7]],
        # 0.2 against 0.5 and 0.5: a tie between the searches goes to the one-world search
        3: [[0.2, 0.5, 0.5]],
    }
    assert FIT_POLICIES == ("heuristic", "guess1", "guess4")
    assert fitted_policies(rows, 5) == [0, 0, 2, 1, 0]
    assert fitted_policies({}, 4) == [0, 0, 0, 0]


def _heuristic_round_with_leads(seed: int) -> tuple[Round, list[tuple[int, Round]]]:
    """A 4-player classic round of four heuristics, stopped at seat 0's last turn with more
    than one distinct choice and at least one free lead of another seat behind it, and a
    copy of the round just before each such lead (with how many cards had been played then)."""
    rules = Rules()
    rnd = Round.deal(rules, [rules.starting_chips] * 4, [0] * 5, 0, random.Random(f"fit/{seed}"))
    bot = make_bot("heuristic")
    rng = random.Random(seed)
    before: list[tuple[int, Round]] = []
    kept: tuple[Round, list[tuple[int, Round]]] | None = None
    while rnd.result is None:
        seat = rnd.current_player
        assert seat is not None  # a round without a result has a player to act
        view = view_of(rnd, seat)
        if rnd.current_player == 0 and before and len(candidates(view)) > 1:
            kept = (rnd.clone(), list(before))
        action = bot.act(view, rng)
        if rnd.current_player != 0 and rnd.need is None:
            before.append((len(view.played), rnd.clone()))
        rnd.apply(action)
    assert kept is not None
    return kept


@pytest.mark.parametrize("seed", range(6))
def test_round_at_replays_up_to_the_lead(seed: int) -> None:
    """With the true hidden cards, the round rebuilt up to a lead is the round that was."""
    from cardroom.games.nain_jaune.bots.expert import _round_at

    rnd, before = _heuristic_round_with_leads(seed)
    view = view_of(rnd, 0)
    truth = ([list(h) for h in rnd.hands], list(rnd.talon))
    leads = opponent_leads(view)
    assert [lead.played for lead in leads] == [n for n, _ in before]
    for lead, (_, then) in zip(leads, before, strict=True):
        again = _round_at(view, truth, lead)
        assert [sorted(c.index for c in h) for h in again.hands] == [
            sorted(c.index for c in h) for h in then.hands
        ]
        assert again.current_player == then.current_player == lead.seat
        assert (again.chips, again.board, again.need) == (then.chips, then.board, then.need)


@pytest.mark.parametrize("seed", range(6))
def test_a_heuristic_leader_seen_with_its_true_hand_is_explained_by_the_heuristic(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If every sampled deal is the true one, a heuristic seat's lead has the heuristic's
    likelihood 1 - FIT_FLOOR + FIT_FLOOR / n (n: its distinct choices then, counted here from
    the round that was)."""
    import cardroom.games.nain_jaune.bots.expert as expert

    rnd, before = _heuristic_round_with_leads(seed)
    view = view_of(rnd, 0)
    truth = ([list(h) for h in rnd.hands], list(rnd.talon))
    real = sample_hidden
    monkeypatch.setattr(
        expert, "sample_hidden", lambda v, r: truth if v is view else real(v, r)
    )
    for lead, (_, then) in zip(opponent_leads(view), before, strict=True):
        n = len(candidates(view_of(then, lead.seat)))
        got = expert.fit_likelihoods(view, lead, "s")
        assert got[0] == pytest.approx(1 - expert.FIT_FLOOR + expert.FIT_FLOOR / n)
        assert all(expert.FIT_FLOOR / n - 1e-12 <= p <= 1 + 1e-12 for p in got)


def test_model_fit_keeps_heuristic_rollouts_for_heuristic_seats_it_has_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``model=fit`` with the true deal sampled: the heuristic seats that led are fitted to
    the heuristic unless a search explains their leads as well (then the tie keeps the
    heuristic too), so every seat is fitted to the heuristic; the choice is legal."""
    import cardroom.games.nain_jaune.bots.expert as expert

    rnd, _ = _heuristic_round_with_leads(1)
    view = view_of(rnd, 0)
    truth = ([list(h) for h in rnd.hands], list(rnd.talon))
    real = sample_hidden
    monkeypatch.setattr(
        expert, "sample_hidden", lambda v, r: truth if v is view else real(v, r)
    )
    bot = make_bot("expert:iterations=30,model=fit")
    assert isinstance(bot, ExpertBot) and bot.model == "fit"
    assert bot.act(view, random.Random(0)) in view.legal_actions
    assert bot.last_fit == [0, 0, 0, 0]


def test_a_hint_to_pass_says_it_as_the_button_does() -> None:
    """Issue 34, item 6: the hint says "without 5" where the button says "Without 5", not
    "pass"."""
    from cardroom.games.nain_jaune.engine import Pass
    from cardroom.i18n.words import without_call

    for seed in range(40):
        rnd = Round.deal(Rules(), [60] * 3, [0] * 5, 0, random.Random(seed))
        bot = make_bot("heuristic")
        while rnd.result is None:
            view = view_of(rnd, rnd.to_act)
            if view.need and tuple(view.legal_actions) == (Pass(),):
                action, reason = suggest(view, ms=5)
                assert action == Pass()
                assert reason == f"{without_call(view.need)}: it is your only legal move"
                assert reason.startswith("without ") and not reason.startswith("pass")
                _, fr = suggest(view, ms=5, lang="fr")
                assert fr.startswith(without_call(view.need, translator("fr")))
                return
            rnd.apply(bot.act(view, random.Random(0)))
    raise AssertionError("no turn where passing was the only move")


def test_the_true_hands_explain_every_lead_of_learned_players_by_the_learned_model() -> None:
    """Every seat leads with the learned policy (the kernel's Python reference) and follows as
    the heuristic: seen from any seat with the true deal, the learned lead model
    (``prepare(learned_model=True)``: each lead explained by the learned policy with the hand
    sizes of that moment) gives weight 1, while the heuristic's model does not explain some
    of those leads."""
    from cardroom.games.nain_jaune.engine import Play

    unexplained_by_heuristic = 0
    for seed in range(12):
        players = 3 + seed % 4
        rnd = Round.deal(Rules(), [60] * players, [0] * 5, 0, random.Random(seed))
        bot = make_bot("heuristic")
        for _ in range(3 * players):
            if rnd.result is not None:
                break
            s = fast.encode_round(rnd)
            seat = rnd.to_act
            free = s[fast.S_NEED] == 0 and s[fast.S_PENDING] < 0 and s[fast.S_AWAIT] == 0
            if free:
                hand = int(s[fast.S_HANDS + seat])
                mask = int(s[fast.S_PLAYED_MASK])
                r = fast.encode_rules(rnd.rules)
                code = fast.learned_choice(s, r, seat, hand, mask, fast.POLICY_WEIGHTS)
                card = next(c for c in rnd.hands[seat] if action_code(Play(c)) == code)
                rnd.apply(Play(card))
            else:
                rnd.apply(bot.act(view_of(rnd, seat), random.Random(0)))
        if rnd.result is not None:
            continue
        truth = ([list(h) for h in rnd.hands], list(rnd.talon))
        for seat in range(players):
            view = view_of(rnd, seat)
            weights = []
            for learned in (True, False):
                prep = prepare(view, truth, model=True, follow=False, learned_model=learned)
                totals = np.zeros(len(prep.cands), np.float64)
                state = np.array([seed, 0], np.int64)
                policies = np.full(players, 2, np.int64)
                weights.append(
                    run_worlds(prep, policies, 0.2, 1, state, totals, sample=False)
                )
            assert weights[0] == 1.0
            unexplained_by_heuristic += weights[1] < 1.0
    assert unexplained_by_heuristic > 0


def test_model_learned_weighs_the_worlds_by_the_learned_lead_policy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``model=learned``: the expert's worlds are weighed as the analysis weighs them, each
    opponent's free lead explained by the learned lead policy (``prepare(learned_model=True)``,
    leads and follows), while ``model=on`` explains them by the heuristic."""
    from cardroom.games.nain_jaune.bots import expert as expert_module

    seen: list[tuple[bool, bool, bool]] = []
    real = expert_module.prepare

    def spy(view: RoundView, first: object, model: bool = True, follow: bool = True,
            learned_model: bool = False) -> object:  # fmt: skip
        seen.append((model, follow, learned_model))
        return real(view, first, model, follow, learned_model)  # type: ignore[arg-type]

    monkeypatch.setattr(expert_module, "prepare", spy)
    rnd = Round.deal(Rules(), [60] * 4, [0] * 5, 0, random.Random(3))
    moves = 0
    while moves < 6 or len(candidates(view_of(rnd, rnd.to_act))) < 2:  # leads to explain
        rnd.apply(make_bot("heuristic").act(view_of(rnd, rnd.to_act), random.Random(0)))
        moves += 1
    view = view_of(rnd, rnd.to_act)
    assert rnd.result is None and view.my_turn
    for spec in ("expert:iterations=20,model=learned", "expert:iterations=20,model=on",
                 "expert:iterations=20,model=leads", "expert:iterations=20,model=off"):
        make_bot(spec).act(view, random.Random(1))
    assert seen == [(True, True, True), (True, True, False), (True, False, False),
                    (False, True, False)]  # fmt: skip
