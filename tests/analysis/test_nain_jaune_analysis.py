"""The game analysis on hand-made positions whose best choice is known, its use of the view alone,
its determinism and its refusals."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from cardroom.bots.base import make_bot
from cardroom.cards import DECK, Card, parse_cards
from cardroom.games.nain_jaune import analysis
from cardroom.games.nain_jaune.analysis import (
    MIN_LIKE,
    TIE,
    AnalysisError,
    Decision,
    RoundAnalysis,
    agreed_mark,
    analyse,
    mark_of,
    moments,
    value_choices,
)
from cardroom.games.nain_jaune.bots.strength import rating_of
from cardroom.games.nain_jaune.engine import PASS, Action, Event, Play, Round, round_record
from cardroom.games.nain_jaune.record import parse_game, replay_round
from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.nain_jaune.sim.play import play_round

WORLDS = 200
NAMES = [f"P{i}" for i in range(8)]


def deal8(hands: dict[int, str], talon: str) -> tuple[list[list[Card]], list[Card]]:
    """Eight hands of six: those given, the others filled in deck order from what is left."""
    given = {seat: parse_cards(text) for seat, text in hands.items()}
    tal = parse_cards(talon)
    used = {c for h in given.values() for c in h} | set(tal)
    rest = iter(c for c in DECK if c not in used)
    out = [given.get(seat) or [next(rest) for _ in range(6)] for seat in range(8)]
    assert next(rest, None) is None
    return out, tal


def record_of(
    rules: Rules,
    deal: tuple[list[list[Card]], list[Card]],
    script: Sequence[Action],
) -> dict[str, object]:
    """The round dealt as given (dealer 0), the scripted actions (forced passes in between are
    made here: under ``may_stop`` a player holding the rank stops), then played to its end by
    the heuristic for every seat."""
    rnd = Round(rules, [100] * 8, [0] * 5, 0, deal[0], deal[1])
    for action in script:
        while action not in rnd.legal_actions():
            legal = rnd.legal_actions()
            assert PASS in legal, f"{action} is not playable: {legal}"
            rnd.apply(PASS)
        rnd.apply(action)
    bot = make_bot("heuristic")
    play_round(rnd, [bot] * 8, [random.Random(0)] * 8)
    return round_record(rnd, NAMES)


def decision_at(decisions: Sequence[Decision], seat: int, played: int) -> Decision:
    return next(d for d in decisions if d.seat == seat and d.played == played)


def play(codes: str) -> list[Action]:
    return [Play(c) for c in parse_cards(codes)]


CLASSIC = Rules.from_options("classic")
# P1 leads first (dealer 0) and holds a run of six non-board cards: led from its lowest card,
# the run empties the hand at once (P1 must play every next rank it holds): a certain win.
RUN = deal8({1: "2C 3D 4H 5S 6C 7S"}, "AC AD AH AS")


def test_the_lead_that_plays_out_the_hand_is_best() -> None:
    good = analyse(record_of(CLASSIC, RUN, play("2C")), worlds=WORLDS)
    first = decision_at(good.rounds[0].decisions, 1, 0)
    assert first.best == "2C" and first.chosen == "2C" and first.loss == 0 and first.mark is None
    bad = analyse(record_of(CLASSIC, RUN, play("4H")), worlds=WORLDS)
    first = decision_at(bad.rounds[0].decisions, 1, 0)
    assert first.best == "2C" and first.chosen == "4H"
    # leading 2C wins the round and every other player's points: far more than a blunder
    assert first.loss >= 6 and first.mark == "blunder"


# P1 leads J♥ and is asked for a queen holding Q♠ (a board card: its box holds 8 × 3 chips)
# and Q♣. Playing Q♠ takes the box now; keeping it risks paying the box again at the end.
BOARD = deal8({1: "JH QS QC 2C 3C 4C"}, "KC KD KS AS")


@pytest.mark.parametrize("queen", ["QS", "QC"])
def test_the_board_card_is_played_not_kept(queen: str) -> None:
    result = analyse(record_of(CLASSIC, BOARD, play(f"JH {queen}")), worlds=WORLDS)
    decision = decision_at(result.rounds[0].decisions, 1, 1)
    assert {c.action for c in decision.choices} == {"QS", "QC"}
    assert decision.best == "QS"
    if queen == "QC":
        assert decision.loss >= 6 and decision.mark == "blunder"
    else:
        assert decision.loss == 0 and decision.mark is None


# may_stop, free-restart. P1 leads 5♣, 5♦ and 5♠ (the sixes are in the talon: every time all
# pass and P1 leads again), then 3♦; P2 plays 4♠ and is asked for a five holding 5♥, 10♥ J♥ Q♥
# K♣. Every other five is played, so if P2 stops nobody can play a five, the sequence restarts
# with P2, who runs 10♥-K♣, leads again after the king and goes out with 5♥: a certain win.
# Playing 5♥ asks the others for a six, which P2 cannot know are all in the talon.
STOP = deal8({1: "5C 5D 5S 3D 2C 2D", 2: "4S 5H 10H JH QH KC"}, "6C 6D 6H 6S")
MAY_STOP = Rules.from_options("classic", {"may_stop": "true", "when_blocked": "free-restart"})


@pytest.mark.parametrize("stop", [True, False])
def test_a_stop_that_wins_the_round(stop: bool) -> None:
    script = [*play("5C 5D 5S 3D 4S"), PASS if stop else Play(Card.parse("5H"))]
    result = analyse(record_of(MAY_STOP, STOP, script), worlds=WORLDS)
    decision = decision_at(result.rounds[0].decisions, 2, 5)
    assert {c.action for c in decision.choices} == {"5H", "pass"}
    assert decision.best == "pass"
    if stop:
        assert decision.loss == 0
    else:
        assert decision.loss > 1 and decision.mark is not None


def test_the_values_come_from_the_view_alone() -> None:
    """Deal every card P2 cannot see when asked for a five (the other hands' unplayed cards and
    the talon, sizes kept) anew and replay the same public moves: P2's view is the same and so
    are the values; the values with every card known (in hindsight) do change."""
    hands, talon = STOP
    seen = set(hands[2]) | set(parse_cards("5C 5D 5S 3D"))
    hidden = [c for h in hands for c in h if c not in seen] + list(talon)
    shuffled = list(hidden)
    random.Random(5).shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))
    other = ([[swap.get(c, c) for c in h] for h in hands], [swap[c] for c in talon])
    script = [*play("5C 5D 5S 3D 4S"), PASS]
    found = []
    for deal in (STOP, other):
        decisions, _ = moments(parse_game(record_of(MAY_STOP, deal, script))[0])
        found.append(next(m for m in decisions if m.view.seat == 2 and len(m.view.played) == 5))
    a, b = found
    assert a.view == b.view and a.hidden != b.hidden
    va = value_choices(a.view, WORLDS, 11, a.hidden)
    vb = value_choices(b.view, WORLDS, 11, b.hidden)
    assert va.actions == vb.actions and va.values == vb.values and va.batches == vb.batches
    assert va.hindsight != vb.hindsight


def five_player_game() -> list[dict[str, object]]:
    from cardroom.games.nain_jaune.sim.play import game_record

    rules = Rules.from_options("classic", {"end": "rounds:2"})
    bots = [make_bot(b) for b in ("heuristic", "greedy", "random", "greedy", "random")]
    return game_record(rules, NAMES[:5], bots, 3)


def test_the_same_record_gives_the_same_analysis() -> None:
    data = five_player_game()
    one = analyse(data, worlds=64, hindsight=True)
    two = analyse(data, worlds=64, hindsight=True)
    assert one.to_json() == two.to_json()
    decisions = [d for r in one.rounds for d in r.decisions]
    assert decisions and any(d.mark for d in decisions)
    # every player's decisions are there, with its accuracy between 0 and 100
    assert {d.seat for d in decisions} == set(range(5))
    for p in one.summary:
        assert p.accuracy is None or 0 <= p.accuracy <= 100
        assert p.lost == pytest.approx(sum(d.loss for d in decisions if d.seat == p.seat))
    # the chosen choice is one of the choices, and its loss is the best value minus its own
    # (a near tie counts as the best); a would-be mark (a first loss of at least 1) is
    # re-valued, and then its loss is the re-valuation's
    assert any(d.deep for d in decisions)
    for d in decisions:
        values = {c.action: c.value for c in d.choices}
        behind = max(values.values()) - values[d.choice]
        if d.deep is None:
            assert behind < 1 and d.mark is None
            assert d.loss == pytest.approx(behind if behind >= TIE else 0.0)
        else:
            mine, top = d.deep
            assert behind >= 1
            assert d.loss == pytest.approx(top - mine if top - mine >= TIE else 0.0)


def test_an_unfinished_game_is_refused() -> None:
    data = five_player_game()
    last = dict(data[-1])
    moves = last["moves"]
    assert isinstance(moves, list)
    last["moves"] = moves[:3]
    with pytest.raises(AnalysisError) as info:
        analyse([*data[:-1], last], worlds=64)
    assert info.value.code == "unfinished"
    with pytest.raises(AnalysisError) as info:
        analyse({"game": "nain-jaune"}, worlds=64)
    assert info.value.code == "bad-record"
    with pytest.raises(AnalysisError) as info:
        analyse(data, worlds=1)
    assert info.value.code == "bad-worlds"


def test_marks_need_the_loss_and_more_than_the_noise() -> None:
    assert mark_of(0.9, 0.0) is None
    assert mark_of(1.2, 0.1) == "inaccuracy"
    assert mark_of(1.0, 0.1) is None  # the loss may be less than 1 chip
    assert mark_of(3.2, 0.1) == "mistake"
    assert mark_of(6.2, 0.1) == "blunder"
    assert mark_of(6.0, 0.1) == "mistake"  # graded by the low end of its interval
    assert mark_of(6.0, 3.0) is None  # no more than twice its standard error


def test_a_mark_is_the_weaker_of_the_two_valuations() -> None:
    """Issue 31: a mark the re-valuation confirms is graded again by the second opinion's
    interval, and the weaker of the two marks is given."""
    assert agreed_mark(8.0, 0.5, 7.0, 0.4) == "blunder"  # low ends 7.0 and 6.2
    assert agreed_mark(8.0, 0.5, 7.0, 0.6) == "mistake"  # 7.0 and 5.8: a mistake for sure
    assert agreed_mark(3.5, 0.2, 9.0, 0.1) == "mistake"  # never more than the re-valuation
    assert agreed_mark(8.0, 0.5, 2.0, 0.4) == "inaccuracy"  # the second's low end: 1.2
    assert agreed_mark(8.0, 0.5, 1.5, 0.2) == "inaccuracy"  # 1.1: at least 1 chip
    assert agreed_mark(8.0, 0.5, 1.5, 0.3) is None  # 0.9: the second may find under 1 chip
    assert agreed_mark(1.1, 0.0, 9.0, 0.1) == "inaccuracy"
    assert agreed_mark(0.9, 0.0, 9.0, 0.1) is None


# P1 leads 10♦ J♦ Q♦ (it holds every next rank) and is asked for a king holding K♥ K♠ 7♠.
# Either king first goes out: a king ends the sequence and its player leads again, so K♥-K♠-7♠
# and K♠-K♥-7♠ both empty the hand. After K♥ the heuristic leads 7♠ (keeping K♠): a valuation
# that plays the player's own later moves by the heuristic alone calls K♥ a blunder.
KINGS = deal8({1: "10D JD QD 7S KH KS"}, "AC AD AH AS")


@pytest.mark.parametrize("order", ["KH KS", "KS KH"])
def test_either_king_goes_out_and_neither_is_marked(order: str) -> None:
    result = analyse(record_of(CLASSIC, KINGS, play(f"10D JD QD {order} 7S")), worlds=WORLDS)
    mine = [d for d in result.rounds[0].decisions if d.seat == 1]
    king = decision_at(mine, 1, 3)
    assert {c.action for c in king.choices} == {"KH", "KS"}
    assert king.loss < 1 and king.mark is None
    # the lead of 10♦ goes out too (10♦ J♦ Q♦ then both kings then 7♠): no mark either
    assert decision_at(mine, 1, 0).mark is None
    assert not any(d.mark for d in mine)


def test_leading_the_seven_before_the_second_king_is_a_blunder() -> None:
    """The planted blunder: after K♥, leading 7♠ instead of K♠ throws away a sure exit
    (K♠ then 7♠); it stays marked after the re-valuation against stronger play."""
    result = analyse(record_of(CLASSIC, KINGS, play("10D JD QD KH 7S")), worlds=WORLDS)
    lead = decision_at(result.rounds[0].decisions, 1, 4)
    assert lead.chosen == "7S" and lead.best == "KS"
    assert lead.deep is not None and lead.mark == "blunder"
    assert lead.loss - 2 * lead.noise >= 6
    # the second opinion (every seat searching from its own view) agrees: a blunder by the low
    # end of its interval too (it keeps the mark, which is the weaker of the two)
    assert lead.second is not None and lead.second - 2 * lead.second_noise >= 6


@pytest.mark.parametrize(
    ("second", "mark"), [((7.0, 0.2), "blunder"), ((4.0, 0.1), "mistake"), ((1.4, 0.3), None)]
)
def test_the_second_opinion_can_only_lower_the_planted_blunder(
    monkeypatch: pytest.MonkeyPatch, second: tuple[float, float], mark: str | None
) -> None:
    """The re-valuation finds the planted blunder (above); a second opinion that found less
    (here given) lowers the mark to the weaker of the two: 4.0 ± 0.1 (low end 3.8) a
    mistake, 1.4 ± 0.3 (0.8: maybe under 1 chip) none."""
    asked: list[str] = []

    def given(*args: object) -> tuple[float, float]:
        first = args[-1]
        assert isinstance(first, str)
        asked.append(first)
        return second

    monkeypatch.setattr(analysis, "second_opinion", given)
    result = analyse(record_of(CLASSIC, KINGS, play("10D JD QD KH 7S")), worlds=WORLDS)
    lead = decision_at(result.rounds[0].decisions, 1, 4)
    assert lead.loss - 2 * lead.noise >= 6  # the re-valuation alone: a blunder
    assert "blunder" in asked
    assert (lead.second, lead.second_noise) == second
    assert lead.mark == mark


# P1 holds the four kings and two queens: whatever it leads it leads again (a king ends the
# sequence; after a queen it plays a king itself), so every order goes out at once and every
# choice is worth the same.
ALL_KINGS = deal8({1: "KC KD KH KS QC QD"}, "AC AD AH AS")


def test_a_round_whose_choices_all_go_out_has_no_mark() -> None:
    result = analyse(record_of(CLASSIC, ALL_KINGS, play("QC KC QD KD KH KS")), worlds=WORLDS)
    decisions = result.rounds[0].decisions
    assert decisions  # P1 did choose (which card to lead), but nothing was at stake
    assert all(d.mark is None and d.loss < TIE for d in decisions)
    assert result.summary[1].marks == {"blunder": 0, "mistake": 0, "inaccuracy": 0}


def test_plays_like_needs_enough_decisions_and_gives_an_interval() -> None:
    """One round of a few decisions says nothing of a player's level: no label, no rating."""
    result = analyse(record_of(CLASSIC, KINGS, play("10D JD QD KH 7S")), worlds=WORLDS)
    assert all(p.decisions < MIN_LIKE for p in result.summary)
    assert all(p.like is None and p.like_rating is None for p in result.summary)
    # past the minimum: a label and an interval around the rating on the bots' scale
    from cardroom.games.nain_jaune.analysis import summarise

    one = result.rounds[0].decisions
    lead = decision_at(one, 1, 4)
    many = [RoundAnalysis(1, [], [], [lead] * MIN_LIKE)]
    summary = summarise(result.players, many)[1]
    # the blunder kept none of the chips at stake, or little (the re-valued loss may be less
    # than the first valuation's spread)
    assert lead.mark == "blunder" and lead.spread >= lead.loss > 0
    assert summary.accuracy == pytest.approx(100 * (1 - lead.loss / lead.spread))
    assert summary.accuracy is not None and summary.accuracy < 20 and summary.like == "easy"
    assert summary.like_rating is not None
    low, mid, high = summary.like_rating
    assert low <= mid <= high and mid == rating_of(summary.accuracy)


