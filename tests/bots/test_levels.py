"""The four levels players see, and the bot names and options."""

from __future__ import annotations

import pytest

from cardroom.bots import LEVELS, BotError, make_bot
from cardroom.games.nain_jaune.bots.expert import ExpertBot
from cardroom.games.nain_jaune.bots.search import SearchBot


def test_levels_map_onto_the_four_bots() -> None:
    assert {k: LEVELS[k] for k in ("easy", "medium", "hard", "expert")} == {
        "easy": "random",
        "medium": "greedy",
        "hard": "heuristic",
        "expert": "expert",
    }
    assert [make_bot(level).name for level in ("easy", "medium", "hard", "expert")] == [
        "random",
        "greedy",
        "heuristic",
        "expert",
    ]


def test_expert_options() -> None:
    default = make_bot("expert")
    assert isinstance(default, ExpertBot) and (default.ms, default.iterations) == (100, None)
    assert (default.policy, default.model, default.lookahead) == ("heuristic", "on", "off")
    for value in ("on", "all", "guess", "guess-opp", "guess-self"):
        bot = make_bot(f"expert:lookahead={value},guesses=3")
        assert isinstance(bot, ExpertBot) and (bot.lookahead, bot.guesses) == (value, 3)
    assert (default.depth, default.focus) == (0, 0)
    staged = make_bot("expert:lookahead=guess,depth=1,focus=2")
    assert isinstance(staged, ExpertBot)
    assert (staged.lookahead, staged.depth, staged.focus) == ("guess", 1, 2)
    fixed = make_bot("expert:iterations=12,policy=random,model=leads,mismatch=0.5")
    assert isinstance(fixed, ExpertBot)
    assert (fixed.ms, fixed.iterations, fixed.policy) == (None, 12, "random")
    assert (fixed.model, fixed.mismatch) == ("leads", 0.5)


def test_search_options() -> None:
    default = make_bot("search")
    assert isinstance(default, SearchBot) and default.ms == 150 and default.iterations is None
    fixed = make_bot("search:iterations=12,policy=greedy")
    assert isinstance(fixed, SearchBot)
    assert (fixed.ms, fixed.iterations, fixed.policy) == (None, 12, "greedy")
    timed = make_bot("search:ms=30")
    assert isinstance(timed, SearchBot) and (timed.ms, timed.iterations) == (30, None)
    off = make_bot("search:model=off")
    assert timed.model and isinstance(off, SearchBot) and not off.model


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:ms=10,iterations=3", "not both"),
        ("search:iterations=-1", "iterations='-1'"),
        ("search:policy=smart", "policy='smart'"),
        ("search:model=maybe", "model='maybe'"),
        ("search:ms", "key=value"),
        ("heuristic:depth=2", "takes no options"),
        ("clever", "unknown bot 'clever'"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        make_bot(spec)
