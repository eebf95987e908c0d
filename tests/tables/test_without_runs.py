"""A run of "without" calls is told as one line, built from ids and fields in each language."""

from __future__ import annotations

from cardroom.i18n import translator
from cardroom.i18n.words import event_text


def names(g: int) -> str:
    return ["Ann", "Bob", "Cid", "Dee"][g]


def test_a_run_of_withouts_is_one_line() -> None:
    ev = {"kind": "next-rank", "seat": 3, "rank": 12, "passed": [0, 1, 2], "passed_rank": 12}
    assert event_text(ev, names) == "Ann, Bob and Cid have no queen: Dee may now play a king"
    assert event_text(ev, names, translator("fr")) == (
        "Ann, Bob et Cid n’ont pas de dame : Dee peut maintenant poser un roi"
    )
    one = {"kind": "next-rank", "seat": 0, "rank": 7, "passed": [1], "passed_rank": 7}
    assert event_text(one, names) == "Bob has no 7: Ann may now play an 8"
    free = {"kind": "new-sequence", "seat": 2, "reason": "nobody has a king", "passed": [3, 0],
            "passed_rank": 13}  # fmt: skip
    assert event_text(free, names) == "Dee and Ann have no king: Cid starts a new sequence"
    # without "passed" (an older log): the line as before
    old = {"kind": "next-rank", "seat": 3, "rank": 12}
    assert event_text(old, names) == "nobody has a queen: Dee may now play a king"