def test_hindsight_is_what_the_deal_allowed_against_what_happened() -> None:
    """P1 went out with K♥ then K♠ then 7♠: the choice made shows the chips P1 really ended
    the round with, and since nothing did better on the true deal, nothing is lost in
    hindsight (the old figure played the heuristic after K♥, which leads 7♠ and stays in)."""
    result = analyse(
        record_of(CLASSIC, KINGS, play("10D JD QD KH KS 7S")), worlds=WORLDS, hindsight=True
    )
    r = result.rounds[0]
    for d in (d for d in r.decisions if d.seat == 1):
        made = next(c for c in d.choices if c.action == d.choice)
        assert made.hindsight == r.final_chips[1]
        assert d.hindsight_loss == pytest.approx(0.0)
    assert result.summary[1].hindsight_lost == pytest.approx(0.0)


@pytest.mark.parametrize("options", [{}, {"may_stop": "true", "when_blocked": "free-restart"}])
def test_each_decision_names_the_replay_step_that_shows_it(options: dict[str, str]) -> None:
    """The replay viewer's step ``frame`` of the decision's round shows the position the
    decision was taken in: the deciding seat to act, its hand as it was; the next step shows
    the action made."""
    from cardroom.games.nain_jaune.sim.play import game_record
    from cardroom.games.nain_jaune.web.replay import rounds_page

    rules = Rules.from_options("classic", {"end": "rounds:2", **options})
    bots = [make_bot(b) for b in ("heuristic", "greedy", "random", "greedy", "random")]
    data = game_record(rules, NAMES[:5], bots, 4)
    result = analyse(data, worlds=32)
    records = parse_game(data)
    frames = rounds_page(records, 0, len(records))["rounds"]
    checked = 0
    for r in result.rounds:
        steps = frames[r.number - 1]["steps"]
        for d in r.decisions:
            here, after = steps[d.frame], steps[d.frame + 1]
            assert here["to_act"] == d.seat  # two rounds of five: game seats are round seats
            if d.chosen != "pass":
                assert d.chosen in here["hands"][d.seat]
                assert d.chosen not in after["hands"][d.seat]
            else:
                assert after["hands"][d.seat] == here["hands"][d.seat]
            checked += 1
    assert checked > 10


