"""Each Nain Jaune option's values are declared once, in the rules: the ``Literal`` types, the
words, and the fast path's codes all follow that one list."""

from __future__ import annotations

from typing import get_args, get_type_hints

from cardroom.games.nain_jaune import kernel as kernel
from cardroom.games.nain_jaune import rules as rules_module
from cardroom.games.nain_jaune.rules import BOARD_SETS, CHOICES, OPTION_VALUES, Rules
from cardroom.games.nain_jaune.rules import OPTIONS as NAIN_JAUNE


def test_each_choice_type_is_the_declared_list() -> None:
    hints = get_type_hints(Rules, vars(rules_module))
    for name, values in CHOICES.items():
        assert get_args(hints[name]) == values, name


def test_the_words_follow_the_rules_order() -> None:
    assert [o.key for o in NAIN_JAUNE] == list(OPTION_VALUES)
    for option in NAIN_JAUNE:
        assert tuple(c.value for c in option.choices) == OPTION_VALUES[option.key]
    assert OPTION_VALUES["board_cards"] == tuple(BOARD_SETS)


def test_the_kernel_codes_are_positions_in_the_rules_lists() -> None:
    ace_high = Rules(
        when_blocked="free-restart",
        payment="points-ace-high",
        forgotten_announcement="double-box",
        announce="manual",
        grand_opera="off",
    )
    r = kernel.encode_rules(ace_high)
    assert [r[kernel.R_WHEN], r[kernel.R_PAY], r[kernel.R_FORGOT]] == [1, 2, 1]
    assert [r[kernel.R_ANNOUNCE], r[kernel.R_OPERA]] == [1, 2]
    assert kernel.encode_rules(Rules())[kernel.R_OPERA] == 0
    assert (kernel.FREE_RESTART, kernel.DOUBLE_BOX, kernel.ANNOUNCE_AUTO) == (1, 1, 0)
    assert (kernel.OPERA_ONE_TURN, kernel.OPERA_NO_ONE_ELSE) == (0, 1)
