"""The examples of docs/research.md run as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).parents[2] / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_page_has_one_example_per_api() -> None:
    assert len(BLOCKS) == 3
    assert [("pettingzoo" in b, "gymnasium" in b, "pyspiel" in b) for b in BLOCKS] == [
        (True, False, False),
        (False, True, False),
        (False, False, True),
    ]


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_example_runs_and_prints_its_result(index: int) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[index], f"{DOC.name}[{index}]", "exec"), {"__name__": "__main__"})
    printed = out.getvalue()
    assert printed.strip(), "each example prints what it measured"
    numbers = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", printed.split(":")[-1])]
    assert numbers and all(-60 <= x <= 480 for x in numbers)