# P1 leads 6♣ and is asked for a seven holding 7♦ (the Yellow Dwarf: its box holds 8 × 5 chips)
# and 7♥, then 8♠, keeping Q♣ K♠ and the other seven. Either seven leaves the same ranks (7, Q,
# K) to play later; 7♦ takes the 40 chips now, while keeping it risks doubling that box at the
# end, so taking the Dwarf is at least as good as 7♥. A valuation that plays the player's own
# later leads by the heuristic alone (which leads Q♣ before a lone 7♥ but a kept 7♦ before Q♣,
# for its box) called 7♦ a 10.6-chip blunder with 7♥ best.
DWARF = deal8({1: "6C 7D 7H QC 8S KS"}, "AC AD AH AS")


def test_taking_the_yellow_dwarf_is_not_marked() -> None:
    result = analyse(record_of(CLASSIC, DWARF, play("6C 7D 8S")), worlds=WORLDS)
    seven = decision_at(result.rounds[0].decisions, 1, 1)
    assert {c.action for c in seven.choices} == {"7D", "7H"}
    assert seven.chosen == "7D"
    assert seven.loss < 1 and seven.mark is None


# may_stop, free-restart. P1 leads 2♣ and holds 3♦ 4♥ 5♠ 6♣ 9♠: each run card may be played or
# stopped on ("pass"). Playing the run sheds five cards (only 9♠, 9 points, is left to pay) and
# leaves the others asked for a seven; every stop keeps run cards that pay if another player goes
# out and hands the sequence to the others. No run card is a blunder.
RUN_STOP = deal8({1: "2C 3D 4H 5S 6C 9S"}, "AC AD AH AS")


def test_playing_on_through_a_run_under_may_stop_is_not_marked() -> None:
    result = analyse(record_of(MAY_STOP, RUN_STOP, play("2C 3D 4H 5S 6C")), worlds=WORLDS)
    mine = [d for d in result.rounds[0].decisions if d.seat == 1]
    for played, card in enumerate(["3D", "4H", "5S", "6C"], start=1):
        step = decision_at(mine, 1, played)
        assert {c.action for c in step.choices} == {card, "pass"}
        assert step.chosen == card and step.best == card
        assert step.loss < 1 and step.mark is None


def _distinct_choices(rnd: Round) -> int:
    """The seat to act's choices that can differ: plays of two cards of one rank count once
    unless one of them is a board card (whose box it takes)."""
    board = set(rnd.rules.board_cards)
    seen: set[object] = set()
    for action in rnd.legal_actions():
        if isinstance(action, Play):
            seen.add(action.card if action.card in board else ("rank", action.card.rank))
        else:
            seen.add(type(action))
    return len(seen)


def test_forced_decisions_are_not_marked() -> None:
    """Every turn of the round is replayed here: a seat that never had two different choices
    (it only followed with its one card of the rank, or passed without one) has no decision
    and no mark in the analysis; every decision the analysis lists was a real choice."""
    script = play("10D JD QD KH 7S")
    data = record_of(CLASSIC, KINGS, script)
    chose: dict[int, int] = {seat: 0 for seat in range(8)}
    acted: set[int] = set()

    class Counting(Round):
        def apply(self, action: Action) -> list[Event]:
            if self.result is None:
                acted.add(self.to_act)
                if _distinct_choices(self) > 1:
                    chose[self.to_act] += 1
            return super().apply(action)

    record = parse_game(data)[0]
    rnd = Counting(CLASSIC, [100] * 8, [0] * 5, 0, KINGS[0], KINGS[1])
    replay_round(record, rnd)
    forced = [seat for seat in acted if chose[seat] == 0]
    assert forced  # some seats only ever followed or passed
    result = analyse(data, worlds=WORLDS)
    decisions = result.rounds[0].decisions
    for seat in forced:
        assert not [d for d in decisions if d.seat == seat]
        assert result.summary[seat].marks == {"blunder": 0, "mistake": 0, "inaccuracy": 0}
    assert {seat: sum(d.seat == seat for d in decisions) for seat in range(8)} == chose
